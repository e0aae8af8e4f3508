/**
 * The apps of one database cluster across Kubernetes clusters (`span`), checked together before
 * `synthesizeAll` writes any: one declaration of the span in every app, each app the output of
 * another Kubernetes cluster, and every Kubernetes cluster of the span given an app, so that its
 * outputs move phase by phase together.
 *
 * The apps of one span are told apart from those of another by what names the database cluster
 * whatever namespace each Kubernetes cluster gives it: its cluster name, and a Kubernetes cluster
 * their declarations share. Two spans of one cluster name over other Kubernetes clusters (staging
 * and production, say) stay apart.
 */
import type { App } from 'cdk8s';
import { ClusterTlsError, Description, inputError, inputErrorMessage } from '../model/errors';
import { CertificatesFacts, registeredCertificates } from './app-rules';
import { displayPath } from './display-path';

/** A target's certificates of a span, with where the target writes. */
interface SpanApp {
  readonly index: number;
  readonly outdir: string;
  readonly facts: CertificatesFacts;
  readonly span: NonNullable<CertificatesFacts['span']>;
}

/**
 * Refuses the targets when the apps of a span declare it otherwise (its Kubernetes clusters, their
 * domains and namespaces, `rootCluster`, the rotations), when an app's namespace is not the one
 * another's declaration gives its Kubernetes cluster, when two apps are the output of one
 * Kubernetes cluster, or when a Kubernetes cluster of the span has no app.
 */
export function checkSpansAgree(targets: readonly { readonly app: App; readonly outdir: string }[]): void {
  const spans: SpanApp[][] = [];
  for (const [index, { app, outdir }] of targets.entries()) {
    for (const facts of registeredCertificates(app)) {
      if (facts.span === undefined) {
        continue;
      }
      const entry: SpanApp = { index, outdir, facts, span: facts.span };
      const span = spans.find((s) => s.some((e) => sameSpan(e, entry)));
      if (span === undefined) {
        spans.push([entry]);
        continue;
      }
      const sibling = span.find((e) => e.index === index);
      if (sibling !== undefined) {
        refuse(entry, 'span', new Description(`a second span of cluster ${facts.clusterName} across ${names(entry)} in one app (${sibling.facts.node.path} declares the other)`),
          'one cluster of a name across the same Kubernetes clusters in an app: synthesizeAll tells the apps of a span apart by cluster name; '
            + 'give one of the two database clusters another clusterName');
      }
      span.push(entry);
    }
  }
  spans.forEach(checkSpan);
}

/** Whether two certificates are of one span: one cluster name, and a Kubernetes cluster in both declarations. */
function sameSpan(a: SpanApp, b: SpanApp): boolean {
  return a.facts.clusterName === b.facts.clusterName && a.span.clusters.some((x) => b.span.clusters.some((y) => y.name === x.name));
}

/** The checks of the apps of one span, each against those before it, then whether every Kubernetes cluster has an app. */
function checkSpan(span: readonly SpanApp[]): void {
  const [first] = span;
  const cluster = first.facts.clusterName;
  const namespaces = `declare each Kubernetes cluster's namespace in span.clusters, the same in every app of the span: ${
    span.map((e) => `${current(e)} "${e.facts.namespace}"`).join(', ')}`;
  const defaulted = '(an entry of span.clusters without namespace takes its app\'s)';
  span.forEach((entry, i) => {
    const earlier = span.slice(0, i);
    const same = earlier.find((e) => current(e) === current(entry));
    if (same !== undefined) {
      refuse(entry, 'span.current', current(entry), `a Kubernetes cluster whose output no other target of cluster ${cluster} writes: `
        + `${target(same)} writes ${current(same)}'s; give each app of the span its own current`);
    }
    const given = earlier.length === 0 ? undefined : first.span.clusters.find((c) => c.name === current(entry));
    if (given !== undefined && given.namespace !== entry.facts.namespace) {
      refuse(entry, 'namespace', entry.facts.namespace, `"${given.namespace}", the namespace ${target(first)} declares for Kubernetes cluster ${current(entry)} `
        + `of cluster ${cluster} ${defaulted}: ${namespaces}`);
    }
    for (const e of earlier) {
      const k = entry.span.clusters.findIndex((c) => c.name === current(e));
      if (k >= 0 && entry.span.clusters[k].namespace !== e.facts.namespace) {
        refuse(entry, `span.clusters[${k}].namespace`, entry.span.clusters[k].namespace, `"${e.facts.namespace}", the namespace of ${target(e)}, `
          + `Kubernetes cluster ${current(e)}'s output of cluster ${cluster} ${defaulted}: ${namespaces}`);
      }
    }
    if (i > 0) {
      checkSameDeclaration(first, entry);
    }
  });
  const missing = first.span.clusters.find((c) => !span.some((e) => current(e) === c.name));
  if (missing !== undefined) {
    inputError('ClusterTls', 'synthesizeAll.targets', new Description(`no target for Kubernetes cluster ${missing.name} of cluster ${cluster} across ${names(first)}`),
      `one target for each Kubernetes cluster of the span, so that its outputs are checked together: add the app whose span.current is "${missing.name}", `
        + 'or synthesize outputs one at a time with synthesize');
  }
}

/** Refuses `entry` when a field of its span or its rotations differs from `first`'s, naming the first that does. */
function checkSameDeclaration(first: SpanApp, entry: SpanApp): void {
  const [a, b] = [first.span, entry.span];
  const declared = `as ${target(first)} declares`;
  const cluster = first.facts.clusterName;
  const once = 'every app of a span gives it the same declaration; declare it once, in a module every app imports';
  if (names(first) !== names(entry)) {
    refuse(entry, 'span.clusters', new Description(names(entry)), `${names(first)}, ${declared} them for cluster ${cluster}: ${once}`);
  }
  a.clusters.forEach((c, i) => {
    for (const field of ['clusterDomain', 'namespace'] as const) {
      if (b.clusters[i][field] !== c[field]) {
        refuse(entry, `span.clusters[${i}].${field}`, b.clusters[i][field], `"${c[field]}", ${declared} it for cluster ${cluster}: ${once}`);
      }
    }
  });
  const root = (s: typeof a) => (s.root === undefined ? new Description('none (the root kept offline)') : s.root.name);
  if (a.root?.name !== b.root?.name) {
    refuse(entry, 'span.rootCluster', root(b), `${a.root === undefined ? root(a) : `"${a.root.name}"`}, ${declared} it for cluster ${cluster}: `
      + 'one root signs every intermediate of a span; declare rootCluster once, for every app of the span');
  }
  if (rotations(first) !== rotations(entry)) {
    refuse(entry, 'rotations', new Description(rotations(entry)), `${rotations(first)}, ${declared} them for cluster ${cluster}: `
      + 'the Kubernetes clusters of a span move phase by phase together; declare the rotations once, for every app of the span');
  }
}

/** The Kubernetes cluster whose output an app is. */
function current(e: SpanApp): string {
  return e.span.current.name;
}

/** The Kubernetes clusters of an app's span, in order. */
function names(e: SpanApp): string {
  return e.span.clusters.map((c) => c.name).join(', ');
}

/** The rotations an app declares, and their phase. */
function rotations(e: SpanApp): string {
  const r = e.facts.rotation;
  return r === undefined ? 'no rotations' : `${r.history.map((h) => `${h.id} (${h.kind})`).join(', ')} at "${r.phase}"`;
}

/** A target as a refusal names it: its index and output folder. */
function target(e: SpanApp): string {
  return `targets[${e.index}] (${displayPath(e.outdir)})`;
}

/** Throws the refusal of a field of an app's certificates, prefixed with its target, as each target's refusals are. */
function refuse(entry: SpanApp, field: string, received: unknown, expected: string): never {
  throw new ClusterTlsError(`synthesizeAll.${target(entry)}: ${inputErrorMessage(entry.facts.node.path, field, received, expected)}`);
}
