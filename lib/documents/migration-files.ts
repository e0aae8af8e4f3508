/**
 * The migration files (specification, section E): one source configuration per upstream database,
 * the task configuration, and the migration cluster's runbook (sections D and E), rendered from
 * resolved declarations. Pure functions: the construct decides where the files go.
 */
import { ClusterKind, DeployedBy, PORTS, componentsOf } from '../model/catalog';
import { SECRET_KEYS } from '../model/catalog-certificates';
import { MOUNT_PATHS } from '../model/catalog-pods';
import * as names from '../model/names';
import { TASK_FILE, fromOutputFolder, migrationFolder, sourceFileName } from '../model/output-layout';
import { RunbookStep, namespaceStep, outputFolderRunIn, renderRunbook } from './runbook';
import { documentText, stringifyYaml, yamlDocument } from '../yaml/emitter';

/** The key under `loaders` that every `mysql-instances[]` entry refers to. */
const LOADER_NAME = 'global';

/** Joins labels for a sentence: `a`, `a and b`, `a, b and c`. */
export function listing(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The environment variable the runbook's password commands read. */
const PASSWORD_VARIABLE = 'MIG_PASSWORD';

/** One database the migration cluster reaches over TLS, with every default applied. */
export interface ResolvedDatabase {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** The password written to the file: the one given, or the empty string. */
  readonly password: string;
  /** Whether the user passed the password (otherwise it is supplied at deploy time). */
  readonly passwordGiven: boolean;
  /** The Secret with the client certificate set (`tls.crt`, `tls.key`, `ca.crt`). */
  readonly tlsSecretName: string;
}

/** An upstream database, with every default applied. */
export interface ResolvedSource extends ResolvedDatabase {
  readonly sourceId: string;
  readonly relayDir: string;
}

/** The task, with every default applied. */
export interface ResolvedTask {
  readonly name: string;
  readonly taskMode: string;
  readonly isSharding: boolean;
  readonly loaderDir: string;
}

/** The `security` block of a database: the paths where the operator mounts its Secret. */
function securityPaths(tlsSecretName: string): { 'ssl-ca': string; 'ssl-cert': string; 'ssl-key': string } {
  const paths = names.tlsFilePaths(names.externalTlsMountPath(tlsSecretName));
  return { 'ssl-ca': paths.ca, 'ssl-cert': paths.certificate, 'ssl-key': paths.privateKey };
}

/** The source configuration of one upstream database, keys in the order of the specification's table. */
export function sourceConfig(source: ResolvedSource): Record<string, unknown> {
  return {
    'source-id': source.sourceId,
    'relay-dir': source.relayDir,
    'from': {
      host: source.host,
      user: source.user,
      password: source.password,
      port: source.port,
      security: securityPaths(source.tlsSecretName),
    },
  };
}

/** The task configuration, keys in the order of the specification's table. */
export function taskConfig(task: ResolvedTask, target: ResolvedDatabase, sources: readonly ResolvedSource[]): Record<string, unknown> {
  return {
    'name': task.name,
    'task-mode': task.taskMode,
    'is-sharding': task.isSharding,
    'target-database': {
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      security: securityPaths(target.tlsSecretName),
    },
    'mysql-instances': sources.map((s) => ({ 'source-id': s.sourceId, 'loader-config-name': LOADER_NAME })),
    'loaders': { [LOADER_NAME]: { dir: task.loaderDir } },
  };
}

/** A comment `yaml` writes as `# ` and the comment itself: one line of printable ASCII, no space at either end. */
const ONE_LINE_COMMENT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Renders a configuration as YAML, with a comment line on top; long strings are never folded.
 * Written for YAML 1.1 readers, as the migration tool is: a string such as `yes`, `on` or `0777`
 * is quoted, so that it reads back as the same string.
 */
export function configYaml(config: Record<string, unknown>, comment: string): string {
  if (!ONE_LINE_COMMENT.test(comment)) {
    const doc = yamlDocument(config);
    doc.commentBefore = ` ${comment}`;
    return documentText(doc, 0);
  }
  // What `yaml` writes for a one-line comment before a document: the `#` line, then an empty line.
  return `# ${comment}\n\n${stringifyYaml(config, { lineWidth: 0 })}`;
}

/** What the migration runbook needs to know about the cluster. */
export interface MigrationRunbookInput {
  readonly clusterName: string;
  readonly namespace: string;
  readonly commonName: string;
  /** The manifest file that holds the cluster, relative to the output folder. */
  readonly manifestFile: string;
  /** The Secrets the cluster's own TLS needs: master, worker, client. */
  readonly certificateSecretNames: readonly string[];
  /** The master's server Secret. */
  readonly masterSecretName: string;
  /**
   * External Secrets the library issues itself (an application's client Secret of TLS for MySQL
   * clients, used for the target): listed, with no command to create them.
   * @default - none: the user creates every external Secret
   */
  readonly issuedSecretNames?: readonly string[];
  /**
   * External Secrets the target database's own certificates issue (the migration's client Secret
   * when the target is a database of the library with certificates of its own), with the runbook
   * whose steps issue them: listed, with no command to create them.
   * @default - none
   */
  readonly issuedByTarget?: { readonly secretNames: readonly string[]; readonly runbook: string };
  /** The steps that issue the cluster's certificates with the chosen method. */
  readonly issuance: readonly RunbookStep[];
  readonly sources: readonly ResolvedSource[];
  readonly target: ResolvedDatabase;
  /** Describes the target for people, e.g. `basic-sqlserver.demo.svc:4000`. */
  readonly targetLabel: string;
  /** The task's name. */
  readonly taskName: string;
  /** The number of master and worker members. */
  readonly replicas: Readonly<Record<'mig-master' | 'mig-worker', number>>;
  /**
   * The runbook of the re-creation with TLS under way, from the output folder.
   * @default - none is declared
   */
  readonly recreationRunbook?: string;
}

/** One database the runbook names: how it is labelled, its settings, and where its password goes. */
export interface RunbookDatabase {
  /** Describes the database for people, e.g. source `source1` (mysql.example.com:3306). */
  readonly label: string;
  readonly db: ResolvedDatabase;
  /** The file, in the migration folder, that holds its password. */
  readonly file: string;
  /** The `yq` path of the password in that file. */
  readonly path: string;
}

/** Renders the migration cluster's runbook. */
export function migrationRunbook(input: MigrationRunbookInput): string {
  const { clusterName, namespace } = input;
  const folder = fromOutputFolder(migrationFolder(namespace, clusterName));
  const databases = runbookDatabases(input);
  return renderRunbook({
    title: `Migration cluster ${clusterName} (namespace ${namespace})`,
    intro: [
      `Generated by cdk8s-cluster-tls from the same declarations as the manifests and the files in \`${folder}\`, so Secret names, mount paths and source ids agree. Every certificate of the cluster carries the Common Name \`${input.commonName}\`, the only one the master accepts.`,
      ...(input.recreationRunbook === undefined ? [] : [`A re-creation of this cluster with TLS is declared: follow \`${input.recreationRunbook}\` rather than the steps below, which create a new cluster.`]),
    ],
    runIn: outputFolderRunIn(input.manifestFile),
    steps: [
      namespaceStep(namespace, 'migration cluster'),
      externalSecretsStep(databases, namespace, input.issuedSecretNames ?? [], input.issuedByTarget),
      ...input.issuance,
      checkCertificateSecretsStep(input),
      deployStep(input),
      listMembersStep(input),
      startStep(input, 'start'),
    ],
  });
}

/** The sources, then the target, as the runbook names them. */
export function runbookDatabases(input: MigrationRunbookInput): RunbookDatabase[] {
  return [
    ...input.sources.map((s) => ({ label: `source \`${s.sourceId}\` (${s.host}:${s.port})`, db: s as ResolvedDatabase, file: sourceFileName(s.sourceId), path: '.from.password' })),
    { label: `the target (${input.targetLabel})`, db: input.target, file: TASK_FILE, path: '.["target-database"].password' },
  ];
}

/** The labels of the databases that use each external Secret, by Secret, in first-use order. */
function secretUsers(databases: readonly RunbookDatabase[]): Map<string, string[]> {
  const secrets = new Map<string, string[]>();
  for (const { label, db } of databases) {
    secrets.set(db.tlsSecretName, [...(secrets.get(db.tlsSecretName) ?? []), label]);
  }
  return secrets;
}

/** What the runbook adds after a Secret the library issues: which certificates issue it, and where; '' for one the user creates. */
function issuedNote(secret: string, issued: readonly string[], byTarget?: MigrationRunbookInput['issuedByTarget']): string {
  if (issued.includes(secret)) {
    return ', issued with the certificates for MySQL clients (the steps below)';
  }
  if (byTarget?.secretNames.includes(secret)) {
    return `, issued with the target database's certificates for MySQL clients (the steps of \`${byTarget.runbook}\`)`;
  }
  return '';
}

/** Step: create the client certificate Secret of each external database, once per Secret, but those the library issues. */
function externalSecretsStep(databases: readonly RunbookDatabase[], namespace: string, issued: readonly string[],
  byTarget?: MigrationRunbookInput['issuedByTarget']): RunbookStep {
  const secrets = secretUsers(databases);
  const issuedBy = (secret: string) => issuedNote(secret, issued, byTarget);
  const toCreate = [...secrets.keys()].filter((secret) => issuedBy(secret) === '');
  return {
    title: 'Create the Secret of each external database',
    text: [
      `The migration cluster reaches every upstream and downstream database over TLS. Each Secret below holds the client certificate set for one or more of them (\`${SECRET_KEYS.certificate}\`, \`${SECRET_KEYS.privateKey}\`, \`${SECRET_KEYS.ca}\`) and is listed in \`spec.tlsClientSecretNames\`; the operator mounts it at \`${names.externalTlsMountPath('<secret>')}\` in the master and worker pods, where the source and task files expect it.`,
      ...[...secrets].map(([secret, users]) => `- \`${secret}\`: ${listing(users)}${issuedBy(secret)}`),
      ...(toCreate.length === 0 ? [] : ['Put the client certificate, its private key and the CA that signed the database\'s server certificate in the files named in each command, '
        + 'in a folder of your own outside the synthesized folders (a synth replaces those whole, and refuses to while they hold files it did not write), set `CERTS` to that folder, then run:']),
    ],
    commands: toCreate.length === 0 ? [] : [
      ': "${CERTS:?set CERTS to the folder of the client certificate files}"',
      ...toCreate.map((secret) => `kubectl create secret generic ${secret} --namespace=${namespace} `
        + `--from-file=${SECRET_KEYS.certificate}="$CERTS/${secret}-client.pem" --from-file=${SECRET_KEYS.privateKey}="$CERTS/${secret}-client-key.pem" --from-file=${SECRET_KEYS.ca}="$CERTS/${secret}-ca.pem"`),
    ],
  };
}

/** Step: check that the cluster's own certificate Secrets exist. */
export function checkCertificateSecretsStep(input: MigrationRunbookInput): RunbookStep {
  return {
    title: 'Check the certificate Secrets',
    text: ['The master and the worker load their server Secrets and the shared client Secret when they start, by these names only; they must exist before the cluster is created:'],
    commands: [`kubectl get secret ${input.certificateSecretNames.join(' ')} -n ${input.namespace}`],
  };
}

/** The members, in the order the runbooks name them. */
const MEMBER_TOKENS = componentsOf(ClusterKind.MIGRATION, DeployedBy.OPERATOR) as readonly ('mig-master' | 'mig-worker')[];

/** How long a runbook waits for a member pod to be created, in seconds. */
const CREATE_WAIT_SECONDS = 600;

/** How long a runbook waits for a member to be ready before it fails. */
const READY_TIMEOUT = '10m';

/** The commands that wait for each member pod of the cluster to exist, then to be ready. */
function memberReadyCommands(input: Pick<MigrationRunbookInput, 'clusterName' | 'namespace' | 'replicas'>): string[] {
  return MEMBER_TOKENS.flatMap((token) => Array.from({ length: input.replicas[token] }, (_, i) => names.podName(input.clusterName, token, i)))
    .flatMap((pod) => [
      `for wait in $(seq ${CREATE_WAIT_SECONDS / 2}); do kubectl get pod ${pod} -n ${input.namespace} -o jsonpath='{.metadata.name}' >/dev/null 2>&1 && break; sleep 2; done`,
      `kubectl wait --for=condition=Ready pod/${pod} -n ${input.namespace} --timeout=${READY_TIMEOUT}`,
    ]);
}

/**
 * `migctl` run in the first master pod from the output folder (`kubectl exec`, with `-i` when a
 * file is passed on standard input), over TLS with the master's certificate set where the operator
 * mounts it, or in plain text against a cluster without TLS.
 */
export function migctlCommand(input: Pick<MigrationRunbookInput, 'clusterName' | 'namespace'>, options: { readonly tls: boolean; readonly stdin?: boolean }): string {
  const files = names.tlsFilePaths(MOUNT_PATHS.migMasterTls);
  const auth = options.tls ? ` --ssl-ca=${files.ca} --ssl-cert=${files.certificate} --ssl-key=${files.privateKey}` : '';
  return `kubectl exec${options.stdin ? ' -i' : ''} ${names.firstPodName(input.clusterName, 'mig-master')} -n ${input.namespace} -- migctl${auth} --master-addr 127.0.0.1:${PORTS.migMaster}`;
}

/** Step: apply the manifest that holds the cluster, and wait until every member is ready. */
function deployStep(input: MigrationRunbookInput): RunbookStep {
  return {
    title: 'Deploy the migration cluster',
    text: [
      '`spec.tlsCluster.enabled` is `true` and cannot be changed once the cluster exists: changing it makes the cluster fail to upgrade. '
        + `The commands apply the manifest, then wait for each member pod to exist (${CREATE_WAIT_SECONDS / 60} minutes at most), then to be ready (${READY_TIMEOUT} at most):`,
    ],
    commands: deployCommands(input),
  };
}

/** The commands that apply the manifest, then wait for each member pod to exist and to be ready. */
export function deployCommands(input: Pick<MigrationRunbookInput, 'clusterName' | 'namespace' | 'replicas' | 'manifestFile'>): string[] {
  return [`kubectl apply -f ${input.manifestFile}`, ...memberReadyCommands(input)];
}

/** Step: list the members with migctl in the first master pod, over TLS with the master's certificate set, from the folder it is mounted in. */
function listMembersStep(input: MigrationRunbookInput): RunbookStep {
  const { ca, certificate, privateKey } = SECRET_KEYS;
  return {
    title: 'List the members',
    text: [
      `\`migctl\` runs in the first master pod, from the folder where the master's certificate set (Secret \`${input.masterSecretName}\`) is mounted, \`${MOUNT_PATHS.migMasterTls}\`:`,
    ],
    commands: [
      `kubectl exec ${names.firstPodName(input.clusterName, 'mig-master')} -n ${input.namespace} -- sh -c '`
        + `cd ${MOUNT_PATHS.migMasterTls} && migctl --ssl-ca=${ca} --ssl-cert=${certificate} --ssl-key=${privateKey} --master-addr 127.0.0.1:${PORTS.migMaster} list-member'`,
    ],
  };
}

/**
 * Step: register each source and start the task, from a private copy of the files with the
 * passwords not passed to the construct filled in; `resume` says the task resumes from the
 * checkpoint the target database kept (a re-created cluster).
 */
export function startStep(input: MigrationRunbookInput, mode: 'start' | 'resume'): RunbookStep {
  const folder = fromOutputFolder(migrationFolder(input.namespace, input.clusterName));
  const databases = runbookDatabases(input);
  const missing = databases.filter((d) => !d.db.passwordGiven);
  const given = databases.filter((d) => d.db.passwordGiven);
  const tls = { tls: true };
  return {
    title: mode === 'start' ? 'Start the migration' : 'Register the sources and resume the task',
    text: [
      `${mode === 'start' ? '' : 'The new masters start empty. '}The commands copy the files of \`${folder}\` to a private temporary folder (\`mktemp -d\`)`
        + `${missing.length > 0 ? `, ask for the password of each of ${listing(missing.map((d) => d.label))}, without echoing it, and write it there with \`yq\` (v4): no password is written to the output unless it is passed to the construct` : ''}. `
        + 'Then they pass each file, on standard input, to `migctl` in the first master pod, over TLS with the master\'s certificate set: each source (`operate-source create`), then the task (`start-task`), and show its status. '
        + `${mode === 'start' ? 'A task that ran before resumes from the checkpoint the target database keeps (`start-task` without `--remove-meta`)' : 'The task starts without `--remove-meta`, so it resumes from the checkpoint the target database kept'}. The temporary folder is removed at the end.`,
      ...(given.length > 0
        ? [`The password of ${listing(given.map((d) => d.label))} was passed to the construct and is written in the files: keep the output folder private.`]
        : []),
    ],
    commands: [
      ...(missing.length > 0 ? fillPasswordCommands(missing, folder) : [`MIG_FILES="$(mktemp -d)" && cp ${folder}/*.yaml "$MIG_FILES"/`]),
      ...input.sources.map((s) => `${migctlCommand(input, { ...tls, stdin: true })} operate-source create /dev/stdin < "$MIG_FILES/${sourceFileName(s.sourceId)}"`),
      `${migctlCommand(input, { ...tls, stdin: true })} start-task /dev/stdin < "$MIG_FILES/${TASK_FILE}"`,
      `${migctlCommand(input, tls)} query-status ${input.taskName}`,
      'rm -rf "$MIG_FILES"',
    ],
  };
}

/** Copies the files to a private temporary folder and asks for each missing password, writing it there with `yq`. */
function fillPasswordCommands(missing: readonly RunbookDatabase[], folder: string): string[] {
  return [
    `MIG_FILES="$(mktemp -d)" && cp ${folder}/*.yaml "$MIG_FILES"/`,
    ...missing.flatMap((d) => [
      // The prompt names the database by its id and host, which the construct checks; the user name, free text, stays in the comment.
      `read -rsp 'Password on ${d.label.replace(/`/g, '')}: ' ${PASSWORD_VARIABLE} && echo && export ${PASSWORD_VARIABLE}   # password of user "${d.db.user}"`,
      `yq -i '${d.path} = strenv(${PASSWORD_VARIABLE})' "$MIG_FILES/${d.file}"`,
    ]),
    `unset ${PASSWORD_VARIABLE}`,
  ];
}
