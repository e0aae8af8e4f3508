/**
 * Runs in every worker before each test file: stops the file when `os.tmpdir()` is not the run's
 * private folder, that is when a worker did not inherit `TMPDIR` from `_jest-global-setup.ts`, so
 * that temporary folders never land in the real temporary folder unnoticed.
 */
import * as os from 'node:os';
import { RUN_TMPDIR } from './_jest-global-setup';

const folder = process.env[RUN_TMPDIR];
if (folder === undefined || os.tmpdir() !== folder) {
  throw new Error(`os.tmpdir() is ${JSON.stringify(os.tmpdir())}; expected the run's private folder ${JSON.stringify(folder)} from jest's globalSetup`);
}
