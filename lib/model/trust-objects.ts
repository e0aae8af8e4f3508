/**
 * The trust-bearing objects of one cluster, each with its owner class (see `trust.ts`): what the
 * library writes or refers to for it, named by the pure functions of `names.ts`.
 */
import { ClusterKind, COMPONENTS } from './catalog';
import * as names from './names';
import { TrustClass, TrustedObject, clusterKey } from './trust';

/** ` of rotation <id>` after what a generation's CA is, nothing for the initial generation's. */
function ofRotation(generation: string): string {
  return generation === names.INITIAL_GENERATION ? '' : ` of rotation ${generation}`;
}

/**
 * What a cluster's certificates hold, as {@link clusterTrust} reads it.
 * @jsii ignore
 */
export interface ClusterTrustInput {
  readonly clusterName: string;
  readonly namespace: string;
  /** The construct path of the certificates. */
  readonly certificates: string;
  /** Whether the certificates are signed by a CA of the library's, not an issuer of the user's nor a span's intermediate. */
  readonly libraryCa: boolean;
  /** Whether cert-manager issues them, through the library's issuers. */
  readonly certManager: boolean;
  /** Whether the library writes the component certificates (cert-manager or cfssl), rather than the user. */
  readonly libraryLeaves: boolean;
  /** The ids of every rotation declared, oldest first. */
  readonly rotationIds: readonly string[];
  /** With a span: the current Kubernetes cluster, and whether its cert-manager keeps the root. */
  readonly span?: { readonly current: string; readonly keepsRoot: boolean };
  /** With TLS for MySQL clients. */
  readonly sql?: {
    /** The namespace of the SQL CA's Secret and self-signed Issuer (cert-manager's), when cert-manager issues them. */
    readonly caNamespace?: string;
    /** Its Secrets, as the plan lists them. */
    readonly secrets: readonly { readonly name: string; readonly namespace: string; readonly role: string; readonly application?: string }[];
    /** The reload user's name, when there is one. */
    readonly reloadUser?: string;
  };
  /** The Secrets the user creates for the cluster's pods: sinks, a migration's sources and target. */
  readonly external: readonly { readonly name: string; readonly namespace: string; readonly usedBy: string }[];
}

/**
 * Every trust-bearing object of one cluster, with its owner class: its CA and issuers (every
 * generation), the server Secret of every component and the client Secret of each cluster kind
 * (planned or not, and their staging copies for every rotation), the span's intermediate and root,
 * TLS for MySQL clients, and the Secrets the user creates for its pods.
 * @jsii ignore
 */
export function clusterTrust(input: ClusterTrustInput): TrustedObject[] {
  const { clusterName, namespace } = input;
  const generations = [names.INITIAL_GENERATION, ...input.rotationIds];
  const key = clusterKey(namespace, clusterName);
  const out: TrustedObject[] = [];
  // The first object of each kind, namespace and name is kept: a set of those added, so that the
  // list is built in one pass (a scan of the list for each object made it quadratic in its length).
  const added = new Set<string>();
  const add = (o: Omit<TrustedObject, 'clusterKey' | 'certificates'>) => {
    const id = `${o.kind}\0${o.namespace === undefined ? '' : `=${o.namespace}`}\0${o.name}`;
    if (!added.has(id)) {
      added.add(id);
      // Every field written out, so that every object has one shape: a spread of objects of
      // several shapes takes V8's slow path, and was most of the cost of building a deployment.
      out.push({
        kind: o.kind, namespace: o.namespace, name: o.name, trust: o.trust, holds: o.holds, provided: o.provided,
        clusterKey: key, certificates: input.certificates,
      });
    }
  };
  if (input.libraryCa) {
    for (const g of generations) {
      add({ kind: 'Secret', namespace, name: names.caSecretName(clusterName, g), trust: 'ca-key', holds: `the CA${ofRotation(g)} and its private key` });
    }
  }
  if (input.libraryCa && input.certManager) {
    add({ kind: 'Issuer', namespace, name: names.selfSignedIssuerName(clusterName), trust: 'self-signed-issuer', holds: 'the self-signed issuer of the CA' });
  }
  if (input.certManager && (input.libraryCa || input.span !== undefined)) {
    for (const kind of Object.values(ClusterKind)) {
      add({ kind: 'Issuer', namespace, name: names.caIssuerName(clusterName, kind), trust: 'cluster-issuer', holds: `the CA issuer of the ${kind} cluster's certificates` });
    }
  }
  if (input.span !== undefined) {
    const { current } = input.span;
    for (const g of generations) {
      add({
        kind: 'Secret', namespace, name: names.intermediateSecretName(clusterName, current, g), trust: 'intermediate-key',
        holds: `the intermediate CA${ofRotation(g)} of Kubernetes cluster ${current} and its private key`,
      });
    }
    if (input.span.keepsRoot) {
      add({ kind: 'Secret', namespace, name: names.rootCaSecretName(clusterName), trust: 'root-key', holds: 'the span\'s root CA and its private key' });
      add({ kind: 'Issuer', namespace, name: names.rootIssuerName(clusterName), trust: 'root-issuer', holds: 'the issuer of the span\'s root CA' });
      add({ kind: 'Issuer', namespace, name: names.selfSignedIssuerName(clusterName), trust: 'self-signed-issuer', holds: 'the self-signed issuer of the span\'s root CA' });
    }
  }
  const leaves: [string, string][] = [
    ...COMPONENTS.map((c): [string, string] => [names.serverSecretName(clusterName, c.token), `the ${c.token}'s server certificate and key`]),
    ...Object.values(ClusterKind).map((k): [string, string] => [names.clientSecretName(clusterName, k), `the ${k} cluster's client certificate and key`]),
  ];
  for (const [name, holds] of leaves) {
    add({ kind: 'Secret', namespace, name, trust: 'component-certificate', holds, provided: !input.libraryLeaves });
    input.rotationIds.forEach((id) => add({ kind: 'Secret', namespace, name: names.stagingSecretName(name, id), trust: 'component-certificate', holds: `${holds} issued by rotation ${id}, staged before it is copied to ${name}` }));
  }
  if (input.sql !== undefined) {
    addSqlTrust(input, input.sql, add);
  }
  for (const e of input.external) {
    add({ kind: 'Secret', namespace: e.namespace, name: e.name, trust: 'external', holds: `the Secret you create for ${e.usedBy}`, provided: true });
  }
  return out;
}

/** The objects of TLS for MySQL clients, for {@link clusterTrust}. */
function addSqlTrust(input: ClusterTrustInput, sql: NonNullable<ClusterTrustInput['sql']>, add: (o: Omit<TrustedObject, 'clusterKey' | 'certificates'>) => void): void {
  const { clusterName, namespace } = input;
  if (sql.caNamespace !== undefined) {
    for (const g of [names.INITIAL_GENERATION, ...input.rotationIds]) {
      add({ kind: 'Secret', namespace: sql.caNamespace, name: names.sqlCaName(namespace, clusterName, g), trust: 'sql-ca-key', holds: `the SQL CA${ofRotation(g)} and its private key` });
    }
    add({ kind: 'ClusterIssuer', name: names.sqlClusterIssuerName(namespace, clusterName), trust: 'sql-issuer', holds: 'the issuer of the SQL CA' });
    add({ kind: 'Issuer', namespace: sql.caNamespace, name: names.sqlCaSelfSignedIssuerName(namespace, clusterName), trust: 'self-signed-issuer', holds: 'the self-signed issuer of the SQL CA' });
  }
  for (const s of sql.secrets) {
    const [trust, holds]: [TrustClass, string] = s.role === 'server' ? ['sql-server', 'the SQL server\'s certificate and key for MySQL clients']
      : s.role === 'operator-client' ? ['sql-operator-client', 'the operator\'s client certificate and key for MySQL clients']
        : s.application === sql.reloadUser ? ['sql-reload-user', `the reload user ${s.application}'s certificate and key for MySQL clients (a user granted SUPER)`]
          : ['sql-application', `application ${s.application}'s certificate and key for MySQL clients`];
    add({ kind: 'Secret', namespace: s.namespace, name: s.name, trust, holds });
    input.rotationIds.forEach((id) => add({ kind: 'Secret', namespace: s.namespace, name: names.stagingSecretName(s.name, id), trust, holds: `${holds} issued by rotation ${id}, staged before it is copied to ${s.name}` }));
  }
}
