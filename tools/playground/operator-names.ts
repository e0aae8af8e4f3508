/**
 * The library speaks the specification's names; the real operator (tidb-operator) and its
 * components speak their own. One table maps them both ways, for the tests that hand the library's
 * output to the real operator and for the playground's bridge (bridge.ts), which hands it what a
 * user applied: kinds and API group, the keys of the cluster resources' specs, the component tokens
 * in Secret names and host names, the client Secrets. Nothing here reaches what a user synthesizes.
 */
import type { ComponentToken } from '../../lib/model/catalog';

/** The real operator's API group. */
export const OPERATOR_GROUP = 'pingcap.com';

/** The specification's resource kinds, and the real operator's. */
export const KINDS: Readonly<Record<string, string>> = {
  DatabaseCluster: 'TidbCluster',
  MigrationCluster: 'DMCluster',
  DatabaseMonitor: 'TidbMonitor',
  Backup: 'Backup',
  Restore: 'Restore',
};

/** The specification's component tokens, and the names the real operator gives the components in Secret, Service and StatefulSet names. */
export const COMPONENT_NAMES: Readonly<Record<ComponentToken, string>> = {
  'mig-master': 'dm-master',
  'mig-worker': 'dm-worker',
  'coordinator': 'pd',
  'store': 'tikv',
  'sqlserver': 'tidb',
  'pump': 'pump',
  'drainer': 'drainer',
  'changefeed': 'ticdc',
  'columnar': 'tiflash',
  'importer': 'importer',
  'lightning': 'lightning',
  // The discovery server: util.DiscoveryTLSSecretName gives <cluster>-discovery-cluster-secret.
  'discovery': 'discovery',
};

/** The keys of the components in the cluster resources' specs: the library's, and the real operator's. */
export const SPEC_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DatabaseCluster: { coordinator: 'pd', store: 'tikv', sqlserver: 'tidb', pump: 'pump', changefeed: 'ticdc', columnar: 'tiflash' },
  MigrationCluster: { master: 'master', worker: 'worker' },
};

/** The suffixes of the shared client Secrets: the library's, and the real operator's. */
const CLIENT_SUFFIXES: Readonly<Record<string, string>> = { 'cluster-client-secret': 'cluster-client-secret', 'mig-client-secret': 'dm-client-secret' };

/**
 * A name of the library's in the real operator's words: `<cluster>-<token>…` with the token's real
 * name (`basic-coordinator-cluster-secret` is `basic-pd-cluster-secret`, `*.basic-store-peer.demo` is
 * `*.basic-tikv-peer.demo`), and the migration cluster's client Secret `<cluster>-dm-client-secret`.
 * A name without a token stays as it is.
 */
export function operatorName(name: string, clusterName: string): string {
  const prefix = name.startsWith('*.') ? '*.' : '';
  const bare = name.slice(prefix.length);
  if (!bare.startsWith(`${clusterName}-`)) {
    return name;
  }
  const rest = bare.slice(clusterName.length + 1);
  for (const [suffix, real] of Object.entries(CLIENT_SUFFIXES)) {
    if (rest === suffix) {
      return `${prefix}${clusterName}-${real}`;
    }
  }
  // The longest token first: `mig-master` before a shorter one that it starts with.
  for (const token of Object.keys(COMPONENT_NAMES).sort((a, b) => b.length - a.length) as ComponentToken[]) {
    if (rest === token || rest.startsWith(`${token}-`) || rest.startsWith(`${token}.`)) {
      return `${prefix}${clusterName}-${COMPONENT_NAMES[token]}${rest.slice(token.length)}`;
    }
  }
  return name;
}

/** A library object (an operator resource, a Certificate, a Secret) in the real operator's words; other objects as they are. */
export function toOperator(object: any, clusterName: string): any {
  const copy = structuredClone(object);
  const realKind = KINDS[copy.kind];
  if (realKind !== undefined && typeof copy.apiVersion === 'string' && !copy.apiVersion.startsWith('cert-manager.io/')) {
    const specKeys = SPEC_KEYS[copy.kind] ?? {};
    copy.apiVersion = `${OPERATOR_GROUP}/v1alpha1`;
    copy.kind = realKind;
    copy.spec = Object.fromEntries(Object.entries(copy.spec ?? {}).map(([k, v]) => [specKeys[k] ?? k, v]));
    return copy;
  }
  if (copy.kind === 'Certificate') {
    copy.metadata.name = operatorName(copy.metadata.name, clusterName);
    copy.spec.secretName = operatorName(copy.spec.secretName, clusterName);
    copy.spec.dnsNames = copy.spec.dnsNames?.map((n: string) => operatorName(n, clusterName));
    return copy;
  }
  if (copy.kind === 'Secret') {
    copy.metadata.name = operatorName(copy.metadata.name, clusterName);
  }
  return copy;
}
