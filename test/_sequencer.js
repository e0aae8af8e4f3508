/**
 * The order jest runs the test files in: first those that need no program of
 * scripts/build-control-plane.sh, then those that need the programs it builds first, then those that
 * need one it builds last (test/_tiers.js's buildStage); in each group, jest's own order (a file that
 * failed last time first, then the longest by the last run's times, else the largest). .ci/run
 * starts the tests while the programs build: the suites that need none keep both workers busy
 * meanwhile, and each other suite waits for the programs it needs (tools/playground/programs.ts's
 * awaitBuilt), the control plane's before TiDB's, and the suites that need a program built last in
 * the order the build makes them. With the programs built, only the order changes.
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

class BuildOrder extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const places = new Map(ordered.map((t) => [t.path, place(t.path)]));
    // Array.prototype.sort is stable: jest's order holds within a place.
    return [...ordered].sort((a, b) => places.get(a.path) - places.get(b.path));
  }
}

module.exports = BuildOrder;
