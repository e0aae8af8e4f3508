/**
 * The output layout: every path the library writes, as a builder, and {@link parseOutputPath},
 * which reads a path back. Writers, the guards and `cluster-tls verify` all go through this module,
 * so a file moves by one edit here.
 *
 * The output is two folders side by side, replaced together at every synth. The output folder
 * (`dist/`, the app's `outdir`) holds the manifests alone, laid out as `App.synth()` lays them out,
 * so that `kubectl apply -f dist/` and a GitOps tool reading the folder see nothing else. The
 * files folder (`cluster-tls/`, beside it) holds everything a person or a script reads instead.
 * Paths of files folder entries are relative to the files folder; a command run in the output
 * folder names them through {@link fromOutputFolder}.
 *
 * ```
 * dist/<chart>.k8s.yaml                               the manifests, laid out as App.synth() lays them out
 * dist/.cluster-tls-output                            the marker of a synthesized folder (no extension kubectl reads)
 * dist/construct-metadata.json                        when the app records construct metadata, as stock cdk8s writes it
 * cluster-tls/.cluster-tls-output                     the marker of the files folder
 * cluster-tls/<namespace>/<cluster>/tls-plan.json     the certificate plan
 * cluster-tls/<namespace>/<cluster>/required-secrets.md     user-provided Secrets: what each must hold
 * cluster-tls/<namespace>/<cluster>/cfssl/<file>      cfssl requests and issue-certificates.sh; with a span, issue-intermediate.sh
 * cluster-tls/<namespace>/<cluster>/database-runbook.md
 * cluster-tls/<namespace>/<cluster>/mount-client-secret.patch.yaml
 * cluster-tls/<namespace>/<cluster>/drainer-<release>-values.yaml
 * cluster-tls/<namespace>/<cluster>/migration/<source-id>.yaml
 * cluster-tls/<namespace>/<cluster>/migration/task.yaml
 * cluster-tls/<namespace>/<cluster>/migration-runbook.md
 * cluster-tls/<namespace>/<cluster>/operations/<name>.yaml  a one-off operation (Backup, Restore), created by the runbook's command, never applied with dist/
 * cluster-tls/<namespace>/<cluster>/rotation-runbook.md     while a rotation is declared: its phase, step by step
 * cluster-tls/<namespace>/<cluster>/rotate-certificates.sh  cert-manager, while a rotation is declared: the phase's script
 * cluster-tls/<namespace>/<cluster>/enablement-runbook.md   while a TLS enablement is declared: its phase, step by step
 * cluster-tls/<namespace>/<cluster>/recreation-runbook.md   while a migration cluster's re-creation with TLS is declared: its phase
 * cluster-tls/<namespace>/<cluster>/x509-certificate-exporter-values.yaml  the expiry watch, for Secrets cert-manager does not manage
 * cluster-tls.lock.json                               the record of settings fixed at creation
 * cluster-tls-verify.<namespace>.<cluster>.json       a rotation phase's verify report
 * cluster-tls-members.<namespace>.<cluster>.txt       an enablement's coordinator member list
 * ```
 */
import * as path from 'node:path';
import { App, Chart, Names } from 'cdk8s';
import { READ_LIMITS, readBounded } from './bounded-read';

/** The file names of the layout, each used once below. */
const FILES = {
  tlsPlan: 'tls-plan.json',
  requiredSecrets: 'required-secrets.md',
  cfsslFolder: 'cfssl',
  cfsslSqlFolder: 'sql',
  databaseRunbook: 'database-runbook.md',
  mountClientSecretPatch: 'mount-client-secret.patch.yaml',
  migrationFolder: 'migration',
  migrationTask: 'task.yaml',
  migrationRunbook: 'migration-runbook.md',
  operationsFolder: 'operations',
  rotationRunbook: 'rotation-runbook.md',
  rotationScript: 'rotate-certificates.sh',
  enablementRunbook: 'enablement-runbook.md',
  recreationRunbook: 'recreation-runbook.md',
  expiryExporterValues: 'x509-certificate-exporter-values.yaml',
  marker: '.cluster-tls-output',
  earlierMarker: '.cluster-tls-output.json',
  filesFolder: 'cluster-tls',
  constructMetadata: 'construct-metadata.json',
  record: 'cluster-tls.lock.json',
  verifyReportPrefix: 'cluster-tls-verify',
  membersPrefix: 'cluster-tls-members',
} as const;

/** The file name of the certificate plan in a cluster's folder. */
export const TLS_PLAN_FILE = FILES.tlsPlan;
/** The file name of the list of Secrets to create, for user-provided Secrets. */
export const REQUIRED_SECRETS_FILE = FILES.requiredSecrets;
/** The file name of the runbook of a declared rotation's phase, in the cluster's folder. */
export const ROTATION_RUNBOOK_FILE = FILES.rotationRunbook;
/** The file name of the cert-manager method's rotation script, in the cluster's folder. */
export const ROTATION_SCRIPT_FILE = FILES.rotationScript;
/** The file name of the runbook of a declared TLS enablement's phase, in the cluster's folder. */
export const ENABLEMENT_RUNBOOK_FILE = FILES.enablementRunbook;
/** The file name of the migration task's configuration, in the cluster's migration folder. */
export const TASK_FILE = FILES.migrationTask;
/**
 * The marker file every synth writes at the root of the output folder and of the files folder. Its
 * presence says the folder is replaced whole at the next synth: the issuing script refuses to run
 * below it. It has no extension that `kubectl apply -f` or a GitOps tool reads as a manifest.
 */
export const OUTPUT_MARKER_FILE = FILES.marker;
/**
 * The marker of releases up to 0.1, which kept every file in the output folder: a synth still
 * recognises a folder it marks, and replaces it with the layout of today.
 */
export const EARLIER_OUTPUT_MARKER_FILE = FILES.earlierMarker;
/** The name of the files folder, beside the output folder. */
export const FILES_FOLDER = FILES.filesFolder;
/** The file stock cdk8s writes when the app records construct metadata. */
export const CONSTRUCT_METADATA_FILE = FILES.constructMetadata;
/** The file name of the record of settings fixed at creation, beside the output folder. */
export const RECORD_FILE = FILES.record;
/** cdk8s's default file extension of manifests. */
export const DEFAULT_MANIFEST_EXTENSION = '.k8s.yaml';

/**
 * The content of {@link OUTPUT_MARKER_FILE}.
 * @jsii ignore
 */
export interface OutputMarker {
  /** Always `cdk8s-cluster-tls`: the guards recognise a folder this library wrote by it. */
  readonly writtenBy: 'cdk8s-cluster-tls';
  /** A note for whoever opens the file: how synth treats the folder. */
  readonly about: string;
  /** The file extension of the manifests (the app's `outputFileExtension`). */
  readonly outputFileExtension: string;
  /** Every other file of the folder, as synth wrote it: the next synth deletes these and refuses to delete any other. */
  readonly files?: readonly string[];
  /**
   * In the files folder's marker: the name of the output folder it belongs to. A synth of another
   * output folder beside it refuses to replace it.
   */
  readonly outputFolder?: string;
}

/**
 * A marker read from a folder, by {@link readOutputMarker}.
 * @jsii ignore
 */
export interface FoundMarker {
  /** The marker's file name in the folder. */
  readonly file: string;
  /** Its content. */
  readonly marker: OutputMarker;
}

/**
 * The marker of a synthesized folder, and its file name: the first of `names` the folder holds
 * that a synth wrote (`writtenBy`); undefined for a folder without one, or with one that does not
 * read (not JSON, too large, not a regular file). Every reader of a marker goes through it.
 */
export function readOutputMarker(folder: string, names: readonly string[] = [FILES.marker]): FoundMarker | undefined {
  for (const file of names) {
    try {
      const marker = JSON.parse(readBounded(path.join(folder, file), READ_LIMITS.small));
      if (marker?.writtenBy === 'cdk8s-cluster-tls') {
        return { file, marker };
      }
    } catch {
      // Absent or unreadable: the next name, or none.
    }
  }
  return undefined;
}

/**
 * The folder of a cluster's files in the output, `<namespace>/<cluster_name>`: certificate plan,
 * runbooks, chart values, migration files and cfssl inputs.
 */
export function clusterFolder(namespace: string, clusterName: string): string {
  return `${namespace}/${clusterName}`;
}

/** A cluster's certificate plan: `<namespace>/<cluster>/tls-plan.json`. */
export function tlsPlanPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.tlsPlan}`;
}

/** The runbook of the declared rotation's phase: `<namespace>/<cluster>/rotation-runbook.md`. */
export function rotationRunbookPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.rotationRunbook}`;
}

/** The runbook of a declared TLS enablement's phase: `<namespace>/<cluster>/enablement-runbook.md`. */
export function enablementRunbookPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.enablementRunbook}`;
}

/** The runbook of the phase of a migration cluster's re-creation with TLS, in the cluster's folder. */
export function recreationRunbookPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.recreationRunbook}`;
}

/** The values of the exporter of the expiry watch: `<namespace>/<cluster>/x509-certificate-exporter-values.yaml`. */
export function expiryExporterValuesPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.expiryExporterValues}`;
}

/** The rotation script of the cert-manager method: `<namespace>/<cluster>/rotate-certificates.sh`. */
export function rotationScriptPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.rotationScript}`;
}

/** The list of Secrets to create with user-provided Secrets: `<namespace>/<cluster>/required-secrets.md`. */
export function requiredSecretsPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.requiredSecrets}`;
}

/** The folder of a cluster's cfssl inputs and issuing script: `<namespace>/<cluster_name>/cfssl`. */
export function cfsslFolder(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.cfsslFolder}`;
}

/** A file of a cluster's cfssl folder: `<namespace>/<cluster_name>/cfssl/<name>` (a span's intermediate files, say). */
export function cfsslPath(namespace: string, clusterName: string, name: string): string {
  return `${cfsslFolder(namespace, clusterName)}/${name}`;
}

/** The folder, in the cfssl folder, of the SQL CA and the requests of TLS for MySQL clients. */
export const CFSSL_SQL_FOLDER = FILES.cfsslSqlFolder;

/** A file of TLS for MySQL clients in the cfssl folder: `<namespace>/<cluster>/cfssl/sql/<name>`. */
export function cfsslSqlPath(namespace: string, clusterName: string, name: string): string {
  return `${cfsslFolder(namespace, clusterName)}/${FILES.cfsslSqlFolder}/${name}`;
}

/** The database cluster's runbook: `<namespace>/<cluster>/database-runbook.md`. */
export function databaseRunbookPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.databaseRunbook}`;
}

/** The patch that mounts the client Secret on a running cluster: `<namespace>/<cluster>/mount-client-secret.patch.yaml`. */
export function mountClientSecretPatchPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.mountClientSecretPatch}`;
}

/**
 * The drainer chart's values file of one release, in the cluster's output folder:
 * `drainer-<release_name>-values.yaml`.
 */
export function drainerValuesFileName(releaseName: string): string {
  return `drainer-${releaseName}-values.yaml`;
}

/** The drainer chart's values file of one release: `<namespace>/<cluster>/drainer-<release>-values.yaml`. */
export function drainerValuesPath(namespace: string, clusterName: string, releaseName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${drainerValuesFileName(releaseName)}`;
}

/** The folder of a migration cluster's migration files: `<namespace>/<cluster>/migration`. */
export function migrationFolder(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.migrationFolder}`;
}

/** The file of one upstream source's configuration, named by its source id: `<source-id>.yaml`. */
export function sourceFileName(sourceId: string): string {
  return `${sourceId}.yaml`;
}

/** One upstream source's configuration: `<namespace>/<cluster>/migration/<source-id>.yaml`. */
export function migrationSourcePath(namespace: string, clusterName: string, sourceId: string): string {
  return `${migrationFolder(namespace, clusterName)}/${sourceFileName(sourceId)}`;
}

/** The migration task's configuration: `<namespace>/<cluster>/migration/task.yaml`. */
export function migrationTaskPath(namespace: string, clusterName: string): string {
  return `${migrationFolder(namespace, clusterName)}/${FILES.migrationTask}`;
}

/** The migration cluster's runbook: `<namespace>/<cluster>/migration-runbook.md`. */
export function migrationRunbookPath(namespace: string, clusterName: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.migrationRunbook}`;
}

/**
 * A one-off operation of the operator (a Backup, a Restore), named by the object's name:
 * `<namespace>/<cluster>/operations/<name>.yaml`. It sits in the files folder, never in the output
 * folder, so that applying the manifests or a GitOps sync never starts it.
 */
export function operationPath(namespace: string, clusterName: string, name: string): string {
  return `${clusterFolder(namespace, clusterName)}/${FILES.operationsFolder}/${name}.yaml`;
}

/**
 * The manifest file of a chart, `<chart>.k8s.yaml`, as `App.synth()` names it (when charts depend
 * on each other, the writer prefixes an index).
 */
export function manifestFileName(chart: Chart): string {
  return `${Names.toDnsLabel(chart)}${App.of(chart).outputFileExtension ?? DEFAULT_MANIFEST_EXTENSION}`;
}

/**
 * The files folder of an output folder: {@link FILES_FOLDER} in the folder that holds it. It holds
 * every file of the output that is not a manifest (plans, runbooks, scripts, chart values,
 * migration files), so that the output folder holds manifests alone.
 */
export function filesFolderOf(outdir: string): string {
  return path.join(path.dirname(path.resolve(outdir)), FILES.filesFolder);
}

/** A path of the files folder as a command run in the output folder names it: `../cluster-tls/<path>`. */
export function fromOutputFolder(file: string): string {
  return `../${FILES.filesFolder}/${file}`;
}

/** A path of the files folder as a person names it from the folder that holds both: `cluster-tls/<path>`. */
export function inFilesFolder(file: string): string {
  return `${FILES.filesFolder}/${file}`;
}

/** The record of an output folder: {@link RECORD_FILE} in the folder that holds it. */
export function defaultRecordFile(outdir: string): string {
  return path.join(path.dirname(path.resolve(outdir)), FILES.record);
}

/**
 * The file name of the `cluster-tls verify --json` report of a cluster's rotation phase,
 * `cluster-tls-verify.<namespace>.<cluster>.json`: the rotation runbook writes it beside the output
 * folder (outside it, like the record, so that no synth replaces it), and the synth of the next
 * phase reads it from there.
 */
export function verifyReportFileName(namespace: string, clusterName: string): string {
  return `${FILES.verifyReportPrefix}.${namespace}.${clusterName}.json`;
}

/** The verify report of a cluster as a command run in the output folder names it: `../cluster-tls-verify.<namespace>.<cluster>.json`. */
export function verifyReportFromOutputFolder(namespace: string, clusterName: string): string {
  return `../${verifyReportFileName(namespace, clusterName)}`;
}

/**
 * The coordinator's member list (`etcdctl member list`) that the enablement runbook writes after
 * storing the https peer URL, `cluster-tls-members.<namespace>.<cluster>.txt`, beside the output
 * folder; the synth that leaves the `enable` phase reads it.
 */
export function membersFileName(namespace: string, clusterName: string): string {
  return `${FILES.membersPrefix}.${namespace}.${clusterName}.txt`;
}

/** The member list as a command run in the output folder names it: `../cluster-tls-members.<namespace>.<cluster>.txt`. */
export function membersFileFromOutputFolder(namespace: string, clusterName: string): string {
  return `../${membersFileName(namespace, clusterName)}`;
}

/** The member list of a cluster beside an output folder. */
export function defaultMembersFile(outdir: string, namespace: string, clusterName: string): string {
  return path.join(path.dirname(path.resolve(outdir)), membersFileName(namespace, clusterName));
}

/** The verify report of a cluster beside an output folder: {@link verifyReportFileName} in the folder that holds it. */
export function defaultVerifyReportFile(outdir: string, namespace: string, clusterName: string): string {
  return path.join(path.dirname(path.resolve(outdir)), verifyReportFileName(namespace, clusterName));
}

/**
 * How deep the layout puts files, counted in path segments: a manifest at the root of the output
 * folder or one folder down (the per-resource output types); in the files folder,
 * `<namespace>/<cluster>/cfssl/sql/<file>` at most. A reader of an output looks no deeper.
 */
export const LAYOUT_DEPTH = {
  /** The output folder: a manifest at its root, or one folder down. */
  outputFolder: 2,
  /** The files folder: `<namespace>/<cluster>/cfssl/sql/<file>` at most. */
  filesFolder: 5,
} as const;

/** A path of the layout, read back by {@link parseOutputPath}. */
export type OutputPath =
  | {
    /** A file at the root of the output folder: {@link OUTPUT_MARKER_FILE} or {@link CONSTRUCT_METADATA_FILE}. */
    readonly file: 'marker' | 'construct-metadata';
  }
  | {
    /** A manifest file, at the root or one folder down. */
    readonly file: 'manifest';
  }
  | {
    /** A file directly in a cluster's folder, or the migration task in its migration folder. */
    readonly file: 'tls-plan' | 'required-secrets' | 'database-runbook' | 'mount-client-secret-patch' | 'migration-task' | 'migration-runbook' | 'rotation-runbook' | 'rotation-script' | 'enablement-runbook' | 'recreation-runbook' | 'expiry-exporter-values';
    /** The namespace of the cluster whose folder holds the file. */
    readonly namespace: string;
    /** The name of the cluster whose folder holds the file. */
    readonly clusterName: string;
  }
  | {
    /** A file in a cluster's cfssl folder. */
    readonly file: 'cfssl';
    /** The namespace of the cluster whose folder holds the file. */
    readonly namespace: string;
    /** The name of the cluster whose folder holds the file. */
    readonly clusterName: string;
    /** The file's path below the cfssl folder: a file name, or `sql/<name>` for TLS for MySQL clients. */
    readonly name: string;
  }
  | {
    /** The drainer chart's values file of one release. */
    readonly file: 'drainer-values';
    /** The namespace of the cluster whose folder holds the file. */
    readonly namespace: string;
    /** The name of the cluster whose folder holds the file. */
    readonly clusterName: string;
    /** The drainer chart's release name, from the file name. */
    readonly releaseName: string;
  }
  | {
    /** A one-off operation's object in the operations folder. */
    readonly file: 'operation';
    /** The namespace of the cluster whose folder holds the file. */
    readonly namespace: string;
    /** The name of the cluster whose folder holds the file. */
    readonly clusterName: string;
    /** The object's name, from the file name. */
    readonly name: string;
  }
  | {
    /** One upstream source's configuration in the migration folder. */
    readonly file: 'migration-source';
    /** The namespace of the cluster whose folder holds the file. */
    readonly namespace: string;
    /** The name of the cluster whose folder holds the file. */
    readonly clusterName: string;
    /** The source id, from the file name. */
    readonly sourceId: string;
  };

/** The files directly in a cluster's folder, by name. */
const CLUSTER_FILES: Readonly<Record<string, 'tls-plan' | 'required-secrets' | 'database-runbook' | 'mount-client-secret-patch' | 'migration-runbook' | 'rotation-runbook' | 'rotation-script' | 'enablement-runbook' | 'recreation-runbook' | 'expiry-exporter-values'>> = {
  [FILES.tlsPlan]: 'tls-plan',
  [FILES.requiredSecrets]: 'required-secrets',
  [FILES.databaseRunbook]: 'database-runbook',
  [FILES.mountClientSecretPatch]: 'mount-client-secret-patch',
  [FILES.migrationRunbook]: 'migration-runbook',
  [FILES.rotationRunbook]: 'rotation-runbook',
  [FILES.rotationScript]: 'rotation-script',
  [FILES.enablementRunbook]: 'enablement-runbook',
  [FILES.recreationRunbook]: 'recreation-runbook',
  [FILES.expiryExporterValues]: 'expiry-exporter-values',
};

/**
 * What a path is in the layout (`/` separators), relative to the output folder for a manifest or
 * the marker, to the files folder for any other file; undefined for a path the library does not
 * write. `manifestExtension` is the extension the output's manifests carry (its marker records it).
 */
export function parseOutputPath(file: string, manifestExtension = DEFAULT_MANIFEST_EXTENSION): OutputPath | undefined {
  const parts = file.split('/');
  const inCluster = parts.length >= 3 ? parseClusterPath(parts[0], parts[1], parts.slice(2)) : undefined;
  if (inCluster) {
    return inCluster;
  }
  if (file === FILES.marker) {
    return { file: 'marker' };
  }
  if (file === FILES.constructMetadata) {
    return { file: 'construct-metadata' };
  }
  // Manifests sit at the root or, with the per-resource output types, one folder down.
  return file.endsWith(manifestExtension) ? { file: 'manifest' } : undefined;
}

/** A path below `<namespace>/<cluster>/`, or undefined when the library writes no such file. */
function parseClusterPath(namespace: string, clusterName: string, rest: readonly string[]): OutputPath | undefined {
  const cluster = { namespace, clusterName };
  const [first, second] = rest;
  if (rest.length === 1) {
    const drainer = /^drainer-(.+)-values\.yaml$/.exec(first);
    return CLUSTER_FILES[first] ? { file: CLUSTER_FILES[first], ...cluster }
      : drainer ? { file: 'drainer-values', ...cluster, releaseName: drainer[1] }
        : undefined;
  }
  if (rest.length === 2 && first === FILES.cfsslFolder) {
    return { file: 'cfssl', ...cluster, name: second };
  }
  if (rest.length === 3 && first === FILES.cfsslFolder && second === FILES.cfsslSqlFolder) {
    return { file: 'cfssl', ...cluster, name: `${second}/${rest[2]}` };
  }
  if (rest.length === 2 && first === FILES.operationsFolder && second.endsWith('.yaml')) {
    return { file: 'operation', ...cluster, name: second.slice(0, -'.yaml'.length) };
  }
  if (rest.length === 2 && first === FILES.migrationFolder && second.endsWith('.yaml')) {
    return second === FILES.migrationTask ? { file: 'migration-task', ...cluster }
      : { file: 'migration-source', ...cluster, sourceId: second.slice(0, -'.yaml'.length) };
  }
  return undefined;
}
