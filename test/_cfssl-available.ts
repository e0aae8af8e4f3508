/**
 * Whether the real cfssl and cfssljson are on PATH, for the tests that run them. They are skipped,
 * with the reason printed, only where the tools are missing outside CI; under CI (CI=true) they run
 * and fail with a clear message instead.
 */
import { spawnSync } from 'node:child_process';

const TOOLS = ['cfssl', 'cfssljson'];

/** The cfssl tools not found on PATH. */
export const missingCfssl = TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);

const inCi = process.env.CI === 'true';

/** `describe` when the tools are there or under CI, else `describe.skip` after printing why. */
export function describeWithCfssl(what: string): jest.Describe {
  if (missingCfssl.length > 0 && !inCi) {
    // eslint-disable-next-line no-console
    console.log(`skipping ${what}: ${missingCfssl.join(' and ')} not found on PATH `
      + '(install the Debian package golang-cfssl; under CI=true the test runs and fails instead)');
    return describe.skip;
  }
  return describe;
}

/** Throws the CI failure when the tools are missing (call it in the suite's setup). */
export function requireCfssl(): void {
  if (missingCfssl.length > 0) {
    throw new Error(`CI=true but ${missingCfssl.join(' and ')} not found on PATH: install the Debian package golang-cfssl (.ci/run does)`);
  }
}
