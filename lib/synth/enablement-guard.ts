/**
 * The guard of declared TLS enablements, run before the output is replaced. Like the rotation
 * guard it compares the app with the record of the last synth, never with what the app says of
 * itself: an enablement starts at its first phase on a cluster the record does not hold with TLS
 * on, moves one phase per synth, forward, stays declared until its last phase, and leaves a phase
 * only once a `cluster-tls verify --json` report of that phase shows every Secret in place.
 */
import { READ_LIMITS, readBounded } from '../model/bounded-read';
import { ClusterKind, clusterKind } from '../model/catalog';
import { ClusterTlsError, oneLine } from '../model/errors';
import { ENABLEMENT_PHASES, ENABLEMENT_STATES, TlsEnablementPhase, nextEnablementPhase } from '../model/enablement';
import * as layout from '../model/output-layout';
import { ENABLEMENT_CHECK, ROLLED_CHECK } from '../model/verify-report';
import { displayPath } from './display-path';
import { FixedSettings, RECREATE_ENV, RecordedEnablement, clusterKey, sortedKeys } from './guards';
import { PhaseGuardInputs, requirePhaseReport, unverifiedHint } from './phase-report';

/** The record key of the database cluster of certificates `<namespace>/<cluster>`. */
function databaseClusterKey(key: string): string {
  const [namespace, name] = key.split('/');
  return clusterKey({ kind: clusterKind(ClusterKind.DATABASE).resourceKind, metadata: { namespace, name } });
}

/**
 * The database clusters (`DatabaseCluster/<namespace>/<name>`) whose enablement moves from
 * `scale-in` to `enable` in this synth: the one change of `tlsCluster.enabled` the record allows.
 */
export function flippingClusters(record: FixedSettings | undefined, now: FixedSettings): Set<string> {
  const flipping = new Set<string>();
  for (const [key, cur] of Object.entries(now.enablements ?? {})) {
    if (record?.enablements?.[key]?.phase === TlsEnablementPhase.SCALE_IN && cur.phase === TlsEnablementPhase.ENABLE) {
      flipping.add(databaseClusterKey(key));
    }
  }
  return flipping;
}

/**
 * Refuses an enablement that does not start at its first phase, starts on a cluster recorded with
 * TLS on, skips or repeats backwards a phase, or is dropped before its last phase, relative to the
 * record; and a phase that moves on without a report showing it reached (unless acknowledged,
 * which the record then keeps).
 * @returns the enablements to record: the app's, with the acknowledged unverified phases
 */
export function checkEnablements(record: FixedSettings | undefined, now: FixedSettings, recordFile: string,
  inputs: PhaseGuardInputs): FixedSettings['enablements'] {
  const where = `as recorded in ${displayPath(recordFile)}`;
  const before = record?.enablements ?? {};
  const after = now.enablements ?? {};
  const recorded: Record<string, RecordedEnablement> = {};
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const old = before[key];
    const cur = after[key];
    const acknowledged = inputs.acknowledged.includes(`enablement/${key}`);
    if (!acknowledged) {
      checkStart(key, old, cur, record, recordFile);
      checkStep(key, old, cur, where);
    }
    if (cur === undefined) {
      // Done and no longer declared: the record keeps it, with the phases left unverified, for review.
      if (old !== undefined && nextEnablementPhase(old.phase as TlsEnablementPhase) === undefined) {
        recorded[key] = old;
      }
      continue;
    }
    let unverified = old?.unverified ?? [];
    if (old !== undefined && old.phase !== cur.phase && !acknowledged) {
      if (inputs.unverified.includes(key)) {
        unverified = [...unverified, old.phase];
      } else {
        checkPhaseReached(key, old, cur, inputs, recordFile);
        if (old.phase === TlsEnablementPhase.ENABLE) {
          checkPeerUrlStored(key, old, cur, inputs, recordFile);
        }
      }
    }
    recorded[key] = unverified.length > 0 ? { ...cur, unverified } : cur;
  }
  return Object.keys(recorded).length > 0 ? sortedKeys(recorded) : undefined;
}

const override = (key: string) => `to override deliberately, set ${RECREATE_ENV}=enablement/${key}`;

/** A new enablement starts at its first phase, on a cluster the record does not hold with TLS on. */
function checkStart(key: string, old: RecordedEnablement | undefined, cur: RecordedEnablement | undefined, record: FixedSettings | undefined, recordFile: string): void {
  const where = `as recorded in ${displayPath(recordFile)}`;
  if (old !== undefined || cur === undefined) {
    return;
  }
  if (record?.clusters[databaseClusterKey(key)]?.tlsClusterEnabled === true) {
    throw new ClusterTlsError(`certificates ${key}: enablement.phase: received "${cur.phase}"; expected no enablement: the cluster runs with TLS on ${where}, `
      + `and an enablement turns TLS on for a cluster that runs without it; ${override(key)}`);
  }
  if (cur.phase !== ENABLEMENT_PHASES[0]) {
    throw new ClusterTlsError(`certificates ${key}: enablement.phase: received "${cur.phase}"; expected "${ENABLEMENT_PHASES[0]}", the first phase, `
      + `since ${displayPath(recordFile)} records no enablement of this cluster: each phase's commands assume the ones before were run; ${override(key)}`);
  }
}

/** An enablement moves one phase per synth, forward, and stays declared until its last phase. */
function checkStep(key: string, old: RecordedEnablement | undefined, cur: RecordedEnablement | undefined, where: string): void {
  if (old === undefined) {
    return;
  }
  const next = nextEnablementPhase(old.phase as TlsEnablementPhase);
  const allowed = [old.phase, ...(next ? [next] : [])];
  if (cur === undefined ? next !== undefined : !allowed.includes(cur.phase)) {
    const want = allowed.map((p) => `"${p}"`).join(' or ') + (next === undefined ? ' or no enablement' : '');
    throw new ClusterTlsError(`certificates ${key}: enablement.phase: received ${cur === undefined ? 'no enablement' : `"${cur.phase}"`}; expected ${want} ${where}: `
      + `an enablement moves one phase per synth, forward, and stays declared until its last phase; ${override(key)}`);
  }
}

/**
 * Refuses to leave the `enable` phase (to scale the coordinator back out) unless the member list
 * the runbook wrote beside the output folder shows the remaining member stored with its https
 * peer URL: a member added before that could not reach it, and the quorum would be lost.
 */
function checkPeerUrlStored(key: string, old: RecordedEnablement, cur: RecordedEnablement, inputs: PhaseGuardInputs, recordFile: string): void {
  const [namespace, clusterName] = key.split('/');
  const file = layout.defaultMembersFile(inputs.outdir, namespace, clusterName);
  const { member, peerUrl } = old.coordinator;
  const at = `certificates ${key}: enablement.phase: received "${cur.phase}"; expected "${old.phase}" until the coordinator member ${member} is stored with peer URL ${peerUrl}`;
  const skip = unverifiedHint(key, recordFile);
  let text: string;
  try {
    text = readBounded(file, READ_LIMITS.membersFile);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no member list at' : `${oneLine((e as Error).message)}, reading`;
    throw new ClusterTlsError(`${at}: ${why} ${displayPath(file)}; run the peer-URL step of ${layout.ENABLEMENT_RUNBOOK_FILE}, ${skip}`);
  }
  // etcdctl's simple output: `<id>, <status>, <name>, <peer URLs>, <client URLs>, <is learner>`.
  const stored = text.split('\n').map((line) => line.split(', ')).find((f) => f[2] === member)?.[3]?.split(',');
  if (!stored?.includes(peerUrl)) {
    throw new ClusterTlsError(`${at}: ${displayPath(file)} shows ${stored === undefined ? 'no such member' : `peer URL ${stored.join(',')}`}; `
      + `run the peer-URL step of ${layout.ENABLEMENT_RUNBOOK_FILE} again, ${skip}`);
  }
}

/**
 * Refuses to leave a phase unless a report of that phase shows every Secret the record names in it
 * passing every check; once TLS is on, the report must also list the pods, so that its `rolled`
 * check shows every pod of the cluster started with TLS.
 */
function checkPhaseReached(key: string, old: RecordedEnablement, cur: RecordedEnablement, inputs: PhaseGuardInputs, recordFile: string): void {
  const at = `certificates ${key}: enablement.phase: received "${cur.phase}"; expected "${old.phase}" until cluster-tls verify shows every Secret of the cluster in it`;
  const report = requirePhaseReport(inputs, recordFile, {
    key, at, runbook: layout.ENABLEMENT_RUNBOOK_FILE, phase: `phase "${old.phase}"`, secrets: old.secrets,
    isPhase: (plan) => plan.enablement?.phase === old.phase,
    missed: (checks) => {
      const failed = checks.find((c) => !c.ok);
      if (failed) {
        return `${failed.check}: ${failed.found}`;
      }
      // A report that lists the Secret with no checks, or without the phase's own, shows nothing of the phase.
      return checks.some((c) => c.check === ENABLEMENT_CHECK) ? undefined
        : `its ${ENABLEMENT_CHECK} was not checked (the report holds ${checks.length === 0 ? 'no check' : `${checks.length} other check${checks.length === 1 ? '' : 's'}`} for it)`;
    },
  });
  if (ENABLEMENT_STATES[old.phase as TlsEnablementPhase]?.tls && !report.secrets.some((s) => s.checks.some((c) => c.check === ROLLED_CHECK))) {
    throw new ClusterTlsError(`${at} and every pod of it restarted with TLS: the report lists no pods, so it cannot show them (check ${ROLLED_CHECK}); `
      + `list them as the check step of ${layout.ENABLEMENT_RUNBOOK_FILE} does (kubectl get secrets,pods …), ${unverifiedHint(key, recordFile)}`);
  }
}
