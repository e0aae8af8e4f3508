/**
 * The runbook of one phase of a TLS enablement (`enablement-runbook.md`), rendered from plain
 * values: what the phase changes, the commands, what to check before the next commit, and what
 * that commit is. The operator's procedure for a cluster that runs without TLS, in this project's
 * names, with the coordinator's peer-URL update spelled out.
 */
import type { TlsFilePaths } from '../model/names';
import { Runbook, RunbookStep, outputFolderRunIn, renderRunbook } from './runbook';

/** Where the runbook copies `etcdctl` in the coordinator pod: a folder every image can write, emptied by the pod's next restart. */
export const ETCDCTL_IN_POD = '/tmp/etcdctl';

/** The coordinator, as the phases need it. */
export interface EnablementCoordinator {
  /** The member that stays when it is scaled to one. */
  readonly pod: string;
  /** Its declared replicas, restored by the last phase. */
  readonly replicas: number;
  /** The peer URL the remaining member is stored with once the update is done (`https://…:2380`). */
  readonly peerUrl: string;
  /** The files of its server certificate set, where the operator mounts them once TLS is on. */
  readonly tlsFiles: TlsFilePaths;
  /** Its server Secret, which the pods mount only once TLS is on. */
  readonly secretName: string;
  /** The label selector of its pods. */
  readonly podSelector: string;
  readonly clientPort: number;
}

/** Everything the runbook of a phase says, resolved. */
export interface EnablementRunbookInput {
  readonly clusterName: string;
  readonly namespace: string;
  readonly phase: string;
  readonly phases: readonly string[];
  /** Whether the cluster runs with TLS in this phase. */
  readonly tls: boolean;
  /** The manifest file holding the cluster resource and the certificate objects. */
  readonly manifestFile: string;
  /** The steps that issue the Secrets, by method. */
  readonly issuanceSteps: readonly RunbookStep[];
  /** Every Secret of the plan, which the check step verifies. */
  readonly secretNames: readonly string[];
  readonly coordinator: EnablementCoordinator;
  /** The label selector of the pods of the database cluster's components the operator runs (not the migration cluster's, which shares their instance label). */
  readonly podSelector: string;
  /** The components the operator restarts after the flip, in its order. */
  readonly rolled: readonly string[];
  /** The store's eviction timeout while it is lowered. */
  readonly evictLeaderTimeout: string;
  /** Steps added after the operator's roll of the `enable` phase (the drainer's upgrade). */
  readonly afterRoll: readonly RunbookStep[];
  /** The verify report, relative to the output folder (beside it). */
  readonly verifyReport: string;
  /** The coordinator's member list, relative to the output folder (beside it). */
  readonly membersFile: string;
}

/** The enablement runbook of a phase, as Markdown. */
export function enablementRunbook(input: EnablementRunbookInput): string {
  const { phase, phases, clusterName, namespace } = input;
  const at = phases.indexOf(phase);
  const steps: Record<string, () => RunbookStep[]> = {
    'issue': () => [...input.issuanceSteps, applyStep(input, 'The cluster resource still says `tlsCluster.enabled: false`: nothing restarts. Read `kubectl diff` first: the first apply is when this app takes the cluster resource over, and any difference other than what you meant rolls the cluster.')],
    'scale-in': () => [applyStep(input, `The operator removes coordinator members one at a time, down to \`${input.coordinator.pod}\`, and waits at most \`${input.evictLeaderTimeout}\` for a store's leaders to move before restarting it (\`spec.store.evictLeaderTimeout\`). Nothing else restarts.`), scaledInStep(input)],
    'enable': () => [applyStep(input, `\`tlsCluster.enabled\` is now true, with the allowed Common Names. The operator restarts \`${input.coordinator.pod}\` at once with TLS. From then until the last component below restarts, pods that still speak plain text and pods that speak TLS cannot reach each other: this is the outage window of turning TLS on in place (the library's docs/explanation/phases.md measures it).`),
      ...peerUrlSteps(input), rollStep(input), ...input.afterRoll],
    'scale-out': () => [applyStep(input, `The operator adds coordinator members back up to ${input.coordinator.replicas}; each joins with an \`https\` peer URL, which the remaining member reaches since its own was updated. The store's eviction timeout is the operator's again.`), scaledOutStep(input)],
  };
  const runbook: Runbook = {
    title: `Turning TLS on for cluster ${clusterName} in namespace ${namespace}, which runs without it: phase ${phase} (${at + 1} of ${phases.length})`,
    intro: [
      `Turning TLS on for a cluster that runs without it, phases ${phases.map((p) => `\`${p}\``).join(', ')}: one commit each, in order. Each phase's check writes a report that the synth of the next phase reads before it moves on.`,
      `Run every command block from ${outputFolderRunIn(input.manifestFile)}, in order; each block's first line says so.`,
    ],
    runIn: outputFolderRunIn(input.manifestFile),
    steps: [...steps[phase](), checkStep(input)],
  };
  return renderRunbook(runbook);
}

function applyStep(input: EnablementRunbookInput, what: string): RunbookStep {
  return { title: 'Apply the manifests', text: [what], commands: [`kubectl apply -f ${input.manifestFile}`] };
}

/** `etcdctl` in the coordinator pod, against its own client port, with its own certificate set. */
function etcdctl(input: EnablementRunbookInput, args: string): string {
  const { namespace, coordinator: c } = input;
  return `kubectl exec -n ${namespace} ${c.pod} -- ${ETCDCTL_IN_POD} --endpoints https://127.0.0.1:${c.clientPort} `
    + `--cacert ${c.tlsFiles.ca} --cert ${c.tlsFiles.certificate} --key ${c.tlsFiles.privateKey} ${args}`;
}

/** Waits until the coordinator runs `count` pods: the operator scales one member at a time, after the apply returns. */
function waitForMembers(input: EnablementRunbookInput, count: number): string {
  const { namespace, coordinator: c } = input;
  return `until [ "$(kubectl get pods -n ${namespace} -l ${c.podSelector} -o name | wc -l)" -eq ${count} ]; do sleep 5; done`;
}

function scaledInStep(input: EnablementRunbookInput): RunbookStep {
  const { namespace, coordinator: c } = input;
  return {
    title: 'Wait for one coordinator member',
    text: [`Wait until the coordinator runs one pod and lists one member: with several, the operator could neither read the coordinator's status nor restart it once TLS is on, and members restarted together would each dial the others' stored \`http\` peer URL and never form a quorum.`],
    commands: [waitForMembers(input, 1), `kubectl exec -n ${namespace} ${c.pod} -- coordctl -u http://127.0.0.1:${c.clientPort} member`],
  };
}

function peerUrlSteps(input: EnablementRunbookInput): RunbookStep[] {
  const { namespace, coordinator: c } = input;
  return [
    {
      title: 'Wait for the coordinator to restart with TLS',
      text: [`The operator replaces \`${c.pod}\` with a pod that mounts \`${c.secretName}\`: wait for that pod, and for it to be ready.`],
      commands: [
        `until kubectl get pod ${c.pod} -n ${namespace} -o jsonpath='{.spec.volumes[?(@.secret.secretName=="${c.secretName}")].name}' | grep -q .; do sleep 5; done`,
        `kubectl wait --for=condition=Ready pod/${c.pod} -n ${namespace} --timeout=10m`,
      ],
    },
    {
      title: 'Copy etcdctl into the coordinator pod',
      text: [`The coordinator image has no \`etcdctl\`. Set \`ETCDCTL\` to the path of an \`etcdctl\` built for the pod's platform (linux/amd64 on most clusters), from etcd's release archive (\`etcd-v3.<minor>.<patch>-linux-amd64.tar.gz\`, any v3 release: it speaks the v3 API the coordinator serves), then copy it in. The copy lasts until the pod restarts.`],
      commands: [`test -x "\${ETCDCTL:?set ETCDCTL to the path of an etcdctl binary}"`, `kubectl exec -i -n ${namespace} ${c.pod} -- sh -c 'cat > ${ETCDCTL_IN_POD} && chmod +x ${ETCDCTL_IN_POD}' < "$ETCDCTL"`],
    },
    {
      title: 'Store the member\'s peer URL as https',
      text: [`The member is still stored with the \`http\` peer URL it was created with: the restart kept its data and did not announce the URL again. Read its id from the member list (its name is the pod's), store the \`https\` URL, and list again into \`${input.membersFile}\`: the last command fails unless the member now shows \`${c.peerUrl}\`, and the synth of the next phase reads the list. Do this before anything else joins: a member added while the URL is \`http\` could not reach this one.`],
      commands: [
        etcdctl(input, 'member list'),
        `ID=$(${etcdctl(input, 'member list')} | awk -F', ' '$3 == "${c.pod}" { print $1 }')`,
        `${etcdctl(input, `member update "$ID" --peer-urls=${c.peerUrl}`)}`,
        `${etcdctl(input, 'member list')} > ${input.membersFile}`,
        `grep -F '${c.peerUrl}' ${input.membersFile}`,
      ],
    },
  ];
}

function rollStep(input: EnablementRunbookInput): RunbookStep {
  const { namespace } = input;
  const rest = input.rolled.filter((t) => t !== 'coordinator');
  return {
    title: 'Wait for the operator to restart every component',
    text: [`The operator restarts the other components one pod at a time, in its own order: ${rest.join(', then ')}. Before each store pod it waits at most \`${input.evictLeaderTimeout}\` for its leaders to move: the count it waits for is read with TLS from a store that still speaks plain text. A pod restarted with TLS mounts its component's Secret: the loop below waits until every pod of those components does (the migration cluster's pods, which share the cluster's instance label, are not selected), then lists them. The check step's \`rolled\` check fails while one does not.`],
    commands: [
      `until [ -z "$(kubectl get pods -n ${namespace} -l '${input.podSelector}' -o custom-columns=POD:.metadata.name,SECRETS:.spec.volumes[*].secret.secretName | awk 'NR > 1 && $2 !~ /-cluster-secret/')" ]; do sleep 10; done`,
      `kubectl get pods -n ${namespace} -l '${input.podSelector}' -o custom-columns=POD:.metadata.name,STARTED:.status.startTime,SECRETS:.spec.volumes[*].secret.secretName`,
    ],
  };
}

function scaledOutStep(input: EnablementRunbookInput): RunbookStep {
  const { namespace, coordinator: c } = input;
  return {
    title: 'Wait for every coordinator member',
    text: [`Wait until the coordinator runs ${c.replicas} pod${c.replicas === 1 ? '' : 's'} and lists as many members, each with an \`https\` peer URL.`],
    commands: [
      waitForMembers(input, c.replicas),
      `kubectl exec -n ${namespace} ${c.pod} -- coordctl --cacert=${c.tlsFiles.ca} --cert=${c.tlsFiles.certificate} --key=${c.tlsFiles.privateKey} -u https://127.0.0.1:${c.clientPort} member`,
    ],
  };
}

/** What to check before the next commit, and what that commit is. */
function checkStep(input: EnablementRunbookInput): RunbookStep {
  const next = input.phases[input.phases.indexOf(input.phase) + 1];
  const what = input.tls
    ? 'With TLS on, it also checks that every component of the output has its allowed Common Name list and that the list holds the certificates\' Common Name.'
    : 'The cluster still runs in plain text, so it also checks that the output configures no allowed Common Name list yet.';
  return {
    title: next ? `Check, then commit phase ${next}` : 'Check: TLS is on',
    text: [
      `Check every Secret of the plan (${input.secretNames.map((n) => `\`${n}\``).join(', ')}) against it: \`cluster-tls verify\` reads the phase from \`tls-plan.json\` and exits 1 while anything is not where this phase leaves it. ${what} Its JSON report goes beside the output folder, \`${input.verifyReport}\`.`,
      next
        ? `Then set the enablement's \`phase\` to \`${next}\` in the app, synthesize, review and commit. The synth reads the report from beside the output folder and refuses to move on unless it is a report of this phase showing every Secret in place.`
        : 'The cluster now runs with TLS like one created with it. Keep the enablement declared, or remove it: either synthesizes the same cluster.',
    ],
    commands: [`kubectl get secrets,pods -n ${input.namespace} -o json --show-managed-fields | npx cluster-tls verify --dist . --namespace ${input.namespace} --cluster ${input.clusterName} --secrets - --json > ${input.verifyReport}`],
  };
}
