/**
 * The `enablement` prop of a database cluster resolved: its phase, what the phase writes, and the
 * store's eviction timeout while it is lowered.
 */
import { IConstruct } from 'constructs';
import {
  DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT, ENABLEMENT_STATES, EnablementState, TlsEnablement, TlsEnablementPhase,
} from '../spec/enablement';
import { requireDuration } from '../spec/validate';

/** A TLS enablement with its defaults applied. */
export interface ResolvedEnablement {
  readonly phase: TlsEnablementPhase;
  /** What the cluster resource and the drainer say in the phase. */
  readonly state: EnablementState;
  /** The store's eviction timeout while the enablement lowers it. */
  readonly evictLeaderTimeout: string;
}

/** Resolves the `enablement` prop (its shape already checked); undefined when none is declared. */
export function resolveEnablement(scope: IConstruct, enablement: TlsEnablement | undefined): ResolvedEnablement | undefined {
  if (enablement === undefined) {
    return undefined;
  }
  const evictLeaderTimeout = enablement.evictLeaderTimeout ?? DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT;
  requireDuration(scope, 'enablement.evictLeaderTimeout', evictLeaderTimeout);
  return { phase: enablement.phase, state: ENABLEMENT_STATES[enablement.phase], evictLeaderTimeout };
}
