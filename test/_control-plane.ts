/**
 * The real programs built from Go modules by scripts/build-control-plane.sh (etcd, kube-apiserver,
 * the cert-manager controllers, the launcher, the Go TLS peer) and the kubectl on PATH: whether
 * they are there, and the suites that need them. Outside CI a suite whose programs are missing is
 * skipped with its reason printed; under CI (CI=true) it runs and fails with what to do.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the build script puts the programs. */
export const TOOLS_BIN = path.join(__dirname, '..', '.cache', 'control-plane', 'bin');

/** The path of a built program. */
export function tool(name: 'etcd' | 'kube-apiserver' | 'cert-manager-controller' | 'launcher' | 'tls-peer'): string {
  return path.join(TOOLS_BIN, name);
}

const inCi = process.env.CI === 'true';

/** The programs of `names` that are missing ('kubectl' is looked for on PATH). */
export function missingTools(names: readonly string[]): string[] {
  return names.filter((n) => (n === 'kubectl' ? spawnSync('sh', ['-c', 'command -v kubectl']).status !== 0 : !fs.existsSync(path.join(TOOLS_BIN, n))));
}

/**
 * `describe` when the programs are there or under CI, else `describe.skip` after printing why.
 * Under CI a suite whose programs are missing gets one failing test saying what to run.
 */
export function describeWithTools(what: string, names: readonly string[], body: () => void): void {
  const missing = missingTools(names);
  if (missing.length === 0) {
    describe(what, body);
    return;
  }
  const fix = `run scripts/build-control-plane.sh (.ci/run does)${missing.includes('kubectl') ? ', and install kubectl' : ''}`;
  if (inCi) {
    describe(what, () => {
      test('has the programs it needs', () => {
        throw new Error(`CI=true but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: ${fix}`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.log(`skipping ${what}: ${missing.join(', ')} not built (${fix}; under CI=true the suite fails instead)`);
  describe.skip(what, body);
}
