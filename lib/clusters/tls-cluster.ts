import { ClusterCertificates } from '../certificates/cluster-certificates';
import { CertificateSubject } from '../certificates/certificate-options';

/** What happens to a cluster's persistent volumes when their claims are deleted. */
export enum PvReclaimPolicy {
  /** Keep the volumes (the specification's value). */
  RETAIN = 'Retain',
  /** Delete the volumes. */
  DELETE = 'Delete',
}

/** Props shared by {@link TlsDatabaseCluster} and {@link TlsMigrationCluster}. */
export interface TlsClusterProps {
  /** The cluster name (`metadata.name`), a DNS-1123 label; every Secret and host name derives from it. */
  readonly clusterName: string;
  /**
   * The namespace the cluster runs in.
   * @default - the namespace of `certificates`, else of the enclosing chart
   */
  readonly namespace?: string;
  /** The release version, `v<major>.<minor>.<patch>`. */
  readonly version: string;
  /**
   * The operator's version, `v<major>.<minor>.<patch>`. When set, every capability the cluster
   * uses is checked against the first operator version that supports it.
   * @default - not checked
   */
  readonly operatorVersion?: string;
  /**
   * The certificates of the cluster. Pass one to share it between the database and the migration
   * cluster of the same name; the cluster adds the server certificates of the components it runs.
   * @default - a new ClusterCertificates (cert-manager method) as the child `Certificates`
   */
  readonly certificates?: ClusterCertificates;
  /**
   * Common Name of the certificates, when the construct creates them.
   * @default - the cluster name
   */
  readonly commonName?: string;
  /**
   * Subject of the certificates, when the construct creates them.
   * @default - organization set to the cluster name
   */
  readonly subject?: CertificateSubject;
  /**
   * What happens to the volumes when their claims are deleted.
   * @default PvReclaimPolicy.RETAIN
   */
  readonly pvReclaimPolicy?: PvReclaimPolicy;
}
