/**
 * What the cluster constructs share: their common props, and the interfaces through which the
 * constructs that build on a cluster (drainer, backup and restore, your own) see it.
 */
import { ApiObject } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-27';
import type { CdkPlusPackage } from '../model/secret-ref';
import { IConstruct } from 'constructs';
import { ClusterCertificates } from '../certificates/cluster-certificates';
import { CertificateSubject } from '../plan/certificate-options';
import { ComponentToken } from '../model/catalog';
import { RunbookStep } from '../documents/runbook';
import { IDatabaseEndpoint, INamespacedCluster } from './endpoints';

/** What every cluster construct exposes: implemented by `TlsDatabaseCluster` and `TlsMigrationCluster`. */
export interface ITlsCluster extends IConstruct, INamespacedCluster {
  /** The cluster's release version. */
  readonly version: string;
  /** The certificates the cluster's components load. */
  readonly certificates: ClusterCertificates;
  /** The Common Name every certificate of the cluster carries. */
  readonly commonName: string;
  /** The components the cluster runs, each with a server certificate. */
  readonly components: ComponentToken[];
  /** The cluster's shared client Secret. */
  readonly clientSecretName: string;
  /** The cluster resource. */
  readonly resource: ApiObject;
  /** The server Secret of one of the cluster's components. */
  serverSecretName(token: ComponentToken): string;
  /** The server Secret of one of the cluster's components, as a cdk8s-plus `ISecret`. */
  serverSecret(token: ComponentToken): kplus.ISecret;
  /** The server Secret of one of the cluster's components, as an `ISecret` of the cdk8s-plus package given. */
  serverSecret<S>(token: ComponentToken, plus: CdkPlusPackage<S>): S;
  /** The shared client Secret, as a cdk8s-plus `ISecret`. */
  clientSecret(): kplus.ISecret;
  /** The shared client Secret, as an `ISecret` of the cdk8s-plus package given. */
  clientSecret<S>(plus: CdkPlusPackage<S>): S;
}

/**
 * A database cluster as the constructs that build on it see it (`DrainerRelease`,
 * `BackupRestore`): implemented by `TlsDatabaseCluster`.
 */
export interface ITlsDatabaseCluster extends ITlsCluster, IDatabaseEndpoint {
  /** The operator version the cluster was declared for, when given. */
  readonly operatorVersion?: string;
  /** Whether the cluster runs with TLS in this synth (false before the `enable` phase of a TLS enablement). */
  readonly tlsEnabled: boolean;
  /** The client Secret of the operator's MySQL clients (backup, restore), when TLS for MySQL clients is on. */
  readonly sqlClientSecretName?: string;
  /** Adds a step to the cluster's runbook, after the cluster's own steps. */
  addRunbookStep(step: RunbookStep): void;
  /** Adds a step to the enablement runbook after the operator's roll of the `enable` phase; nothing otherwise. */
  addEnablementStep(step: RunbookStep): void;
}

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
  /**
   * The release version, `v<major>.<minor>.<patch>`. It also decides which components a rotation
   * restarts: one whose release re-reads its certificate for each new connection takes a renewed
   * certificate while it runs (the catalog's `leafReload`).
   */
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
