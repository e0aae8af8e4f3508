/**
 * Version rules of the specification's Versioning table, with versions parsed by `semver`.
 */
import { IConstruct } from 'constructs';
import * as semver from 'semver';
import { inputError, shown } from './errors';

const RELEASE = /^v(\d+)\.(\d+)\.(\d+)$/;

/** Parses a release version of the form `v<major>.<minor>.<patch>`; `undefined` when malformed. */
export function parseRelease(version: string): semver.SemVer | undefined {
  if (typeof version !== 'string' || !RELEASE.test(version)) {
    return undefined;
  }
  return semver.parse(version.slice(1)) ?? undefined;
}

/** What a release version must be, as messages say it. */
export const RELEASE_EXPECTED = 'a release version of the form v<major>.<minor>.<patch>, such as "v4.0.5"';

/** Parses a release version prop, throwing a clear error when it is malformed. */
export function requireRelease(scope: IConstruct | string, field: string, version: string): semver.SemVer {
  const parsed = parseRelease(version);
  if (!parsed) {
    inputError(scope, field, version, RELEASE_EXPECTED);
  }
  return parsed;
}

/** Whether a well-formed release version is older than `minimum` (`<major>.<minor>.<patch>`). */
export function isOlderThan(version: string, minimum: string): boolean {
  const parsed = parseRelease(version);
  return parsed !== undefined && semver.lt(parsed, minimum);
}

/**
 * The ranges already compiled, by their text. The ranges are the catalog's, a handful; a synth asks
 * for them once per component and plan, and compiling one costs more than testing it.
 */
const RANGES = new Map<string, semver.Range | null>();

/** `range` compiled, or null when `semver` refuses it (which `semver.satisfies` answers with false). */
function compiledRange(range: string): semver.Range | null {
  let compiled = RANGES.get(range);
  if (compiled === undefined) {
    try {
      compiled = new semver.Range(range);
    } catch {
      compiled = null;
    }
    RANGES.set(range, compiled);
  }
  return compiled;
}

/** Whether a well-formed release version is in `range`, a `semver` range such as `>=5.4.2 <6.0.0 || >=6.1.0`. */
export function isInRange(version: string, range: string): boolean {
  const parsed = parseRelease(version);
  if (parsed === undefined) {
    return false;
  }
  const compiled = compiledRange(range);
  return compiled !== null && compiled.test(parsed);
}

/**
 * Throws unless `version` (a `v<major>.<minor>.<patch>` prop) is at least `minimum`
 * (`<major>.<minor>.<patch>`). `what` names the capability, for example "tls for columnar".
 */
export function requireMinimum(scope: IConstruct | string, field: string, version: string, minimum: string, what: string): void {
  const parsed = requireRelease(scope, field, version);
  if (semver.lt(parsed, minimum)) {
    inputError(scope, field, version, `v${minimum} or later: ${what} needs it`);
  }
}

/** Throws unless `value` is an exact chart version: SemVer, optionally prefixed with v (never a range or "latest"). */
export function requireChartVersion(scope: IConstruct | string, field: string, value: string): string {
  if (typeof value !== 'string' || semver.valid(value.replace(/^v/, '')) === null) {
    inputError(scope, field, shown(value),
      'an exact chart version such as "1.1.0" (SemVer, optionally prefixed with v): a range or "latest" makes the install unrepeatable');
  }
  return value;
}
