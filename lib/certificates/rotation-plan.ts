/**
 * The declared rotation of one cluster's certificates, as the plan records it (`rotation`) and as
 * the rotation runbook says it: which components the phase restarts and which take it while they
 * run, how the phase writes the Secrets by method, which workloads load them, and what a CA
 * replacement leaves behind. Functions of what `ClusterCertificates` exposes, read at synth.
 */
import { Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { ClusterKind, ComponentToken, OPERATOR_ROLL_ORDER, OPERATOR_ROLL_ORDER_SOURCE, PORTS, clusterKind } from '../model/catalog';
import * as names from '../model/names';
import type { NamespacedName } from '../model/names';
import * as layout from '../model/output-layout';
import { restartAnnotationKey } from '../model/settings';
import type { ResolvedSpan } from '../model/span';
import { RotationConsumer, RotationRunbookInput, RotationWriter } from '../documents/rotation-runbook';
import { CertificateSettings, IssuingMethod, ServerCertificatePlan, TlsPlan } from '../plan/certificate-options';
import {
  CA_CHANGE_REASON, ComponentReload, ResolvedRotation, RotationKind, caObjectOf, changesCa, isLastPhase, restartOrder, restartValue, restartsIn,
} from '../plan/rotation';
import { ISSUE_SCRIPT, pkiCopyFolder } from '../scripts/cfssl-files';
import { sqlManagedDomain } from '../scripts/rotation-script';
import { intermediateStep } from './intermediate';
import { ROLLING_KINDS, consumersAmong } from './secret-consumers';
import { appObjects } from '../app/app-objects';
import type { SqlTls } from './sql-tls';

/** What the rotation's plan and runbook read of a cluster's certificates (a `ClusterCertificates`). */
export interface RotatingCertificates extends IConstruct {
  readonly clusterName: string;
  readonly namespace: string;
  readonly method: IssuingMethod;
  readonly settings: CertificateSettings;
  readonly rotation?: ResolvedRotation;
  readonly span?: ResolvedSpan;
  readonly clusterKinds: ClusterKind[];
  readonly serverCertificates: ServerCertificatePlan[];
  readonly sqlTls?: SqlTls;
  plan(): TlsPlan;
  _componentReload(token: ComponentToken): ComponentReload;
}

/** The planned components the declared phase restarts, and those that take it while they run, with the reason for each. */
export function phaseRestarts(c: RotatingCertificates, r: ResolvedRotation): { readonly token: ComponentToken; readonly restarts: boolean; readonly reason: string }[] {
  return restartOrder(c.serverCertificates.map((s) => s.token)).map((token) => {
    const reload = c._componentReload(token);
    return { token, restarts: restartsIn(r.kind, r.phase, reload.reloadsLeaf), reason: changesCa(r.kind, r.phase) ? CA_CHANGE_REASON : reload.reason };
  });
}

/** cert-manager: the CA Secret of each generation the Secrets trust in this phase, by generation. */
function caSecretsByGeneration(c: RotatingCertificates): Record<string, string> {
  const r = c.rotation;
  return r === undefined ? {} : Object.fromEntries(r.content.caCertificates.map((g) => [g, names.signingSecretName(c.clusterName, caObjectOf(r, g), c.span?.current.name)]));
}

/** The plan's rotation section. */
export function planRotation(c: RotatingCertificates): TlsPlan['rotation'] {
  const r = c.rotation;
  if (r === undefined) {
    return undefined;
  }
  const restarts = phaseRestarts(c, r);
  return {
    id: r.id,
    kind: r.kind,
    phase: r.phase,
    phases: [...r.phases],
    previous: r.previous,
    caCertificates: [...r.content.caCertificates],
    leafGeneration: r.content.leafGeneration,
    signedBy: r.content.signedBy,
    caSecrets: c.method === IssuingMethod.CERT_MANAGER ? caSecretsByGeneration(c) : undefined,
    restartOrder: restarts.filter((x) => x.restarts).map((x) => x.token),
    reloading: restarts.filter((x) => !x.restarts).map((x) => x.token),
    history: r.history.map((h) => ({ id: h.id, kind: h.kind })),
  };
}

/** What the rotation runbook of the declared phase says, resolved at synth. */
export function rotationRunbookInput(c: RotatingCertificates, r: ResolvedRotation, drainerName: string | undefined): RotationRunbookInput {
  const components = phaseRestarts(c, r);
  const restarting = components.filter((x) => x.restarts).map((x) => x.token);
  const plan = c.plan();
  const sqlSecrets = plan.sqlTls?.secrets ?? [];
  return {
    clusterName: c.clusterName,
    namespace: c.namespace,
    id: r.id,
    kind: r.kind,
    phase: r.phase,
    phases: r.phases,
    leafGeneration: r.content.leafGeneration,
    caCertificates: r.content.caCertificates,
    writer: rotationWriter(c, r),
    manifestFile: layout.manifestFileName(Chart.of(c)),
    restartAnnotation: { key: restartAnnotationKey(c), value: restartValue(r) },
    rollOrder: c.clusterKinds.map((k) => ({
      resourceKind: clusterKind(k).resourceKind,
      components: OPERATOR_ROLL_ORDER[k].filter((t) => restarting.includes(t)),
    })),
    components,
    rollOrderSource: OPERATOR_ROLL_ORDER_SOURCE,
    drainerName,
    discoveryName: c.serverCertificates.some((s) => s.token === 'discovery') ? names.discoveryDeploymentName(c.clusterName) : undefined,
    clientSecretNames: c.clusterKinds.map((k) => names.clientSecretName(c.clusterName, k)),
    sqlSecrets: sqlSecrets.map((s) => ({ namespace: s.namespace, name: s.name, server: s.role === 'server' })),
    sqlReload: sqlReload(c, components),
    consumers: rotationConsumers(c, [...plan.secrets.map((s) => ({ namespace: c.namespace, name: s.name })), ...sqlSecrets]),
    verifyReport: layout.verifyReportFromOutputFolder(c.namespace, c.clusterName),
    leftBehind: leftBehind(c, r, plan),
    span: c.span === undefined ? undefined : {
      current: c.span.current.name,
      clusters: c.span.clusters.map((k) => k.name),
      // The first phase of a root replacement signs the intermediate of the next root before anything is applied.
      intermediate: r.kind === RotationKind.CA_REPLACEMENT && r.phase === r.phases[0] ? intermediateStep(c.settings, c.span, layout.manifestFileName(Chart.of(c))) : undefined,
    },
  };
}

/** The MySQL port's reload in a phase that does not restart the SQL server but changes its certificate: who runs the statement, on which pods. */
function sqlReload(c: RotatingCertificates, components: readonly { readonly token: ComponentToken; readonly restarts: boolean }[]): RotationRunbookInput['sqlReload'] {
  const statement = c._componentReload('sqlserver').statement;
  const client = c.sqlTls?.reloadClient;
  if (statement === undefined || client === undefined || c.sqlTls === undefined || components.some((x) => x.token === 'sqlserver' && x.restarts)) {
    return undefined;
  }
  return {
    statement: statement.sql,
    user: statement.user,
    clientSecret: client.secretName,
    serverSecret: c.sqlTls.serverSecretName,
    podSelector: names.componentPodSelector(c.clusterName, 'sqlserver'),
    port: PORTS.sql,
  };
}

/** cert-manager, after a CA replacement's last phase: the previous CAs (the SQL CA too) and the staging certificates, to delete. */
function leftBehind(c: RotatingCertificates, r: ResolvedRotation, plan: TlsPlan): RotationRunbookInput['leftBehind'] {
  if (c.method !== IssuingMethod.CERT_MANAGER || r.kind !== RotationKind.CA_REPLACEMENT || !isLastPhase(r)) {
    return undefined;
  }
  const leaves = [...plan.secrets.map((s) => ({ namespace: c.namespace, name: s.name })), ...(plan.sqlTls?.secrets ?? [])];
  const staged = leaves.map((s) => ({ namespace: s.namespace, name: names.stagingSecretName(s.name, r.id) }));
  const sql = plan.sqlTls && sqlManagedDomain(c.namespace, c.clusterName, plan.sqlTls);
  // With a span, the previous CA is the previous intermediate's Secret, which no Certificate issued.
  const caCertificates = [
    ...(c.span === undefined ? [{ namespace: c.namespace, name: names.caCertificateName(c.clusterName, r.previousCa) }] : []),
    ...(sql ? [{ namespace: sql.caNamespace, name: sql.caCertificate(r.previousCa) }] : []),
  ];
  const caSecrets = [
    { namespace: c.namespace, name: names.signingSecretName(c.clusterName, r.previousCa, c.span?.current.name) },
    ...(sql ? [{ namespace: sql.caNamespace, name: sql.caSecret(r.previousCa) }] : []),
  ];
  return { caSecrets, certificates: [...caCertificates, ...staged], secrets: [...caSecrets, ...staged] };
}

/**
 * The workloads anywhere in the app that load one of `secrets`, each in its namespace (a
 * cdk8s-plus Deployment mounting `clientSecret()`, say), read from the app's objects as the
 * synth rendered them once for every rule (`app/app-objects.ts`).
 */
function rotationConsumers(c: RotatingCertificates, secrets: readonly NamespacedName[]): RotationConsumer[] {
  const workloads = appObjects(c);
  return names.byNamespace(secrets).flatMap(([namespace, ofNamespace]) => consumersAmong(workloads, namespace, ofNamespace.map((s) => s.name)))
    .map((x) => ({ ...x, rolling: ROLLING_KINDS.has(x.kind) }));
}

/** How the declared phase writes the Secrets, by method. */
function rotationWriter(c: RotatingCertificates, r: ResolvedRotation): RotationWriter {
  switch (c.method) {
    case IssuingMethod.CFSSL:
      return { method: 'cfssl', folder: layout.fromOutputFolder(layout.cfsslFolder(c.namespace, c.clusterName)), copy: pkiCopyFolder(c.namespace, c.clusterName), script: ISSUE_SCRIPT };
    case IssuingMethod.CERT_MANAGER:
      return {
        method: 'cert-manager',
        selector: names.certificatesSelector(c.clusterName),
        script: layout.fromOutputFolder(layout.rotationScriptPath(c.namespace, c.clusterName)),
        renewal: r.kind === RotationKind.LEAF_RENEWAL,
      };
    default:
      return { method: 'user-provided', requiredSecrets: layout.REQUIRED_SECRETS_FILE };
  }
}
