/**
 * The `TlsMigrationCluster` construct: the `MigrationCluster` with TLS between its members, and
 * the migration tool's source and task files and runbook, from one declaration of the databases.
 */
import * as path from 'node:path';
import { ApiObject, Chart } from 'cdk8s';
import { clusterKey } from '../model/trust';
import type * as kplus from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { ClusterKind, ComponentToken, DeployedBy, PORTS, SHOWN_VALUES, clusterKind, component, componentsOf } from '../model/catalog';
import { SQL_TLS } from '../model/catalog-sql-tls';
import { isSqlClientName, requireOwnSqlUser } from '../certificates/sql-tls';
import type { TlsDatabaseCluster } from './tls-database-cluster';
import { ClusterCertificates } from '../certificates/cluster-certificates';
import { IDatabaseEndpoint, isDatabaseEndpoint } from './endpoints';
import { inputError, shown } from '../model/errors';
import { OutputFile } from '../app/output-file';
import {
  MigrationRunbookInput, ResolvedDatabase, ResolvedSource, ResolvedTask, configYaml, migrationRunbook, sourceConfig, taskConfig,
} from '../documents/migration-files';
import {
  TASK_FILE, databaseRunbookPath, fromOutputFolder, inFilesFolder, manifestFileName, migrationFolder, migrationRunbookPath, migrationSourcePath, migrationTaskPath,
  recreationRunbookPath, sourceFileName,
} from '../model/output-layout';
import { compact, operatorObject } from './operator';
import { ITlsCluster, PvReclaimPolicy, TlsClusterProps } from './tls-cluster';
import { ownComponent, tlsClusterShape, requireMountedSecretName, resolveCluster, rotationRestart } from './cluster-props';
import { CdkPlusPackage, SecretRef, secretRef } from '../model/secret-ref';
import { PropShape, ShapeOf, acrossRules, checkProps, constructOf, declareShape, listOf, objectOf, strings, text, withRules } from '../model/props';
import { StorageSize, storageSize } from '../model/quantity';
import { MIGRATION_SOURCE_ID_MAX } from '../model/limits';
import { requireCount, requireExtraCommonNames, requireHost, requireImageName, requireNoCredentials, requireQuantity } from '../model/validate';
import { MigrationRecreation, MigrationRecreationPhase, RECREATION_SHAPE, recreationTls } from '../model/recreation';
import { registerRecreation } from '../app/registry';
import { recreationRunbook } from '../documents/recreation-runbook';

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

/** Props of {@link TlsMigrationCluster}. */
export interface TlsMigrationClusterProps extends TlsClusterProps {
  /**
   * How the members find the database cluster's coordinator, passed through as `spec.discovery`.
   * @default {}
   */
  readonly discovery?: { readonly [key: string]: any };
  /**
   * The master members.
   * @default - defaults of each field
   */
  readonly master?: MigrationMemberProps;
  /**
   * The worker members.
   * @default - defaults of each field
   */
  readonly worker?: MigrationWorkerProps;
  /** The upstream databases, at least one. */
  readonly sources: MigrationSource[];
  /** The downstream database. */
  readonly target: MigrationTarget;
  /** The migration task. */
  readonly task: MigrationTaskProps;
  /**
   * A re-creation with TLS of this cluster, which runs without it today: `stop` (the runbook
   * stops the task and deletes the plain-text cluster), then `create` (the cluster with TLS, the
   * task resumed from its checkpoint), one phase per commit; drop the prop once `create` is
   * done. The operator cannot turn TLS on in a running migration cluster.
   * @default - no re-creation: the cluster is created with TLS
   */
  readonly recreation?: MigrationRecreation;
}

/**
 * A source id or task name. A source id names the source's file, so both are kept to characters
 * and a length every file system takes (the specification sets no limit).
 */
const ID = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const ID_RULE = 'at most 63 letters, digits, \'.\', \'_\' and \'-\', starting and ending with a letter or digit';
/** A source id: an {@link ID} of at most the migration tool's longest, which its source and subtask checks refuse past. */
const SOURCE_ID_RULE = `at most ${MIGRATION_SOURCE_ID_MAX} letters, digits, '.', '_' and '-', starting and ending with a letter or digit (the migration tool refuses a longer source id)`;
const NO_SPACE = /^\S+$/;

/** The members the operator runs from the `MigrationCluster`: the master and the worker. */
const MEMBERS = componentsOf(ClusterKind.MIGRATION, DeployedBy.OPERATOR);

/** A target database of the library that issues certificates for MySQL clients, as a `TlsDatabaseCluster` does. */
type SqlClientIssuer = IDatabaseEndpoint & Pick<TlsDatabaseCluster, 'certificates' | 'sqlClientSecretName' | 'addSqlClient'>;

/** Whether a target database is one of the library's, whose certificates can issue the migration's client certificate. */
function isSqlClientIssuer(database: IDatabaseEndpoint): database is SqlClientIssuer {
  const d = database as Partial<SqlClientIssuer>;
  return typeof d.addSqlClient === 'function' && d.certificates instanceof ClusterCertificates;
}

/** The Secrets of the applications that certificates issue in a namespace. */
function applicationSecretsIn(certificates: ClusterCertificates, namespace: string): string[] {
  return certificates.sqlTls?.applications.filter((a) => a.namespace === namespace).map((a) => a.secretName) ?? [];
}

/** The props of each member, by the member's spec key (`master`, `worker`). */
type MemberPropsBySpecKey = { readonly [specKey: string]: MigrationWorkerProps | undefined };

/** Nests `value` under `path`: `['config', 'x']` gives `{ config: { x: value } }`. */
function atPath(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

const MEMBER: PropShape = { baseImage: 'string?', maxFailoverCount: 'number?', replicas: 'number?', storageSize: storageSize() };
const EXTRA: PropShape = { extraAllowedCommonNames: strings('a list of Common Names') };

const USER = { ...text('a user name (a string; the specification allows an empty one)', false), example: 'migrator' };
const PASSWORD = text('a string, or nothing to supply it at deploy time');

/** The props both cluster constructs have, with the migration cluster's releases. */
const TLS_CLUSTER_SHAPE = tlsClusterShape(ClusterKind.MIGRATION);

/** The props of a migration cluster, as JavaScript types. */
const MIGRATION_CLUSTER_SHAPE = declareShape('TlsMigrationCluster', withRules({
  ...TLS_CLUSTER_SHAPE,
  discovery: 'object?',
  // The master has no extra names; asking for them gets its own message.
  master: objectOf({ ...MEMBER, ...EXTRA }),
  worker: objectOf({ ...MEMBER, ...EXTRA }),
  sources: listOf({
    sourceId: { type: 'string', example: 'mysql-01' }, host: { type: 'string', example: 'mysql-01.example.com' }, port: 'number?', user: USER, password: PASSWORD, tlsSecretName: secretRef(false), relayDir: 'string?',
  }, false, 'a list of at least one upstream database: [{ sourceId, host, user, tlsSecretName }, …]', 'an upstream database: { sourceId, host, user, tlsSecretName }', 'migrationSources'),
  target: objectOf({
    host: 'string?',
    port: 'number?',
    database: constructOf(isDatabaseEndpoint, 'a database cluster of this library, such as a TlsDatabaseCluster', true),
    user: USER,
    password: PASSWORD,
    tlsSecretName: secretRef(true),
  }, false, 'the downstream database: { host, user, tlsSecretName } or { database, user }'),
  task: objectOf({ name: { type: 'string', example: 'orders' }, taskMode: 'string?', isSharding: 'boolean?', loaderDir: 'string?' }, false, 'the migration task: { name }'),
  recreation: objectOf(RECREATION_SHAPE, true, 'an object { phase }'),
} satisfies ShapeOf<TlsMigrationClusterProps>, acrossRules(TLS_CLUSTER_SHAPE)));

/** Adds the master's and the worker's server certificates, unless the certificates passed in hold them already. */
function addMemberCertificates(certificates: ClusterCertificates): void {
  for (const token of MEMBERS) {
    // Certificates passed in may hold a member already, perhaps with extra names: it is kept as
    // it is, since addComponent refuses the same component with other options.
    if (!certificates.hasComponent(token)) {
      certificates.addComponent(token);
    }
  }
}

/**
 * A `MigrationCluster` with TLS between its members, connected over TLS to external
 * MySQL-protocol databases (specification, sections C, D and E).
 *
 * From one declaration of each upstream source and the downstream target it writes the cluster
 * resource (with `spec.tlsClientSecretNames`), one source configuration per upstream, the task
 * configuration and a runbook, so that Secret names, mount paths and source ids always agree.
 * Files go to `<namespace>/<cluster>/migration/` and `<namespace>/<cluster>/migration-runbook.md`.
 */
export class TlsMigrationCluster extends Construct implements ITlsCluster {
  /** The cluster name. */
  public readonly clusterName: string;
  /** The namespace. */
  public readonly namespace: string;
  /** The release version. */
  public readonly version: string;
  /** The certificates of the cluster. */
  public readonly certificates: ClusterCertificates;
  /** The Common Name the members accept (the master accepts only this one). */
  public readonly commonName: string;
  /** The shared client Secret of the migration cluster (`${cluster_name}-mig-client-secret`). */
  public readonly clientSecretName: string;
  /** The external databases' Secrets, as listed in `spec.tlsClientSecretNames`. */
  public readonly tlsClientSecretNames: string[];
  /** The `MigrationCluster` object. */
  public readonly resource: ApiObject;
  /** The source configuration files, one per upstream, in declaration order. */
  public readonly sourceFiles: OutputFile[];
  /** The task configuration file. */
  public readonly taskFile: OutputFile;
  /** The runbook file. */
  public readonly runbook: OutputFile;
  /** The phase of the re-creation with TLS declared, if any. */
  public readonly recreationPhase?: MigrationRecreationPhase;
  /** The runbook of the re-creation's phase, while one is declared. */
  public readonly recreationRunbook?: OutputFile;
  /** The target, when it is a database of the library with certificates for MySQL clients: its certificates may issue the migration's. */
  private readonly targetIssuer?: SqlClientIssuer;

  constructor(scope: Construct, id: string, props: TlsMigrationClusterProps) {
    super(scope, id);
    props = checkProps(this, props, MIGRATION_CLUSTER_SHAPE);
    const { namespace, certificates, pvReclaimPolicy } = resolveCluster(this, props);
    this.certificates = certificates;
    // Before the members' restart annotations are resolved, which depend on it.
    MEMBERS.forEach((token) => certificates._declareVersion(this, token, props.version));
    const members = this.resolveMembers(props, certificates.commonName);
    const sources = this.resolveSources(props.sources);
    const target = this.resolveTarget(props.target, namespace);
    this.targetIssuer = props.target.database !== undefined && isSqlClientIssuer(props.target.database) ? props.target.database : undefined;
    const task = this.resolveTask(props.task);
    addMemberCertificates(certificates);

    this.clusterName = props.clusterName;
    this.namespace = namespace;
    this.version = props.version;
    this.commonName = certificates.commonName;
    this.clientSecretName = this.certificates.clientSecretName(ClusterKind.MIGRATION);
    this.tlsClientSecretNames = [...new Set([...sources, target].map((d) => d.tlsSecretName))];
    sources.forEach((d) => certificates._addExternalTlsSecret({ name: d.tlsSecretName, namespace, cluster: ClusterKind.MIGRATION, usedBy: `migration source ${d.sourceId}` }));
    if (props.target.tlsSecretName !== undefined) {
      certificates._addExternalTlsSecret({ name: target.tlsSecretName, namespace, cluster: ClusterKind.MIGRATION, usedBy: 'the migration\'s target' });
    }
    this.recreationPhase = props.recreation?.phase;
    this.resource = this.declareResource(props, pvReclaimPolicy, members);
    registerRecreation(this);

    const runbookPath = migrationRunbookPath(namespace, props.clusterName);
    const fromFiles = path.posix.relative(migrationFolder(namespace, props.clusterName), runbookPath);
    const comment = (what: string) => `${what} of migration cluster ${namespace}/${props.clusterName}, written by cdk8s-cluster-tls. Passwords: see ${fromFiles}`;
    // Each source file's id is its source id, so reordering the sources keeps every construct path.
    this.sourceFiles = sources.map((s) => new OutputFile(this, `Source-${s.sourceId}`, {
      path: migrationSourcePath(namespace, props.clusterName, s.sourceId),
      content: configYaml(sourceConfig(s), comment(`Source ${s.sourceId}`)),
    }));
    this.taskFile = new OutputFile(this, 'Task', {
      path: migrationTaskPath(namespace, props.clusterName),
      content: configYaml(taskConfig(task, target, sources), comment(`Task ${task.name}`)),
    });
    this.runbook = new OutputFile(this, 'Runbook', {
      path: runbookPath,
      content: { render: () => migrationRunbook(this.runbookInput(sources, target, task, members)) },
    });
    if (this.recreationPhase !== undefined) {
      const phase = this.recreationPhase;
      this.recreationRunbook = new OutputFile(this, 'RecreationRunbook', {
        path: recreationRunbookPath(namespace, props.clusterName),
        content: { render: () => recreationRunbook({ ...this.runbookInput(sources, target, task, members), phase, migrationRunbook: fromOutputFolder(runbookPath) }) },
      });
    }
  }

  /** The members the cluster runs, each with a server certificate: `mig-master`, `mig-worker` (a copy: changing it changes nothing). */
  public get components(): ComponentToken[] {
    return [...MEMBERS];
  }

  /** The server Secret of a member, `mig-master` or `mig-worker`. */
  public serverSecretName(token: ComponentToken): string {
    return this.certificates.serverSecretName(ownComponent(this, ClusterKind.MIGRATION, 'serverSecretName', token));
  }

  /** The server Secret of a member, as a cdk8s-plus `ISecret`. */
  public serverSecret(token: ComponentToken): kplus.ISecret;
  /** The server Secret of one of the cluster's components, as an `ISecret` of the cdk8s-plus package given (any major from 27). */
  public serverSecret<S>(token: ComponentToken, plus: CdkPlusPackage<S>): S;
  public serverSecret<S>(token: ComponentToken, plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return this.certificates.serverSecret(ownComponent(this, ClusterKind.MIGRATION, 'serverSecret', token), plus as CdkPlusPackage<S>);
  }

  /** The migration cluster's shared client Secret (`clientSecretName`) as a cdk8s-plus `ISecret`. */
  public clientSecret(): kplus.ISecret;
  /**
   * The shared client Secret as an `ISecret` of the cdk8s-plus package given (any major from 27),
   * for an app on another major: `kplus.Volume.fromSecret(scope, id, cluster.clientSecret(kplus))`.
   */
  public clientSecret<S>(plus: CdkPlusPackage<S>): S;
  public clientSecret<S>(plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return this.certificates.clientSecret(ClusterKind.MIGRATION, plus as CdkPlusPackage<S>);
  }

  /** Declares the `MigrationCluster`, with TLS between its members and the external databases' Secrets, after the certificates. */
  private declareResource(props: TlsMigrationClusterProps, pvReclaimPolicy: PvReclaimPolicy, members: [string, Record<string, unknown>][]): ApiObject {
    const resource = operatorObject(this, {
      kind: clusterKind(ClusterKind.MIGRATION).resourceKind,
      name: props.clusterName,
      namespace: this.namespace,
      spec: compact({
        tlsCluster: { enabled: recreationTls(this.recreationPhase) },
        version: props.version,
        pvReclaimPolicy,
        discovery: props.discovery ?? {},
        tlsClientSecretNames: [...this.tlsClientSecretNames],
        ...Object.fromEntries(members),
      }),
    }, clusterKey(this.namespace, props.clusterName));
    resource.node.addDependency(this.certificates);
    return resource;
  }

  /** The number of members of each kind, by token, from the resolved member specs. */
  private memberReplicas(members: readonly [string, Record<string, unknown>][]): Record<'mig-master' | 'mig-worker', number> {
    const bySpecKey = Object.fromEntries(members);
    return { 'mig-master': bySpecKey[component('mig-master').specKey!].replicas as number, 'mig-worker': bySpecKey[component('mig-worker').specKey!].replicas as number };
  }

  /** What the runbooks say of the cluster, resolved at synth once every certificate is known. */
  private runbookInput(sources: ResolvedSource[], target: ResolvedDatabase, task: ResolvedTask, members: readonly [string, Record<string, unknown>][]): MigrationRunbookInput {
    const { certificates } = this;
    const targetLabel = `${target.host}:${target.port}`;
    return {
      clusterName: this.clusterName,
      namespace: this.namespace,
      commonName: this.commonName,
      manifestFile: manifestFileName(Chart.of(this)),
      certificateSecretNames: [...MEMBERS.map((token) => certificates.serverSecretName(token)), this.clientSecretName],
      masterSecretName: this.serverSecretName('mig-master'),
      issuedSecretNames: applicationSecretsIn(certificates, this.namespace),
      issuedByTarget: this.targetIssuer === undefined || this.targetIssuer.certificates === certificates ? undefined : {
        secretNames: applicationSecretsIn(this.targetIssuer.certificates, this.namespace),
        runbook: inFilesFolder(databaseRunbookPath(this.targetIssuer.namespace, this.targetIssuer.clusterName)),
      },
      issuance: certificates.issuanceSteps(),
      sources,
      target,
      targetLabel,
      taskName: task.name,
      replicas: this.memberReplicas(members),
      recreationRunbook: this.recreationPhase === undefined ? undefined : fromOutputFolder(recreationRunbookPath(this.namespace, this.clusterName)),
    };
  }

  /** The master's and the worker's spec keys and specs, checked, in the catalog's order. */
  private resolveMembers(props: TlsMigrationClusterProps, commonName: string): [string, Record<string, unknown>][] {
    // The members' props are named after their spec keys.
    const memberProps: MemberPropsBySpecKey = { master: props.master, worker: props.worker };
    return MEMBERS.map((token) => this.member(token, memberProps, commonName));
  }

  /**
   * A member's spec key and spec, from the props under that key. Its allowed Common Names go where
   * the catalog says the member reads them; a member that accepts a single one gets no extras.
   */
  private member(token: ComponentToken, memberProps: MemberPropsBySpecKey, commonName: string): [string, Record<string, unknown>] {
    const { specKey, commonNameCheck } = component(token);
    const key = specKey!;
    const member = memberProps[key] ?? {};
    const baseImage = member.baseImage === undefined ? undefined : requireImageName(this, `${key}.baseImage`, member.baseImage);
    const maxFailoverCount = requireCount(this, `${key}.maxFailoverCount`, member.maxFailoverCount ?? 0, 0);
    const replicas = requireCount(this, `${key}.replicas`, member.replicas ?? 1, 1);
    const storageSize = requireQuantity(this, `${key}.storageSize`, member.storageSize ?? SHOWN_VALUES.migrationStorageSize);
    const extraField = `${key}.extraAllowedCommonNames`;
    if (commonNameCheck!.singleValue && member.extraAllowedCommonNames !== undefined) {
      inputError(this, extraField, member.extraAllowedCommonNames, `nothing: the ${key} accepts exactly one Common Name, the certificates'`);
    }
    const extra = requireExtraCommonNames(this, extraField, member.extraAllowedCommonNames, commonName);
    return [key, {
      baseImage, maxFailoverCount, replicas, storageSize, ...atPath(commonNameCheck!.path, [commonName, ...extra]),
      annotations: rotationRestart(this, this.certificates, token),
    }];
  }

  /** The upstream databases, checked: at least one, each with a unique source id that does not name the task file. */
  private resolveSources(sources: readonly MigrationSource[]): ResolvedSource[] {
    // The shape checked the types; a list may still be empty.
    if (sources.length === 0) {
      inputError(this, 'sources', sources, 'a list of at least one upstream database');
    }
    const seen = new Map<string, number>();
    return sources.map((s, i) => {
      const field = `sources[${i}]`;
      if (typeof s.sourceId !== 'string' || !ID.test(s.sourceId) || s.sourceId.length > MIGRATION_SOURCE_ID_MAX) {
        inputError(this, `${field}.sourceId`, shown(s.sourceId), `a source id of ${SOURCE_ID_RULE}`);
      }
      if (sourceFileName(s.sourceId) === TASK_FILE) {
        inputError(this, `${field}.sourceId`, s.sourceId, `a source id other than "${s.sourceId}": ${TASK_FILE} is the task file`);
      }
      const first = seen.get(s.sourceId);
      if (first !== undefined) {
        inputError(this, `${field}.sourceId`, s.sourceId, `a source id not already used by sources[${first}]`);
      }
      seen.set(s.sourceId, i);
      const relayDir = s.relayDir ?? SHOWN_VALUES.relayDir;
      requireNoCredentials(this, `${field}.relayDir`, relayDir, 'a folder path without a user name or password in it (no \'user:password@\')');
      if (typeof relayDir !== 'string' || !NO_SPACE.test(relayDir)) {
        inputError(this, `${field}.relayDir`, shown(s.relayDir), 'a folder path without spaces');
      }
      return { sourceId: s.sourceId, relayDir, ...this.database(field, s, s.host, s.port ?? PORTS.mysql) };
    });
  }

  /** The downstream database, checked: a host and port, or a database cluster of this library, not both. */
  private resolveTarget(target: MigrationTarget, namespace: string): ResolvedDatabase {
    if (target.database !== undefined) {
      if (target.host !== undefined) {
        inputError(this, 'target.host', shown(target.host), `nothing when target.database is given: the host is the database's, ${target.database.sqlHost}`);
      }
      if (target.port !== undefined) {
        inputError(this, 'target.port', shown(target.port), `nothing when target.database is given: the port is the database's, ${target.database.sqlPort}`);
      }
      const tlsSecretName = target.tlsSecretName ?? this.targetClientSecret(target.database, target.user, namespace);
      return this.database('target', { ...target, tlsSecretName }, target.database.sqlHost, target.database.sqlPort);
    }
    if (target.host === undefined) {
      inputError(this, 'target', undefined, 'a host or a database');
    }
    if (target.tlsSecretName === undefined) {
      inputError(this, 'target.tlsSecretName', undefined, 'the Secret of the client certificate for the database at target.host (tls.crt, tls.key and ca.crt), which you create');
    }
    return this.database('target', { ...target, tlsSecretName: target.tlsSecretName }, target.host, target.port ?? PORTS.sql);
  }

  /**
   * The Secret of the client certificate the library issues for the migration to a database of its
   * own: an application of the database named after the user it logs in as, in this cluster's namespace.
   */
  private targetClientSecret(database: IDatabaseEndpoint, user: string, namespace: string): string {
    if (!isSqlClientIssuer(database) || database.sqlClientSecretName === undefined) {
      inputError(this, 'target.tlsSecretName', undefined, `the Secret of the client certificate for cluster ${database.clusterName}, `
        + 'or a database whose SQL server takes TLS from clients (tlsClient: {}), so that the library issues the migration its own certificate');
    }
    requireOwnSqlUser(this, 'target.user', user);
    if (!isSqlClientName(user)) {
      inputError(this, 'target.user', user, `a DNS label of at most ${SQL_TLS.userNameMax} characters, the application the library issues the target's client certificate for `
        + '(or give target.tlsSecretName: the Secret of a client certificate of your own)');
    }
    const options = namespace === database.namespace ? {} : { namespace };
    return database.addSqlClient(user, options).secretName;
  }

  /** Checks and resolves what sources and the target have in common. */
  private database(field: string, db: { user: string; password?: string; tlsSecretName: SecretRef }, host: string, port: number): ResolvedDatabase {
    requireHost(this, `${field}.host`, host);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      inputError(this, `${field}.port`, shown(port), 'a port from 1 to 65535');
    }
    const tlsSecretName = requireMountedSecretName(this, `${field}.tlsSecretName`, db.tlsSecretName, this.certificates);
    return {
      host, port, user: db.user, password: db.password ?? '', passwordGiven: db.password !== undefined, tlsSecretName,
    };
  }

  /** The migration task, checked and with its defaults applied. */
  private resolveTask(task: MigrationTaskProps): ResolvedTask {
    if (typeof task.name !== 'string' || !ID.test(task.name)) {
      inputError(this, 'task.name', shown(task.name), `a task name of ${ID_RULE}`);
    }
    const taskMode = task.taskMode ?? SHOWN_VALUES.taskMode;
    requireNoCredentials(this, 'task.taskMode', taskMode, 'a task mode without a user name or password in it (no \'user:password@\')');
    if (typeof taskMode !== 'string' || !NO_SPACE.test(taskMode)) {
      inputError(this, 'task.taskMode', shown(task.taskMode), 'a task mode such as "all"');
    }
    const isSharding = task.isSharding ?? false;
    if (typeof isSharding !== 'boolean') {
      inputError(this, 'task.isSharding', shown(task.isSharding), 'true or false');
    }
    const loaderDir = task.loaderDir ?? SHOWN_VALUES.loaderDir;
    requireNoCredentials(this, 'task.loaderDir', loaderDir, 'a folder path without a user name or password in it (no \'user:password@\')');
    if (typeof loaderDir !== 'string' || !NO_SPACE.test(loaderDir)) {
      inputError(this, 'task.loaderDir', shown(task.loaderDir), 'a folder path without spaces');
    }
    return { name: task.name, taskMode, isSharding, loaderDir };
  }
}
