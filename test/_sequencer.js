/**
 * The order jest runs the test files in while scripts/build-control-plane.sh runs: first those that
 * need none of its programs, then those that need the programs it builds first, then those that
 * need one it builds last (test/_tiers.js's buildStage); in each group, jest's own order (a file that
 * failed last time first, then the longest by the last run's times, else the largest). .ci/run
 * starts the tests while the programs build: the suites that need none keep both workers busy
 * meanwhile, and each other suite waits for the programs it needs (tools/playground/programs.ts's
 * awaitBuilt), the control plane's before TiDB's, and the suites that need a program built last in
 * the order the build makes them. With no build running, the order is jest's alone: a suite
 * that needs a program would otherwise start last, whatever its length, and run alone at the end.
 *
 * Plain CommonJS, since jest loads it before anything is compiled.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { LAST_BUILT_ORDER, buildStage, lastBuiltNamed } = require('./_tiers');

/**
 * A suite's place: its stage, then, among those that need a program built last, how late the
 * build makes the last one it needs (the operator's suite before TiDB's, the migration tool's last).
 */
function place(file) {
  const last = lastBuiltNamed(file).at(-1);
  return buildStage(file) * (LAST_BUILT_ORDER.length + 1) + (last === undefined ? 0 : LAST_BUILT_ORDER.indexOf(last) + 1);
}

/**
 * Whether scripts/build-control-plane.sh runs now, asked of the compiled module that waits for it
 * (`npm test` and `npm run test:fast` compile it first); when it is not compiled (a lone `npx jest`
 * in a clone never built), a build may run, and the build's order is kept.
 */
function buildRunning() {
  let programs;
  try {
    programs = require('../build/tools/playground/programs.js');
  } catch (e) {
    if (e.code === 'MODULE_NOT_FOUND') {
      return true;
    }
    throw e;
  }
  return programs.buildRunning();
}

class BuildOrder extends Sequencer {
  /** Whether a build runs now; a method, so that test/build-wait.test.ts can answer for it. */
  buildRunning() {
    return buildRunning();
  }

  async sort(tests) {
    const ordered = await super.sort(tests);
    if (!this.buildRunning()) {
      return ordered;
    }
    const places = new Map(ordered.map((t) => [t.path, place(t.path)]));
    // Array.prototype.sort is stable: jest's order holds within a place.
    return [...ordered].sort((a, b) => places.get(a.path) - places.get(b.path));
  }
}

module.exports = BuildOrder;
