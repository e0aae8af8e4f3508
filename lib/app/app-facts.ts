/**
 * The facts of an app that its rules read, computed once per synth: every API object rendered
 * once, with the namespace it lands in and every reference it makes to a Secret or an issuer
 * (`app/app-objects.ts`, which the rotation runbook's list of workloads and the manifests read
 * too), and every trust-bearing object of the app's clusters; and what the rules and the record
 * know of each construct that registers (`registry.ts`). The rules of `app-rules.ts` and
 * `trust-rule.ts` read these and never render an object or walk the construct tree themselves.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { TrustedObject } from '../model/trust';
import { trustReferences } from '../model/trust-references';
import { AppObject, appObjects, readsClusterResourceNamespaces } from './app-objects';
import { SQL_TLS } from '../model/catalog-sql-tls';
import type { MigrationRecreationPhase } from '../model/recreation';

/** One API object of the app, rendered (see `app/app-objects.ts`), its references read where cert-manager reads a ClusterIssuer's Secrets. */
export type ObjectFacts = AppObject;

/** What the app's rules read. */
export interface AppFacts {
  /** Every API object of the app, in the order of the construct tree. */
  readonly objects: readonly ObjectFacts[];
  /** Every trust-bearing object of the app's clusters. */
  readonly trusted: readonly TrustedObject[];
}

/** What the facts need of a cluster's certificates. */
export interface TrustFacts {
  /** Its trust-bearing objects. */
  _trustedObjects(): TrustedObject[];
  /** The namespaces cert-manager reads a ClusterIssuer's Secrets from, for its SQL CA. */
  _clusterResourceNamespaces(): string[];
}

/** What the rules need to know about a `ClusterCertificates`. */
export interface CertificatesFacts extends TrustFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly clusterName: string;
  readonly commonName: string;
  /** Every Secret the certificates issue or require. */
  secretNames(): string[];
  /** Every Secret of the plan in the cluster's namespace, TLS for MySQL clients' included (see `ClusterCertificates._plannedSecrets`). */
  _plannedSecrets(): string[];
  /** The objects named by a joined name or cluster-wide (see `ClusterCertificates._joinedNameClaims`). */
  _joinedNameClaims(): { readonly what: string; readonly namespace?: string; readonly name: string }[];
  /** The issuer `issuerRef` names, and the ClusterIssuer of the SQL CA (see `ClusterCertificates._issuers`). */
  _issuers(): { readonly issuerRef?: { readonly name: string; readonly kind: string; readonly group: string }; readonly sqlIssuer?: string };
  /** The Kubernetes clusters the cluster spans, when it spans several (see `ClusterCertificates.span`). */
  readonly span?: {
    readonly clusters: readonly { readonly name: string; readonly clusterDomain: string; readonly namespace: string }[];
    readonly current: { readonly name: string };
    readonly root?: { readonly name: string };
  };
  /** The rotation declared last, with every one before it (see `ClusterCertificates.rotation`). */
  readonly rotation?: { readonly phase: string; readonly history: readonly { readonly id: string; readonly kind: string }[] };
}

/** What the rules need to know about a `DrainerRelease`. */
export interface DrainerFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly releaseName: string;
  readonly drainerName: string;
}

/** What the record needs to know about a migration cluster's re-creation with TLS. */
export interface RecreationFacts {
  readonly node: IConstruct['node'];
  readonly namespace: string;
  readonly clusterName: string;
  /** The phase declared, if any. */
  readonly recreationPhase?: MigrationRecreationPhase;
}

/** Every API object of `root`, rendered once per synth, with its references and the clusters' trust. */
export function appFacts(root: IConstruct, certificates: readonly TrustFacts[]): AppFacts {
  const clusterResourceNamespaces = [...new Set([SQL_TLS.certManagerNamespace, ...certificates.flatMap((c) => c._clusterResourceNamespaces())])];
  const objects = appObjects(root).map((o): ObjectFacts => (readsClusterResourceNamespaces(o)
    ? { ...o, references: trustReferences(o.rendered, o.namespace, clusterResourceNamespaces) } : o));
  return { objects, trusted: certificates.flatMap((c) => c._trustedObjects()) };
}

/**
 * The construct a message names for an object: a cdk8s-plus workload's object is its child
 * `Resource`, and the workload is named by its own path.
 */
export function holderPath(object: ApiObject): string {
  return object.node.id === 'Resource' && object.node.scope !== undefined ? object.node.scope.node.path : object.node.path;
}
