/**
 * The `loaded` check: whether the pods that mount a Secret started after it was last written, so
 * that what they loaded is what it holds. The components read `tls.crt`, `tls.key` and `ca.crt`
 * when they start, and only then; during a rotation, a pod restarted before its Secret was
 * re-written keeps the old material while the Secret itself passes every other check.
 *
 * Everything comes from `kubectl get secrets,pods -n <namespace> -o json --show-managed-fields`:
 * a Secret's last write is the latest of its `metadata.creationTimestamp` and every
 * `metadata.managedFields[].time`; a container's start is `state.running.startedAt`.
 *
 * Those times have one-second precision, so a write and a start in the same second cannot be
 * ordered. Such a start fails the check: a pod the operator was already restarting could have
 * read its volume just before the write, and the synth of the next phase trusts this check. The
 * cost of erring that way is one more restart of that pod; in practice a restart follows the
 * write by seconds (the runbooks write, wait for the writes to end, then restart).
 *
 * A phase does not restart a component whose `ca.crt` it leaves as it was and whose release
 * re-reads `tls.crt` and `tls.key` for each new connection (the plan's `rotation.reloading`). Its
 * pods take the new files once the kubelet has written them into the pod, which it does within its
 * sync period (a minute by default, with jitter): for such a Secret, a pod started before the write
 * passes once {@link KUBELET_PROJECTION_SECONDS} have gone by since the write.
 */
import type { PodData, SecretData } from './input';
import type { CheckResult } from './checks';
import { iso, listed } from './text';
import { LOADED_CHECK } from '../model/verify-report';
import { KUBELET_PROJECTION_SECONDS } from '../model/catalog-pods';

/** The command that lists what this check needs. */
const LIST_COMMAND = 'kubectl get secrets,pods -n <namespace> -o json --show-managed-fields';

/**
 * The last time a Secret was written: the latest of its creation and of every field manager's
 * write; undefined when the input gives neither.
 */
export function lastWritten(secret: SecretData): Date | undefined {
  const times = [...(secret.createdAt ? [secret.createdAt] : []), ...(secret.writtenAt ?? [])];
  // A loop, not Math.max(...times): a Secret may list more field managers than a call takes arguments.
  return times.length === 0 ? undefined : new Date(times.reduce((latest, t) => Math.max(latest, t.getTime()), -Infinity));
}

/** Whole seconds since the epoch: the precision of the times kubectl prints. */
function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/**
 * A component the phase does not restart, which takes the Secret's new files while it runs, and
 * the real time the check runs at (never `--now`, which moves the validity checks only).
 */
export interface ReloadingComponent {
  /** The component, as the check's result names it. */
  readonly component: string;
  /** The time the check runs at. */
  readonly now: Date;
  /**
   * How it takes the files once the kubelet has written them, as the check says it.
   * @default 're-reads them at its next connection'
   */
  readonly takes?: string;
}

/** How a reloading component takes the new files, unless it says otherwise. */
const NEXT_CONNECTION = 're-reads them at its next connection';

/**
 * Checks that every container of every pod that mounts the Secret is running and started after
 * the Secret's last write (a start in the same second fails, see the module's comment); for a
 * component the phase does not restart (`reload`), a pod started before the write passes once
 * {@link KUBELET_PROJECTION_SECONDS} have passed since it. `pods` are the Pods of the Secret's
 * namespace; when none mounts the Secret, the check passes.
 */
export function checkLoaded(secret: SecretData, pods: readonly PodData[], reload?: ReloadingComponent): CheckResult {
  const mounting = pods.filter((p) => p.secretNames.includes(secret.name));
  const written = lastWritten(secret);
  const expected = reload === undefined
    ? `every container of the pods that mount the Secret started after its last write${written ? ` (${iso(written)})` : ''}`
    : `every pod that mounts the Secret running, and either started after its last write${written ? ` (${iso(written)})` : ''} or running ${KUBELET_PROJECTION_SECONDS} s after it: once the kubelet has written the files into the pod, ${reload.component} ${reload.takes ?? NEXT_CONNECTION}`;
  const outcome = (ok: boolean, found: string): CheckResult => ({ check: LOADED_CHECK, ok, expected, found });
  if (mounting.length === 0) {
    return outcome(true, 'no pod in the input mounts it');
  }
  if (written === undefined || secret.writtenAt === undefined || secret.writtenAt.length === 0) {
    return outcome(false, unknownWrite(secret.createdAt));
  }
  if (secret.untimedWriters !== undefined) {
    return outcome(false, `field managers of the Secret give no time (${listed(secret.untimedWriters, 'manager')}): when they last wrote it cannot be told; list it again with ${LIST_COMMAND}`);
  }
  const projected = reload !== undefined && seconds(reload.now) - seconds(written) >= KUBELET_PROJECTION_SECONDS;
  const problems = projected ? mounting.flatMap((pod) => notRunning(pod)) : mounting.flatMap((pod) => podProblems(pod, written, reload === undefined ? 'restart it' : 'no restart needed'));
  if (problems.length > 0) {
    const retry = reload !== undefined && !projected && mounting.every((pod) => notRunning(pod).length === 0)
      ? `run the check again from ${iso(new Date((seconds(written) + KUBELET_PROJECTION_SECONDS) * 1000))}, once the kubelet has written the files into the pods: ${reload.component} ${reload.takes ?? NEXT_CONNECTION}; `
      : '';
    return outcome(false, `${retry}${listed(problems, 'problem', '; ')}`);
  }
  if (projected) {
    return outcome(true, `${mounting.length === 1 ? 'pod' : 'pods'} ${listed(mounting.map((p) => p.name), 'pod')} running ${seconds(reload!.now) - seconds(written!)} s after the write (${iso(written!)}), `
      + `so the kubelet has written the new files into ${mounting.length === 1 ? 'it' : 'them'}, and ${reload!.component} ${reload!.takes ?? NEXT_CONNECTION}`);
  }
  const started = mounting.map((p) => `${p.name} (started ${iso(earliestStart(p))})`);
  return outcome(true, `${mounting.length === 1 ? 'pod' : 'pods'} ${listed(started, 'pod')} ${mounting.length === 1 ? 'mounts' : 'mount'} it, `
    + 'every container started after the write');
}

/**
 * Why the Secret's last write is not known from the input, and how to list it so that it is.
 * Without `managedFields` only the creation is known, and a Secret re-written since would pass.
 */
function unknownWrite(created: Date | undefined): string {
  return created === undefined
    ? `the input gives no time the Secret was written (no metadata.creationTimestamp, no metadata.managedFields time): list it with ${LIST_COMMAND}`
    : `the input holds no metadata.managedFields time for the Secret, so only its creation (${iso(created)}) is known, not its last write: list it with ${LIST_COMMAND}`;
}

/** Why a pod is not running: no container started, or one not running; nothing when every one runs. */
function notRunning(pod: PodData): string[] {
  if (pod.containers.length === 0) {
    return [`pod ${pod.name} is not running: no container has started${pod.phase ? ` (phase ${pod.phase})` : ''}`];
  }
  return pod.containers.filter((c) => c.startedAt === undefined).map((c) => `pod ${pod.name} is not running: container ${c.name} is ${c.notRunning}`);
}

/** What is wrong with one pod: containers not running, or started before the write (then `remedy` says what to do). */
function podProblems(pod: PodData, written: Date, remedy: string): string[] {
  const stopped = notRunning(pod);
  if (stopped.length > 0 || pod.containers.length === 0) {
    return stopped;
  }
  const named = (name: string) => (pod.containers.length > 1 ? `pod ${pod.name} container ${name}` : `pod ${pod.name}`);
  return pod.containers.flatMap((c) => {
    if (seconds(c.startedAt!) === seconds(written)) {
      return [`${named(c.name)} started ${iso(c.startedAt!)}, the second the Secret was written: which came first cannot be told, ${remedy}`];
    }
    return seconds(c.startedAt!) < seconds(written)
      ? [`${named(c.name)} started ${iso(c.startedAt!)}, before the Secret was written at ${iso(written)}: ${remedy}`]
      : [];
  });
}

/** The earliest start among a pod's containers (every one running). */
function earliestStart(pod: PodData): Date {
  return new Date(pod.containers.reduce((earliest, c) => Math.min(earliest, c.startedAt!.getTime()), Infinity));
}
