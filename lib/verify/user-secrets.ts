/**
 * The checks of the Secrets you create that a cluster loads (the plan's `userSecrets`: a
 * migration source's or target's client certificate, a changefeed sink's). The library issues none
 * of them and knows neither their CA nor their Common Name, host names, usages or key, so each
 * gets only the checks that need nothing of the plan, and a failure of one is a failed row of the
 * report: a value that does not parse is the cluster's state, not input the command cannot read.
 */
import type { TlsPlan, TlsPlanUserSecret } from '../plan/certificate-options';
import { ENABLEMENT_CHECK, ROTATION_CHECK } from '../model/verify-report';
import { CHECKS, CheckName, CheckResult, result } from './checks';
import type { PodData, SecretData } from './input';
import { checkLoaded } from './loaded';
import { checkExpiry, checkKeyMatch, checkUserKeys, checkValid } from './material';
import { SQL_CA_CHECK } from './sql';
import type { SecretReport, VerifyContext } from './types';

/**
 * The checks a Secret you create gets (the plan's `userSecrets`): those that need nothing of the
 * plan. The library issues none of these Secrets and knows neither their CA nor their Common
 * Name, host names, usages or key, so it cannot check those, nor shake hands with them.
 */
export const USER_SECRET_CHECKS = ['present', 'keys', 'key-match', 'validity', 'expiry'] as const satisfies readonly CheckName[];

/**
 * The checks of {@link CHECKS} a Secret you create does not get, and why, as the report says it.
 * @internal
 */
export const USER_SECRET_UNCHECKED = {
  checks: CHECKS.filter((c) => !(USER_SECRET_CHECKS as readonly string[]).includes(c) && c !== ROTATION_CHECK && c !== ENABLEMENT_CHECK && c !== SQL_CA_CHECK),
  why: 'the library issues none of them and knows neither their CA nor their Common Name, host names, usages or key',
};

/** How a report names a Secret you create, and what loads it. */
function userSecretLabel(secret: { readonly name: string; readonly namespace: string; readonly usedBy?: string }): string {
  return `Secret ${secret.name} in namespace ${secret.namespace}, a Secret you create for ${secret.usedBy}`;
}

/**
 * Checks one Secret you create that the cluster loads: present; at least the three keys, each of
 * which parses (other keys, such as cert-manager's additional output formats, are left alone); a
 * certificate and a key that belong together, valid now, and with `minDays` valid that long. A
 * missing Secret yields only `present`, one without the three keys or with a value that does not
 * parse only `present` and `keys`, the failed `keys` naming the key and what it holds.
 */
export function verifyUserSecret(required: TlsPlanUserSecret, plan: TlsPlan, secret: SecretData | undefined, context: Pick<VerifyContext, 'now' | 'minDays'>): CheckResult[] {
  const expected = userSecretLabel({ ...required, namespace: plan.namespace });
  if (!secret) {
    return [result('present', false, expected, 'no Secret of that name in the input')];
  }
  const keys = checkUserKeys(secret);
  const results = [result('present', true, expected, 'present'), keys.check];
  const m = keys.material;
  if (m === undefined) {
    return results;
  }
  results.push(checkKeyMatch(m), checkValid(m, context.now));
  if (context.minDays !== undefined) {
    results.push(checkExpiry(m, context.now, context.minDays));
  }
  return results;
}

/**
 * The Secrets you create that the plan's cluster loads (`userSecrets`), each with the checks that
 * need nothing of the plan ({@link verifyUserSecret}) and, with Pods, `loaded`: a pod that mounts
 * one and started before you last wrote it still holds what it loaded then.
 */
export function verifyUserSecrets(plan: TlsPlan, find: (name: string) => SecretData | undefined,
  context: { now: Date; minDays?: number; pods?: readonly PodData[] }): SecretReport[] {
  return (plan.userSecrets ?? []).map((required) => {
    const secret = find(required.name);
    const checks = verifyUserSecret(required, plan, secret, context);
    if (secret !== undefined && context.pods !== undefined) {
      checks.push(checkLoaded(secret, context.pods));
    }
    return {
      name: required.name, namespace: plan.namespace, clusterName: plan.clusterName, cluster: required.cluster, role: 'user' as const,
      usedBy: required.usedBy, notChecked: [...USER_SECRET_UNCHECKED.checks], ok: checks.every((c) => c.ok), checks,
    };
  });
}
