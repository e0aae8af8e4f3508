/**
 * The props of each component of a `TlsDatabaseCluster`: what every component takes (image, pods,
 * configuration), what some take (failover, storage, more allowed Common Names), and each
 * component's own fields.
 */
import type { SecretRef } from '../model/secret-ref';
import type { StorageSize } from '../model/quantity';

/** How the SQL server is exposed. */
export enum SqlServiceType {
  /** Inside the Kubernetes cluster only (the specification's value). */
  CLUSTER_IP = 'ClusterIP',
  /** On a port of every node. */
  NODE_PORT = 'NodePort',
  /** Through a cloud load balancer. */
  LOAD_BALANCER = 'LoadBalancer',
}

/** Settings shared by every component of the database cluster. */
export interface DatabaseComponentProps {
  /**
   * Container image name, without tag (the operator adds the cluster version).
   * @default - the operator's image for the component
   */
  readonly baseImage?: string;
  /**
   * Number of pods.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * Free-form component configuration, passed through as `config`. The allowed Common Name list
   * is set by the construct; do not set it here.
   * @default - none
   */
  readonly config?: { readonly [key: string]: any };
}

/** A component that the operator may replace on failure. */
export interface FailoverComponentProps extends DatabaseComponentProps {
  /**
   * How many replacement pods the operator may create on failure.
   * @default 0
   */
  readonly maxFailoverCount?: number;
}

/** A component that keeps data on one volume. */
export interface StorageComponentProps {
  /**
   * Storage request of each pod's volume (`requests.storage`): a quantity such as `10Gi`, `.5Gi` or
   * `1e3`, or a cdk8s `Size` (`Size.gibibytes(10)`, written `10Gi`).
   * @default '10Gi' for the coordinator, '100Gi' for the store, '20Gi' for pump
   */
  readonly storage?: StorageSize;
}

/** Components that accept more allowed Common Names than the certificates' own. */
export interface AllowedCommonNamesProps {
  /**
   * Common Names accepted from peers in addition to the certificates' Common Name.
   * @default - only the certificates' Common Name
   */
  readonly extraAllowedCommonNames?: string[];
}

/** The coordinator: exactly one allowed Common Name, the certificates'. */
export interface CoordinatorProps extends FailoverComponentProps, StorageComponentProps {}

/** The store. */
export interface StoreProps extends FailoverComponentProps, StorageComponentProps, AllowedCommonNamesProps {}

/** The SQL server. */
export interface SqlServerProps extends FailoverComponentProps, AllowedCommonNamesProps {
  /**
   * The SQL server's service type.
   * @default SqlServiceType.CLUSTER_IP
   */
  readonly serviceType?: SqlServiceType;
}

/** The pump. */
export interface PumpProps extends DatabaseComponentProps, StorageComponentProps, AllowedCommonNamesProps {}

/** The changefeed component (TLS from component version 4.0.3). */
export interface ChangefeedProps extends DatabaseComponentProps, AllowedCommonNamesProps {
  /**
   * Secrets (keys `tls.crt`, `tls.key`, `ca.crt`) for TLS towards the databases the changefeed
   * writes to, listed in `spec.changefeed.tlsClientSecretNames`. The operator mounts each at
   * `/var/lib/sink-tls/<secret name>` in the changefeed pods; {@link TlsDatabaseCluster.sinkTlsFiles}
   * gives the paths to put in a sink's URI. They are not the cluster's own certificates. Each is
   * a name or a cdk8s-plus `ISecret`.
   * @default - none
   */
  readonly sinkTlsSecretNames?: SecretRef[];
}

/** One storage claim of the columnar component. */
export interface StorageClaim {
  /** Storage request: a quantity such as `100Gi`, or a cdk8s `Size`. */
  readonly storage: StorageSize;
  /**
   * Storage class.
   * @default - the cluster's default storage class
   */
  readonly storageClassName?: string;
}

/**
 * The columnar component (TLS from component version 4.0.5). Its `config` holds two documents,
 * `config` (the engine's configuration) and `proxy` (its storage proxy's); the construct sets the
 * allowed Common Names in both.
 */
export interface ColumnarProps extends FailoverComponentProps, AllowedCommonNamesProps {
  /**
   * The volumes the component keeps its data on.
   * @default - one claim of 100Gi
   */
  readonly storageClaims?: StorageClaim[];
}
