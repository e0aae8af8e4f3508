/**
 * Runs in every worker before each test file, after jest's environment: a file that needs programs
 * of scripts/build-control-plane.sh waits here, while a build runs, until the build has made every
 * program but the last built, and those of the last built that the file names (test/_tiers.js's
 * buildStage and lastBuiltNamed: the operator's suite does not wait for TiDB's SQL server). So no
 * test waits inside its own time limit for a program the build has not made yet, and a file that
 * needs none starts at once. With no build running it returns at once.
 */
import { LAST_BUILT, PROGRAMS, awaitBuilt } from '../tools/playground/programs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStage, lastBuiltNamed } = require('./_tiers') as { buildStage: (file: string) => number; lastBuiltNamed: (file: string) => string[] };

const file = expect.getState().testPath!;
if (buildStage(file) > 0) {
  awaitBuilt([...PROGRAMS.filter((p) => !LAST_BUILT.includes(p)), ...lastBuiltNamed(file)]);
}
