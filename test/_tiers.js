/**
 * The two tiers of the tests. `npm test` runs every test file; `npm run test:fast`
 * (jest.fast.config.js) leaves out the live suites: those that start a control plane, the real
 * operator or a real SQL server, pack the library into a new app, build the Python, Go and Java
 * apps, or run every rotation or enablement runbook as written. They take most of the suite's time,
 * and most need the programs that scripts/build-control-plane.sh builds.
 *
 * A test file is live when its own docblock, or that of a module it imports (relative imports,
 * followed through every helper; `import type` loads nothing and is not followed), carries the
 * pragma `@live`. The helpers that start a live program carry it (`_control-plane.ts`,
 * `_operator-run.ts`, `_mariadb.ts`, `_tidb-server.ts`), so a new suite that uses one of them is
 * live without any list being edited; a suite that is live by itself (`consumer.test.ts`,
 * `languages.test.ts`) carries it in its own docblock.
 *
 * The fast tier also runs the exhaustive proofs narrower: jest.fast.config.js sets
 * CLUSTER_TLS_TIER=fast, and a suite that kills a synth at every point, tries every hostile value
 * or draws random inputs asks {@link exhaustive} how many. What the fast tier leaves to `npm test`
 * is skipped by name (jest counts it as skipped, never as passed), or named in the test's title.
 *
 * Plain CommonJS, since jest reads its configuration before anything is compiled.
 */
const fs = require('node:fs');
const path = require('node:path');
const { extract, parse } = require('jest-docblock');

/** Relative imports that load a module: import … from, import '…', export … from, require('…'). */
const IMPORT = /(?:^|[;\n])\s*(?:import\s+(?!type\b)(?:[^'";]*?\s+from\s+)?|export\s+(?!type\b)[^'";]*?\s+from\s+)['"](\.{1,2}\/[^'"]+)['"]|\brequire\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The file a relative specifier names, as Node and ts-jest resolve it, or undefined. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts'), path.join(base, 'index.js')]
    .find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/**
 * Why a file is live: the chain of files from it to the one whose docblock says `@live`, or
 * undefined when it is not. Only the repository's own files are followed (not node_modules).
 */
function liveChain(file, seen = new Set()) {
  if (seen.has(file)) {
    return undefined;
  }
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  if ('live' in parse(extract(source))) {
    return [file];
  }
  for (const m of source.matchAll(IMPORT)) {
    const target = resolve(file, m[1] ?? m[2]);
    if (target === undefined || target.includes(`${path.sep}node_modules${path.sep}`)) {
      continue;
    }
    const chain = liveChain(target, seen);
    if (chain) {
      return [file, ...chain];
    }
  }
  return undefined;
}

/** Every file of the repository a file loads, itself included, following relative imports. */
function closure(file, seen = new Set()) {
  if (!seen.has(file)) {
    seen.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(file, m[1] ?? m[2]);
      if (target !== undefined && !target.includes(`${path.sep}node_modules${path.sep}`)) {
        closure(target, seen);
      }
    }
  }
  return seen;
}

/** The module through which every suite finds the programs scripts/build-control-plane.sh builds. */
const PROGRAMS = path.join(__dirname, '..', 'tools', 'playground', 'programs.ts');
/**
 * The programs the build script makes last, which few suites need, in the order it makes them: the
 * list is tools/playground/programs.ts's LAST_BUILT (test/build-wait.test.ts holds that they agree).
 */
const LAST_BUILT_ORDER = ['tidb-controller-manager', 'tidb-server', 'dm-task-check'];
/** A mention of one of them in a suite or a module it loads. */
const LAST_BUILT = new RegExp(`['"](${LAST_BUILT_ORDER.join('|')})['"]`, 'g');

/**
 * The programs of {@link LAST_BUILT} that a suite or a module it loads mentions, in the order the
 * build script makes them: a suite waits for these, and not for the others the script builds last.
 */
function lastBuiltNamed(file) {
  const named = new Set();
  for (const f of closure(file)) {
    // The programs' module and this one name them all; a suite that loads this one to ask
    // exhaustive() needs none of them for it.
    if (f !== PROGRAMS && f !== __filename) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(LAST_BUILT)) {
        named.add(m[1]);
      }
    }
  }
  return LAST_BUILT_ORDER.filter((p) => named.has(p));
}

/**
 * When a suite can run while scripts/build-control-plane.sh builds the programs (.ci/run starts the
 * tests beside it): 0 when it needs none of them, 1 when it needs those built first, 2 when it needs
 * one the script builds last (the operator, TiDB's SQL server, the migration tool's checks).
 */
function buildStage(file) {
  if (!closure(file).has(PROGRAMS)) {
    return 0;
  }
  return lastBuiltNamed(file).length > 0 ? 2 : 1;
}

/** The test files (`*.test.ts`) of a folder that are live, as absolute paths. */
function liveSuites(folder) {
  return fs.readdirSync(folder).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(folder, f))
    .filter((f) => liveChain(f) !== undefined);
}

/**
 * Whether this run is `npm test`'s, which runs every case of every proof, rather than the fast
 * tier's (CLUSTER_TLS_TIER=fast, set by jest.fast.config.js), which runs each proof on fewer cases.
 */
function exhaustive() {
  return process.env.CLUSTER_TLS_TIER !== 'fast';
}

module.exports = { LAST_BUILT_ORDER, buildStage, exhaustive, lastBuiltNamed, liveChain, liveSuites };
