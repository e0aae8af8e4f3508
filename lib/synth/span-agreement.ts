/**
 * The apps of one database cluster across Kubernetes clusters (`span`), checked together before
 * `synthesizeAll` writes any: one declaration of the span in every app, each app the output of
 * another Kubernetes cluster, and every Kubernetes cluster of the span given an app, so that its
 * outputs move phase by phase together. The rules are `model/span-agreement.ts`'s, which
 * `cluster-tls verify` applies to the plans of the outputs; this module words what they find as
 * a refusal of a target.
 */
import type { App } from 'cdk8s';
import { ClusterTlsError, Description, inputError, inputErrorMessage } from '../model/errors';
import { SpanDifference, SpanDiscrepancy, SpanGroup, SpanMember, SpanRotations, declareNamespacesHint, spanAgreement } from '../model/span-agreement';
import { registeredCertificates } from '../app/registry';
import { displayPath } from './display-path';

/** A target's certificates of a span, as the rules read them, with where the target writes. */
interface SpanApp extends SpanMember {
  /** The target's index in `synthesizeAll`'s targets. */
  readonly index: number;
  readonly outdir: string;
  /** The certificates' construct path. */
  readonly path: string;
}

/**
 * Refuses the targets when the apps of a span declare it otherwise (its Kubernetes clusters, their
 * domains and namespaces, `rootCluster`, the rotations), when an app's namespace is not the one
 * another's declaration gives its Kubernetes cluster, when two apps are the output of one
 * Kubernetes cluster, or when a Kubernetes cluster of the span has no app.
 */
export function checkSpansAgree(targets: readonly { readonly app: App; readonly outdir: string }[]): void {
  const apps: SpanApp[] = targets.flatMap(({ app, outdir }, index) => registeredCertificates(app).flatMap((facts) => (facts.span === undefined ? [] : [{
    index, outdir, path: facts.node.path, clusterName: facts.clusterName, namespace: facts.namespace, current: facts.span.current.name,
    clusters: facts.span.clusters, rootCluster: facts.span.root?.name, rotations: facts.rotation,
  }])));
  const groups = spanAgreement(apps);
  groups.forEach((group) => checkOnePerApp(apps, group));
  for (const { members, discrepancy, missing } of groups) {
    const first = apps[members[0]];
    if (discrepancy !== undefined) {
      refuseDiscrepancy(apps, members.map((k) => apps[k]), discrepancy);
    }
    if (missing.length > 0) {
      inputError('ClusterTls', 'synthesizeAll.targets', new Description(`no target for Kubernetes cluster ${missing[0].name} of cluster ${first.clusterName} across ${kubernetesClusters(first)}`),
        `one target for each Kubernetes cluster of the span, so that its outputs are checked together: add the app whose span.current is "${missing[0].name}", `
          + 'or synthesize outputs one at a time with synthesize');
    }
  }
}

/** Refuses a span two certificates of one app are in: the apps of a span are told apart by cluster name. */
function checkOnePerApp(apps: readonly SpanApp[], { members }: SpanGroup): void {
  members.forEach((k, i) => {
    const entry = apps[k];
    const sibling = members.slice(0, i).map((e) => apps[e]).find((e) => e.index === entry.index);
    if (sibling !== undefined) {
      refuse(entry, 'span', new Description(`a second span of cluster ${entry.clusterName} across ${kubernetesClusters(entry)} in one app (${sibling.path} declares the other)`),
        'one cluster of a name across the same Kubernetes clusters in an app: synthesizeAll tells the apps of a span apart by cluster name; '
          + 'give one of the two database clusters another clusterName');
    }
  });
}

/** Refuses the app that breaks a rule of its span, naming the app it disagrees with. */
function refuseDiscrepancy(apps: readonly SpanApp[], span: readonly SpanApp[], discrepancy: SpanDiscrepancy): never {
  const [entry, other] = [apps[discrepancy.member], apps[discrepancy.other]];
  const cluster = entry.clusterName;
  const defaulted = '(an entry of span.clusters without namespace takes its app\'s)';
  switch (discrepancy.rule) {
    case 'current':
      return refuse(entry, 'span.current', entry.current, `a Kubernetes cluster whose output no other target of cluster ${cluster} writes: `
        + `${target(other)} writes ${other.current}'s; give each app of the span its own current`);
    case 'namespace':
      return refuse(entry, 'namespace', discrepancy.received, `"${discrepancy.expected}", the namespace ${target(other)} declares for Kubernetes cluster ${entry.current} `
        + `of cluster ${cluster} ${defaulted}: ${declareNamespacesHint(span)}`);
    case 'declared-namespace':
      return refuse(entry, `span.clusters[${discrepancy.index}].namespace`, discrepancy.received, `"${discrepancy.expected}", the namespace of ${target(other)}, `
        + `Kubernetes cluster ${other.current}'s output of cluster ${cluster} ${defaulted}: ${declareNamespacesHint(span)}`);
    case 'declaration':
      return refuseDifference(entry, other, discrepancy.difference);
  }
}

/** Refuses `entry` for the first field of its span or its rotations that differs from `first`'s. */
function refuseDifference(entry: SpanApp, first: SpanApp, difference: SpanDifference): never {
  const declared = `as ${target(first)} declares`;
  const cluster = first.clusterName;
  const once = 'every app of a span gives it the same declaration; declare it once, in a module every app imports';
  switch (difference.field) {
    case 'clusters':
      return refuse(entry, 'span.clusters', new Description(difference.received.join(', ')), `${difference.expected.join(', ')}, ${declared} them for cluster ${cluster}: ${once}`);
    case 'clusterDomain':
    case 'namespace': {
      const { field, index, expected, received } = difference;
      return refuse(entry, `span.clusters[${index}].${field}`, received[field], `"${expected[field]}", ${declared} it for cluster ${cluster}: ${once}`);
    }
    case 'rootCluster': {
      const kept = 'none (the root kept offline)';
      const { expected, received } = difference;
      return refuse(entry, 'span.rootCluster', received ?? new Description(kept), `${expected === undefined ? kept : `"${expected}"`}, ${declared} it for cluster ${cluster}: `
        + 'one root signs every intermediate of a span; declare rootCluster once, for every app of the span');
    }
    case 'rotations':
      return refuse(entry, 'rotations', new Description(rotations(difference.received)), `${rotations(difference.expected)}, ${declared} them for cluster ${cluster}: `
        + 'the Kubernetes clusters of a span move phase by phase together; declare the rotations once, for every app of the span');
  }
}

/** The Kubernetes clusters of an app's span, in order. */
function kubernetesClusters(e: SpanApp): string {
  return e.clusters.map((c) => c.name).join(', ');
}

/** The rotations an app declares, and their phase. */
function rotations(r: SpanRotations | undefined): string {
  return r === undefined ? 'no rotations' : `${r.history.map((h) => `${h.id} (${h.kind})`).join(', ')} at "${r.phase}"`;
}

/** A target as a refusal names it: its index and output folder. */
function target(e: SpanApp): string {
  return `targets[${e.index}] (${displayPath(e.outdir)})`;
}

/** Throws the refusal of a field of an app's certificates, prefixed with its target, as each target's refusals are. */
function refuse(entry: SpanApp, field: string, received: unknown, expected: string): never {
  throw new ClusterTlsError(`synthesizeAll.${target(entry)}: ${inputErrorMessage(entry.path, field, received, expected)}`);
}
