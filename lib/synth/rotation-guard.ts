/**
 * The guard of declared rotations, run before the output is replaced. It compares the rotations
 * the app declares with the ones the record holds (the last synth's), never with what the app
 * says of itself, so that a rotation moves one phase per synth, forward, and leaves a phase only
 * once a `cluster-tls verify --json` report shows every Secret the record names in that phase,
 * and no pod still holding what it loaded before. Moving on without a report is an acknowledged
 * choice, written into the record for review.
 */
import { ClusterTlsError } from '../model/errors';
import * as layout from '../model/output-layout';
import { LOADED_CHECK, ROTATION_CHECK } from '../model/verify-report';
import { displayPath } from './display-path';
import { FixedSettings, RECREATE_ENV, RecordedRotation, sortedKeys } from './guards';
import { PhaseGuardInputs, requirePhaseReport } from './phase-report';

/**
 * Refuses a rotation that skips a phase, goes back, is dropped before its last phase, or starts
 * anywhere but at its first phase, relative to the record; and a phase that moves on without a
 * report showing it reached (unless acknowledged, which the record then keeps).
 * @returns the rotations to record: the app's, with the acknowledged unverified phases
 */
export function checkRotations(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  inputs: PhaseGuardInputs): FixedSettings['rotations'] {
  if (record === undefined) {
    return now.rotations;
  }
  const where = `as recorded in ${displayPath(recordFile)}`;
  const before = record.rotations ?? {};
  const after = now.rotations ?? {};
  const recorded: Record<string, RecordedRotation> = {};
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const old = before[key];
    const cur = after[key];
    if (!inputs.acknowledged.includes(`rotation/${key}`)) {
      checkHistory(key, old, cur, where);
      checkStep(key, old, cur, where);
    }
    if (cur === undefined) {
      continue;
    }
    // A phase is left when the same rotation moves on, or when a new rotation follows the last phase.
    const left = old !== undefined && (cur.id !== old.id || cur.phase !== old.phase);
    // Kept for review across rotations, each as `<id> <phase>`.
    const carried = old?.unverified ?? [];
    let unverified = carried;
    if (left && !inputs.acknowledged.includes(`rotation/${key}`)) {
      if (inputs.unverified.includes(key)) {
        unverified = [...carried, `${old.id} ${old.phase}`];
      } else {
        checkPhaseReached(key, old, cur, inputs, recordFile);
      }
    }
    recorded[key] = unverified.length > 0 ? { ...cur, unverified } : cur;
  }
  return Object.keys(recorded).length > 0 ? sortedKeys(recorded) : undefined;
}

/** Stands for any new rotation, at its first phase. */
const NEW = '*';

/**
 * Refuses a list of rotations that is not the recorded one, in order, followed by at most one new
 * rotation: a rotation done stays declared as it was, since it names the certificates in use, and
 * one the record never saw cannot appear as done. A record from before histories were kept
 * (`history` absent) checks the last rotation alone.
 */
function checkHistory(key: string, old: RecordedRotation | undefined, cur: RecordedRotation | undefined, where: string): void {
  const before = old === undefined ? [] : old.history;
  const now = cur?.history ?? [];
  if (before === undefined || now.length === 0) {
    return;
  }
  const kept = before.every((h, i) => now[i] === h);
  if (!kept || now.length > before.length + 1) {
    const list = (l: readonly string[]) => (l.length === 0 ? 'none' : `[${l.join(', ')}]`);
    throw new ClusterTlsError(`certificates ${key}: rotations: received ${list(now)}; expected ${before.length === 0 ? 'one new rotation' : `${list(before)}, then at most one new rotation,`} ${where}: `
      + 'a rotation stays declared as it was once recorded, since it names the certificates in use, and one the record never saw cannot be declared done; '
      + `to override deliberately, set ${RECREATE_ENV}=rotation/${key}`);
  }
}

/** Refuses a step the record does not allow. */
function checkStep(key: string, old: RecordedRotation | undefined, cur: RecordedRotation | undefined, where: string): void {
  const expected = allowedNext(old);
  const got = cur ? `${cur.id} at "${cur.phase}"` : 'no rotation';
  const matches = (e: { id: string; phase: string } | undefined) => (e === undefined ? cur === undefined
    : e.id === NEW ? cur !== undefined && cur.id !== old?.id && cur.phase === cur.phases[0]
      : cur?.id === e.id && cur.phase === e.phase);
  if (!expected.some(matches)) {
    const want = expected.map((e) => (e === undefined ? 'no rotation' : e.id === NEW ? 'a new rotation at its first phase' : `${e.id} at "${e.phase}"`)).join(' or ');
    throw new ClusterTlsError(`certificates ${key}: rotations: received ${got}; expected ${want} ${where}: a rotation moves one phase per synth, forward, and stays declared once done; `
      + `to override deliberately, set ${RECREATE_ENV}=rotation/${key}`);
  }
}

/** The rotation states allowed after a recorded one: the same, the next phase, or after the last phase a new rotation at its first. */
function allowedNext(old: RecordedRotation | undefined): ({ id: string; phase: string } | undefined)[] {
  if (old === undefined) {
    return [undefined, { id: NEW, phase: NEW }];
  }
  const at = old.phases.indexOf(old.phase);
  return at === old.phases.length - 1
    ? [{ id: old.id, phase: old.phase }, { id: NEW, phase: NEW }]
    : [{ id: old.id, phase: old.phase }, { id: old.id, phase: old.phases[at + 1] }];
}

/**
 * Refuses to leave a phase unless the report (the one given, else the file beside the output
 * folder) is of that phase and shows every Secret the record names in it, with no pod that
 * loaded it before it was written.
 */
function checkPhaseReached(key: string, old: RecordedRotation, cur: RecordedRotation, inputs: PhaseGuardInputs, recordFile: string): void {
  const at = `certificates ${key}: rotations: received ${cur.id} at "${cur.phase}"; expected ${old.id} at "${old.phase}" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since`;
  if (!Array.isArray(old.secrets)) {
    throw new ClusterTlsError(`${at}: ${displayPath(recordFile)} does not list the Secrets of phase "${old.phase}" (an earlier release wrote it): synthesize phase "${old.phase}" once more, then verify`);
  }
  requirePhaseReport(inputs, recordFile, {
    key, at, runbook: layout.ROTATION_RUNBOOK_FILE, phase: `phase "${old.phase}" of rotation ${old.id}`, secrets: old.secrets, missed: missedCheck,
    isPhase: (plan) => plan.rotation?.id === old.id && plan.rotation.phase === old.phase,
    risk: 'and risk pods that trust a CA their peers no longer present',
  });
}

/**
 * Why a Secret's checks do not show it in the phase, or undefined when they do: its `rotation`
 * check and its `loaded` check (which the report holds only when the check step listed the pods)
 * both passed.
 */
function missedCheck(checks: readonly { readonly check: string; readonly ok: boolean; readonly found: string }[]): string | undefined {
  const failed = checks.find((c) => (c.check === ROTATION_CHECK || c.check === LOADED_CHECK) && !c.ok);
  if (failed) {
    return `${failed.check}: ${failed.found}`;
  }
  const first = checks.find((c) => !c.ok);
  if (!checks.some((c) => c.check === ROTATION_CHECK)) {
    return `its ${ROTATION_CHECK} was not checked${first ? ` (${first.check}: ${first.found})` : ''}`;
  }
  if (!checks.some((c) => c.check === LOADED_CHECK)) {
    return `the report lists no pods, so it cannot show what they loaded (check ${LOADED_CHECK}): list them as the check step does (kubectl get secrets,pods … --show-managed-fields)`;
  }
  return undefined;
}
