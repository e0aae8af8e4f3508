/**
 * Turning TLS on for a database cluster that runs without it: the phases, as data, and what each
 * phase writes. The operator's own procedure (release-1.6, "Upgrade a non-TLS cluster to a TLS
 * cluster") in this project's names, one reviewed commit per phase:
 *
 * | phase | Secrets | `tlsCluster.enabled` | allowed CN lists | coordinator replicas | store `evictLeaderTimeout` | drainer values |
 * |---|---|---|---|---|---|---|
 * | `issue` | issued | false | none | declared | the operator's default | TLS off |
 * | `scale-in` | issued | false | none | 1 | lowered | TLS off |
 * | `enable` | issued | true | set | 1 | lowered | TLS on |
 * | `scale-out` | issued | true | set | declared | the operator's default | TLS on |
 *
 * Why the coordinator goes down to one member: once `tlsCluster` flips, the operator dials every
 * still-plain pod with TLS, cannot read a multi-member coordinator's status and refuses to roll it
 * (`pd_upgrader.go`); a single member it restarts at once. That member keeps its stored peer URL
 * (`http://…:2380`: with its data on disk it is not given `--initial-cluster` again), which the
 * runbook's `etcdctl member update` turns into `https://…` before more members join. With several
 * members restarted together (the force-upgrade annotation), each would dial the others' stored
 * `http` URL and none could reach a quorum, so the update that fixes the URLs could never commit.
 *
 * Why the store's eviction timeout is lowered: the operator evicts a store's leaders before
 * restarting it and waits up to `evictLeaderTimeout` (1500 minutes by default, `tikv_upgrader.go`)
 * for the count it reads over the (now TLS) client from the (still plain) store, which cannot answer.
 */
import type { IConstruct } from 'constructs';
import { DurationValue, durationSpec, durationText, parseDuration } from './duration';
import { inputError } from './errors';
import { ShapeOf, oneOf, withRules } from './props';

/** A phase of a TLS enablement, in order. */
export enum TlsEnablementPhase {
  /** The certificates and Secrets are issued; the cluster still runs in plain text. */
  ISSUE = 'issue',
  /** The coordinator is scaled to one member and the store's eviction timeout is lowered. */
  SCALE_IN = 'scale-in',
  /** `tlsCluster.enabled` flips to true with the allowed Common Names; the operator rolls every component. */
  ENABLE = 'enable',
  /** The coordinator is scaled back to its declared size; the eviction timeout is the operator's again. */
  SCALE_OUT = 'scale-out',
}

/** The phases of an enablement, in order. */
export const ENABLEMENT_PHASES: readonly TlsEnablementPhase[] = [
  TlsEnablementPhase.ISSUE, TlsEnablementPhase.SCALE_IN, TlsEnablementPhase.ENABLE, TlsEnablementPhase.SCALE_OUT,
];

/**
 * TLS turned on for a database cluster that already runs without it, one phase per commit. The
 * record of the last synth holds the phase, so a phase moves one step per synth, forward, and only
 * once `cluster-tls verify` shows the phase in place.
 */
export interface TlsEnablement {
  /** The phase this commit declares; advance it one step per commit, from `issue` to `scale-out`. */
  readonly phase: TlsEnablementPhase;
  /**
   * How long the operator waits for a store's leaders to move before restarting it, while the
   * enablement lowers it (`spec.store.evictLeaderTimeout`, a Go duration). The count the operator
   * waits for cannot be read while the store still speaks plain text, so every minute of it is
   * added to the outage for each store; a healthy eviction of a lightly loaded store fits in it.
   * @default '3m'
   */
  readonly evictLeaderTimeout?: DurationValue;
}

/** The store's eviction timeout during an enablement, unless the prop sets it. */
export const DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT = '3m';

/** The operator's own eviction timeout (`tikv_upgrader.go`, release-1.6), which the simulator's report compares with. */
export const OPERATOR_EVICT_LEADER_TIMEOUT = '1500m';

/**
 * The shape of {@link TlsEnablement}: a phase, and a store's eviction timeout, a Go duration
 * ({@link DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT} by default) shorter than the operator's own.
 */
export const ENABLEMENT_SHAPE = withRules({
  phase: oneOf(Object.values(TlsEnablementPhase), false),
  evictLeaderTimeout: { ...durationSpec(), rule: 'goDuration', default: DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT },
} satisfies ShapeOf<TlsEnablement>, [shorterThanOperator]);

/** Refuses an eviction timeout the operator's own would cut short: each store waits it out during the roll. */
function shorterThanOperator(scope: IConstruct | string, enablement: TlsEnablement, at: string): void {
  const timeout = durationText(enablement.evictLeaderTimeout!);
  if (parseDuration(timeout)! >= parseDuration(OPERATOR_EVICT_LEADER_TIMEOUT)!) {
    inputError(scope, `${at}evictLeaderTimeout`, timeout,
      `a duration shorter than the operator's own ${OPERATOR_EVICT_LEADER_TIMEOUT}: each store waits it out during the roll, since the count it waits for cannot be read`);
  }
}

/**
 * What the cluster resource and the drainer say in a phase.
 * @jsii ignore
 */
export interface EnablementState {
  /** `spec.tlsCluster.enabled`, the allowed Common Name lists, the mounted client Secret and the drainer's TLS values. */
  readonly tls: boolean;
  /** Whether the coordinator runs one member instead of its declared replicas. */
  readonly singleCoordinator: boolean;
  /** Whether the store's eviction timeout is lowered. */
  readonly lowEvictionTimeout: boolean;
}

/** What each phase writes (the table of this module's comment). */
export const ENABLEMENT_STATES: Readonly<Record<TlsEnablementPhase, EnablementState>> = {
  [TlsEnablementPhase.ISSUE]: { tls: false, singleCoordinator: false, lowEvictionTimeout: false },
  [TlsEnablementPhase.SCALE_IN]: { tls: false, singleCoordinator: true, lowEvictionTimeout: true },
  [TlsEnablementPhase.ENABLE]: { tls: true, singleCoordinator: true, lowEvictionTimeout: true },
  [TlsEnablementPhase.SCALE_OUT]: { tls: true, singleCoordinator: false, lowEvictionTimeout: false },
};

/** The phase after `phase`, or undefined after the last. */
export function nextEnablementPhase(phase: TlsEnablementPhase): TlsEnablementPhase | undefined {
  return ENABLEMENT_PHASES[ENABLEMENT_PHASES.indexOf(phase) + 1];
}

/**
 * The enablement of a certificate plan, which `cluster-tls verify` and the record read.
 * @jsii ignore
 */
export interface TlsPlanEnablement {
  /** The phase declared. */
  readonly phase: TlsEnablementPhase;
  /** Every phase, in order. */
  readonly phases: TlsEnablementPhase[];
  /** Whether the cluster runs with TLS in this phase: the allowed Common Name lists are expected only then. */
  readonly tls: boolean;
  /** The coordinator member that stays through the flip, and the https peer URL it must be stored with before the scale-out. */
  readonly coordinator: {
    /** The member's pod name, `${cluster_name}-coordinator-0`. */
    readonly member: string;
    /** Its https peer URL: `https://<member>.${cluster_name}-coordinator-peer.<namespace>.svc[.<domain>]:2380`. */
    readonly peerUrl: string;
  };
}

/** The plan's section for a phase. */
export function planEnablement(phase: TlsEnablementPhase, coordinator: TlsPlanEnablement['coordinator']): TlsPlanEnablement {
  return { phase, phases: [...ENABLEMENT_PHASES], tls: ENABLEMENT_STATES[phase].tls, coordinator };
}
