/**
 * The database cluster's runbook: deploy (section C) and connect the client tools (section D).
 */
import { CAPABILITIES, ClusterKind, PORTS, clusterKind } from '../model/catalog';
import { SECRET_KEYS } from '../model/catalog-certificates';
import { CLIENT_SECRET_MOUNTING, MOUNT_PATHS } from '../model/catalog-pods';
import * as names from '../model/names';
import { fromOutputFolder, mountClientSecretPatchPath } from '../model/output-layout';
import { RunbookStep, namespaceStep, outputFolderRunIn, renderRunbook } from './runbook';
import { isOlderThan } from '../model/versions';
import { stringifyYaml } from '../yaml/emitter';

/** The first operator version that mounts the client certificate set. */
const MOUNT_MINIMUM = CAPABILITIES.mountClusterClientSecret.minOperatorVersion;

/** Where the database cluster's client tools find the client certificate set. */
const CLIENT_TLS_FOLDER = MOUNT_PATHS.clusterClientTls;

/** The merge patch of section D: `mountClusterClientSecret: true` on the coordinator and the store. */
function mountClientSecretPatchObject(): { spec: Record<string, { mountClusterClientSecret: true }> } {
  return { spec: Object.fromEntries(CLIENT_SECRET_MOUNTING.map((t) => [t, { mountClusterClientSecret: true as const }])) };
}

/** The merge patch as a YAML file, for YAML 1.1 readers as every file; the same for every cluster, so rendered once. */
export const MOUNT_CLIENT_SECRET_PATCH_YAML = stringifyYaml(mountClientSecretPatchObject());

/** What the database runbook says about its cluster: resolved values, no construct. */
export interface DatabaseRunbookInput {
  readonly clusterName: string;
  readonly namespace: string;
  /** The Common Name every certificate of the cluster carries. */
  readonly commonName: string;
  /** The Secrets the cluster loads: each component's server Secret, then the client Secret. */
  readonly certificateSecretNames: readonly string[];
  /** The issuing method's steps. */
  readonly issuanceSteps: readonly RunbookStep[];
  /** The changefeed's sink Secrets. */
  readonly sinkTlsSecretNames: readonly string[];
  /** Whether the coordinator and the store mount the client certificate set. */
  readonly mountClusterClientSecret: boolean;
  /** The operator version the cluster is declared for, when given. */
  readonly operatorVersion?: string;
  /** The manifest file that holds the cluster. */
  readonly manifestFile: string;
  /** The TLS enablement under way, when one is declared: its phase, and whether TLS is on in it. */
  readonly enablement?: { readonly phase: string; readonly tls: boolean; readonly runbook: string };
  /** TLS for MySQL clients, when it is on: the SQL server's address and each application's certificate. */
  readonly sqlTls?: SqlTlsRunbookInput;
}

/** What the runbook says about TLS for MySQL clients. */
export interface SqlTlsRunbookInput {
  /** The SQL server's host name and port inside the Kubernetes cluster. */
  readonly host: string;
  readonly port: number;
  /** The SQL server's Secret. */
  readonly serverSecretName: string;
  /** Whether the SQL server asks for no client certificate. */
  readonly disableClientAuthn: boolean;
  /** The Secrets of TLS for MySQL clients, each in its namespace: the server's, the operator's, the applications'. */
  readonly secrets: readonly { readonly name: string; readonly namespace: string }[];
  /** Each application: its database user, the namespace and name of its Secret, and its subject as `REQUIRE SUBJECT` compares it. */
  readonly applications: readonly { readonly user: string; readonly namespace: string; readonly secretName: string; readonly subject: string }[];
  /**
   * The user that reloads the MySQL port's certificate in rotations (one of the applications) and
   * the privilege the statement needs.
   * @default - none
   */
  readonly reload?: { readonly user: string; readonly privilege: string; readonly statement: string };
}

/**
 * The SQL statements that tie each application's database user to its certificate: created when
 * missing, then `REQUIRE SUBJECT` set whether it was just created or already there (a user made
 * before, or tied to an earlier subject, is tied to this one), so that the user can log in with
 * that certificate only (the SQL server checks the chain against the SQL CA before it compares the
 * subject). Safe to run again. The names and subjects hold no quote or backslash: the construct
 * refuses them.
 */
export function sqlUserStatements(sql: SqlTlsRunbookInput): string {
  return sql.applications.map((a) => `CREATE USER IF NOT EXISTS '${a.user}'@'%';\nALTER USER '${a.user}'@'%' REQUIRE SUBJECT '${a.subject}';\n${
    a.user === sql.reload?.user ? `GRANT ${sql.reload.privilege} ON *.* TO '${a.user}'@'%';\n` : ''}`).join('');
}

/** Renders the runbook of a database cluster, with the extra steps other constructs added. */
export function databaseRunbook(cluster: DatabaseRunbookInput, extraSteps: readonly RunbookStep[] = []): string {
  return renderRunbook({
    title: `Database cluster ${cluster.clusterName} (namespace ${cluster.namespace})`,
    intro: [
      `Generated by cdk8s-cluster-tls from the same catalog as the manifests: the names below follow the cluster. Every certificate carries the Common Name \`${cluster.commonName}\`.`,
      ...(cluster.enablement === undefined ? [] : [enablementNote(cluster.enablement)]),
    ],
    runIn: outputFolderRunIn(cluster.manifestFile),
    steps: [
      ...namespaceSteps(cluster),
      ...cluster.issuanceSteps,
      checkCertificateSecretsStep(cluster),
      ...sinkSecretsSteps(cluster),
      deployStep(cluster),
      mountClientSecretStep(cluster),
      coordctlStep(cluster),
      storectlStep(cluster),
      ...sqlClientsSteps(cluster),
      ...extraSteps,
    ],
  });
}

/** Step: TLS for MySQL clients, with each application's database user; nothing when it is off. */
function sqlClientsSteps({ sqlTls: sql }: DatabaseRunbookInput): RunbookStep[] {
  if (sql === undefined) {
    return [];
  }
  const text = [
    `The SQL server at \`${sql.host}:${sql.port}\` accepts TLS from MySQL clients with the certificate of Secret \`${sql.serverSecretName}\`${sql.disableClientAuthn ? ' and asks for no client certificate' : ', and checks every client certificate against its own CA (the SQL CA, never the cluster\'s)'}. Applications verify the server against the \`${SECRET_KEYS.ca}\` of their Secret and dial it by one of the names on its certificate.`,
  ];
  if (sql.applications.length === 0) {
    return [{ title: 'Connect applications over TLS', text: [...text, 'No application certificate is declared: declare one per application with `addSqlClient`.'] }];
  }
  return [{
    title: 'Tie each application\'s database user to its certificate',
    text: [
      ...text,
      `Each application's Secret (${sql.applications.map((a) => `\`${a.namespace}/${a.secretName}\``).join(', ')}) holds its certificate, its key and the trust bundle. Run these statements as a database administrator: each user can then log in only with a certificate the SQL CA signed for that application's subject. Then grant each user the privileges its application needs (\`GRANT … TO '<user>'@'%'\`), and a password if it should need one too.`,
      ...(sql.reload ? [`\`${sql.reload.user}\` is the user the rotation runbook runs \`${sql.reload.statement}\` as, which needs \`${sql.reload.privilege}\`: the statements grant it. Whoever reads its Secret can act as that user, so keep read access to Secrets of the namespace as narrow as for the cluster's own.`] : []),
    ],
    file: { language: 'sql', content: sqlUserStatements(sql) },
  }];
}

/** Step: check that the Secret of every component and the client Secret exist. */
function checkCertificateSecretsStep(cluster: DatabaseRunbookInput): RunbookStep {
  const { certificate, privateKey, ca } = SECRET_KEYS;
  // TLS for MySQL clients: the SQL server's Secret and the operator's client Secret load with the
  // cluster too, and each application's, in its namespace, with the application.
  const sql = cluster.sqlTls?.secrets ?? [];
  const namespaces = [...new Set(sql.map((s) => s.namespace))].filter((n) => n !== cluster.namespace);
  const inNamespace = (n: string) => sql.filter((s) => s.namespace === n).map((s) => s.name);
  return {
    title: 'Check the certificate Secrets',
    text: [
      `Every component loads its Secret when it starts, by these names only (each holds \`${certificate}\`, \`${privateKey}\` and \`${ca}\`); they must exist before the cluster is created${sql.length > 0 ? ', as must the SQL server\'s and the operator\'s for MySQL clients; each application\'s is checked too, and must exist before its application starts' : ''}:`,
    ],
    commands: [
      `kubectl get secret ${[...cluster.certificateSecretNames, ...inNamespace(cluster.namespace)].join(' ')} -n ${cluster.namespace}`,
      ...namespaces.map((n) => `kubectl get secret ${inNamespace(n).join(' ')} -n ${n}`),
    ],
  };
}

/** Step: check the changefeed's sink Secrets, which the user creates; none without sinks. */
function sinkSecretsSteps(cluster: DatabaseRunbookInput): RunbookStep[] {
  if (cluster.sinkTlsSecretNames.length === 0) {
    return [];
  }
  return [{
    title: 'Check the changefeed\'s sink Secrets',
    text: [
      `The changefeed reaches the databases it writes to with their own client certificates, which you create (keys \`${SECRET_KEYS.certificate}\`, \`${SECRET_KEYS.privateKey}\`, \`${SECRET_KEYS.ca}\`). The operator mounts each at \`${MOUNT_PATHS.sinkTls}/<secret>\` in the changefeed pods; point a sink's \`ssl-ca\`, \`ssl-cert\` and \`ssl-key\` there, for example \`${names.mountedTlsFiles(MOUNT_PATHS.sinkTls, cluster.sinkTlsSecretNames[0]).ca}\`.`,
    ],
    commands: [`kubectl get secret ${cluster.sinkTlsSecretNames.join(' ')} -n ${cluster.namespace}`],
  }];
}

/** What a cluster that turns TLS on in place says before its steps. */
function enablementNote(enablement: NonNullable<DatabaseRunbookInput['enablement']>): string {
  return enablement.tls
    ? `This cluster turned TLS on in place (phase \`${enablement.phase}\` of its enablement, \`${enablement.runbook}\`): the steps below describe it from there on.`
    : `This cluster runs without TLS and turns it on in place: follow \`${enablement.runbook}\` (phase \`${enablement.phase}\`), not the steps below. They describe the cluster once its phase \`enable\` is done: until then the client tools cannot connect with TLS, and the mount patch is not needed (the flip mounts the client certificate set, in the same roll).`;
}

/** Step: the cluster's namespace; none while a TLS enablement is under way, in a cluster that runs. */
function namespaceSteps({ namespace, enablement }: DatabaseRunbookInput): RunbookStep[] {
  return enablement !== undefined ? [] : [namespaceStep(namespace, 'cluster')];
}

/** Step: apply the manifest that holds the cluster. */
function deployStep(cluster: DatabaseRunbookInput): RunbookStep {
  return {
    title: 'Deploy the cluster',
    text: [
      cluster.enablement === undefined
        ? `\`spec.tlsCluster.enabled\` is \`true\` and cannot be changed once the cluster exists: changing it makes the cluster fail to upgrade.`
        : `\`spec.tlsCluster.enabled\` is \`${cluster.enablement.tls}\` in this phase of the enablement: it moves from \`false\` to \`true\` only through its phases, and never back.`,
    ],
    commands: [`kubectl apply -f ${cluster.manifestFile}`],
  };
}

/** Step: the merge patch that mounts the client certificate set, and the operator version it needs. */
function mountClientSecretStep(cluster: DatabaseRunbookInput): RunbookStep {
  const { clusterName, namespace } = cluster;
  const resource = clusterKind(ClusterKind.DATABASE).resourceKind.toLowerCase();
  return {
    title: 'Mount the client certificate set',
    text: [
      cluster.mountClusterClientSecret
        ? `The cluster is created with \`mountClusterClientSecret: true\` on the coordinator and the store. For a cluster created without it, apply this merge patch; it triggers a rolling update of the coordinator and the store.`
        : `The cluster is created without \`mountClusterClientSecret\`. The client tools below need it: apply this merge patch; it triggers a rolling update of the coordinator and the store.`,
      ...(cluster.operatorVersion !== undefined && isOlderThan(cluster.operatorVersion, MOUNT_MINIMUM)
        ? [`The patch needs operator v${MOUNT_MINIMUM} or later and this cluster is declared for ${cluster.operatorVersion}: upgrade the operator (and set \`operatorVersion\`) before applying it; until then the client tools below cannot run.`]
        : []),
    ],
    commands: [
      `kubectl patch ${resource} ${clusterName} -n ${namespace} --type merge --patch-file ${fromOutputFolder(mountClientSecretPatchPath(namespace, clusterName))}`,
      `# or inline: kubectl patch ${resource} ${clusterName} -n ${namespace} --type merge -p '${JSON.stringify(mountClientSecretPatchObject())}'`,
    ],
  };
}

/** Step: run coordctl against the coordinator with the mounted client certificate set. */
function coordctlStep(cluster: DatabaseRunbookInput): RunbookStep {
  const { certificate, privateKey, ca } = SECRET_KEYS;
  return clientToolStep(cluster, 'coordinator',
    `coordctl --cacert=${ca} --cert=${certificate} --key=${privateKey} -u https://127.0.0.1:${PORTS.coordinatorClient} member`);
}

/** Step: run storectl against the store with the mounted client certificate set. */
function storectlStep(cluster: DatabaseRunbookInput): RunbookStep {
  const { certificate, privateKey, ca } = SECRET_KEYS;
  return clientToolStep(cluster, 'store',
    `storectl --ca-path=${ca} --cert-path=${certificate} --key-path=${privateKey} --host 127.0.0.1:${PORTS.storeStatus} cluster`);
}

/** A step that opens a shell in the component's first pod and runs a client tool from the client certificate folder. */
function clientToolStep(cluster: DatabaseRunbookInput, token: 'coordinator' | 'store', command: string): RunbookStep {
  return {
    title: `Connect ${token === 'coordinator' ? 'coordctl to the coordinator' : 'storectl to the store'}`,
    text: [`Run the tool in the first ${token} pod, from the mounted client certificate folder \`${CLIENT_TLS_FOLDER}\`:`],
    commands: [
      `kubectl exec ${names.firstPodName(cluster.clusterName, token)} -n ${cluster.namespace} -- sh -c 'cd ${CLIENT_TLS_FOLDER} && ${command}'`,
    ],
  };
}
