/**
 * Removes the run's private temporary folder (see `_jest-global-setup.ts`) with everything the
 * tests and the programs they started left in it, and gives `TMPDIR` back its value from before
 * the run (a watch run sets up again for its next run).
 */
import * as fs from 'node:fs';
import { OUTER_TMPDIR, RUN_TMPDIR } from './_jest-global-setup';

export default function globalTeardown(): void {
  const folder = process.env[RUN_TMPDIR];
  if (folder !== undefined) {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const outer = process.env[OUTER_TMPDIR];
  if (outer) {
    process.env.TMPDIR = outer;
  } else {
    delete process.env.TMPDIR;
  }
  delete process.env[RUN_TMPDIR];
  delete process.env[OUTER_TMPDIR];
}
