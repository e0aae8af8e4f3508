/**
 * The tests start while scripts/build-control-plane.sh builds (.ci/run): a suite that asks for a
 * program waits until the build has made it, or has stopped, and no longer
 * (tools/playground/programs.ts's awaitBuilt), and while it runs, jest runs the suites that need
 * no program first (test/_sequencer.js); with no build, in jest's own order. Checked on a copy of the compiled module in a project of its own, whose build
 * lock a `flock` holds as the build script does.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const COMPILED = path.join(__dirname, '..', 'build', 'tools', 'playground', 'programs.js');
// The compiled module, not an import of the source: a suite that imports it waits for the build
// (test/_tiers.js's buildStage), and this one needs none of the programs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LAST_BUILT, PROGRAMS } = require(COMPILED) as { LAST_BUILT: readonly string[]; PROGRAMS: readonly string[] };

/** A project with the compiled module and an empty cache folder. */
function project(): { root: string; cache: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-wait-'));
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'cdk8s-cluster-tls' }));
  fs.mkdirSync(path.join(root, 'tools', 'playground'), { recursive: true });
  fs.copyFileSync(COMPILED, path.join(root, 'tools', 'playground', 'programs.js'));
  const cache = path.join(root, '.cache', 'control-plane');
  fs.mkdirSync(path.join(cache, 'bin'), { recursive: true });
  return { root, cache };
}

/** Holds the build's lock, as the build script does, until {@link release}d. */
async function holdLock(cache: string): Promise<ChildProcess> {
  fs.writeFileSync(path.join(cache, '.built'), '');
  const holder = spawn('flock', [path.join(cache, '.build.lock'), 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
  return holder;
}

/** Ends the holder and what it runs (the lock goes with the last of them). */
function release(holder: ChildProcess): void {
  try {
    process.kill(-holder.pid!);
  } catch {
    // already ended
  }
}

/** Asks the copied module for a program's path in a process of its own; resolves with the ms it took. */
function ask(root: string, program: string): Promise<number> {
  const started = Date.now();
  const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(path.join(root, 'tools', 'playground', 'programs.js'))}).tool(${JSON.stringify(program)})`], { stdio: 'ignore' });
  return new Promise((resolve, reject) => child.once('exit', (code) => code === 0 ? resolve(Date.now() - started) : reject(new Error(`exit ${code}`))));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hasFlock = spawnSync('sh', ['-c', 'command -v flock']).status === 0;

(hasFlock || process.env.CI === 'true' ? describe : describe.skip)('a suite asking for a program while the build runs', () => {
  /** Runs `body` in a new project whose build lock a holder has; ends the holder and removes the project after. */
  async function whileBuilding(body: (root: string, cache: string, holder: ChildProcess) => Promise<void>): Promise<void> {
    const { root, cache } = project();
    const holder = await holdLock(cache);
    try {
      await body(root, cache, holder);
    } finally {
      release(holder);
      fs.rmSync(root, { recursive: true, force: true });
    }
  }

  test('waits until the build marks that program built, not for the rest of the build', () => whileBuilding(async (root, cache) => {
    const asked = ask(root, 'kubectl');
    await sleep(2500);
    fs.appendFileSync(path.join(cache, '.built'), 'etcd\nkubectl\n');
    const took = await asked;
    expect(took).toBeGreaterThanOrEqual(2500);
    expect(await ask(root, 'etcd')).toBeLessThan(2500);
  }), 30_000);

  test('waits until the build stops when it never makes the program', () => whileBuilding(async (root, _cache, holder) => {
    const asked = ask(root, 'tidb-server');
    await sleep(2500);
    release(holder);
    expect(await asked).toBeGreaterThanOrEqual(2500);
  }), 30_000);

  test('does not wait when no build runs', async () => {
    const { root, cache } = project();
    try {
      fs.writeFileSync(path.join(cache, '.built'), '');
      fs.writeFileSync(path.join(cache, '.build.lock'), '');
      // In this process: a wait would block it for a second at least; the lock is asked once.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const copy = require(path.join(root, 'tools', 'playground', 'programs.js')) as { awaitBuilt: (names: readonly string[]) => void };
      const started = Date.now();
      copy.awaitBuilt(['tidb-server']);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the order of the suites', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildStage, lastBuiltNamed, LAST_BUILT_ORDER } = require('./_tiers') as {
    buildStage: (file: string) => number; lastBuiltNamed: (file: string) => string[]; LAST_BUILT_ORDER: readonly string[];
  };

  test('the build script makes the programs in the order the module lists them, the last built last', () => {
    const script = fs.readFileSync(path.join(__dirname, '..', 'scripts', 'build-control-plane.sh'), 'utf8');
    const built = [...script.matchAll(/^build \S+ (?:'[^']*'|"[^"]*") ((?:[\w-]+=\S+(?: \\\n\s*| )?)+)$/gm)]
      .flatMap((m) => [...m[1].matchAll(/([\w-]+)=/g)].map((n) => n[1]));
    expect(built).toEqual([...PROGRAMS]);
    expect(PROGRAMS.slice(-LAST_BUILT.length)).toEqual([...LAST_BUILT]);
    expect(LAST_BUILT_ORDER).toEqual([...LAST_BUILT]);
  });
  const stage = (file: string) => buildStage(path.join(__dirname, file));

  test('a suite that needs no program runs first, one that needs the control plane next, one that needs TiDB\'s last', () => {
    expect(stage('names.test.ts')).toBe(0);
    expect(stage('build-wait.test.ts')).toBe(0);
    expect(stage('span.test.ts')).toBe(1);
    expect(stage('rotation-runbooks-sql.test.ts')).toBe(2);
    expect(stage('sql-tls-tidb.test.ts')).toBe(2);
    // The longest suite needs no program (its SQL rotations, which need tidb-server, are a file of
    // their own), so CI runs it while the programs build; a type imported from a helper that runs
    // programs (`import type`) makes no suite wait.
    expect(stage('rotation-runbooks.test.ts')).toBe(0);
    expect(stage('rotation.test.ts')).toBe(0);
  });

  test('a suite that needs one of the last built waits for that one, not for those built after it', () => {
    const named = (file: string) => lastBuiltNamed(path.join(__dirname, file));
    expect(named('operator.test.ts')).toEqual(['tidb-controller-manager']);
    expect(named('sql-tls-tidb.test.ts')).toEqual(['tidb-server']);
    expect(named('tls-migration-cluster.test.ts')).toEqual(['dm-task-check']);
    expect(named('span.test.ts')).toEqual([]);
    // It asks test/_tiers.js, which names them all, how many cases to run: that makes it wait for none.
    expect(named('handshakes.test.ts')).toEqual([]);
    expect(stage('handshakes.test.ts')).toBe(1);
  });

  const context = { config: { cacheDirectory: fs.mkdtempSync(path.join(os.tmpdir(), 'sequencer-')), name: 'sequencer' }, hasteFS: { getSize: (p: string) => fs.statSync(p).size } };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const BuildOrder = require('./_sequencer') as new (options: { contexts: unknown[] }) => { sort(tests: unknown[]): Promise<{ path: string }[]>; buildRunning(): boolean };
  /** The sequencer, told whether a build runs. */
  const sequencer = (building: boolean) => new (class extends BuildOrder {
    buildRunning() {
      return building;
    }
  })({ contexts: [context] });
  const files = ['rotation-runbooks-sql.test.ts', 'span.test.ts', 'names.test.ts', 'control-plane.test.ts', 'main.test.ts', 'operator.test.ts', 'tls-migration-cluster.test.ts'];
  const tests = files.map((f) => ({ path: path.join(__dirname, f), context, duration: undefined }));

  test('while a build runs, jest\'s sequencer puts them in that order, those of the last built in the order they are built, and keeps its own within the first two stages', async () => {
    const sorted: { path: string }[] = await sequencer(true).sort(tests);
    const stages = sorted.map((t) => buildStage(t.path));
    expect(stages).toEqual([...stages].sort());
    expect(stages[0]).toBe(0);
    expect(stages[stages.length - 1]).toBe(2);
    expect(sorted.slice(-3).map((t) => path.basename(t.path))).toEqual(['operator.test.ts', 'rotation-runbooks-sql.test.ts', 'tls-migration-cluster.test.ts']);
    // Within a stage, jest's own order (here the largest file first, with no times recorded).
    const jests: { path: string }[] = await Object.getPrototypeOf(BuildOrder.prototype).sort.call(sequencer(true), tests);
    for (const stage of [0, 1]) {
      const of = (list: { path: string }[]) => list.filter((t) => buildStage(t.path) === stage).map((t) => path.basename(t.path));
      expect(of(sorted)).toEqual(of(jests));
    }
  });

  test('with no build running, jest\'s own order: a suite that needs a program is not held to the end', async () => {
    const jests: { path: string }[] = await Object.getPrototypeOf(BuildOrder.prototype).sort.call(sequencer(false), tests);
    expect((await sequencer(false).sort(tests)).map((t) => t.path)).toEqual(jests.map((t) => t.path));
    expect(jests.map((t) => buildStage(t.path))).not.toEqual(jests.map((t) => buildStage(t.path)).sort());
  });
});
