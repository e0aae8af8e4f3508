/**
 * The runbook of a migration cluster's re-creation with TLS, one per phase (lib/model/recreation.ts):
 * `stop` stops the task and deletes the plain-text cluster with its masters' volumes; `create`
 * creates the cluster with TLS, registers the sources again and resumes the task from the
 * checkpoint the target database kept. Every command runs from the output folder: the ones for the
 * master run through `kubectl exec`, the files they read passed on standard input.
 */
import { ClusterKind, DeployedBy, clusterKind, componentsOf } from '../model/catalog';
import * as names from '../model/names';
import { MigrationRecreationPhase, RECREATION_PHASES } from '../model/recreation';
import {
  MigrationRunbookInput, checkCertificateSecretsStep, deployCommands, listing, migctlCommand, runbookDatabases, startStep,
} from './migration-files';
import { RunbookStep, outputFolderRunIn, renderRunbook } from './runbook';

/** What the re-creation's runbook needs beyond the migration runbook's input. */
export interface RecreationRunbookInput extends MigrationRunbookInput {
  /** The phase declared. */
  readonly phase: MigrationRecreationPhase;
  /** The cluster's migration runbook, from the output folder, whose first step creates the external databases' Secrets. */
  readonly migrationRunbook: string;
}

/** The members, in the order the runbook names them. */
const MEMBERS = componentsOf(ClusterKind.MIGRATION, DeployedBy.OPERATOR);

/** How long the runbook waits for the deleted cluster's pods to go. */
const DELETE_WAIT_SECONDS = 600;

/** Renders the runbook of the declared phase. */
export function recreationRunbook(input: RecreationRunbookInput): string {
  const { clusterName, namespace, phase } = input;
  const next = RECREATION_PHASES[RECREATION_PHASES.indexOf(phase) + 1];
  return renderRunbook({
    title: `Migration cluster ${clusterName} (namespace ${namespace}): re-creation with TLS, phase ${phase}`,
    intro: [
      'The operator cannot turn TLS on in a running migration cluster: once `tlsCluster` flips, it can no longer read the masters\' status, and each master\'s embedded etcd keeps the plain-text peer URL stored on its volume. '
        + `The cluster is therefore re-created, in two phases, one commit each: ${RECREATION_PHASES.map((p) => `\`${p}\``).join(', then ')}.`,
      `What the re-creation keeps: the task's checkpoint, which the target database (${input.targetLabel}) holds, and the workers' volumes with their relay logs, which the new workers mount again. `
        + 'What it deletes: the masters\' volumes, whose embedded etcd holds the plain-text peer URLs; what they held besides (the registered sources and the task) is registered again from the output\'s files.',
      ...(phase === MigrationRecreationPhase.STOP
        ? ['If a GitOps tool syncs the output folder, suspend its sync of this cluster until the `create` phase is applied: it would create again the cluster this phase deletes, in plain text.']
        : []),
    ],
    runIn: outputFolderRunIn(input.manifestFile),
    steps: phase === MigrationRecreationPhase.STOP
      ? [...input.issuance, checkCertificateSecretsStep(input), externalSecretsCheckStep(input), stopTaskStep(input), deleteClusterStep(input), deleteMasterVolumesStep(input), nextPhaseStep(next!)]
      : [checkCertificateSecretsStep(input), createStep(input), startStep(input, 'resume'), doneStep()],
  });
}

/** The Secrets of the external databases, each once. */
function externalSecrets(input: RecreationRunbookInput): string[] {
  return [...new Set(runbookDatabases(input).map((d) => d.db.tlsSecretName))];
}

/** Step: check, before anything stops, the Secrets of the external databases the new cluster mounts. */
function externalSecretsCheckStep(input: RecreationRunbookInput): RunbookStep {
  const external = externalSecrets(input);
  return {
    title: 'Check the external databases\' Secrets',
    text: [
      `The cluster with TLS mounts the client certificate Secret of each external database (${listing(external.map((s) => `\`${s}\``))}) and dials them over TLS. `
        + `Check they exist before the task stops; create any that is missing with the commands of the first step of \`${input.migrationRunbook}\`:`,
    ],
    commands: [`kubectl get secret ${external.join(' ')} -n ${input.namespace}`],
  };
}

/** Step: stop the task, which writes its checkpoint to the target database. */
function stopTaskStep(input: RecreationRunbookInput): RunbookStep {
  return {
    title: 'Stop the task',
    text: [
      `Stopping the task \`${input.taskName}\` writes its checkpoint to the target database, where it outlives the cluster. The cluster still runs without TLS, so \`migctl\` dials the master in plain text:`,
    ],
    commands: [`${migctlCommand(input, { tls: false })} stop-task ${input.taskName}`],
  };
}

/** Step: delete the cluster resource and wait until its members' pods are gone. */
function deleteClusterStep(input: RecreationRunbookInput): RunbookStep {
  const selector = names.componentsPodSelector(input.clusterName, MEMBERS);
  return {
    title: 'Delete the cluster',
    text: [`The operator removes the members' StatefulSets with the cluster; their volumes stay. The loop waits until kubectl lists no member pod, ${DELETE_WAIT_SECONDS / 60} minutes at most, and the last command fails if any is left:`],
    commands: [
      `kubectl delete ${clusterKind(ClusterKind.MIGRATION).resourceKind.toLowerCase()} ${input.clusterName} -n ${input.namespace}`,
      `for wait in $(seq ${DELETE_WAIT_SECONDS / 2}); do LEFT="$(kubectl get pods -n ${input.namespace} -l '${selector}' -o name)" && [ -z "$LEFT" ] && break; sleep 2; done`,
      '[ -z "$LEFT" ]',
    ],
  };
}

/** Step: delete the masters' volumes, keep the workers'. */
function deleteMasterVolumesStep(input: RecreationRunbookInput): RunbookStep {
  return {
    title: 'Delete the masters\' volumes',
    text: [
      'Each master\'s volume holds its embedded etcd, with the plain-text peer URLs the new masters could not use. Delete those volumes; the workers\' volumes, listed after, stay for the new workers and keep their relay logs:',
    ],
    commands: [
      `kubectl delete pvc -n ${input.namespace} -l '${names.componentPodSelector(input.clusterName, 'mig-master')}'`,
      `kubectl get pvc -n ${input.namespace} -l '${names.componentPodSelector(input.clusterName, 'mig-worker')}'`,
    ],
  };
}

/** Step: move to the next phase. */
function nextPhaseStep(next: MigrationRecreationPhase): RunbookStep {
  return {
    title: 'Move to the next phase',
    text: [`Set \`recreation.phase\` to \`${next}\`, synthesize, commit, and follow the runbook the synth writes in place of this one.`],
  };
}

/** Step: apply the cluster with TLS and wait until every member is ready. */
function createStep(input: RecreationRunbookInput): RunbookStep {
  const external = externalSecrets(input);
  return {
    title: 'Create the cluster with TLS',
    text: [
      `The members mount the Secret of each external database (${listing(external.map((s) => `\`${s}\``))}): the first command checks they are still there. `
        + 'Then apply the manifest: the cluster is created with `spec.tlsCluster.enabled: true`, the workers on their kept volumes. The commands then wait for each member pod to exist, then to be ready:',
    ],
    commands: [
      `kubectl get secret ${external.join(' ')} -n ${input.namespace}`,
      ...deployCommands(input),
    ],
  };
}

/** Step: end the re-creation. */
function doneStep(): RunbookStep {
  return {
    title: 'End the re-creation',
    text: ['Drop the `recreation` prop, synthesize and commit: the record then holds the cluster with TLS on, and the migration runbook is the cluster\'s again. '
      + 'Resume the GitOps sync if the `stop` phase had you suspend it. With `pvReclaimPolicy: Retain`, the masters\' deleted volumes left their PersistentVolumes `Released`: delete those once the new masters run.'],
  };
}
