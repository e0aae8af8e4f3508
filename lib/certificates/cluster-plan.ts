/**
 * The certificate plan of one cluster (`tls-plan.json`), as `ClusterCertificates.plan()` returns
 * it: every Secret the cluster needs with what its certificate must hold, the rotation, the TLS
 * enablement, TLS for MySQL clients and the span. A function of what the construct exposes, called
 * at synth, after every cluster added its components.
 */
import { ClusterKind, component } from '../model/catalog';
import { USAGES } from '../model/catalog-certificates';
import { TlsEnablementPhase, planEnablement } from '../model/enablement';
import type { ExternalTlsSecret } from '../model/expiry';
import * as names from '../model/names';
import { ResolvedIssuerReference, TLS_PLAN_VERSION, TlsPlan, TlsPlanUserSecret } from '../plan/certificate-options';
import { RotatingCertificates, planRotation } from './rotation-plan';

/** What the plan reads of a cluster's certificates (a `ClusterCertificates`). */
export interface PlannedCertificates extends RotatingCertificates {
  readonly commonName: string;
  readonly issuer?: ResolvedIssuerReference;
  readonly caSecretName: string;
  readonly clusterDomain?: string;
  readonly enablement?: TlsEnablementPhase;
  clientSecretName(kind: ClusterKind): string;
  externalTlsSecrets(): ExternalTlsSecret[];
}

export function clusterPlan(c: PlannedCertificates): TlsPlan {
  const { settings } = c;
  return {
    version: TLS_PLAN_VERSION,
    clusterName: c.clusterName,
    namespace: c.namespace,
    method: c.method,
    commonName: c.commonName,
    organization: settings.subject.organization,
    privateKey: { algorithm: settings.privateKey.algorithm, size: settings.privateKey.size },
    ...(c.issuer !== undefined ? { issuer: { ...c.issuer } } : {
      ca: {
        secretName: c.caSecretName, duration: settings.caDuration, renewBefore: settings.caRenewBefore,
        privateKey: { algorithm: settings.caPrivateKey.algorithm, size: settings.caPrivateKey.size },
      },
    }),
    duration: settings.duration,
    renewBefore: settings.renewBefore,
    secrets: [
      ...c.clusterKinds.map((kind) => ({
        name: c.clientSecretName(kind), role: 'client' as const, cluster: kind, usages: [...USAGES.client],
      })),
      ...c.serverCertificates.map((s) => ({
        name: s.secretName, role: 'server' as const, cluster: component(s.token).cluster, component: s.token,
        usages: [...USAGES.server], dnsNames: [...s.dnsNames], ipAddresses: [...s.ipAddresses], reloadsLeaf: c._componentReload(s.token).reloadsLeaf,
      })),
    ],
    userSecrets: planUserSecrets(c),
    rotation: planRotation(c),
    enablement: c.enablement === undefined ? undefined : planEnablement(c.enablement, {
      member: names.firstPodName(c.clusterName, 'coordinator'),
      peerUrl: names.coordinatorPeerUrl(c.clusterName, c.namespace, 0, c.clusterDomain),
    }),
    sqlTls: c.sqlTls?.plan(),
    span: c.span && {
      kubernetesCluster: c.span.current.name, clusterDomain: c.span.current.clusterDomain, clusters: c.span.clusters.map((k) => ({ ...k })),
    },
  };
}

/**
 * The plan's `userSecrets`: the Secrets the user creates that the cluster loads, but those the
 * plan names already (a migration target handed the Secret of `addSqlClient`, in `sqlTls`; a
 * span's intermediate, the CA Secret of `ca` and `rotation.caSecrets`), so that none is checked
 * twice; undefined when none is left.
 */
function planUserSecrets(c: PlannedCertificates): TlsPlanUserSecret[] | undefined {
  const named = new Set([
    ...c.clusterKinds.map((kind) => `${c.namespace}/${c.clientSecretName(kind)}`),
    ...c.serverCertificates.map((s) => `${c.namespace}/${s.secretName}`),
    ...(c.sqlTls?.plan().secrets ?? []).map((s) => `${s.namespace}/${s.name}`),
    ...(c.issuer === undefined ? [`${c.namespace}/${c.caSecretName}`] : []),
    ...Object.values(planRotation(c)?.caSecrets ?? {}).map((name) => `${c.namespace}/${name}`),
  ]);
  const user = c.externalTlsSecrets().filter((s) => !named.has(`${s.namespace}/${s.name}`))
    .map((s) => ({ name: s.name, cluster: s.cluster, usedBy: s.usedBy }));
  return user.length > 0 ? user : undefined;
}
