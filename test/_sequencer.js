/**
 * The order jest runs the test files in: first those that need no program of
 * scripts/build-control-plane.sh, then those that need the programs it builds first, then those that
 * need one it builds last (test/_tiers.js's buildStage); in each group, jest's own order (a file that
 * failed last time first, then the longest by the last run's times, else the largest). .ci/run
 * starts the tests while the programs build: the suites that need none keep both workers busy
 * meanwhile, and each other suite waits for the programs it needs (tools/playground/programs.ts's
 * awaitBuilt), the control plane's before TiDB's. With the programs built, only the order changes.
 *
 * Plain CommonJS, since jest loads it before anything is compiled.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { buildStage } = require('./_tiers');

class BuildOrder extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const stage = new Map(ordered.map((t) => [t.path, buildStage(t.path)]));
    // Array.prototype.sort is stable: jest's order holds within a stage.
    return [...ordered].sort((a, b) => stage.get(a.path) - stage.get(b.path));
  }
}

module.exports = BuildOrder;
