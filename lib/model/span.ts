/**
 * One database cluster across several Kubernetes clusters: the declaration an app gives once (the
 * Kubernetes clusters, each with its cluster DNS domain and, when it is not the app's, the
 * namespace of the database cluster there) and the pure functions over it. Each
 * Kubernetes cluster gets an output of its own, synthesized by an app that names it as `current`;
 * trust runs through one root CA that signs one intermediate CA per Kubernetes cluster, so that no
 * Kubernetes cluster holds the key of the root or of another's intermediate.
 */
import type { IConstruct } from 'constructs';
import { inputError } from './errors';
import { PropSpec, listOf, objectOf } from './props';
import { requireDnsLabel, requireDnsName } from './validate';

/** A Kubernetes cluster a deployment spans. */
export interface KubernetesClusterSpec {
  /**
   * A short name for the Kubernetes cluster, a DNS label: it names the cluster's intermediate CA
   * and its Secret (`<cluster>-<name>-intermediate-ca-secret`).
   */
  readonly name: string;
  /**
   * The cluster DNS domain of that Kubernetes cluster (its kubelets' `clusterDomain`), such as
   * `east.example.com`: the members there are reached as `….svc.<clusterDomain>`, and the
   * `DatabaseCluster` there carries it as `spec.clusterDomain`.
   */
  readonly clusterDomain: string;
  /**
   * The namespace of the database cluster in that Kubernetes cluster, when each Kubernetes cluster
   * names it for its own site (`orders-east`, `orders-west`): the `DatabaseCluster` of every other
   * Kubernetes cluster joins the first one's in the first one's namespace. Give the same value in
   * every cluster's app; in the entry of the app's own Kubernetes cluster (`current`) it must be
   * the namespace of the app's certificates.
   *
   * @default - the namespace of the app's certificates: every Kubernetes cluster uses the same one
   */
  readonly namespace?: string;
}

/**
 * A Kubernetes cluster of a span, its namespace resolved.
 * @jsii ignore
 */
export interface ResolvedKubernetesCluster {
  /** Its short name, as {@link KubernetesClusterSpec.name}. */
  readonly name: string;
  /** Its cluster DNS domain, as {@link KubernetesClusterSpec.clusterDomain}. */
  readonly clusterDomain: string;
  /** The namespace of the database cluster there: the one declared, else the app's. */
  readonly namespace: string;
}

/** The Kubernetes clusters one database cluster spans, and the one an app's output is for. */
export interface KubernetesSpan {
  /**
   * The Kubernetes clusters, in the order they join: the `DatabaseCluster` of the first is the one
   * the others join (`spec.cluster`). Adding a cluster at the end changes nothing in the manifests
   * of the others (their plans list it, for `cluster-tls verify`); never reorder the list or remove
   * a cluster that runs members. Give every cluster's app the same list.
   */
  readonly clusters: KubernetesClusterSpec[];
  /** The name of the Kubernetes cluster this app's output is for: one of `clusters`. */
  readonly current: string;
  /**
   * The Kubernetes cluster whose cert-manager keeps the span's root CA: one of `clusters`. Its
   * output declares the root (a self-signed Certificate) and a CA Issuer on it, and every
   * cluster's `issue-intermediate.sh` has that Issuer sign its intermediate through a
   * CertificateRequest there, so the root's key stays in that cluster's Secret. Give the same
   * value in every cluster's app, and never change it once the clusters run: another root would
   * sign the intermediates.
   *
   * @default - no cluster: the user keeps the root offline and the script signs with cfssl
   */
  readonly rootCluster?: string;
}

/**
 * A span, checked, each Kubernetes cluster with its namespace.
 * @jsii ignore
 */
export interface ResolvedSpan {
  /** Every Kubernetes cluster of the span, in the order they join. */
  readonly clusters: ResolvedKubernetesCluster[];
  /** The Kubernetes cluster of this output. */
  readonly current: ResolvedKubernetesCluster;
  /** The first Kubernetes cluster, whose `DatabaseCluster` the others join. */
  readonly first: ResolvedKubernetesCluster;
  /** The Kubernetes cluster whose cert-manager keeps the root, or none when the user keeps it offline. */
  readonly root?: ResolvedKubernetesCluster;
}

/** The shape of the `span` prop. */
export const SPAN_SHAPE: PropSpec = objectOf({
  clusters: listOf({ name: { type: 'string', example: 'east' }, clusterDomain: { type: 'string', example: 'east.example.com' }, namespace: 'string?' }, false, 'a list of Kubernetes clusters, each { name, clusterDomain, namespace? }'),
  current: { type: 'string', example: 'east' },
  rootCluster: 'string?',
}, true, 'an object { clusters, current }');

/** The most Kubernetes clusters a span holds: one intermediate each, signed by one root. */
const MAX_SPAN_CLUSTERS = 10;

/**
 * Checks a span: at least one Kubernetes cluster, at most {@link MAX_SPAN_CLUSTERS}, each name a DNS
 * label and each domain a DNS name, both unique, each namespace a DNS label, `current` one of the
 * names, its namespace `namespace` (the certificates'), which every cluster without one takes.
 */
export function resolveSpan(scope: IConstruct, span: KubernetesSpan | undefined, namespace: string): ResolvedSpan | undefined {
  if (span === undefined) {
    return undefined;
  }
  const clusters: ResolvedKubernetesCluster[] = span.clusters.map((c) => ({ name: c.name, clusterDomain: c.clusterDomain, namespace: c.namespace ?? namespace }));
  if (clusters.length === 0 || clusters.length > MAX_SPAN_CLUSTERS) {
    inputError(scope, 'span.clusters', `${clusters.length} Kubernetes clusters`, `from 1 to ${MAX_SPAN_CLUSTERS} Kubernetes clusters`);
  }
  clusters.forEach((cluster, i) => {
    requireDnsLabel(scope, `span.clusters[${i}].name`, cluster.name);
    requireDnsName(scope, `span.clusters[${i}].clusterDomain`, cluster.clusterDomain);
    requireDnsLabel(scope, `span.clusters[${i}].namespace`, cluster.namespace);
    const before = clusters.slice(0, i);
    if (before.some((c) => c.name === cluster.name)) {
      inputError(scope, `span.clusters[${i}].name`, cluster.name, 'a name no other Kubernetes cluster of the span has');
    }
    if (before.some((c) => c.clusterDomain === cluster.clusterDomain)) {
      inputError(scope, `span.clusters[${i}].clusterDomain`, cluster.clusterDomain,
        'a domain no other Kubernetes cluster of the span has: the members of two clusters of one domain cannot tell each other\'s names from their own');
    }
  });
  const named = (field: string, name: string) => clusters.find((c) => c.name === name)
    ?? inputError(scope, field, name, `the name of one of the span's Kubernetes clusters: ${clusters.map((c) => `"${c.name}"`).join(', ')}`);
  const current = named('span.current', span.current);
  if (current.namespace !== namespace) {
    inputError(scope, `span.clusters[${clusters.indexOf(current)}].namespace`, current.namespace,
      `"${namespace}", the namespace of these certificates, where the app of Kubernetes cluster ${current.name} writes its objects, or none: `
        + 'declare in span.clusters the namespace each Kubernetes cluster\'s app gives its certificates, the same in every app of the span');
  }
  const root = span.rootCluster === undefined ? undefined : named('span.rootCluster', span.rootCluster);
  return { clusters: clusters.map((c) => ({ ...c })), current: { ...current }, first: { ...clusters[0] }, ...(root === undefined ? {} : { root: { ...root } }) };
}
