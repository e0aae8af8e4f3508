/**
 * Who may hold which trust, as data. Every Secret and every issuer the library writes or refers to
 * belongs to an owner class ({@link TRUST_CLASSES}); each class names the parties ({@link TrustRole},
 * {@link TRUST_ROLES}) allowed to hold it, and the ways each party may refer to it. One rule
 * (`app/trust-rule.ts`) reads every object of an app against this table in one pass, whatever its
 * kind: the references an object makes are found by their shape (`trust-references.ts`), never by a
 * list of kinds. The trusted objects of a cluster are listed by `trust-objects.ts`; the parties the
 * library's own objects and the workloads the app allows are, by `trust-grants.ts`.
 */
import type { ReferenceWay, TrustTarget } from './trust-references';

/**
 * A party that may hold a trust-bearing object.
 * @jsii ignore
 */
export type TrustRole =
  /** The library's cert-manager Certificate that writes the Secret. */
  | 'writer'
  /** The library's issuer that signs with the Secret's key. */
  | 'signer'
  /** The library's Certificates that an issuer signs. */
  | 'requester'
  /** The cluster's own resource (`DatabaseCluster`, `MigrationCluster`), whose pods the operator runs. */
  | 'operator'
  /** A workload the app gave to `allowWorkload` on the cluster's certificates. */
  | 'tool'
  /** Any object of the Secret's namespace that is not the library's. */
  | 'application'
  /** The library's cluster resource that names the Secret for its pods to load (a sink, a migration's source or target). */
  | 'loader'
  /** An object of the app that declares a Secret the user provides (the user-provided issuing method's). */
  | 'provider';

/** How a party refers to what it holds: the ways that only read, and the one each of the library's own roles takes. */
const READS: readonly ReferenceWay[] = ['loads', 'has its CSI driver read', 'serves', 'pulls images with', 'grants access to', 'names'];

/**
 * A party: how a message names it, and the ways it may refer to what it holds. Only the library's
 * Certificate writes a Secret, only its issuer signs with one, and only an object of the app
 * declares a Secret the user provides; every other party reads.
 * @jsii ignore
 */
export interface TrustRoleEntry {
  /** How a message names the party. */
  readonly text: string;
  /** The ways it may refer to an object it holds. */
  readonly ways: readonly ReferenceWay[];
}

/**
 * The parties, one row each.
 * @jsii ignore
 */
export const TRUST_ROLES: Readonly<Record<TrustRole, TrustRoleEntry>> = {
  writer: { text: 'the cert-manager Certificate that writes it', ways: ['writes'] },
  signer: { text: 'the CA issuer that signs with it', ways: ['signs with'] },
  requester: { text: 'the library\'s own Certificates of the cluster', ways: ['requests a certificate from'] },
  operator: { text: 'the cluster\'s components (the operator\'s pods)', ways: READS },
  tool: { text: 'a tool given to allowWorkload', ways: READS },
  application: { text: 'a workload of its namespace (reading it)', ways: READS },
  loader: { text: 'the cluster resource that loads it', ways: READS },
  provider: { text: 'an object of the app that declares it', ways: ['declares'] },
};

/**
 * An owner class: what every trust-bearing object of it is, and who may hold it.
 * @jsii ignore
 */
export interface TrustClassEntry {
  /** Whether the objects of the class are Secrets or issuers (an `Issuer` or a `ClusterIssuer`). */
  readonly of: 'Secret' | 'issuer';
  /** The parties that may hold an object of the class. */
  readonly holders: readonly TrustRole[];
  /** What a holder outside them would get, as a message says it. */
  readonly risk: string;
  /** What to do instead; `{certificates}` stands for the construct path of the cluster's certificates. */
  readonly instead: string;
}

/** What an application does instead of holding the cluster's trust. */
const OWN_CERTIFICATE = 'give an application a certificate of its own (TlsDatabaseCluster.addSqlClient)';

/**
 * An owner class: one kind of trust the library writes or refers to.
 * @jsii ignore
 */
export type TrustClass = 'component-certificate' | 'ca-key' | 'intermediate-key' | 'root-key' | 'sql-ca-key' | 'sql-server' | 'sql-operator-client'
  | 'sql-reload-user' | 'sql-application' | 'external' | 'cluster-issuer' | 'self-signed-issuer' | 'root-issuer' | 'sql-issuer';

/**
 * The owner classes, one row each.
 * @jsii ignore
 */
export const TRUST_CLASSES: Readonly<Record<TrustClass, TrustClassEntry>> = {
  /** A component's server certificate, or a cluster kind's shared client certificate, and its key; and their staging copies in a rotation. */
  'component-certificate': {
    of: 'Secret',
    holders: ['writer', 'operator', 'tool', 'provider'],
    risk: 'every component trusts its CA and would take the holder for one of its own',
    instead: `${OWN_CERTIFICATE}; for a tool that acts as a component, call allowWorkload with it on the cluster's certificates ({certificates})`,
  },
  /** The cluster CA's certificate and key (cert-manager), of any generation. */
  'ca-key': {
    of: 'Secret',
    holders: ['writer', 'signer'],
    risk: 'whoever holds a CA\'s key signs certificates every component trusts',
    instead: `no workload needs a CA's key: ${OWN_CERTIFICATE}`,
  },
  /** A Kubernetes cluster's intermediate CA and its key, in a span. */
  'intermediate-key': {
    of: 'Secret',
    holders: ['signer'],
    risk: 'whoever holds it signs certificates every component of every Kubernetes cluster of the span trusts',
    instead: `no workload needs a CA's key: ${OWN_CERTIFICATE}`,
  },
  /** The span's root CA and its key, where one Kubernetes cluster's cert-manager keeps it. */
  'root-key': {
    of: 'Secret',
    holders: ['writer', 'signer'],
    risk: 'whoever holds the root\'s key signs intermediates every Kubernetes cluster of the span trusts',
    instead: 'the root\'s key stays in its Secret: each Kubernetes cluster\'s issue-intermediate.sh has the root\'s Issuer sign its intermediate',
  },
  /** The SQL CA and its key, which signs the certificates of the SQL server's clients. */
  'sql-ca-key': {
    of: 'Secret',
    holders: ['writer', 'signer'],
    risk: 'whoever holds it signs certificates the SQL server takes for any application, the reload user\'s included',
    instead: `no workload needs a CA's key: ${OWN_CERTIFICATE}`,
  },
  /** The SQL server's certificate and key for MySQL clients. */
  'sql-server': {
    of: 'Secret',
    holders: ['writer', 'operator'],
    risk: 'whoever holds it can pose as the SQL server to every application',
    instead: `an application checks the SQL server with the ca.crt of a certificate of its own: ${OWN_CERTIFICATE}`,
  },
  /** The operator's own client certificate for the SQL server (backup, restore, the initializer). */
  'sql-operator-client': {
    of: 'Secret',
    holders: ['writer', 'operator'],
    risk: 'whoever holds it connects as the operator\'s own MySQL clients',
    instead: OWN_CERTIFICATE,
  },
  /** The certificate of `tlsClient.reloadUser`, a database user granted `SUPER`. */
  'sql-reload-user': {
    of: 'Secret',
    holders: ['writer'],
    risk: 'whoever holds it logs in as tlsClient.reloadUser, a database user granted SUPER; only the rotation runbook reads it',
    instead: OWN_CERTIFICATE,
  },
  /** An application's client certificate for the SQL server. */
  'sql-application': {
    of: 'Secret',
    holders: ['writer', 'application', 'loader'],
    risk: 'whoever holds it logs in as that application',
    instead: `give each application a certificate of its own in its namespace (TlsDatabaseCluster.addSqlClient with that namespace)`,
  },
  /** A Secret the user creates for the cluster's pods to reach a database outside it (a sink, a migration's source or target). */
  'external': {
    of: 'Secret',
    holders: ['loader', 'application', 'provider'],
    risk: 'it is the user\'s own certificate for a database outside the cluster',
    instead: 'name it where it is loaded',
  },
  /** An issuer that signs the cluster's certificates: the CA Issuer of a cluster kind, on the cluster CA or the span's intermediate. */
  'cluster-issuer': {
    of: 'issuer',
    holders: ['requester'],
    risk: 'every component trusts what it signs, and would take the holder of such a certificate for one of its own',
    instead: `${OWN_CERTIFICATE}, or sign it with an issuer of your own`,
  },
  /** A self-signed issuer that signs one of the library's CAs. */
  'self-signed-issuer': {
    of: 'issuer',
    holders: ['requester'],
    risk: 'it signs the library\'s CAs, and a Certificate of it may overwrite one of their Secrets',
    instead: 'declare a self-signed Issuer of your own',
  },
  /** The issuer of the span's root kept by cert-manager, which signs the intermediates. */
  'root-issuer': {
    of: 'issuer',
    holders: ['requester'],
    risk: 'every Kubernetes cluster of the span trusts what it signs',
    instead: 'the intermediates are signed by each Kubernetes cluster\'s issue-intermediate.sh, and nothing else',
  },
  /** The ClusterIssuer of the SQL CA. */
  'sql-issuer': {
    of: 'issuer',
    holders: ['requester'],
    risk: 'the SQL server takes what it signs for any application, the reload user included',
    instead: 'declare the application\'s certificate with TlsDatabaseCluster.addSqlClient',
  },
};

/**
 * Whether a prop that names a Secret for a cluster resource to load (a sink's, a migration's
 * source or target) may name a Secret of this class: only where the class lets the cluster resource
 * that loads it hold it. The user's own Secrets and an application's certificate (handed to a
 * migration that connects as that application) pass; the library's other Secrets never do.
 * @jsii ignore
 */
export function loadableByCluster(trust: TrustClass): boolean {
  return TRUST_CLASSES[trust].holders.includes('loader');
}

/**
 * One trust-bearing object the library writes or refers to: a Secret or an issuer, its owner
 * class and the cluster it belongs to.
 * @jsii ignore
 */
export interface TrustedObject extends TrustTarget {
  /** Its owner class. */
  readonly trust: TrustClass;
  /** What it holds or does, as a message says it: `the CA and its private key`. */
  readonly holds: string;
  /** The cluster it belongs to, as {@link clusterKey} names it. */
  readonly clusterKey: string;
  /** The construct path of the cluster's certificates, for the fix a message names. */
  readonly certificates: string;
  /** Whether the user makes it, outside the library (so that an object of the app may declare it). */
  readonly provided?: boolean;
}

/** The cluster a trusted object belongs to, as {@link TrustedObject.cluster} names it. */
export function clusterKey(namespace: string, clusterName: string): string {
  return `${namespace}/${clusterName}`;
}
