/**
 * The `TlsMigrationCluster` construct: the `MigrationCluster` with TLS between its members, and
 * the migration tool's source and task files and runbook, from one declaration of the databases.
 */
import * as path from 'node:path';
import { ApiObject, Chart } from 'cdk8s';
import { clusterKey } from '../model/trust';
import type * as kplus from 'cdk8s-plus-27';
import { Construct, IConstruct } from 'constructs';
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
  databaseRunbookPath, fromOutputFolder, inFilesFolder, manifestFileName, migrationFolder, migrationRunbookPath, migrationSourcePath, migrationTaskPath,
  recreationRunbookPath,
} from '../model/output-layout';
import { compact, operatorObject } from './operator';
import { ITlsCluster, PvReclaimPolicy, TlsClusterProps } from './tls-cluster';
import { ownComponent, tlsClusterShape, requireMountedSecretName, resolveCluster, rotationRestart } from './cluster-props';
import { CdkPlusPackage, SecretRef, secretRef } from '../model/secret-ref';
import { FullSpec, ShapeOf, checkProps, constructOf, countOf, declareShape, flag, listOf, objectOf, strings, text, withRules } from '../model/props';
import { quantityOf, storageSize } from '../model/quantity';
import { otherCommonNames, requireHost, requirePort } from '../model/validate';
import { MigrationRecreation, MigrationRecreationPhase, RECREATION_SHAPE, recreationTls } from '../model/recreation';
import { registerRecreation } from '../app/registry';
import { recreationRunbook } from '../documents/recreation-runbook';
import { MigrationMemberProps, MigrationSource, MigrationTarget, MigrationTaskProps, MigrationWorkerProps } from './migration-props';

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

const MEMBER = {
  baseImage: { type: 'string', optional: true, rule: 'image' },
  maxFailoverCount: countOf('count', 0),
  replicas: countOf('positiveCount', 1),
  storageSize: { ...storageSize(), rule: 'storageQuantity', default: SHOWN_VALUES.migrationStorageSize },
} satisfies ShapeOf<MigrationMemberProps>;
const EXTRA = strings('a list of Common Names');

const USER = { ...text('a user name (a string; the specification allows an empty one)', false), example: 'migrator' };
const PASSWORD = text('a string, or nothing to supply it at deploy time');
const PORT: FullSpec = { type: 'value', optional: true, is: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a number', rule: 'port' };

/** The props both cluster constructs have, with the migration cluster's releases. */
const TLS_CLUSTER_SHAPE = tlsClusterShape(ClusterKind.MIGRATION);

/** The downstream database: a host, or a database of the app, whose client certificate the library may issue. */
const TARGET_SHAPE = withRules({
  host: { type: 'string', optional: true, rule: 'host' },
  port: PORT,
  database: constructOf(isDatabaseEndpoint, 'a database cluster of this library, such as a TlsDatabaseCluster', true),
  user: USER,
  password: PASSWORD,
  tlsSecretName: secretRef(true),
} satisfies ShapeOf<MigrationTarget>, [targetEndpoint, targetClient]);

/** The props of a migration cluster, as JavaScript types. */
const MIGRATION_CLUSTER_SHAPE = declareShape('TlsMigrationCluster', withRules({
  ...TLS_CLUSTER_SHAPE,
  discovery: 'object?',
  // The master has no extra names; asking for them gets its own message (singleNameMembers).
  master: { ...objectOf({ ...MEMBER, extraAllowedCommonNames: EXTRA }), default: {} },
  worker: { ...objectOf({ ...MEMBER, extraAllowedCommonNames: { ...EXTRA, rule: 'commonName' } } satisfies ShapeOf<MigrationWorkerProps>), default: {} },
  sources: listOf({
    sourceId: { type: 'string', rule: 'migrationSourceId', example: 'mysql-01' },
    host: { type: 'string', rule: 'host', example: 'mysql-01.example.com' },
    port: { ...PORT, default: PORTS.mysql },
    user: USER,
    password: PASSWORD,
    tlsSecretName: secretRef(false),
    relayDir: { type: 'string', optional: true, rule: 'folderPath', default: SHOWN_VALUES.relayDir },
  } satisfies ShapeOf<MigrationSource>, false, 'a list of at least one upstream database: [{ sourceId, host, user, tlsSecretName }, …]',
  'an upstream database: { sourceId, host, user, tlsSecretName }', 'migrationSources'),
  target: objectOf(TARGET_SHAPE, false, 'the downstream database: { host, user, tlsSecretName } or { database, user }'),
  task: objectOf({
    name: { type: 'string', rule: 'migrationTaskName', example: 'orders' },
    taskMode: { type: 'string', optional: true, rule: 'taskMode', default: SHOWN_VALUES.taskMode },
    isSharding: flag(false),
    loaderDir: { type: 'string', optional: true, rule: 'folderPath', default: SHOWN_VALUES.loaderDir },
  } satisfies ShapeOf<MigrationTaskProps>, false, 'the migration task: { name }'),
  recreation: objectOf(RECREATION_SHAPE, true, 'an object { phase }'),
} satisfies ShapeOf<TlsMigrationClusterProps>, [singleNameMembers, sourceIdsOnce]));

/** Props as the shape returns them: the members, sources and task with every default. */
interface CheckedMigrationProps extends TlsMigrationClusterProps {
  readonly master: Required<Omit<MigrationMemberProps, 'baseImage'>> & MigrationWorkerProps;
  readonly worker: Required<Omit<MigrationMemberProps, 'baseImage'>> & MigrationWorkerProps;
  readonly sources: (MigrationSource & Required<Pick<MigrationSource, 'port' | 'relayDir'>>)[];
  readonly task: Required<MigrationTaskProps>;
}

/** Refuses extra Common Names for a member that accepts exactly one, the certificates' (the master). */
function singleNameMembers(scope: IConstruct | string, props: TlsMigrationClusterProps): void {
  const memberProps: MemberPropsBySpecKey = { master: props.master, worker: props.worker };
  for (const token of MEMBERS) {
    const { specKey, commonNameCheck } = component(token);
    const extra = memberProps[specKey!]?.extraAllowedCommonNames;
    if (commonNameCheck!.singleValue && extra !== undefined) {
      inputError(scope, `${specKey}.extraAllowedCommonNames`, extra, `nothing: the ${specKey} accepts exactly one Common Name, the certificates'`);
    }
  }
}

/** Refuses an empty list of sources, and a source id used twice: each names a file. */
function sourceIdsOnce(scope: IConstruct | string, props: TlsMigrationClusterProps): void {
  if (props.sources.length === 0) {
    inputError(scope, 'sources', props.sources, 'a list of at least one upstream database');
  }
  const seen = new Map<string, number>();
  props.sources.forEach((s, i) => {
    const first = seen.get(s.sourceId);
    if (first !== undefined) {
      inputError(scope, `sources[${i}].sourceId`, s.sourceId, `a source id not already used by sources[${first}]`);
    }
    seen.set(s.sourceId, i);
  });
}

/** A host and port, or a database cluster of this library, not both; with a host, the Secret of its client certificate. */
function targetEndpoint(scope: IConstruct | string, target: MigrationTarget, at: string): void {
  const { database } = target;
  if (database !== undefined) {
    if (target.host !== undefined) {
      inputError(scope, `${at}host`, shown(target.host), `nothing when ${at}database is given: the host is the database's, ${database.sqlHost}`);
    }
    if (target.port !== undefined) {
      inputError(scope, `${at}port`, shown(target.port), `nothing when ${at}database is given: the port is the database's, ${database.sqlPort}`);
    }
    // The database's own endpoint, which the files hold as the target's.
    requireHost(scope, `${at}host`, database.sqlHost);
    requirePort(scope, `${at}port`, database.sqlPort);
    return;
  }
  if (target.host === undefined) {
    inputError(scope, at.slice(0, -1), undefined, 'a host or a database');
  }
  if (target.tlsSecretName === undefined) {
    inputError(scope, `${at}tlsSecretName`, undefined, `the Secret of the client certificate for the database at ${at}host (tls.crt, tls.key and ca.crt), which you create`);
  }
}

/**
 * A target database without a Secret of the client's: a database whose certificates issue one for
 * MySQL clients, and a user the library can name that certificate after.
 */
function targetClient(scope: IConstruct | string, target: MigrationTarget, at: string): void {
  const { database, user } = target;
  if (database === undefined || target.tlsSecretName !== undefined) {
    return;
  }
  if (!isSqlClientIssuer(database) || database.sqlClientSecretName === undefined) {
    inputError(scope, `${at}tlsSecretName`, undefined, `the Secret of the client certificate for cluster ${database.clusterName}, `
      + 'or a database whose SQL server takes TLS from clients (tlsClient: {}), so that the library issues the migration its own certificate');
  }
  requireOwnSqlUser(scope, `${at}user`, user);
  if (!isSqlClientName(user)) {
    inputError(scope, `${at}user`, user, `a DNS label of at most ${SQL_TLS.userNameMax} characters, the application the library issues the target's client certificate for `
      + `(or give ${at}tlsSecretName: the Secret of a client certificate of your own)`);
  }
}

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
    const checked: CheckedMigrationProps = checkProps(this, props, MIGRATION_CLUSTER_SHAPE) as CheckedMigrationProps;
    props = checked;
    const { namespace, certificates, pvReclaimPolicy } = resolveCluster(this, props);
    this.certificates = certificates;
    // Before the members' restart annotations are resolved, which depend on it.
    MEMBERS.forEach((token) => certificates._declareVersion(this, token, props.version));
    const members = MEMBERS.map((token) => this.member(token, checked, certificates.commonName));
    const sources = checked.sources.map((s, i) => ({ sourceId: s.sourceId, relayDir: s.relayDir, ...this.database(`sources[${i}]`, s, s.host, s.port) }));
    const target = this.resolveTarget(checked.target, namespace);
    this.targetIssuer = props.target.database !== undefined && isSqlClientIssuer(props.target.database) ? props.target.database : undefined;
    const task: ResolvedTask = { ...checked.task };
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

  /**
   * A member's spec key and spec, from the props under that key. Its allowed Common Names go where
   * the catalog says the member reads them; a member that accepts a single one gets no extras.
   */
  private member(token: ComponentToken, props: CheckedMigrationProps, commonName: string): [string, Record<string, unknown>] {
    const { specKey, commonNameCheck } = component(token);
    // The members' props are named after their spec keys.
    const key = specKey! as 'master' | 'worker';
    const { baseImage, maxFailoverCount, replicas, storageSize: size, extraAllowedCommonNames } = props[key];
    const extra = commonNameCheck!.singleValue ? [] : otherCommonNames(extraAllowedCommonNames, commonName);
    return [key, {
      baseImage, maxFailoverCount, replicas, storageSize: quantityOf(size), ...atPath(commonNameCheck!.path, [commonName, ...extra]),
      annotations: rotationRestart(this, this.certificates, token),
    }];
  }

  /** The downstream database: its host and port, or a database cluster of this library and a client certificate it issues. */
  private resolveTarget(target: MigrationTarget, namespace: string): ResolvedDatabase {
    if (target.database !== undefined) {
      const tlsSecretName = target.tlsSecretName ?? this.targetClientSecret(target.database, target.user, namespace);
      return this.database('target', { ...target, tlsSecretName }, target.database.sqlHost, target.database.sqlPort);
    }
    return this.database('target', { ...target, tlsSecretName: target.tlsSecretName! }, target.host!, target.port ?? PORTS.sql);
  }

  /**
   * The Secret of the client certificate the library issues for the migration to a database of its
   * own (the shape's `targetClient` checked that it can): an application of the database named
   * after the user it logs in as, in this cluster's namespace.
   */
  private targetClientSecret(database: IDatabaseEndpoint, user: string, namespace: string): string {
    const issuer = database as SqlClientIssuer;
    const options = namespace === issuer.namespace ? {} : { namespace };
    return issuer.addSqlClient(user, options).secretName;
  }

  /** What sources and the target have in common, with the Secret checked against the cluster's certificates. */
  private database(field: string, db: { user: string; password?: string; tlsSecretName: SecretRef }, host: string, port: number): ResolvedDatabase {
    const tlsSecretName = requireMountedSecretName(this, `${field}.tlsSecretName`, db.tlsSecretName, this.certificates);
    return {
      host, port, user: db.user, password: db.password ?? '', passwordGiven: db.password !== undefined, tlsSecretName,
    };
  }
}
