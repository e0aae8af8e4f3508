/**
 * Which constructs of an app made the certificates of a cluster, by namespace and cluster name: a
 * map kept per app (a `WeakMap` keyed by its root), filled as the certificates are made, so that
 * a cluster construct asks for its cluster's in one look-up rather than walking the construct
 * tree, which made adding N clusters take time in N².
 */
import { IConstruct } from 'constructs';
import { clusterKey } from '../model/trust';

/** The claims of each app, by its root, then by cluster. */
const claims = new WeakMap<IConstruct, Map<string, IConstruct[]>>();

/** Records that `construct` holds the certificates of cluster `namespace`/`clusterName`. */
export function claimCluster(construct: IConstruct, namespace: string, clusterName: string): void {
  const root = construct.node.root;
  const byCluster = claims.get(root) ?? new Map<string, IConstruct[]>();
  claims.set(root, byCluster);
  const key = clusterKey(namespace, clusterName);
  byCluster.set(key, [...(byCluster.get(key) ?? []), construct]);
}

/**
 * The constructs of the app that holds `scope` that claimed cluster `namespace`/`clusterName`, in
 * the order of the construct tree (as `node.findAll()` lists them), whatever order they were made in.
 */
export function clusterClaims(scope: IConstruct, namespace: string, clusterName: string): IConstruct[] {
  return [...(claims.get(scope.node.root)?.get(clusterKey(namespace, clusterName)) ?? [])].sort(treeOrder);
}

/** Compares two constructs of one tree by their place in its pre-order. */
function treeOrder(a: IConstruct, b: IConstruct): number {
  const [up, down] = [a.node.scopes, b.node.scopes];
  let i = 0;
  while (i < up.length && i < down.length && up[i] === down[i]) {
    i++;
  }
  // One holds the other (its scope comes first), or they part below a common scope, ordered as its children.
  if (i === up.length || i === down.length) {
    return up.length - down.length;
  }
  const siblings = up[i - 1].node.children;
  return siblings.indexOf(up[i]) - siblings.indexOf(down[i]);
}
