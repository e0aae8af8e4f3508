/**
 * The rules that make the outputs of one database cluster across Kubernetes clusters (`span`) one
 * span, as pure functions over plain data: which outputs are of one span, and the first rule a
 * member breaks. `synthesizeAll` gives them the apps' certificates, `cluster-tls verify` the plans
 * of the outputs it was given; each words a discrepancy in its own one-line error.
 *
 * The outputs of one span are told apart from those of another by what names the database cluster
 * whatever namespace each Kubernetes cluster gives it: its cluster name, and a Kubernetes cluster
 * their declarations share. Two spans of one cluster name over other Kubernetes clusters (staging
 * and production, say) stay apart.
 */
import type { ResolvedKubernetesCluster } from './span';

/** The rotations a member declares: the phase of the last, and every rotation up to it. */
export interface SpanRotations {
  readonly phase: string;
  readonly history: readonly { readonly id: string; readonly kind: string }[];
}

/** One output of a span (an app's certificates, or an output's plan), as the rules read it. */
export interface SpanMember {
  /** The database cluster's name. */
  readonly clusterName: string;
  /** The namespace of its certificates in the Kubernetes cluster whose output it is. */
  readonly namespace: string;
  /** The Kubernetes cluster whose output it is. */
  readonly current: string;
  /** The span as it declares it, in order, every namespace resolved. */
  readonly clusters: readonly ResolvedKubernetesCluster[];
  /**
   * The Kubernetes cluster whose cert-manager keeps the root, none when the root is kept offline.
   * A caller that does not know it (a plan does not record it) leaves it out of every member, and
   * they agree.
   */
  readonly rootCluster?: string;
  /** The rotations it declares, none when it declares none; left out of every member alike when not known. */
  readonly rotations?: SpanRotations;
}

/**
 * The first field in which a member's declaration differs from the first member's: what the
 * first says (`expected`) and what the member says (`received`).
 */
export type SpanDifference =
  /** The Kubernetes clusters, by name and in order. */
  | { readonly field: 'clusters'; readonly expected: readonly string[]; readonly received: readonly string[] }
  /** A domain or a namespace of the Kubernetes cluster at `index` (the clusters are the same). */
  | { readonly field: 'clusterDomain' | 'namespace'; readonly index: number; readonly expected: ResolvedKubernetesCluster; readonly received: ResolvedKubernetesCluster }
  /** The Kubernetes cluster keeping the root, none when kept offline. */
  | { readonly field: 'rootCluster'; readonly expected?: string; readonly received?: string }
  /** The rotations, none when none is declared. */
  | { readonly field: 'rotations'; readonly expected?: SpanRotations; readonly received?: SpanRotations };

/**
 * The first rule a member of a span breaks against a member before it (`other`); both are
 * indices into the members given to {@link spanAgreement}.
 */
export type SpanDiscrepancy =
  /** It is the output of the Kubernetes cluster `other` is the output of. */
  | { readonly rule: 'current'; readonly member: number; readonly other: number }
  /** It is in namespace `received`, not `expected`, the one the first member (`other`) declares for its Kubernetes cluster. */
  | { readonly rule: 'namespace'; readonly member: number; readonly other: number; readonly expected: string; readonly received: string }
  /** Its declaration gives `other`'s Kubernetes cluster (its entry `index`) namespace `received`, not `expected`, the one `other` is in. */
  | { readonly rule: 'declared-namespace'; readonly member: number; readonly other: number; readonly index: number; readonly expected: string; readonly received: string }
  /** It declares the span otherwise than the first member (`other`). */
  | { readonly rule: 'declaration'; readonly member: number; readonly other: number; readonly difference: SpanDifference };

/** The members of one span, and what the rules find of them. */
export interface SpanGroup {
  /** The members, as indices into those given, in their order. */
  readonly members: number[];
  /** The Kubernetes clusters the first member declares that no member is the output of, in order. */
  readonly missing: ResolvedKubernetesCluster[];
  /** The first rule a member breaks, each member checked against those before it, when one does. */
  readonly discrepancy?: SpanDiscrepancy;
}

/**
 * Groups the members into spans (one cluster name, and a Kubernetes cluster their declarations
 * share, whatever namespace each gives it) and checks each span: every member is the output of
 * another Kubernetes cluster, in the namespace the first member declares for it, declares every
 * member before it in the namespace that member is in, and declares the span as the first does.
 */
export function spanAgreement(members: readonly SpanMember[]): SpanGroup[] {
  const groups: number[][] = [];
  members.forEach((member, i) => {
    const group = groups.find((g) => g.some((k) => sameSpan(members[k], member)));
    if (group === undefined) {
      groups.push([i]);
    } else {
      group.push(i);
    }
  });
  return groups.map((group) => {
    const missing = members[group[0]].clusters.filter((c) => !group.some((k) => members[k].current === c.name)).map((c) => ({ ...c }));
    const discrepancy = firstBroken(members, group);
    return { members: group, missing, ...(discrepancy === undefined ? {} : { discrepancy }) };
  });
}

/**
 * What to do when a member is in another namespace than a declaration gives it, followed by where
 * each member is: `declare each Kubernetes cluster's namespace …: east "orders-east", west "orders-west"`.
 * `then` is the step after it (`, and synthesize again`).
 */
export function declareNamespacesHint(members: readonly SpanMember[], then = ''): string {
  return `declare each Kubernetes cluster's namespace in span.clusters, the same in every app of the span${then}: ${
    members.map((m) => `${m.current} "${m.namespace}"`).join(', ')}`;
}

/** Whether two members are of one span: one cluster name, and a Kubernetes cluster in both declarations. */
function sameSpan(a: SpanMember, b: SpanMember): boolean {
  return a.clusterName === b.clusterName && a.clusters.some((x) => b.clusters.some((y) => y.name === x.name));
}

/** The first rule a member of `group` breaks against those before it. */
function firstBroken(members: readonly SpanMember[], group: readonly number[]): SpanDiscrepancy | undefined {
  for (let i = 1; i < group.length; i++) {
    const broken = brokenRule(members, group.slice(0, i), group[i]);
    if (broken !== undefined) {
      return broken;
    }
  }
  return undefined;
}

/** The first rule `member` breaks against the members before it (`earlier`, the first member first). */
function brokenRule(members: readonly SpanMember[], earlier: readonly number[], member: number): SpanDiscrepancy | undefined {
  const m = members[member];
  const same = earlier.find((k) => members[k].current === m.current);
  if (same !== undefined) {
    return { rule: 'current', member, other: same };
  }
  const first = members[earlier[0]];
  const given = first.clusters.find((c) => c.name === m.current);
  if (given !== undefined && given.namespace !== m.namespace) {
    return { rule: 'namespace', member, other: earlier[0], expected: given.namespace, received: m.namespace };
  }
  for (const other of earlier) {
    const index = m.clusters.findIndex((c) => c.name === members[other].current);
    if (index >= 0 && m.clusters[index].namespace !== members[other].namespace) {
      return { rule: 'declared-namespace', member, other, index, expected: members[other].namespace, received: m.clusters[index].namespace };
    }
  }
  const difference = declarationDifference(first, m);
  return difference === undefined ? undefined : { rule: 'declaration', member, other: earlier[0], difference };
}

/** The first field in which `b` declares the span otherwise than `a`: the Kubernetes clusters, then a domain or a namespace, then the root, then the rotations. */
function declarationDifference(a: SpanMember, b: SpanMember): SpanDifference | undefined {
  const [expected, received] = [a.clusters.map((c) => c.name), b.clusters.map((c) => c.name)];
  if (expected.length !== received.length || expected.some((name, i) => name !== received[i])) {
    return { field: 'clusters', expected, received };
  }
  const index = a.clusters.findIndex((c, i) => c.clusterDomain !== b.clusters[i].clusterDomain || c.namespace !== b.clusters[i].namespace);
  if (index >= 0) {
    const field = a.clusters[index].clusterDomain !== b.clusters[index].clusterDomain ? 'clusterDomain' : 'namespace';
    return { field, index, expected: { ...a.clusters[index] }, received: { ...b.clusters[index] } };
  }
  if (a.rootCluster !== b.rootCluster) {
    return { field: 'rootCluster', expected: a.rootCluster, received: b.rootCluster };
  }
  if (!sameRotations(a.rotations, b.rotations)) {
    return { field: 'rotations', expected: a.rotations, received: b.rotations };
  }
  return undefined;
}

/** Whether two members declare the same rotations: the same ids and kinds, in order, at the same phase. */
function sameRotations(a: SpanRotations | undefined, b: SpanRotations | undefined): boolean {
  if (a === undefined || b === undefined) {
    return a === b;
  }
  return a.phase === b.phase && a.history.length === b.history.length && a.history.every((h, i) => h.id === b.history[i].id && h.kind === b.history[i].kind);
}
