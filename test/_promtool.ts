/**
 * The real promtool (Debian package prometheus), for the tests of the expiry rules. They are
 * skipped, with the reason printed, only where promtool is missing outside CI; under CI (CI=true)
 * they run and fail with a clear message instead.
 */
import { spawnSync } from 'node:child_process';

/** Whether promtool is on PATH. */
export const hasPromtool = spawnSync('sh', ['-c', 'command -v promtool']).status === 0;

/** `describe` when promtool is there or under CI, else `describe.skip` after printing why. */
export function describeWithPromtool(what: string): jest.Describe {
  if (!hasPromtool && process.env.CI !== 'true') {
    // eslint-disable-next-line no-console
    console.log(`skipping ${what}: promtool not found on PATH (install the Debian package prometheus; under CI=true the test runs and fails instead)`);
    return describe.skip;
  }
  return describe;
}

/** Runs promtool with `args` in `cwd`; throws the CI failure when it is missing. */
export function promtool(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  if (!hasPromtool) {
    throw new Error('CI=true but promtool not found on PATH: install the Debian package prometheus (.ci/run does)');
  }
  return spawnSync('promtool', args, { cwd, encoding: 'utf8' });
}
