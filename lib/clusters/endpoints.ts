/** What names a cluster: its name and namespace. */
export interface INamespacedCluster {
  /** The cluster name. */
  readonly clusterName: string;
  /** The namespace the cluster runs in. */
  readonly namespace: string;
}

/** What other constructs need to reach a database cluster's SQL server. */
export interface IDatabaseEndpoint extends INamespacedCluster {
  /** The SQL server's host name inside the Kubernetes cluster. */
  readonly sqlHost: string;
  /** The SQL server's port. */
  readonly sqlPort: number;
}

/** Whether a value has what {@link IDatabaseEndpoint} promises. */
export function isDatabaseEndpoint(value: unknown): value is IDatabaseEndpoint {
  const v = value as Partial<IDatabaseEndpoint> | null;
  return typeof v === 'object' && v !== null && typeof v.clusterName === 'string' && typeof v.namespace === 'string'
    && typeof v.sqlHost === 'string' && typeof v.sqlPort === 'number';
}
