/**
 * Who may hold which trust, as data. Every Secret and every issuer the library writes or refers to
 * belongs to an owner class ({@link TRUST_CLASSES}); each class names the parties ({@link TrustRole})
 * allowed to hold it. One rule (`synth/trust-rule.ts`) reads every object of an app against this
 * table in one pass, whatever its kind: the references an object makes are found by their shape
 * (`trust-references.ts`), never by a list of kinds.
 *
 * The library's own objects hold what they referred to when the library made them
 * ({@link grantOwnReferences}): a reference added later, by an escape hatch, is judged as any
 * other object's would be.
 */
import type { IConstruct } from 'constructs';
import { ClusterKind, COMPONENTS } from './catalog';
import * as names from './names';
import { TrustTarget, referenceRole, trustReferences } from './trust-references';

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

/** How a message names each party. */
export const TRUST_ROLES: Readonly<Record<TrustRole, string>> = {
  writer: 'the cert-manager Certificate that writes it',
  signer: 'the CA issuer that signs with it',
  requester: 'the library\'s own Certificates of the cluster',
  operator: 'the cluster\'s components (the operator\'s pods)',
  tool: 'a tool given to allowWorkload',
  application: 'a workload of its namespace',
  loader: 'the cluster resource that loads it',
  provider: 'an object of the app that declares it',
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
 * One trust-bearing object the library writes or refers to: a Secret or an issuer, its owner
 * class and the cluster it belongs to.
 * @jsii ignore
 */
export interface TrustedObject extends TrustTarget {
  /** Its owner class. */
  readonly trust: TrustClass;
  /** What it holds or does, as a message says it: `the CA and its private key`. */
  readonly holds: string;
  /** The cluster it belongs to: `<namespace>/<cluster name>`. */
  readonly cluster: string;
  /** The construct path of the cluster's certificates, for the fix a message names. */
  readonly certificates: string;
  /** Whether the user makes it, outside the library (so that an object of the app may declare it). */
  readonly provided?: boolean;
}

/** ` of rotation <id>` after what a generation's CA is, nothing for the initial generation's. */
function ofRotation(generation: string): string {
  return generation === names.INITIAL_GENERATION ? '' : ` of rotation ${generation}`;
}

/** The cluster a trusted object belongs to, as {@link TrustedObject.cluster} names it. */
export function clusterKey(namespace: string, clusterName: string): string {
  return `${namespace}/${clusterName}`;
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
  const base = { cluster: clusterKey(namespace, clusterName), certificates: input.certificates };
  const out: TrustedObject[] = [];
  const add = (o: Omit<TrustedObject, 'cluster' | 'certificates'>) => {
    if (!out.some((x) => x.kind === o.kind && x.namespace === o.namespace && x.name === o.name)) {
      out.push({ ...base, ...o });
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
function addSqlTrust(input: ClusterTrustInput, sql: NonNullable<ClusterTrustInput['sql']>, add: (o: Omit<TrustedObject, 'cluster' | 'certificates'>) => void): void {
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

/**
 * A party's hold on trust, attached to a construct: the references a library object was made with,
 * or a role over every trusted object of a cluster.
 * @jsii ignore
 */
export interface TrustGrant {
  /** The role. */
  readonly role: TrustRole;
  /** The one object it holds; for a grant over a cluster's objects, nothing. */
  readonly target?: TrustTarget;
  /** The cluster whose objects it holds, for a grant over them (`<namespace>/<cluster name>`). */
  readonly cluster?: string;
  /** Whether the constructs below the one granted hold it too (a workload given to `allowWorkload` holds its pods' objects). */
  readonly below?: boolean;
}

const GRANTS = Symbol.for('cdk8s-cluster-tls.trust-grants');

/** Attaches grants to a construct. */
function attach(construct: IConstruct, grants: readonly TrustGrant[]): void {
  const holder = construct as IConstruct & { [GRANTS]?: TrustGrant[] };
  if (holder[GRANTS] === undefined) {
    Object.defineProperty(holder, GRANTS, { value: [] });
  }
  holder[GRANTS]!.push(...grants);
}

/**
 * Marks a library object as holding what it refers to as the library makes it: each Secret or
 * issuer its `props` name, in the role its reference gives (a Certificate's `secretName` writes,
 * an issuer's `ca.secretName` signs, an `issuerRef` requests, any other reference loads).
 * `namespace` is the object's; `clusterResourceNamespaces` where a ClusterIssuer's Secrets live.
 * @jsii ignore
 */
export function grantOwnReferences(object: IConstruct, props: unknown, namespace: string | undefined, clusterResourceNamespaces: readonly string[] = []): void {
  attach(object, trustReferences(props, namespace, clusterResourceNamespaces).map((r) => ({ role: referenceRole(r), target: r.target })));
}

/**
 * Gives a construct a role over every trusted object of a cluster that the role may hold: the
 * cluster resource (`operator`), or a workload the app allows (`tool`, with `below`).
 * @jsii ignore
 */
export function grantClusterTrust(construct: IConstruct, role: TrustRole, cluster: string, below = false): void {
  attach(construct, [{ role, cluster, below }]);
}

/**
 * The grants an object holds: its own, and those of the constructs above it that hold for what
 * is below them.
 * @jsii ignore
 */
export function grantsOf(object: IConstruct): TrustGrant[] {
  const own = (c: IConstruct) => (c as IConstruct & { [GRANTS]?: TrustGrant[] })[GRANTS] ?? [];
  return [...own(object), ...object.node.scopes.filter((s) => s !== object).flatMap((s) => own(s).filter((g) => g.below))];
}

/**
 * The roles an object with `grants`, in `namespace`, holds on a trusted object: those granted for it,
 * those granted over its cluster, and `application` for an object of its namespace that is not the
 * library's, and `provider` for one that declares a Secret the user provides.
 * @jsii ignore
 */
export function rolesOn(trusted: TrustedObject, grants: readonly TrustGrant[], namespace: string | undefined, declares: boolean): Set<TrustRole> {
  const roles = new Set<TrustRole>();
  for (const g of grants) {
    if (g.target !== undefined && sameTarget(g.target, trusted)) {
      roles.add(g.role);
    } else if (g.target === undefined && g.cluster === trusted.cluster) {
      roles.add(g.role);
    }
  }
  const library = grants.some((g) => !g.below);
  if (!library && namespace === trusted.namespace) {
    roles.add('application');
  }
  if (declares && trusted.provided) {
    roles.add('provider');
  }
  return roles;
}

/** Whether a reference's target is a trusted object: the same kind and name, in its namespace (`*`: in any). */
export function sameTarget(target: TrustTarget, trusted: TrustTarget): boolean {
  return target.kind === trusted.kind && target.name === trusted.name
    && (target.namespace === trusted.namespace || target.namespace === '*');
}
