/**
 * The rules of certificate lifetimes, as one pure function of the durations: what cert-manager's
 * webhook refuses, a renewal window not shorter than its certificate, a leaf that outlives its CA,
 * and the library's own nesting of a leaf in its CA. `ClusterCertificates` holds its props to them
 * and the validation plugin the Certificates of any manifest; each words the breaks its own way.
 */
import { parseDuration } from './duration';

/**
 * cert-manager's own minimums (`MinimumCertificateDuration`, `MinimumRenewBefore` in
 * `pkg/apis/certmanager/v1/const.go`, enforced by its webhook's `ValidateDuration`, v1.21.1).
 */
export const CERT_MANAGER_MINIMUMS = { duration: '1h', renewBefore: '5m' } as const;

/** The durations of a certificate and, when known, of its CA, in milliseconds; an unknown one is left out. */
export interface Lifetimes {
  /** The leaf's validity. */
  readonly duration?: number;
  /** How long before the leaf expires it is renewed. */
  readonly renewBefore?: number;
  /** The CA's validity. */
  readonly caDuration?: number;
  /** How long before the CA expires it is renewed. */
  readonly caRenewBefore?: number;
}

/** The duration fields the rules read. */
export type LifetimeField = keyof Lifetimes;

/** One rule a set of lifetimes breaks. */
export type LifetimeBreak =
  /** Under cert-manager's minimum for the field (`CERT_MANAGER_MINIMUMS`). */
  | { readonly rule: 'minimum'; readonly field: LifetimeField; readonly minimum: string }
  /** A renewal window not shorter than the certificate it renews. */
  | { readonly rule: 'window'; readonly field: 'renewBefore' | 'caRenewBefore' }
  /** A leaf not shorter than its CA. */
  | { readonly rule: 'outlives-ca' }
  /**
   * A leaf longer than {@link leafRoom}; `caTooShort` when no leaf the other rules accept would fit,
   * so that the CA, not the leaf, is what to change.
   */
  | { readonly rule: 'nesting'; readonly room: number; readonly caTooShort: boolean };

/** Which rules apply. */
export interface LifetimeRules {
  /** Whether cert-manager issues the certificates, so that its webhook's minimums hold. */
  readonly certManager: boolean;
  /** Whether a leaf must nest in its CA ({@link leafRoom}): the library's rule for the CAs it makes. */
  readonly nesting: boolean;
}

/** The milliseconds of a cert-manager minimum. */
function minimumMs(minimum: string): number {
  return parseDuration(minimum)!;
}

/**
 * Every rule the lifetimes break, in the order a reader fixes them: cert-manager's minimums (the
 * CA's first), the renewal windows (the CA's first), a leaf that outlives its CA, then the nesting.
 * A rule that needs a duration left out is not judged.
 */
export function lifetimeBreaks(l: Lifetimes, rules: LifetimeRules): LifetimeBreak[] {
  const breaks: LifetimeBreak[] = [];
  if (rules.certManager) {
    for (const [field, minimum] of [['caDuration', CERT_MANAGER_MINIMUMS.duration], ['duration', CERT_MANAGER_MINIMUMS.duration],
      ['caRenewBefore', CERT_MANAGER_MINIMUMS.renewBefore], ['renewBefore', CERT_MANAGER_MINIMUMS.renewBefore]] as const) {
      if (l[field] !== undefined && l[field]! < minimumMs(minimum)) {
        breaks.push({ rule: 'minimum', field, minimum });
      }
    }
  }
  if (l.caRenewBefore !== undefined && l.caDuration !== undefined && l.caRenewBefore >= l.caDuration) {
    breaks.push({ rule: 'window', field: 'caRenewBefore' });
  }
  if (l.renewBefore !== undefined && l.duration !== undefined && l.renewBefore >= l.duration) {
    breaks.push({ rule: 'window', field: 'renewBefore' });
  }
  if (l.duration !== undefined && l.caDuration !== undefined && l.duration >= l.caDuration) {
    breaks.push({ rule: 'outlives-ca' });
  }
  if (rules.nesting && l.duration !== undefined && l.renewBefore !== undefined && l.caDuration !== undefined && l.caRenewBefore !== undefined) {
    const room = leafRoom({ caDuration: l.caDuration, caRenewBefore: l.caRenewBefore, renewBefore: l.renewBefore });
    if (l.duration > room) {
      const shortestLeaf = Math.max(l.renewBefore + 1, rules.certManager ? minimumMs(CERT_MANAGER_MINIMUMS.duration) : 0);
      breaks.push({ rule: 'nesting', room, caTooShort: room < shortestLeaf });
    }
  }
  return breaks;
}

/**
 * The longest leaf `duration` that nests in its CA, in milliseconds. Leaves are issued with their
 * CA: at creation, and at a CA replacement (its leaves follow the new CA by at most the phases
 * between `trust-both` and `switch-leaves`, for which the leaf's `renewBefore` is the room). Such a
 * leaf, its own renewal window included, must end before the CA's renewal window (`caRenewBefore`)
 * opens: that window is kept whole for renewing or replacing the CA.
 */
export function leafRoom(validityMs: { readonly caDuration: number; readonly caRenewBefore: number; readonly renewBefore: number }): number {
  return validityMs.caDuration - validityMs.caRenewBefore - validityMs.renewBefore;
}
