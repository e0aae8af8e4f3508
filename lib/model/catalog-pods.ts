/**
 * The operator's pods as data: where it mounts certificate sets, which components can mount the
 * cluster's client set, the labels it puts on every pod, and how soon a mounted Secret's new files
 * reach a running pod.
 */
import type { ComponentToken } from './catalog';

/** Components of the database cluster that can mount the client certificate set (`mountClusterClientSecret`). */
export const CLIENT_SECRET_MOUNTING: readonly ComponentToken[] = ['coordinator', 'store'];

/** The label the operator puts on every pod of a cluster, valued with the cluster's name (the real operator's). */
export const CLUSTER_POD_LABEL = 'app.kubernetes.io/instance';

/** The label the operator puts on every pod of a component, valued with the component (here, its token). */
export const COMPONENT_POD_LABEL = 'app.kubernetes.io/component';

/**
 * How long after a Secret's write every running pod that mounts it holds the new files: the
 * kubelet's default sync period (one minute) twice over, for its jitter. A component that re-reads
 * its certificate for each new connection takes a renewed one within this, with no restart.
 */
export const KUBELET_PROJECTION_SECONDS = 120;

/** Paths inside the pods where the operator mounts certificate sets. */
export const MOUNT_PATHS = {
  /** The coordinator's own server certificate set, where the operator mounts it with TLS on (the real operator's `/var/lib/pd-tls`). */
  coordinatorTls: '/var/lib/coordinator-tls',
  /** The database cluster's client certificate set, when `mountClusterClientSecret` is on. */
  clusterClientTls: '/var/lib/cluster-client-tls',
  /** The migration master's own server certificate set (the real operator's `/var/lib/dm-master-tls`). */
  migMasterTls: '/var/lib/mig-master-tls',
  /** Parent folder of each external database's Secret on the migration pods. */
  externalTls: '/var/lib/source-tls',
  /** Parent folder of each sink database's Secret on the changefeed pods (real operator, release 1.6). */
  sinkTls: '/var/lib/sink-tls',
} as const;
