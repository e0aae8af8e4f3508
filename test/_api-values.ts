/**
 * Values the generated apps give, by the name of the field or parameter and its type: the first
 * one the library accepts at a place is kept. The lists hold what a user would write (a version,
 * a quantity, a DNS label); a field added later with a name not here is tried with the generic
 * lists, and the generated test names any place where none is accepted.
 */

/** JSON, as a free-form map holds it. */
export type Json = string | number | boolean | Json[] | { readonly [key: string]: Json };

/** Strings to try, by field or parameter name. */
const STRINGS: Readonly<Record<string, readonly string[]>> = {
  clusterName: ['basic', 'other', 'third', 'fourth'],
  namespace: ['demo', 'apps'],
  version: ['v4.0.5', 'v1.2.0', '1.1.5', 'v6.5.0'],
  operatorVersion: ['v1.2.0', 'v1.6.6'],
  baseImage: ['registry.example.com/db/component'],
  storage: ['10Gi', '100Gi'],
  storageSize: ['10Gi'],
  caDuration: ['87600h', '43800h'],
  duration: ['8760h', '4380h'],
  renewBefore: ['360h', '720h'],
  caRenewBefore: ['720h', '1440h'],
  leafThreshold: ['720h', '168h'],
  caThreshold: ['2160h', '720h'],
  gitOpsInterval: ['10m', '1h'],
  evictLeaderTimeout: ['10m', '3m'],
  commonName: ['basic', 'app-client'],
  timezone: ['UTC'],
  clusterDomain: ['cluster.local'],
  // A span of one Kubernetes cluster: its name, its domain and itself as current.
  'KubernetesClusterSpec.name': ['east', 'west'],
  'KubernetesClusterSpec.clusterDomain': ['east.example.com', 'west.example.com'],
  'KubernetesSpan.current': ['east', 'west'],
  repository: ['https://charts.example.com/stable'],
  endpoint: ['https://s3.example.com'],
  host: ['mysql.example.com', 'db.example.com'],
  user: ['root', 'backup'],
  password: ['', 'not-a-real-password'],
  relayDir: ['./relay_log'],
  loaderDir: ['./dumped_data'],
  taskMode: ['all'],
  backupType: ['full'],
  provider: ['aws'],
  region: ['us-west-2'],
  bucket: ['backups'],
  prefix: ['nightly'],
  secretName: ['basic-s3-credentials', 'downstream-tls'],
  tlsSecretName: ['basic-source1-tls', 'basic-target-tls'],
  credentialsSecretName: ['basic-backup-credentials'],
  checkpointSecretName: ['checkpoint-tls'],
  sinkTlsSecretNames: ['basic-sink-tls', 'other-sink-tls'],
  storageClassName: ['fast'],
  argoCdNamespace: ['argocd'],
  argoCdProject: ['default'],
  config: ['[syncer]\nworker-count = 16\n'],
  configSecret: ['binlog-drainer-config'],
  kind: ['ClusterIssuer', 'Issuer'],
  group: ['cert-manager.io'],
  path: ['notes/extra.txt'],
  content: ['extra notes\n'],
  title: ['Check the cluster'],
  runIn: ['.'],
  language: ['sh'],
  commands: ['kubectl get pods'],
  text: ['Read the plan first.'],
  token: ['store', 'coordinator', 'importer', 'lightning', 'mig-master', 'mig-worker'],
  // A component the certificates do not hold yet, so that its options are its own.
  'ClusterCertificates.addComponent.token': ['importer', 'lightning', 'columnar'],
  certManagerNamespace: ['cert-manager'],
  extraDnsNames: ['db.example.com'],
  extraIpAddresses: ['10.0.0.10'],
  extraAllowedCommonNames: ['other-cn'],
  allowedCommonNames: ['downstream'],
  checkpointAllowedCommonNames: ['checkpoint'],
  components: ['store', 'coordinator'],
  id: ['2026-11'],
  sourceId: ['source1', 'source2'],
  releaseName: ['binlog', 'other', 'third'],
  drainerName: ['basic-drainer'],
  name: ['basic-migration', 'app', 'monitor'],
  secret: ['basic-sink-tls'],
  country: ['US', 'DE'],
  state: ['California'],
  locality: ['San Francisco'],
  organization: ['demo'],
  organizationalUnit: ['databases'],
};

/** Strings tried where a name has no list, or after its list. */
const ANY_STRING = ['basic', 'demo', 'v4.0.5', '10Gi', '720h', 'example.com', 'x'];

/** The strings to try at a place, in order: those of the place's target key (`ClusterCertificates.addComponent.token`), or of its name. */
export function stringCandidates(name: string, key: string): readonly string[] {
  const base = key.replace(/ as .*$/, '').replace(/(\[\]|\{\})+$/, '');
  return [...new Set([...(STRINGS[base] ?? STRINGS[name] ?? []), ...ANY_STRING])];
}

/** Numbers to try, by name. */
const NUMBERS: Readonly<Record<string, readonly number[]>> = {
  port: [4000, 3306],
  replicas: [1, 3],
  maxFailoverCount: [0, 3],
  size: [2048, 4096, 256],
};

/** The numbers to try at a place, in order. */
export function numberCandidates(name: string): readonly number[] {
  return [...new Set([...(NUMBERS[name] ?? []), 1, 3, 0])];
}

/**
 * Free-form maps to try, by name: each a whole map, its keys on purpose not in sorted order, so
 * that an output that follows the order a map arrives in differs from one that does not.
 */
const MAPS: Readonly<Record<string, readonly { readonly [key: string]: Json }[]>> = {
  config: [
    { log: { level: 'info', file: { 'max-days': 7 } }, 'graceful-wait-before-shutdown': 30, alpha: ['b', 'a'] },
    { proxy: { server: { 'status-addr': '0.0.0.0:20292' } }, config: { logger: { level: 'info' } } },
  ],
  extraValues: [{ nodeSelector: { disk: 'ssd', zone: 'a' }, affinity: {}, baseImage: 'registry.example.com/db/drainer' }],
  discovery: [{ address: 'http://basic-discovery.demo:10261', alpha: true }],
  alertLabels: [{ team: 'databases', oncall: 'db' }],
  ruleLabels: [{ release: 'prometheus', app: 'db' }],
  servers: [{ store: 'basic-store-cluster-secret', coordinator: 'basic-coordinator-cluster-secret' }],
  clients: [{ migration: 'basic-mig-client-secret', database: 'basic-cluster-client-secret' }],
};

/** Keys of a map whose values are structs, by name. */
const STRUCT_MAP_KEYS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  extraNames: [['store', 'coordinator']],
};

/** The whole maps to try at a place whose values are strings or JSON. */
export function mapCandidates(name: string): readonly { readonly [key: string]: Json }[] {
  return [...(MAPS[name] ?? []), { zeta: 'one', alpha: 'two' }];
}

/** The key lists to try at a place whose values are structs. */
export function structMapKeys(name: string): readonly (readonly string[])[] {
  return [...(STRUCT_MAP_KEYS[name] ?? []), ['zeta', 'alpha']];
}

/** JSON to try where a single value of any type is given. */
export const ANY_JSON: readonly Json[] = [{ zeta: 1, alpha: 'two' }, 'text', 1, true];

/** Hours of a cdk8s `Duration` to try, by name. */
export function durationHours(name: string): readonly number[] {
  const text = STRINGS[name]?.[0];
  const hours = text?.endsWith('h') ? Number(text.slice(0, -1)) : undefined;
  return [...new Set([...(hours !== undefined ? [hours] : []), 720, 8760, 1])];
}

/** Gibibytes of a cdk8s `Size` to try. */
export const SIZE_GIBIBYTES: readonly number[] = [10, 100, 1];
