/**
 * The objects of `TlsMigrationCluster`'s props: its members, the upstream sources, the downstream
 * target and the task. Only types: how they are checked is the shape of `tls-migration-cluster.ts`.
 */
import type { StorageSize } from '../model/quantity';
import type { SecretRef } from '../model/secret-ref';
import type { IDatabaseEndpoint } from './endpoints';

/** Settings of the master or the worker members. */
export interface MigrationMemberProps {
  /**
   * Container image name, without a tag: the operator appends the cluster's `version`.
   * @default - the operator's image
   */
  readonly baseImage?: string;
  /**
   * How many replacement members the operator may create on failure.
   * @default 0
   */
  readonly maxFailoverCount?: number;
  /**
   * Number of members.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * Size of each member's data volume: a quantity such as `10Gi`, or a cdk8s `Size`.
   * @default '10Gi'
   */
  readonly storageSize?: StorageSize;
}

/** The worker members. */
export interface MigrationWorkerProps extends MigrationMemberProps {
  /**
   * Common Names the worker accepts in addition to the certificates' Common Name. (The master
   * accepts exactly one, the certificates'.)
   * @default - only the certificates' Common Name
   */
  readonly extraAllowedCommonNames?: string[];
}

/** An upstream MySQL-protocol database that requires TLS. */
export interface MigrationSource {
  /** The source id (`source-id`); also names its file, `<source-id>.yaml`. */
  readonly sourceId: string;
  /** Host name of the database. */
  readonly host: string;
  /**
   * Port of the database.
   * @default 3306
   */
  readonly port?: number;
  /** The user name the migration cluster connects as (the specification allows an empty string). */
  readonly user: string;
  /**
   * The password, written to the source file as given. Leave it out to keep it out of the output
   * and supply it at deploy time (see the runbook).
   * @default '' (empty, filled in at deploy time)
   */
  readonly password?: string;
  /**
   * The Secret in the cluster's namespace that holds the client certificate set for this database
   * (`tls.crt`, `tls.key`, `ca.crt`). Several databases may share one. A name, or a cdk8s-plus `ISecret`.
   */
  readonly tlsSecretName: SecretRef;
  /**
   * The worker's relay-log folder for this source (`relay-dir`).
   * @default './relay_log'
   */
  readonly relayDir?: string;
}

/**
 * The downstream database: either a host name (`host`, `port`) or a database cluster of this
 * library (`database`), not both.
 */
export interface MigrationTarget {
  /**
   * Host name of the database.
   * @default - the SQL host of `database`; one of the two is required
   */
  readonly host?: string;
  /**
   * Port of the database, with `host`.
   * @default 4000 with `host`; the SQL port of `database`
   */
  readonly port?: number;
  /**
   * A database cluster (such as a `TlsDatabaseCluster`) to migrate into, instead of `host`.
   * @default - `host` is used
   */
  readonly database?: IDatabaseEndpoint;
  /** The user name the migration cluster connects as (the specification allows an empty string). */
  readonly user: string;
  /**
   * The password, written to the task file as given. Leave it out to keep it out of the output
   * and supply it at deploy time (see the runbook).
   * @default '' (empty, filled in at deploy time)
   */
  readonly password?: string;
  /**
   * The Secret in the cluster's namespace that holds the client certificate set for this database
   * (`tls.crt`, `tls.key`, `ca.crt`). It may be the same as a source's. A name, or a cdk8s-plus `ISecret`.
   * @default - with `database`, a client certificate the library issues for `user` with the
   * database's `addSqlClient(user)` (its SQL server must take TLS from clients: `tlsClient`), in
   * this cluster's namespace; required with `host`
   */
  readonly tlsSecretName?: SecretRef;
}

/** The migration task. */
export interface MigrationTaskProps {
  /** The task name (`name`). */
  readonly name: string;
  /**
   * The task mode (`task-mode`).
   * @default 'all'
   */
  readonly taskMode?: string;
  /**
   * Whether the sources are shards merged into one target (`is-sharding`).
   * @default false
   */
  readonly isSharding?: boolean;
  /**
   * The folder for dumped data (`loaders.global.dir`).
   * @default './dumped_data'
   */
  readonly loaderDir?: string;
}
