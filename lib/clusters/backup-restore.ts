/**
 * The `BackupRestore` construct: the operator's `Backup` and `Restore` objects of a database
 * cluster, the restore's extra server certificates, and the runbook step that checks them.
 */
import { Construct, IConstruct } from 'constructs';
import { ClusterKind, DeployedBy, SHOWN_VALUES, componentsOf } from '../model/catalog';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import { operatorApiVersion } from '../model/settings';
import type { ITlsDatabaseCluster } from './tls-cluster';
import { fromOutputFolder, inFilesFolder, operationPath } from '../model/output-layout';
import { SecretRef, secretRef } from '../model/secret-ref';
import { compact, operatorManifest } from './operator';
import { OutputFile } from '../app/output-file';
import { stringifyManifests } from '../yaml/emitter';
import { RunbookStep } from '../documents/runbook';
import { DATABASE_CLUSTER_PROP, requireExternalSecretName } from './cluster-props';
import { Checked, ShapeOf, checkProps, declareShape, flag, objectOf, text, withRules } from '../model/props';

/** The components a restore that loads data runs, each with a server certificate (importer, lightning). */
const RESTORE_COMPONENTS = componentsOf(ClusterKind.DATABASE, DeployedBy.RESTORE);

/** The S3-compatible bucket a backup is written to and a restore reads from (`spec.s3`). */
export interface S3Storage {
  /** The storage provider (`s3.provider`), such as `aws` or `ceph`. */
  readonly provider: string;
  /** The bucket's region (`s3.region`). */
  readonly region: string;
  /** The bucket (`s3.bucket`). */
  readonly bucket: string;
  /**
   * The key prefix of the backup's files in the bucket (`s3.prefix`).
   * @default `<namespace>/<cluster_name>`
   */
  readonly prefix?: string;
  /**
   * The Secret with the storage access keys (`s3.secretName`). You create it; the library only
   * refers to it. A name, or a cdk8s-plus `ISecret`.
   */
  readonly secretName: SecretRef;
  /**
   * The storage service's URL (`s3.endpoint`), for providers other than AWS. It must start with
   * `https://`: the backup and the storage access keys travel over it.
   * @default - the provider's own endpoint
   */
  readonly endpoint?: string;
  /**
   * Accept an `http://` endpoint, for a storage service that only speaks plain HTTP inside a
   * trusted network. The backup's data and the requests signed with the storage access keys then
   * travel unencrypted.
   * @default false
   */
  readonly allowInsecureEndpoint?: boolean;
}

/** The `Backup`. */
export interface BackupOptions {
  /**
   * What is backed up (`spec.backupType`).
   * @default - the construct's `backupType`
   */
  readonly backupType?: string;
  /**
   * The key prefix the backup is written under.
   * @default - `s3.prefix`
   */
  readonly prefix?: string;
}

/** The `Restore`. */
export interface RestoreOptions {
  /**
   * What is restored (`spec.backupType`).
   * @default - the construct's `backupType`
   */
  readonly backupType?: string;
  /**
   * The key prefix the backup is read from, for example an older backup's.
   * @default - `s3.prefix`
   */
  readonly prefix?: string;
  /**
   * Whether the restore loads data with the importer and lightning components, which then get
   * their server certificates (`${cluster_name}-importer-cluster-secret` and
   * `${cluster_name}-lightning-cluster-secret`). The specification needs them only for data
   * restore; turn it off for a restore that does not use them.
   * @default true
   */
  readonly useLightning?: boolean;
}

/** Props of {@link BackupRestore}. */
export interface BackupRestoreProps {
  /** The database cluster that is backed up or restored into. */
  readonly cluster: ITlsDatabaseCluster;
  /**
   * Add a `Backup` named `${cluster_name}-backup`.
   * @default - no Backup
   */
  readonly backup?: BackupOptions;
  /**
   * Add a `Restore` named `${cluster_name}-restore`.
   * @default - no Restore
   */
  readonly restore?: RestoreOptions;
  /** The bucket. */
  readonly s3: S3Storage;
  /**
   * The Secret that holds the database user's password (`from.secretName` / `to.secretName`).
   * You create it; the library never writes a password. A name, or a cdk8s-plus `ISecret`.
   */
  readonly credentialsSecretName: SecretRef;
  /**
   * The database user the backup and restore log in as (`from.user` / `to.user`); its password is
   * in `credentialsSecretName`. There is no default: no user is a safe guess, and `root` can do
   * far more than a backup needs. Use a dedicated account with only the privileges backup and
   * restore need.
   */
  readonly user: string;
  /**
   * What is backed up and restored (`spec.backupType`), such as `full`.
   * @default 'full'
   */
  readonly backupType?: string;
  /**
   * Whether the storage credentials are passed on to the store members, so that they read and
   * write the bucket directly (`br.sendCredToStore`).
   * @default true
   */
  readonly sendCredToStore?: boolean;
}

/** The backup type when none is given: the specification's value. */
export const DEFAULT_BACKUP_TYPE = SHOWN_VALUES.backupType;

/** A Backup or a Restore, with its defaults applied. */
interface Operation {
  readonly kind: 'Backup' | 'Restore';
  readonly name: string;
  readonly endpoint: 'from' | 'to';
  readonly backupType: string;
  readonly prefix: string;
}

/** What a Backup and a Restore share: the backup type and key prefix, the construct's when left out. */
const OPERATION = {
  backupType: { type: 'string', optional: true, rule: 'backupType' },
  prefix: { type: 'string', optional: true, rule: 'keyPrefix' },
} satisfies ShapeOf<BackupOptions>;

/** The bucket. */
const S3_SHAPE = withRules({
  provider: { type: 'string', rule: 'storageProvider', example: 'aws' },
  region: { type: 'string', rule: 'storageRegion', example: 'us-east-1' },
  bucket: { type: 'string', rule: 'bucket', example: 'orders-backups' },
  prefix: OPERATION.prefix,
  secretName: secretRef(false),
  endpoint: { type: 'string', optional: true, rule: 'storageEndpoint' },
  allowInsecureEndpoint: flag(false),
} satisfies ShapeOf<S3Storage>, [secureEndpoint]);

/** The props of a backup and restore: the fields, with their rules and defaults, and the rules across them. */
const BACKUP_RESTORE_SHAPE = declareShape('BackupRestore', withRules({
  cluster: DATABASE_CLUSTER_PROP,
  backup: objectOf(OPERATION, true, 'an object of options, {} for the defaults'),
  restore: objectOf({ ...OPERATION, useLightning: flag(true) } satisfies ShapeOf<RestoreOptions>, true, 'an object of options, {} for the defaults'),
  s3: objectOf(S3_SHAPE, false, 'the bucket: { provider, region, bucket, secretName }'),
  credentialsSecretName: secretRef(false),
  user: { ...text('a database user name without spaces or quotes: a dedicated account with only the privileges backup and restore need', false), rule: 'databaseUser', example: 'backup' },
  backupType: { type: 'string', optional: true, rule: 'backupType', default: DEFAULT_BACKUP_TYPE },
  sendCredToStore: flag(true),
} satisfies ShapeOf<BackupRestoreProps>, [backupOrRestore]));

/** Props as {@link BACKUP_RESTORE_SHAPE} returns them, with their defaults. */
type CheckedBackupRestoreProps = Checked<BackupRestoreProps, typeof BACKUP_RESTORE_SHAPE>;

/** Refuses props that ask for neither a backup nor a restore. */
function backupOrRestore(scope: IConstruct | string, props: BackupRestoreProps): void {
  if (props.backup === undefined && props.restore === undefined) {
    inputError(scope, 'backup, restore', undefined, 'a backup, a restore or both (for example backup: {})');
  }
}

/** Refuses an `http://` endpoint without `allowInsecureEndpoint`: the backup and the storage access keys travel over it. */
function secureEndpoint(scope: IConstruct | string, s3: S3Storage, at: string): void {
  if (s3.endpoint?.startsWith('http://') && !s3.allowInsecureEndpoint) {
    inputError(scope, `${at}endpoint`, s3.endpoint,
      `an https:// URL, since the backup and the storage access keys travel over it; set ${at}allowInsecureEndpoint to true to accept http://`);
  }
}

/**
 * A `Backup` and/or a `Restore` of a TLS database cluster to or from an S3-compatible bucket
 * (specification, section C step 5). The cluster gives the names, the namespace, the SQL host and
 * port; a restore that loads data adds the importer's and lightning's server certificates to the
 * cluster's certificates. The cluster's runbook gets the steps that start and check them.
 *
 * The operator starts a backup or a restore as soon as its object is created, and again whenever
 * it is created anew. So the objects are one-off operations, never manifests: each is written to
 * the files folder (`cluster-tls/<namespace>/<cluster>/operations/<name>.yaml`), where applying
 * `dist/` or a GitOps sync never reaches it, and the cluster's runbook gives the `kubectl create`
 * that starts it when it is wanted. The construct may sit in any chart, the cluster's included. A
 * second Backup (or Restore) of one cluster would write the same file, and is refused at synth.
 */
export class BackupRestore extends Construct {
  /** The Backup's name, `${cluster_name}-backup`, when requested. */
  public readonly backupName?: string;
  /** The Restore's name, `${cluster_name}-restore`, when requested. */
  public readonly restoreName?: string;
  /**
   * The Backup's file, relative to the files folder
   * (`<namespace>/<cluster>/operations/${cluster_name}-backup.yaml`), when requested.
   */
  public readonly backupFile?: string;
  /**
   * The Restore's file, relative to the files folder
   * (`<namespace>/<cluster>/operations/${cluster_name}-restore.yaml`), when requested.
   */
  public readonly restoreFile?: string;
  /** The namespace of the objects, the cluster's. */
  public readonly namespace: string;
  /** The server Secrets the restore needs besides the cluster's (importer and lightning), in that order. */
  public readonly restoreSecretNames: string[];

  constructor(scope: Construct, id: string, props: BackupRestoreProps) {
    super(scope, id);
    const checked: CheckedBackupRestoreProps = checkProps(this, props, BACKUP_RESTORE_SHAPE);
    props = checked;
    const resolved = resolveBackupRestoreProps(this, checked);
    const { prefix, backupType } = resolved;
    const { cluster } = props;

    this.namespace = cluster.namespace;
    const operations = resolveOperations(props, backupType, prefix);
    this.restoreSecretNames = this.addRestoreCertificates(props);

    const files = operations.map((op) => ({ op, file: this.declareOperation(props, op, resolved) }));
    const backup = files.find((o) => o.op.kind === 'Backup');
    const restore = files.find((o) => o.op.kind === 'Restore');
    this.backupName = backup?.op.name;
    this.backupFile = backup?.file;
    this.restoreName = restore?.op.name;
    this.restoreFile = restore?.file;

    for (const { op, file } of files) {
      cluster.addRunbookStep(this.runbookStep(cluster, props, op, file, resolved));
    }
  }

  /** Adds the importer's and lightning's server certificates when a restore loads data with them, and returns their Secrets. */
  private addRestoreCertificates(props: BackupRestoreProps): string[] {
    const useLightning = props.restore !== undefined && (props.restore.useLightning ?? true);
    return useLightning
      ? RESTORE_COMPONENTS.map((token) => props.cluster.certificates.addComponent(token).secretName)
      : [];
  }

  /** Declares the file of the `Backup` or `Restore` object, under a construct named after its kind, and returns its path. */
  private declareOperation(props: BackupRestoreProps, op: Operation, resolved: ResolvedBackupRestoreProps): string {
    const { cluster } = props;
    const object = operatorManifest(this, { kind: op.kind, name: op.name, namespace: cluster.namespace, spec: operationSpec(props, op, resolved) });
    const file = operationPath(cluster.namespace, cluster.clusterName, op.name);
    new OutputFile(this, op.kind, { path: file, content: stringifyManifests([object]) });
    return file;
  }

  /** The runbook step that checks the Secrets, creates the Backup or Restore from its file, and follows it. */
  private runbookStep(cluster: ITlsDatabaseCluster, props: BackupRestoreProps, op: Operation, file: string, resolved: ResolvedBackupRestoreProps): RunbookStep {
    const { namespace } = this;
    const { user } = props;
    const { credentialsSecretName, s3SecretName } = resolved;
    const group = operatorApiVersion(this).split('/')[0];
    const resource = `${op.kind.toLowerCase()}s.${group}`;
    const where = `s3://${props.s3.bucket}/${op.prefix}`;
    const isRestore = op.kind === 'Restore';
    const tlsClient = cluster.sqlClientSecretName;
    const secrets = [credentialsSecretName, s3SecretName, ...(isRestore ? this.restoreSecretNames : []), ...(tlsClient ? [tlsClient] : [])];
    const text = [
      isRestore
        ? `The Restore \`${op.name}\` reads the backup at \`${where}\` (${props.s3.provider}, ${props.s3.region}) and loads it into \`${cluster.sqlHost}:${cluster.sqlPort}\` as \`${user}\`.`
        : `The Backup \`${op.name}\` connects to \`${cluster.sqlHost}:${cluster.sqlPort}\` as \`${user}\` and writes to \`${where}\` (${props.s3.provider}, ${props.s3.region}).`,
      `The Secrets \`${credentialsSecretName}\` (the password of \`${user}\`) and \`${s3SecretName}\` (the storage access keys) are yours to create in \`${namespace}\`; the library never writes them.`
        + (isRestore && this.restoreSecretNames.length > 0
          ? ` The importer and lightning components load their server certificates from ${this.restoreSecretNames.map((s) => `\`${s}\``).join(' and ')}.`
          : '')
        + (tlsClient ? ` The SQL server takes TLS from MySQL clients: the job connects with the client certificate of \`${tlsClient}\`, which the operator mounts.` : ''),
      `The ${op.kind} is a one-off operation, not a manifest: applying the manifests or a GitOps sync never starts it. `
        + `Once the cluster is running, \`kubectl create\` starts it from \`${inFilesFolder(file)}\`; `
        + `\`create\` refuses a ${op.kind} that already exists, so a finished one is deleted before it runs again.`,
    ];
    const commands = [
      `kubectl get secret ${secrets.join(' ')} -n ${namespace}`,
      `kubectl create -f ${fromOutputFolder(file)}`,
      `kubectl get ${resource} ${op.name} -n ${namespace}`,
      `kubectl describe ${resource} ${op.name} -n ${namespace}`,
    ];
    return { title: isRestore ? `Restore cluster ${cluster.clusterName} from the backup` : `Back up cluster ${cluster.clusterName}`, text, commands };
  }
}

/** The props every operation shares, checked and with their defaults applied. */
interface ResolvedBackupRestoreProps {
  readonly sendCredToStore: boolean;
  /** The key prefix, `s3.prefix` or `<namespace>/<cluster_name>`. */
  readonly prefix: string;
  readonly backupType: string;
  /** The Secrets, by name. */
  readonly credentialsSecretName: string;
  readonly s3SecretName: string;
}

/** The settings every operation shares, of props the shape checked: the key prefix, and the Secrets checked against the cluster's certificates. */
function resolveBackupRestoreProps(scope: IConstruct, props: CheckedBackupRestoreProps): ResolvedBackupRestoreProps {
  const { cluster, s3 } = props;
  const s3SecretName = requireExternalSecretName(scope, 's3.secretName', s3.secretName, cluster.certificates);
  return {
    sendCredToStore: props.sendCredToStore,
    prefix: s3.prefix ?? names.backupPrefix(cluster.namespace, cluster.clusterName),
    backupType: props.backupType,
    credentialsSecretName: requireExternalSecretName(scope, 'credentialsSecretName', props.credentialsSecretName, cluster.certificates),
    s3SecretName,
  };
}

/** The requested operations, Backup before Restore, each with the shared defaults applied (the shape checked their options). */
function resolveOperations(props: BackupRestoreProps, backupType: string, prefix: string): Operation[] {
  const { cluster } = props;
  const operations: Operation[] = [];
  if (props.backup !== undefined) {
    operations.push(resolveOperation(props.backup, { kind: 'Backup', name: names.backupName(cluster.clusterName), endpoint: 'from', backupType, prefix }));
  }
  if (props.restore !== undefined) {
    operations.push(resolveOperation(props.restore, { kind: 'Restore', name: names.restoreName(cluster.clusterName), endpoint: 'to', backupType, prefix }));
  }
  return operations;
}

/** The `spec` of a Backup or Restore: the cluster it runs against, the SQL endpoint it logs in to, and the bucket. */
function operationSpec(props: BackupRestoreProps, op: Operation, { sendCredToStore, credentialsSecretName, s3SecretName }: ResolvedBackupRestoreProps): Record<string, unknown> {
  const { cluster, s3 } = props;
  return compact({
    backupType: op.backupType,
    br: { cluster: cluster.clusterName, clusterNamespace: cluster.namespace, sendCredToStore },
    // With TLS for MySQL clients on, the job connects with the operator's client Secret.
    [op.endpoint]: { host: cluster.sqlHost, secretName: credentialsSecretName, port: cluster.sqlPort, user: props.user, tlsClientSecretName: cluster.sqlClientSecretName },
    s3: {
      provider: s3.provider,
      region: s3.region,
      secretName: s3SecretName,
      bucket: s3.bucket,
      prefix: op.prefix,
      endpoint: s3.endpoint,
    },
  });
}

/** One operation's options, which the shape checked, over the shared defaults. */
function resolveOperation(options: BackupOptions | RestoreOptions, defaults: Operation): Operation {
  return { ...defaults, backupType: options.backupType ?? defaults.backupType, prefix: options.prefix ?? defaults.prefix };
}
