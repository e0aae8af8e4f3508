/**
 * Gives the whole jest run one private temporary folder. cdk8s's `Testing.app()` and
 * `Testing.chart()` make a `cdk8s.outdir.*` folder per call with `mkdtemp` in `os.tmpdir()` and
 * never remove it, and several tests make folders of their own there; pointing `TMPDIR` at this
 * folder puts all of them inside it, and `_jest-global-teardown.ts` removes it after the run.
 *
 * Jest runs this in its main process before it starts the workers, which inherit the environment,
 * and `os.tmpdir()` reads `TMPDIR` on every call; `_jest-tmpdir-check.ts` proves it in each
 * worker before each test file.
 *
 * The workers also go without `NODE_EXTRA_CA_CERTS`. Node.js reads and parses the bundle it names
 * at every start, and some machines name the system's whole bundle there (the ones this project
 * is built on do): 56 ms of CPU for every Node.js process, more than a call of the stand-in
 * kubectl spends on its own work, and the runbooks make hundreds of calls. No Node.js process a
 * test starts reaches a server off the machine but npm (the packed library's and the languages'
 * suites), which reads its own `cafile`: behind a proxy that re-signs TLS, set it (`npm config set
 * cafile <bundle>`) rather than relying on NODE_EXTRA_CA_CERTS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The environment variable that names the run's private folder, for the teardown and the check. */
export const RUN_TMPDIR = 'CLUSTER_TLS_JEST_TMPDIR';
/** The environment variable that keeps `TMPDIR` as it was before the run, to restore it. */
export const OUTER_TMPDIR = 'CLUSTER_TLS_JEST_OUTER_TMPDIR';

export default function globalSetup(): void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-jest-'));
  process.env[OUTER_TMPDIR] = process.env.TMPDIR ?? '';
  process.env[RUN_TMPDIR] = folder;
  process.env.TMPDIR = folder;
  delete process.env.NODE_EXTRA_CA_CERTS;
}
