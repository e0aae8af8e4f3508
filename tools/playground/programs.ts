/**
 * Where the project's programs are: the clone's root, and the links scripts/build-control-plane.sh
 * makes in `.cache/control-plane/bin` to the programs it built into the machine's store. Used by the
 * playground and by the tests (test/_programs.ts), from the sources or compiled into build/.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The clone's root: the nearest folder above this module whose package.json is this project's. */
export const PROJECT_ROOT = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'cdk8s-cluster-tls') {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no package.json of cdk8s-cluster-tls above ${__dirname}`);
    }
  }
})();

/** Where the build script links the programs. */
export const TOOLS_BIN = path.join(PROJECT_ROOT, '.cache', 'control-plane', 'bin');

/** The programs the build script makes, in the order it makes them. */
export const PROGRAMS = ['etcd', 'etcdctl', 'kube-apiserver', 'kube-controller-manager', 'kubectl', 'cert-manager-controller', 'launcher', 'tls-peer',
  'operator-peers', 'duration', 'yaml-read', 'cert-manager-webhook', 'cmctl', 'helm', 'mysql-client', 'quantity',
  'tidb-controller-manager', 'tidb-server', 'dm-task-check'] as const;

/** A program the build script makes. */
export type Program = typeof PROGRAMS[number];

/**
 * The programs the build script makes last, which few suites need (the operator, TiDB's SQL server,
 * the migration tool's checks): while a build runs, a suite waits for the rest of {@link PROGRAMS}
 * and for those of these it names (test/_tiers.js's lastBuiltNamed), not for the others.
 */
export const LAST_BUILT: readonly Program[] = ['tidb-controller-manager', 'tidb-server', 'dm-task-check'];

/** The path of a built program, once a build that runs has made it ({@link awaitBuilt}). */
export function tool(name: Program): string {
  awaitBuilt([name]);
  return path.join(TOOLS_BIN, name);
}

/** What scripts/build-control-plane.sh holds an exclusive lock on while it runs. */
const BUILD_LOCK = path.join(TOOLS_BIN, '..', '.build.lock');
/** Where it appends each program's name once the program is in {@link TOOLS_BIN}. */
const BUILT = path.join(TOOLS_BIN, '..', '.built');
/** flock's exit code when the lock is held (-E), told apart from its own failures. */
const LOCK_HELD = 75;
/** Set once no build was seen running: nothing to wait for from then on. */
let buildOver = false;

/**
 * Waits while scripts/build-control-plane.sh runs until it has made every program of `names`, or
 * has stopped (whether it made them or not: {@link missingTools} then says what is missing). So the
 * tests can start while the programs build, as .ci/run starts them, each suite waiting for what it
 * needs and no longer. Returns at once when no build runs. Synchronous, as the suites ask for
 * programs when jest loads them.
 */
export function awaitBuilt(names: readonly string[]): void {
  while (!buildOver) {
    if (!buildRunning()) {
      buildOver = true;
      return;
    }
    const built = new Set(fs.readFileSync(BUILT, 'utf8').split('\n'));
    if (names.every((n) => built.has(n))) {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

/** Whether scripts/build-control-plane.sh holds its lock now (test/_sequencer.js orders the suites for it only then). */
export function buildRunning(): boolean {
  if (!fs.existsSync(BUILD_LOCK) || !fs.existsSync(BUILT)) {
    return false;
  }
  return spawnSync('flock', ['--nonblock', '--shared', '--conflict-exit-code', String(LOCK_HELD), BUILD_LOCK, 'true']).status === LOCK_HELD;
}

/** The operator release the project builds, whose CRDs the build script copies beside the programs. */
export const OPERATOR_RELEASE = 'v1.6.6';

/** The CRDs of that operator release (its own API group and kinds), as the build script copies them. */
export const OPERATOR_CRDS = path.join(TOOLS_BIN, '..', 'crds', `operator-${OPERATOR_RELEASE}`);

/** The CRDs of the pinned cert-manager release, as the build script copies them. */
export const CERT_MANAGER_CRDS = path.join(TOOLS_BIN, '..', 'crds', 'cert-manager');

let stale: Set<string> | undefined;

/**
 * The programs of `names` that are missing or not built from the current sources (the build
 * script's `--check`, asked once per process once no build runs), after waiting for a build that
 * runs to make them ({@link awaitBuilt}).
 */
export function missingTools(names: readonly Program[]): Program[] {
  awaitBuilt(names);
  if (stale === undefined || !buildOver) {
    const checked = spawnSync('bash', [path.join(PROJECT_ROOT, 'scripts', 'build-control-plane.sh'), '--check'], { encoding: 'utf8' });
    stale = new Set([...(checked.stdout ?? '').matchAll(/build-control-plane: (\S+) is not built from the current sources/g)].map((m) => m[1]));
  }
  return names.filter((n) => !fs.existsSync(path.join(TOOLS_BIN, n)) || stale!.has(n));
}
