/**
 * What the phase guards (rotations, TLS enablements) share: where a phase's `cluster-tls verify
 * --json` report comes from, how it is read, and the refusal to leave a phase unless the report
 * is of that phase and shows every Secret the record names in it.
 */
import { READ_LIMITS, readBounded } from '../model/bounded-read';
import { ClusterTlsError, describeValue, hasCredentials, oneLine } from '../model/errors';
import * as layout from '../model/output-layout';
import type { NamespacedName } from '../model/names';
import { ReportedCheck, VerifyReportFile } from '../model/verify-report';
import { displayPath, relativePath } from './display-path';

/** Environment variable naming one JSON report of `cluster-tls verify` for every phase in place. */
export const VERIFY_REPORT_ENV = 'CLUSTER_TLS_VERIFY_REPORT';

/** Environment variable listing the clusters (`<namespace>/<cluster>`) whose phase may move on without a verify report. */
export const UNVERIFIED_ENV = 'CLUSTER_TLS_UNVERIFIED_PHASE';

/** Where the reports come from, and which clusters may move on without one. */
export interface PhaseGuardInputs {
  /** The output folder, beside which each cluster's report is looked for. */
  readonly outdir: string;
  /** One report for every cluster, instead of the files beside the output folder, and where its name came from. */
  readonly report?: { readonly file: string; readonly from: string };
  /** Entries `rotation/<namespace>/<cluster>` or `enablement/<namespace>/<cluster>` that lift every rule of that guard for that cluster. */
  readonly acknowledged: readonly string[];
  /** `<namespace>/<cluster>` whose phase may move on without a report. */
  readonly unverified: readonly string[];
}

/**
 * Reads a report; undefined when the file does not exist. Refuses, in one line, a file that is
 * larger than its bound (READ_LIMITS.verifyReport), not JSON, or not shaped as a report.
 */
export function readVerifyReport(file: string, source: string): VerifyReportFile | undefined {
  if (hasCredentials(file)) {
    // A URL given where a file is expected is not repeated: it may carry a password.
    throw new ClusterTlsError(`${source}: received a value with a user name or password in it (not repeated here); expected the path of the JSON report of cluster-tls verify --json`);
  }
  let text: string;
  try {
    text = readBounded(file, READ_LIMITS.verifyReport);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new ClusterTlsError(`${source}: received ${describeValue(relativePath(file))}, which cannot be read (${oneLine((e as NodeJS.ErrnoException).code ?? (e as Error).message)}); expected the JSON report of cluster-tls verify --json`);
  }
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isSecret = (s: any) => typeof s?.name === 'string' && typeof s.namespace === 'string' && Array.isArray(s.checks)
    && s.checks.every((c: any) => typeof c?.check === 'string' && typeof c.ok === 'boolean');
  if (!Array.isArray(parsed?.plans) || !Array.isArray(parsed?.secrets) || !parsed.secrets.every(isSecret)) {
    throw new ClusterTlsError(`${source}: received ${describeValue(relativePath(file))}, which is not a report of cluster-tls verify --json; expected the JSON report of the phase in place`);
  }
  return { file, plans: parsed.plans, secrets: parsed.secrets };
}

/** What a phase must show in a report, and the words of the refusals. */
export interface PhaseReport {
  /** `<namespace>/<cluster>`. */
  readonly key: string;
  /** The start of every refusal: what was received, what is expected until the report shows it. */
  readonly at: string;
  /** The runbook whose check step writes the report. */
  readonly runbook: string;
  /** The phase, as the refusal names it (`phase "trust-both" of rotation 2026-11`). */
  readonly phase: string;
  /** Whether the report's plan of the cluster is of the phase. */
  readonly isPhase: (plan: VerifyReportFile['plans'][number]) => boolean;
  /** The Secrets the record names in the phase, as `recordedSecret` names them. */
  readonly secrets: readonly string[];
  /** Why a Secret's checks do not show it in the phase, or undefined when they do. */
  readonly missed: (checks: readonly ReportedCheck[]) => string | undefined;
  /** What moving on unverified risks, for the refusal. @default - nothing said */
  readonly risk?: string;
}

/**
 * Refuses to leave a phase unless the report (the one given, else the file beside the output
 * folder) is of that phase and shows every Secret the record names in it.
 * @returns the report
 */
export function requirePhaseReport(inputs: PhaseGuardInputs, recordFile: string, p: PhaseReport): VerifyReportFile {
  const [namespace, clusterName] = p.key.split('/');
  const file = inputs.report?.file ?? layout.defaultVerifyReportFile(inputs.outdir, namespace, clusterName);
  const source = inputs.report?.from ?? 'verify report';
  const skip = unverifiedHint(p.key, recordFile, p.risk);
  const report = readVerifyReport(file, source);
  if (report === undefined) {
    throw new ClusterTlsError(`${p.at}: no report at ${displayPath(file)}; run the check step of ${p.runbook}, ${skip}`);
  }
  const plan = report.plans.find((x) => x?.namespace === namespace && x?.clusterName === clusterName);
  if (plan === undefined || !p.isPhase(plan)) {
    throw new ClusterTlsError(`${p.at}: ${displayPath(file)} is not a report of ${p.phase}; run the check step of ${p.runbook} again, ${skip}`);
  }
  for (const entry of p.secrets) {
    const wanted = recordedSecretRef(namespace, entry);
    const secret = report.secrets.find((s) => s.namespace === wanted.namespace && s.name === wanted.name);
    const elsewhere = wanted.namespace !== namespace
      ? ` (list namespace ${wanted.namespace} beside the cluster's: --secrets <(kubectl get secrets,pods -n ${wanted.namespace} -o json --show-managed-fields))` : '';
    const reason = secret === undefined ? `it is not in the report${elsewhere}` : p.missed(secret.checks);
    if (reason !== undefined) {
      throw new ClusterTlsError(`${p.at}, and ${displayPath(file)} does not show Secret ${entry} there: ${reason}; finish the phase as ${p.runbook} says and verify again, ${skip}`);
    }
  }
  return report;
}

/** How to move on without a report, as every refusal of a phase guard ends. */
export function unverifiedHint(key: string, recordFile: string, risk?: string): string {
  return `or, to move on unverified${risk ? ` ${risk}` : ''}, set ${UNVERIFIED_ENV}=${key} (kept in ${displayPath(recordFile)})`;
}

/**
 * How the record names a Secret of a phase, which the report must show: by its name in the
 * cluster's namespace, as `<namespace>/<name>` in another (an application's Secret of TLS for
 * MySQL clients). A Secret's name holds no `/`, so the two forms cannot be confused.
 */
export function recordedSecret(clusterNamespace: string, secret: NamespacedName): string {
  return secret.namespace === clusterNamespace ? secret.name : `${secret.namespace}/${secret.name}`;
}

/** The Secret a record's entry names (see {@link recordedSecret}). */
export function recordedSecretRef(clusterNamespace: string, entry: string): NamespacedName {
  const at = entry.indexOf('/');
  return at < 0 ? { namespace: clusterNamespace, name: entry } : { namespace: entry.slice(0, at), name: entry.slice(at + 1) };
}
