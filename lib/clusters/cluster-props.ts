/** Resolution shared by the two cluster constructs: namespace, version and certificates. */
import { Construct, IConstruct } from 'constructs';
import { ClusterCertificates } from '../certificates/cluster-certificates';
import { SUBJECT_PROP } from '../certificates/cluster-certificates-props';
import { inputError } from '../model/errors';
import { ITlsDatabaseCluster, PvReclaimPolicy, TlsClusterProps } from './tls-cluster';
import { AcrossRule, PropSpec, ShapeOf, checkArguments, constructOf, isConstruct, objectOf, oneOf, withRules } from '../model/props';
import type { RunbookStep } from '../documents/runbook';
import { DNS_LABEL_MAX } from '../model/limits';
import { isDnsLabel, requireDerivedLabels, requireDnsSubdomain, resolveNamespace } from '../model/validate';
import { ClusterKind, ComponentToken, DeployedBy, clusterKind, component, componentsOf } from '../model/catalog';
import * as names from '../model/names';
import { restartAnnotationKey } from '../model/settings';
import { SecretRef, secretRefIn, secretRefName } from '../model/secret-ref';
import { clusterClaims } from '../app/cluster-claims';

/**
 * The props both cluster constructs have, for a cluster of `kind`: the cluster name a DNS label,
 * the namespace one when given, the version a release the operator deploys the kind at, the
 * operator version one that runs TLS between the kind's components; across them, every service
 * name derived from the cluster name a label, and no Common Name or subject beside certificates
 * passed in.
 */
export function tlsClusterShape(kind: ClusterKind) {
  const { minVersion, minOperatorVersion, resourceKind } = clusterKind(kind);
  return withRules({
    clusterName: { type: 'string', rule: 'dnsLabel', example: 'orders' },
    namespace: { type: 'string', optional: true, rule: 'dnsLabel' },
    version: {
      type: 'string', rule: 'release',
      atLeast: minVersion === undefined ? undefined : { minimum: minVersion, what: `the operator, which refuses an older ${resourceKind} and deploys none of it,` },
    },
    operatorVersion: { type: 'string', optional: true, rule: 'release', atLeast: { minimum: minOperatorVersion, what: `tls between ${kind} cluster components` } },
    certificates: constructOf((v) => v instanceof ClusterCertificates, 'a ClusterCertificates', true),
    commonName: 'string?',
    subject: SUBJECT_PROP,
    pvReclaimPolicy: { ...oneOf(Object.values(PvReclaimPolicy)), default: PvReclaimPolicy.RETAIN },
  } satisfies ShapeOf<TlsClusterProps>, [derivedServiceNames(kind), namesBesideCertificates]);
}

/**
 * The certificates check the names of the components they are given; checked here first, a
 * cluster name too long for its components' services is reported at the cluster.
 */
function derivedServiceNames(kind: ClusterKind): AcrossRule<TlsClusterProps> {
  return (scope, props) => requireDerivedLabels(scope, 'clusterName', props.clusterName, componentsOf(kind, DeployedBy.OPERATOR)
    .flatMap((token) => names.componentServiceNames(props.clusterName, component(token))));
}

/** Refuses a Common Name or subject beside certificates passed in, which have their own. */
function namesBesideCertificates(scope: IConstruct | string, props: TlsClusterProps): void {
  if (props.certificates && (props.commonName !== undefined || props.subject !== undefined)) {
    inputError(scope, props.commonName !== undefined ? 'commonName' : 'subject', props.commonName ?? props.subject,
      'nothing when certificates are passed: set commonName and subject on the ClusterCertificates');
  }
}

/**
 * Whether a value implements {@link ITlsDatabaseCluster}: a construct with the cluster's names, its
 * certificates, its SQL endpoint and the methods the constructs that build on it call (a
 * `TlsDatabaseCluster`, or your own implementation).
 */
export function isTlsDatabaseCluster(value: unknown): value is ITlsDatabaseCluster {
  if (!isConstruct(value)) {
    return false;
  }
  const c = value as unknown as Record<string, unknown>;
  const strings = ['clusterName', 'namespace', 'version', 'commonName', 'clientSecretName', 'sqlHost'];
  const methods = ['serverSecretName', 'serverSecret', 'clientSecret', 'addRunbookStep'];
  return strings.every((k) => typeof c[k] === 'string') && typeof c.sqlPort === 'number' && Array.isArray(c.components)
    && c.certificates instanceof ClusterCertificates && isConstruct(c.resource) && methods.every((k) => typeof c[k] === 'function');
}

/** The prop that names the database cluster a construct serves. */
export const DATABASE_CLUSTER_PROP = constructOf(isTlsDatabaseCluster, 'a TlsDatabaseCluster of this app (an ITlsDatabaseCluster)');

/** The resolved basics of a cluster construct. */
export interface ResolvedCluster {
  readonly namespace: string;
  readonly certificates: ClusterCertificates;
  readonly pvReclaimPolicy: PvReclaimPolicy;
}

/**
 * Returns the namespace and the certificates of a cluster whose props {@link tlsClusterShape}
 * checked: the namespace given, the certificates', else the chart's; the certificates passed,
 * checked to belong to this cluster, or new ones created as the child `Certificates`.
 */
export function resolveCluster(scope: Construct, props: TlsClusterProps): ResolvedCluster {
  const namespace = resolveNamespace(scope, props.namespace ?? props.certificates?.namespace);
  // The shape gives the default.
  const pvReclaimPolicy = props.pvReclaimPolicy!;
  if (props.certificates === undefined) {
    // A construct of the other kind for the same cluster (the migration cluster beside its database, or certificates made
    // apart) that makes certificates of its own would declare every Issuer and Secret again. Two of one kind are one
    // cluster declared twice, which the rule on duplicate objects names.
    // Looked up by namespace and name, not by walking the tree: one look-up per cluster construct.
    const made = clusterClaims(scope, namespace, props.clusterName).find((c): c is ClusterCertificates => c instanceof ClusterCertificates
      && c.node.scope?.constructor !== scope.constructor);
    if (made !== undefined) {
      inputError(scope, 'certificates', undefined, `the certificates of cluster ${namespace}/${props.clusterName}, which ${made.node.path} already makes: `
        + 'pass them as certificates, so that one set of Issuers and Secrets serves the cluster');
    }
  }
  const certificates = props.certificates ?? new ClusterCertificates(scope, 'Certificates', {
    clusterName: props.clusterName, namespace, commonName: props.commonName, subject: props.subject,
  });
  if (certificates.clusterName !== props.clusterName || certificates.namespace !== namespace) {
    inputError(scope, 'certificates', `${certificates.namespace}/${certificates.clusterName}`,
      `the certificates of cluster ${namespace}/${props.clusterName}: Secret names are derived from the cluster name`);
  }
  return { namespace, certificates, pvReclaimPolicy };
}

/**
 * Checks the Secrets that hold certificates for databases outside the cluster (the migration
 * cluster's sources and target, the changefeed's sinks): Secret names, none of them a Secret the
 * cluster's own certificates use, which would hand a CA key or a component's identity to the pods
 * that mount it. Returns their names without duplicates.
 */
export function externalSecretNames(scope: Construct, field: string, secrets: readonly SecretRef[] | undefined, certificates: ClusterCertificates): string[] {
  if (secrets === undefined) {
    return [];
  }
  return [...new Set(secrets.map((ref, i) => requireMountedSecretName(scope, `${field}[${i}]`, ref, certificates)))];
}

/**
 * The name of a Secret the user creates (an external database's client certificate, a password,
 * storage keys) for the cluster's pods, which load it from the cluster's namespace. Throws when it
 * is one the library writes for the cluster, which holds a CA key, a component's identity or
 * another client's (the pods that mount it, or whoever holds the other Secret's access, would then
 * get it), or when it is a Secret the app declares in another namespace.
 */
export function requireExternalSecretName(scope: IConstruct, field: string, ref: SecretRef, certificates: ClusterCertificates): string {
  const name = secretRefIn(scope, field, ref, certificates.namespace);
  requireDnsSubdomain(scope, field, name);
  const holds = certificates.ownedSecret(name);
  if (holds !== undefined) {
    inputError(scope, field, name, `a Secret you create, not one the library writes (${name} holds ${holds})`);
  }
  return name;
}

/**
 * The name of a Secret that can stand in a cluster resource's `tlsClientSecretNames`: a Secret the
 * user creates ({@link requireExternalSecretName}) whose name is a DNS-1123 label too. The operator
 * names the pod volume that mounts each of these Secrets after the Secret, and Kubernetes takes only
 * a label as a volume name: a Secret name with a '.', or longer than 63 characters, leaves the pods
 * uncreated.
 */
export function requireMountedSecretName(scope: IConstruct, field: string, ref: SecretRef, certificates: ClusterCertificates): string {
  const name = secretRefName(ref);
  // The label rule first, in one step: every label is a Secret name too, so a name it refuses gets the rule it must meet.
  if (typeof name !== 'string' || !isDnsLabel(name)) {
    inputError(scope, field, name, `a Secret name that is a DNS-1123 label (lowercase letters, digits and '-', at most ${DNS_LABEL_MAX} characters): `
      + `the operator names the pod volume that mounts it after it, and Kubernetes refuses a volume name with '.' or of more than ${DNS_LABEL_MAX} characters`);
  }
  return requireExternalSecretName(scope, field, ref, certificates);
}

/**
 * `token`, when it is a component of the given cluster kind; throws otherwise, so that neither
 * cluster construct hands out a Secret of the other kind through shared certificates.
 */
export function ownComponent(scope: Construct, kind: ClusterKind, method: string, token: ComponentToken): ComponentToken {
  const own = componentsOf(kind);
  checkArguments(scope, method, { token }, { token: 'string' });
  if (!own.includes(token)) {
    inputError(scope, `${method}.token`, token, `one of the components of a ${clusterKind(kind).resourceKind}: ${own.join(', ')}`);
  }
  return token;
}

/** Paragraphs or commands of a runbook step: pieces of the runbook's file, each within a file's bound. */
const DOCUMENT_LINES: PropSpec = { type: 'list', optional: true, kind: 'file' };

/** The shape of a {@link RunbookStep} a construct is handed. */
export const RUNBOOK_STEP_SHAPE = {
  title: 'string', text: DOCUMENT_LINES, commands: DOCUMENT_LINES, runIn: 'string?',
  file: objectOf({ content: { type: 'string', kind: 'file' }, language: 'string' }),
} satisfies ShapeOf<RunbookStep>;

/**
 * The restart annotation of a component while its certificates declare a rotation: its value
 * changes with each phase that must restart the component (see `componentRestartValue`), so
 * applying that phase restarts the component's pods one at a time and they load the Secrets the
 * phase wrote; a phase the component takes while it runs leaves it as it was. Undefined without a
 * rotation, or before any phase has restarted the component.
 */
export function rotationRestart(scope: Construct, certificates: ClusterCertificates, token: ComponentToken): Record<string, string> | undefined {
  const value = certificates._restartValue(token);
  return value === undefined ? undefined : { [restartAnnotationKey(scope)]: value };
}
