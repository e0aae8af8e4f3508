/**
 * Runs in every worker before each test file, after jest's environment: a file that needs programs
 * of scripts/build-control-plane.sh waits here, while a build runs, until the build has made every
 * program of its stage (test/_tiers.js's buildStage): all but the last built for stage 1, all for
 * stage 2. So no test waits inside its own time limit for a program the build has not made yet, and
 * a file that needs none starts at once. With no build running it returns at once.
 */
import { LAST_BUILT, PROGRAMS, awaitBuilt } from '../tools/playground/programs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStage } = require('./_tiers') as { buildStage: (file: string) => number };

const stage = buildStage(expect.getState().testPath!);
if (stage > 0) {
  awaitBuilt(stage === 1 ? PROGRAMS.filter((p) => !LAST_BUILT.includes(p)) : PROGRAMS);
}
