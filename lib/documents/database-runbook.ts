/**
 * The database cluster's runbook: deploy (section C) and connect the client tools (section D).
 */
import { Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { CAPABILITIES, CLIENT_SECRET_MOUNTING, ClusterKind, MOUNT_PATHS, PORTS, SECRET_KEYS, clusterKind } from '../spec/catalog';
import * as names from '../spec/names';
import { manifestFileName, mountClientSecretPatchPath } from '../spec/output-layout';
import { RunbookStep, renderRunbook } from './runbook';
import type { TlsDatabaseCluster } from '../clusters/tls-database-cluster';
import { isOlderThan } from '../spec/versions';

/** The first operator version that mounts the client certificate set. */
const MOUNT_MINIMUM = CAPABILITIES.mountClusterClientSecret.minOperatorVersion;

/** Where the database cluster's client tools find the client certificate set. */
const CLIENT_TLS_FOLDER = MOUNT_PATHS.clusterClientTls;

/** The merge patch of section D: `mountClusterClientSecret: true` on the coordinator and the store. */
function mountClientSecretPatchObject(): { spec: Record<string, { mountClusterClientSecret: true }> } {
  return { spec: Object.fromEntries(CLIENT_SECRET_MOUNTING.map((t) => [t, { mountClusterClientSecret: true as const }])) };
}

/** The merge patch as a YAML file; the same for every cluster, so rendered once. */
export const MOUNT_CLIENT_SECRET_PATCH_YAML = YAML.stringify(mountClientSecretPatchObject());

/** Renders the runbook of a database cluster, with the extra steps other constructs added. */
export function databaseRunbook(cluster: TlsDatabaseCluster, chart: Chart, extraSteps: readonly RunbookStep[] = []): string {
  const { clusterName, namespace } = cluster;
  const { certificate, privateKey, ca } = SECRET_KEYS;
  const resource = clusterKind(ClusterKind.DATABASE).resourceKind.toLowerCase();
  const secrets = [...cluster.components.map((t) => cluster.serverSecretName(t)), cluster.clientSecretName];
  const shell = (token: 'coordinator' | 'store', command: string): RunbookStep => ({
    title: `Connect ${token === 'coordinator' ? 'coordctl to the coordinator' : 'storectl to the store'}`,
    text: [`Open a shell in the first ${token} pod and run the tool from the mounted client certificate folder \`${CLIENT_TLS_FOLDER}\`:`],
    commands: [
      `kubectl exec -it ${names.firstPodName(clusterName, token)} -n ${namespace} -- sh`,
      `cd ${CLIENT_TLS_FOLDER}`,
      command,
    ],
  });
  const steps: RunbookStep[] = [
    ...cluster.certificates.issuanceSteps(),
    {
      title: 'Check the certificate Secrets',
      text: [`Every component loads its Secret when it starts, by these names only (each holds \`${certificate}\`, \`${privateKey}\` and \`${ca}\`); they must exist before the cluster is created:`],
      commands: [`kubectl get secret ${secrets.join(' ')} -n ${namespace}`],
    },
    ...(cluster.sinkTlsSecretNames.length === 0 ? [] : [{
      title: 'Check the changefeed\'s sink Secrets',
      text: [
        `The changefeed reaches the databases it writes to with their own client certificates, which you create (keys \`${SECRET_KEYS.certificate}\`, \`${SECRET_KEYS.privateKey}\`, \`${SECRET_KEYS.ca}\`). The operator mounts each at \`${MOUNT_PATHS.sinkTls}/<secret>\` in the changefeed pods; point a sink's \`ssl-ca\`, \`ssl-cert\` and \`ssl-key\` there, for example \`${names.mountedTlsFiles(MOUNT_PATHS.sinkTls, cluster.sinkTlsSecretNames[0]).ca}\`.`,
      ],
      commands: [`kubectl get secret ${cluster.sinkTlsSecretNames.join(' ')} -n ${namespace}`],
    }]),
    {
      title: 'Deploy the cluster',
      text: [
        `Run from the output folder. \`spec.tlsCluster.enabled\` is \`true\` and cannot be changed once the cluster exists: changing it makes the cluster fail to upgrade.`,
      ],
      commands: [`kubectl apply -f ${manifestFileName(chart)}`],
    },
    {
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
        `kubectl patch ${resource} ${clusterName} -n ${namespace} --type merge --patch-file ${mountClientSecretPatchPath(namespace, clusterName)}`,
        `# or inline: kubectl patch ${resource} ${clusterName} -n ${namespace} --type merge -p '${JSON.stringify(mountClientSecretPatchObject())}'`,
      ],
    },
    shell('coordinator', `coordctl --cacert=${ca} --cert=${certificate} --key=${privateKey} -u https://127.0.0.1:${PORTS.coordinatorClient} member`),
    shell('store', `storectl --ca-path=${ca} --cert-path=${certificate} --key-path=${privateKey} --host 127.0.0.1:${PORTS.storeStatus} cluster`),
    ...extraSteps,
  ];
  return renderRunbook({
    title: `Database cluster ${clusterName} (namespace ${namespace})`,
    intro: [
      `Generated by cdk8s-cluster-tls from the same catalog as the manifests: the names below follow the cluster. Every certificate carries the Common Name \`${cluster.commonName}\`.`,
    ],
    steps,
  });
}
