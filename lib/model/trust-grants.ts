/**
 * Who holds what, attached to the constructs: the library's objects hold what they referred to when
 * the library made them, a cluster resource its cluster's certificates, a workload the app allows
 * what `allowWorkload` gives it (see `trust.ts`). A reference an escape hatch adds later holds
 * nothing.
 */
import type { IConstruct } from 'constructs';
import { TrustRole, TrustedObject } from './trust';
import { ANY_NAMESPACE, TrustTarget, referenceRole, trustReferences } from './trust-references';

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
  /** The cluster whose objects it holds, for a grant over them, as `clusterKey` names it. */
  readonly clusterKey?: string;
  /**
   * Whether the constructs below the one granted hold it too (a workload given to `allowWorkload` holds its pods' objects).
   * @default false
   */
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
  attach(construct, [{ role, clusterKey: cluster, below }]);
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
    } else if (g.target === undefined && g.clusterKey === trusted.clusterKey) {
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
    && (target.namespace === trusted.namespace || target.namespace === ANY_NAMESPACE);
}
