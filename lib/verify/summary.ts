/**
 * The summary of a report: how many Secrets were checked, passed and failed, and the Secrets you
 * create that the input lacks, which the summary line names since no issuing step will write them.
 * One output's report (`verify.ts`) and a span's (`across.ts`) count alike.
 */
import type { SecretReport, VerifySummary } from './types';

/**
 * The summary of a report's Secrets.
 * @internal
 */
export function summarize(reports: readonly SecretReport[]): VerifySummary {
  const passed = reports.filter((r) => r.ok).length;
  const missing = reports.filter((r) => r.usedBy !== undefined && r.checks.some((c) => c.check === 'present' && !c.ok))
    .map((r) => ({ name: r.name, namespace: r.namespace, usedBy: r.usedBy! }));
  return { checked: reports.length, passed, failed: reports.length - passed, ...(missing.length > 0 ? { missingUserSecrets: missing } : {}) };
}
