/**
 * Pure naming functions over the component catalog.
 *
 * Every Kubernetes name, Secret name, host name and mount path the library writes comes from
 * here (the paths of the output files come from `output-layout.ts`). The functions do not
 * validate: `validate.ts` checks the names they return against
 * Kubernetes' limits (a DNS-1123 label is at most 63 characters, a Secret name at most 253).
 */
import { ClusterKind, ComponentToken, PORTS, clusterKind, component } from './catalog';
import { SECRET_KEYS } from './catalog-certificates';
import { SQL_TLS } from './catalog-sql-tls';
import { CLUSTER_POD_LABEL, COMPONENT_POD_LABEL, MOUNT_PATHS } from './catalog-pods';

/** An object in its namespace: a Secret, or a Certificate and the Secret of the same name. */
export interface NamespacedName {
  /** The namespace the object is in. */
  readonly namespace: string;
  /** The object's name. */
  readonly name: string;
}

/** Objects grouped by namespace, in the order each namespace first appears. */
export function byNamespace<T extends {
  /** The namespace the object is grouped under. */
  readonly namespace: string;
}>(objects: readonly T[]): [string, T[]][] {
  return [...new Set(objects.map((o) => o.namespace))].map((n) => [n, objects.filter((o) => o.namespace === n)]);
}

/** The self-signed Issuer that signs the CA: `${cluster_name}-selfsigned-ca-issuer`. */
export function selfSignedIssuerName(clusterName: string): string {
  return `${clusterName}-selfsigned-ca-issuer`;
}

/** The generation of the certificates made when a cluster is created, before any rotation. */
export const INITIAL_GENERATION = 'initial';

/** `-<generation>` after a CA name, or nothing for the initial generation. */
function generationSuffix(generation: string): string {
  return generation === INITIAL_GENERATION ? '' : `-${generation}`;
}

/** The CA Certificate: `${cluster_name}-ca`, or `${cluster_name}-ca-<rotation id>` for a CA a rotation made. */
export function caCertificateName(clusterName: string, generation = INITIAL_GENERATION): string {
  return `${clusterName}-ca${generationSuffix(generation)}`;
}

/** The Secret that holds the CA: `${cluster_name}-ca-secret`, or `${cluster_name}-ca-<rotation id>-secret`. */
export function caSecretName(clusterName: string, generation = INITIAL_GENERATION): string {
  return `${clusterName}-ca${generationSuffix(generation)}-secret`;
}

/**
 * The Secret of a Kubernetes cluster's intermediate CA, in a cluster that spans Kubernetes
 * clusters: `${cluster_name}-<kubernetes cluster>-intermediate-ca-secret`, or
 * `…-intermediate-ca-<rotation id>-secret` for the one signed by the root a rotation made. Its
 * `tls.crt` is the intermediate, signed by the span's root, and its `ca.crt` the root.
 */
export function intermediateSecretName(clusterName: string, kubernetesCluster: string, generation = INITIAL_GENERATION): string {
  return `${clusterName}-${kubernetesCluster}-intermediate-ca${generationSuffix(generation)}-secret`;
}

/**
 * The span's root CA when one Kubernetes cluster's cert-manager keeps it (`span.rootCluster`): the
 * self-signed Certificate `${cluster_name}-root-ca`, there alone.
 */
export function rootCaName(clusterName: string): string {
  return `${clusterName}-root-ca`;
}

/** The Secret of the span's root CA kept by cert-manager: `${cluster_name}-root-ca-secret`, whose key stays there. */
export function rootCaSecretName(clusterName: string): string {
  return `${rootCaName(clusterName)}-secret`;
}

/**
 * The CA Issuer on the span's root kept by cert-manager, `${cluster_name}-root-ca-issuer`: it signs
 * the intermediates, through one CertificateRequest each, and nothing else.
 */
export function rootIssuerName(clusterName: string): string {
  return `${rootCaName(clusterName)}-issuer`;
}

/**
 * The prefix of the CertificateRequests that have the root kept by cert-manager sign a Kubernetes
 * cluster's intermediate, `${cluster_name}-<kubernetes cluster>-intermediate-ca-`: the script
 * appends the first 10 hex digits of the request's SHA-256, so that each new key gets a request of
 * its own.
 */
export function intermediateRequestPrefix(clusterName: string, kubernetesCluster: string): string {
  return `${clusterName}-${kubernetesCluster}-intermediate-ca-`;
}

/**
 * The Secret whose key signs a generation's leaves with cert-manager: the cluster's CA Secret, or
 * with a span the current Kubernetes cluster's intermediate CA Secret.
 */
export function signingSecretName(clusterName: string, generation: string, kubernetesCluster?: string): string {
  return kubernetesCluster === undefined ? caSecretName(clusterName, generation) : intermediateSecretName(clusterName, kubernetesCluster, generation);
}

/**
 * Where cert-manager writes a certificate of the next generation during a CA replacement, before
 * the rotation copies it into the Secret the operator loads: `<secret name>-<rotation id>`.
 */
export function stagingSecretName(secretName: string, generation: string): string {
  return `${secretName}-${generation}`;
}

/** The CA-type Issuer of a cluster kind: `${cluster_name}-db-issuer` or `${cluster_name}-mig-issuer`. */
export function caIssuerName(clusterName: string, kind: ClusterKind): string {
  return `${clusterName}-${clusterKind(kind).caIssuerSuffix}`;
}

/** A component's server Secret (and server Certificate): `${cluster_name}-<token>-cluster-secret`. */
export function serverSecretName(clusterName: string, token: ComponentToken): string {
  return `${clusterName}-${token}-cluster-secret`;
}

/**
 * The shared client Secret (and client Certificate) of a cluster kind:
 * `${cluster_name}-cluster-client-secret` or `${cluster_name}-mig-client-secret`.
 */
export function clientSecretName(clusterName: string, kind: ClusterKind): string {
  return `${clusterName}-${clusterKind(kind).clientSecretSuffix}`;
}

/**
 * The drainer's name, `drainerName` in the chart values: the given name, or by default
 * `${cluster_name}-${release_name}-drainer`.
 */
export function drainerName(clusterName: string, releaseName: string, name?: string): string {
  return name ?? `${clusterName}-${releaseName}-drainer`;
}

/** What a component's service name depends on besides the cluster name. */
export interface ServiceNameOptions {
  /**
   * The drainer chart's release name; required for the drainer unless `drainerName` is set.
   * @default - none
   */
  readonly releaseName?: string;
  /**
   * The drainer chart's `drainerName`.
   * @default `${cluster_name}-${release_name}-drainer`
   */
  readonly drainerName?: string;
}

/**
 * The discovery server's Deployment, which the operator names as its service (`DiscoveryMemberName`
 * in its controller utilities): `${cluster_name}-discovery`.
 */
export function discoveryDeploymentName(clusterName: string): string {
  return serviceName(clusterName, 'discovery');
}

/**
 * A component's service name: `${cluster_name}-<token>`, or for the drainer its
 * `drainerName` (see {@link drainerName}).
 */
export function serviceName(clusterName: string, token: ComponentToken, options: ServiceNameOptions = {}): string {
  if (token === 'drainer') {
    if (options.releaseName === undefined && options.drainerName === undefined) {
      throw new Error('the drainer\'s service name needs its release name or its drainerName');
    }
    return drainerName(clusterName, options.releaseName ?? '', options.drainerName);
  }
  return `${clusterName}-${token}`;
}

/** A component's peer service name: `${cluster_name}-<token>-peer`. */
export function peerServiceName(clusterName: string, token: ComponentToken): string {
  return `${clusterName}-${token}-peer`;
}

/** Every service of a component: `${cluster_name}-<token>`, and its peer service when it has one. */
export function componentServiceNames(clusterName: string, component: { readonly token: ComponentToken; readonly peerService: boolean }): string[] {
  return [serviceName(clusterName, component.token), ...(component.peerService ? [peerServiceName(clusterName, component.token)] : [])];
}

/** The name of a component's first pod, `${cluster_name}-<token>-0`, where the client tools run. */
export function firstPodName(clusterName: string, token: Exclude<ComponentToken, 'drainer'>): string {
  return podName(clusterName, token, 0);
}

/**
 * The peer URL a coordinator member is stored with once TLS is on:
 * `https://${cluster_name}-coordinator-<ordinal>.${cluster_name}-coordinator-peer.<namespace>.svc[.<domain>]:2380`.
 */
export function coordinatorPeerUrl(clusterName: string, namespace: string, ordinal: number, clusterDomain?: string): string {
  const host = `${podName(clusterName, 'coordinator', ordinal)}.${peerServiceName(clusterName, 'coordinator')}.${namespace}.svc${clusterDomain ? `.${clusterDomain}` : ''}`;
  return `https://${host}:${PORTS.coordinatorPeer}`;
}

/** The label selector of every pod of a cluster: `app.kubernetes.io/instance=${cluster_name}`. */
export function clusterPodSelector(clusterName: string): string {
  return `${CLUSTER_POD_LABEL}=${clusterName}`;
}

/** The label selector of the pods of one component: `app.kubernetes.io/instance=${cluster_name},app.kubernetes.io/component=<token>`. */
export function componentPodSelector(clusterName: string, token: ComponentToken): string {
  return `${clusterPodSelector(clusterName)},${COMPONENT_POD_LABEL}=${token}`;
}

/**
 * The label selector of the pods of some components of a cluster, set-based:
 * `app.kubernetes.io/instance=${cluster_name},app.kubernetes.io/component in (<token>,…)`. The
 * database and migration clusters of one name share the instance label, so a selector of one
 * cluster's pods names its components. It holds spaces and parentheses: quote it in a shell.
 */
export function componentsPodSelector(clusterName: string, tokens: readonly ComponentToken[]): string {
  return `${clusterPodSelector(clusterName)},${COMPONENT_POD_LABEL} in (${tokens.join(',')})`;
}

/** The name of a pod of a component: `${cluster_name}-<token>-<ordinal>`, as the operator's StatefulSet names it. */
export function podName(clusterName: string, token: Exclude<ComponentToken, 'drainer'>, ordinal: number): string {
  return `${clusterName}-${token}-${ordinal}`;
}

/** What the host names of a server certificate depend on. */
export interface HostNameOptions extends ServiceNameOptions {
  /** The cluster name. */
  readonly clusterName: string;
  /** The namespace the cluster runs in. */
  readonly namespace: string;
  /**
   * A cluster DNS domain. When set, the fully qualified form (`….svc.<domain>`) of every
   * `.svc` name is appended after the specification's names.
   * @default - only the specification's names
   */
  readonly clusterDomain?: string;
}

/**
 * The host names of a component's server certificate, exactly as the specification's host-name
 * table lists them (the same list serves as cfssl `hosts` and cert-manager `dnsNames`), followed
 * by the fully qualified names when a cluster domain is given.
 */
export function hostNames(token: ComponentToken, options: HostNameOptions): string[] {
  const { clusterName, namespace } = options;
  const names: string[] = [];
  for (const form of component(token).hostForms) {
    const base = form.of === 'peer' ? peerServiceName(clusterName, token) : serviceName(clusterName, token, options);
    const prefix = form.wildcard ? '*.' : '';
    names.push(`${prefix}${base}`, `${prefix}${base}.${namespace}`, `${prefix}${base}.${namespace}.svc`);
  }
  if (options.clusterDomain) {
    const domain = options.clusterDomain;
    names.push(...names.filter((n) => n.endsWith('.svc')).map((n) => `${n}.${domain}`));
  }
  return names;
}

/** The folder where the operator mounts an external database's client Secret on the migration pods. */
export function externalTlsMountPath(secretName: string): string {
  return `${MOUNT_PATHS.externalTls}/${secretName}`;
}

/** The three certificate file paths of a mounted certificate Secret. */
export interface TlsFilePaths {
  /** `ca.crt` */
  readonly ca: string;
  /** `tls.crt` */
  readonly certificate: string;
  /** `tls.key` */
  readonly privateKey: string;
}

/** The file paths of a certificate Secret the operator mounts at `<parent>/<secret name>`. */
export function mountedTlsFiles(parent: string, secretName: string): TlsFilePaths {
  return tlsFilePaths(`${parent}/${secretName}`);
}

/** The paths of `ca.crt`, `tls.crt` and `tls.key` below a folder. */
export function tlsFilePaths(folder: string): TlsFilePaths {
  return {
    ca: `${folder}/${SECRET_KEYS.ca}`,
    certificate: `${folder}/${SECRET_KEYS.certificate}`,
    privateKey: `${folder}/${SECRET_KEYS.privateKey}`,
  };
}

/** The `DatabaseMonitor` of a database cluster: `${cluster_name}-monitor`. */
export function monitorName(clusterName: string): string {
  return `${clusterName}-monitor`;
}

/** The `PrometheusRule` of a cluster's certificate expiry alerts: `${cluster_name}-certificate-expiry`. */
export function expiryRuleName(clusterName: string): string {
  return `${clusterName}-certificate-expiry`;
}

/** The rule group of a cluster's expiry alerts, the same wherever it is loaded: `cluster-tls-<namespace>-<cluster>-certificate-expiry`. */
export function expiryRuleGroupName(namespace: string, clusterName: string): string {
  return `cluster-tls-${namespace}-${expiryRuleName(clusterName)}`;
}

/** The ConfigMap of the same alerts as a rules file, for the operator's monitor: `${cluster_name}-certificate-expiry-rules`. */
export function expiryRulesConfigMapName(clusterName: string): string {
  return `${expiryRuleName(clusterName)}-rules`;
}

/** The rules file in that ConfigMap; the monitor loads the keys ending in `.rules.yml`. */
export function expiryRulesFileName(clusterName: string): string {
  return `${expiryRuleName(clusterName)}.rules.yml`;
}

/** The Helm release of the exporter that reads a cluster's Secrets: `${cluster_name}-cert-expiry` (at most {@link HELM_RELEASE_MAX} characters). */
export function expiryExporterRelease(clusterName: string): string {
  return `${clusterName}-cert-expiry`;
}

/**
 * The name the exporter's chart gives its objects (`fullnameOverride`): `<namespace>-${cluster_name}-cert-expiry`.
 * Its ClusterRole and ClusterRoleBinding are cluster-wide, so the namespace keeps two clusters of
 * one name in two namespaces apart; the chart cuts names at `DNS_LABEL_MAX` (63 characters).
 */
export function expiryExporterFullname(namespace: string, clusterName: string): string {
  return `${namespace}-${expiryExporterRelease(clusterName)}`;
}

/** The in-cluster host name of a component's service: `<service>.<namespace>.svc`. */
export function serviceHost(clusterName: string, token: Exclude<ComponentToken, 'drainer'>, namespace: string): string {
  return `${serviceName(clusterName, token)}.${namespace}.svc`;
}

/**
 * The local name of the drainer chart's repository: the `helm repo add` alias and the Flux
 * `HelmRepository`, `<release_name>-charts`.
 */
export function drainerChartRepositoryName(releaseName: string): string {
  return `${releaseName}-charts`;
}

/**
 * The Argo CD `Application` that installs a drainer release, `<namespace>-<release_name>`: Argo CD
 * keeps the applications of every namespace in its own namespace, so the name carries the
 * cluster's namespace.
 */
export function drainerApplicationName(namespace: string, releaseName: string): string {
  return `${namespace}-${releaseName}`;
}

/** The `Backup` of a database cluster: `${cluster_name}-backup`. */
export function backupName(clusterName: string): string {
  return `${clusterName}-backup`;
}

/** The `Restore` of a database cluster: `${cluster_name}-restore`. */
export function restoreName(clusterName: string): string {
  return `${clusterName}-restore`;
}

/** The default key prefix of a cluster's backup in the bucket: `<namespace>/<cluster_name>`. */
export function backupPrefix(namespace: string, clusterName: string): string {
  return `${namespace}/${clusterName}`;
}

/**
 * The label that marks the cert-manager objects of one cluster name, so that they can be applied
 * (and waited for) before the clusters that load their Secrets.
 */
export const CERTIFICATES_LABEL = 'cdk8s-cluster-tls/certificates';

/** The label of the objects of a span's root kept by cert-manager, whose value is the cluster name: applied before the intermediates are signed. */
export const ROOT_CA_LABEL = 'cdk8s-cluster-tls/root-ca';

/** The label selector of one cluster's cert-manager objects: `cdk8s-cluster-tls/certificates=<cluster_name>`. */
export function certificatesSelector(clusterName: string): string {
  return `${CERTIFICATES_LABEL}=${clusterName}`;
}

/** The SQL server's Secret for MySQL clients, which the operator mounts: `${cluster_name}-sqlserver-server-secret`. */
export function sqlServerSecretName(clusterName: string): string {
  return `${clusterName}-${SQL_TLS.serverSecretSuffix}`;
}

/** The client Secret of the operator's MySQL clients (backup, restore): `${cluster_name}-sqlserver-client-secret`. */
export function sqlOperatorClientSecretName(clusterName: string): string {
  return `${clusterName}-${SQL_TLS.clientSecretSuffix}`;
}

/** The Common Name of the operator's MySQL client certificate: `${cluster_name}-sql-operator`. */
export function sqlOperatorClientCommonName(clusterName: string): string {
  return `${clusterName}-${SQL_TLS.operatorCommonNameSuffix}`;
}

/**
 * The SQL CA's Certificate, Secret and ClusterIssuer: `<namespace>-${cluster_name}-sql-ca`, or
 * `<namespace>-${cluster_name}-sql-ca-<rotation id>` for a CA a rotation made. They live in
 * cert-manager's namespace (or are cluster-wide), shared by every cluster, so the namespace is
 * part of the name.
 */
export function sqlCaName(namespace: string, clusterName: string, generation = INITIAL_GENERATION): string {
  return `${namespace}-${clusterName}-${SQL_TLS.caSuffix}${generationSuffix(generation)}`;
}

/**
 * The SQL CA's Common Name, `${cluster_name}-sql-ca`: within the 64 characters a Common Name takes
 * for every cluster name a database cluster accepts (at most 46, for its components' peer services).
 */
export function sqlCaCommonName(clusterName: string): string {
  return `${clusterName}-${SQL_TLS.caSuffix}`;
}

/**
 * The ClusterIssuer that signs the certificates for MySQL clients: `<namespace>-${cluster_name}-sql-ca`,
 * one name for every generation (it signs with the CA of the phase in place).
 */
export function sqlClusterIssuerName(namespace: string, clusterName: string): string {
  return sqlCaName(namespace, clusterName);
}

/** The self-signed Issuer, in cert-manager's namespace, that signs the SQL CA: `<sql CA name>-selfsigned`. */
export function sqlCaSelfSignedIssuerName(namespace: string, clusterName: string): string {
  return `${sqlCaName(namespace, clusterName)}-${SQL_TLS.selfSignedSuffix}`;
}

/**
 * An application's client Secret, in the application's namespace:
 * `<application>-<cluster's namespace>-${cluster_name}-sql-client`. The cluster's namespace keeps
 * apart the Secrets of two clusters of one name that an application's namespace may both hold (as
 * with every name joined by hyphens, contrived names can still meet: `a-b` of namespace `c` and
 * `a` of namespace `b-c`).
 */
export function sqlApplicationSecretName(namespace: string, clusterName: string, application: string): string {
  return `${application}-${namespace}-${clusterName}-${SQL_TLS.applicationSecretSuffix}`;
}

/** A certificate's subject as `REQUIRE SUBJECT` compares it, for a subject of a Common Name alone: `/CN=<name>`. */
export function sqlSubject(commonName: string): string {
  return `/CN=${commonName}`;
}

/**
 * The names an application dials to reach the SQL server: its service `${cluster_name}-sqlserver`,
 * alone, with the namespace, with `.svc`, and with `.svc.<domain>` when a cluster domain is set.
 */
export function sqlServerHostNames(clusterName: string, namespace: string, clusterDomain?: string): string[] {
  const base = serviceName(clusterName, 'sqlserver');
  return [base, `${base}.${namespace}`, `${base}.${namespace}.svc`, ...(clusterDomain ? [`${base}.${namespace}.svc.${clusterDomain}`] : [])];
}
