/**
 * Re-creating a migration cluster that runs without TLS as one with TLS: the phases, as data, and
 * what each phase writes and its runbook does.
 *
 * The operator cannot turn TLS on in a running migration cluster: once `tlsCluster` flips, it
 * cannot read the masters' status and refuses to roll them (`dm_master_upgrader.go`), and each
 * master's embedded etcd keeps the `http` peer URL stored on its volume. So the cluster is
 * re-created, and its data is sorted by what it holds:
 *
 * | data | where it lives | in the re-creation |
 * |---|---|---|
 * | the task's checkpoint | the target database | kept: the task resumes from it |
 * | the workers' relay logs | the workers' volumes | kept: the new workers mount the same claims |
 * | the registered sources and the task | the masters' embedded etcd, on their volumes | deleted with the volumes (their stored peer URLs are plain text), registered again from the output's files |
 *
 * | phase | `tlsCluster.enabled` | Secrets | the runbook |
 * |---|---|---|---|
 * | `stop` | false (the cluster as it runs) | issued | issues the certificates, stops the task, deletes the cluster and the masters' volumes |
 * | `create` | true | issued | applies the cluster with TLS, registers the sources, resumes the task from its checkpoint |
 */
import { ShapeOf, oneOf } from './props';

/** A phase of a migration cluster's re-creation with TLS, in order. */
export enum MigrationRecreationPhase {
  /** The certificates are issued; the runbook stops the task and deletes the plain-text cluster and its masters' volumes. */
  STOP = 'stop',
  /** The cluster is created with TLS; the runbook registers the sources and resumes the task from its checkpoint. */
  CREATE = 'create',
}

/** The phases of a re-creation, in order. */
export const RECREATION_PHASES: readonly MigrationRecreationPhase[] = [MigrationRecreationPhase.STOP, MigrationRecreationPhase.CREATE];

/**
 * A migration cluster that runs without TLS, re-created with TLS, one phase per commit. The record
 * of the last synth holds the phase: `create` follows a synth of `stop`, and the prop is dropped
 * once `create` has been synthesized.
 */
export interface MigrationRecreation {
  /** The phase this commit declares: `stop`, then `create`. */
  readonly phase: MigrationRecreationPhase;
}

/** The shape of the `recreation` prop. */
export const RECREATION_SHAPE = {
  phase: oneOf(Object.values(MigrationRecreationPhase), false),
} satisfies ShapeOf<MigrationRecreation>;

/** `spec.tlsCluster.enabled` of the cluster in a phase, or without a re-creation. */
export function recreationTls(phase: MigrationRecreationPhase | undefined): boolean {
  return phase !== MigrationRecreationPhase.STOP;
}
