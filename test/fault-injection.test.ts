/**
 * Faults, not inputs: a synth killed at every step of its swap and at points spread over its run, on disk and on tmpfs; two synths at once; a read-only and a full file system; a
 * symbolic link or a file where the output folder belongs. After each, the output folder and the
 * record are both the whole old version or both the whole new one (once the next run finished what
 * the killed one committed), nothing beside them changed, and the next synth succeeds and leaves
 * nothing behind.
 *
 * Each synth is a real process (`node` on the compiled library), killed with SIGKILL by
 * test/_fault-preload.js just before the file-system call the test names.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recoverOutput } from '../lib/synth/output-swap';
// What a lock of this machine records beside the pid (its boot and pid namespace), as the library reads it.
import { IDENTITY } from '../lib/synth/swap-lock';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { exhaustive } = require('./_tiers') as { exhaustive: () => boolean };

const ROOT = path.resolve(__dirname, '..');
/**
 * `npm test` kills at every step of the swap and at points spread over the writes, on disk and on
 * tmpfs, and by a timer ten times; the fast tier kills on disk at every rename of the swap and the
 * journal's writing and at a few points between, and by the timer three times (test/_tiers.js).
 * `npm test` makes every step of the swap fail with EIO, the fast tier every rename and the
 * journal's writing; both also fail 6 other calls spread over the run.
 */
const EXHAUSTIVE = exhaustive();
const PRELOAD = path.join(__dirname, '_fault-preload.js');
const inCi = process.env.CI === 'true';
/**
 * Namespaces of the old version; the new one has one more, so every kind of file and the record
 * differ. Two, so that both versions hold both issuing methods: the kill points come from a trace
 * of the run (every step of the swap, whatever the app's size, and points spread over the writes
 * into the staging folder), so a larger app only adds writes of the kinds already there, and costs
 * each of the test's 340 or so synths: ten made each synth twice the CPU time and the file 300 s of
 * the fast tier. The writes take about the same share of a synth's time either way (a quarter), so
 * the kills by a timer land in them as often.
 */
const NAMESPACES = 2;
const RECORD = 'cluster-tls.lock.json';
/** A file beside the output that no synth may touch. */
const NEIGHBOUR = 'notes.txt';
/** The lock file of the output folder. */
const LOCK = '.dist.cluster-tls-lock';
/** The lock file of the files folder beside it. */
const FILES_LOCK = '.cluster-tls.cluster-tls-lock';

/** The app both versions come from: the reference deployment, once per namespace, alternating issuing methods. */
const APP = `
const path = require('node:path');
const root = ${JSON.stringify(ROOT)};
const { App } = require(require.resolve('cdk8s', { paths: [root] }));
const lib = require(path.join(root, 'build/lib'));
const { addDeployment } = require(path.join(root, 'build/main.js'));
const [outdir, version] = process.argv.slice(2);
const recordFile = process.env.RECORD || undefined;
lib.synthesizeOrExit(() => {
  const app = new App({ outdir });
  for (let i = 0; i < ${NAMESPACES} + (version === 'new' ? 1 : 0); i++) {
    addDeployment(app, 'ns' + i, i % 2 ? lib.IssuingMethod.CFSSL : lib.IssuingMethod.CERT_MANAGER);
  }
  return app;
}, { outdir, recordFile });
`;

type Version = 'old' | 'new';

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

let work: string;
let appFile: string;
/** Every file of each version's output and its record, by path relative to the folder that holds the output. */
const versions = new Map<Version, Map<string, string>>();

/** Runs a synth of one version into `<parent>/dist`; `env` adds the fault's settings. */
function synth(parent: string, version: Version, env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['-r', PRELOAD, appFile, path.join(parent, 'dist'), version], {
    cwd: parent, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

function finished(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => { stdout += d; });
  child.stderr!.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
}

/** Every file below `parent` (links as `-> target`), by relative path, with its content. */
function snapshot(parent: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of fs.readdirSync(parent, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    const rel = path.relative(parent, full).split(path.sep).join('/');
    if (e.isSymbolicLink()) {
      files.set(rel, `-> ${fs.readlinkSync(full)}`);
    } else if (e.isFile()) {
      files.set(rel, fs.readFileSync(full, 'latin1'));
    } else if (e.isDirectory() && fs.readdirSync(full).length === 0) {
      files.set(`${rel}/`, '');
    }
  }
  return files;
}

/** The output and the record of a version, as `snapshot` lists them. */
function expected(version: Version): Map<string, string> {
  return versions.get(version)!;
}

/** The output and record below `parent`: without the neighbour and the lock a killed synth leaves for the next one to take over. */
function state(parent: string): Map<string, string> {
  const now = snapshot(parent);
  now.delete(NEIGHBOUR);
  now.delete(LOCK);
  now.delete(FILES_LOCK);
  return now;
}

/** Which version the output folder and the record are, both whole; undefined for anything else. */
function versionOf(parent: string): Version | undefined {
  const now = state(parent);
  for (const [version, files] of versions) {
    if (now.size === files.size && [...files].every(([f, content]) => now.get(f) === content)) {
      return version;
    }
  }
  return undefined;
}

/** What differs from the nearest version, for a failure message. */
function describeState(parent: string): string {
  const now = state(parent);
  return [...versions].map(([v, files]) => {
    const missing = [...files.keys()].filter((f) => !now.has(f));
    const extra = [...now.keys()].filter((f) => !files.has(f));
    const changed = [...files.keys()].filter((f) => now.has(f) && now.get(f) !== files.get(f));
    return `${v}: ${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${extra.length} extra (${extra.slice(0, 3).join(', ')}), ${changed.length} changed (${changed.slice(0, 3).join(', ')})`;
  }).join('; ');
}

/** A folder holding the old version's output and record, and a neighbour. */
function oldState(base: string, name: string): string {
  const parent = path.join(base, name);
  fs.mkdirSync(parent, { recursive: true });
  for (const [f, content] of expected('old')) {
    fs.mkdirSync(path.dirname(path.join(parent, f)), { recursive: true });
    fs.writeFileSync(path.join(parent, f), content, 'latin1');
  }
  fs.writeFileSync(path.join(parent, NEIGHBOUR), 'mine\n');
  return parent;
}

/** Runs `jobs` two at a time (the machine's cores), in order of start. */
async function inPool<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }));
  return results;
}

/** The invariant after a kill: see the file's comment. Returns which version the state resolved to. */
async function checkAfterKill(parent: string, what: string): Promise<Version> {
  const journal = fs.existsSync(path.join(parent, '.dist.cluster-tls-journal.json'));
  if (!journal) {
    // Without a journal nothing was committed or everything was: the folder is whole already.
    const leftovers = fs.readdirSync(parent).filter((f) => f.startsWith('.'));
    const visible = snapshot(parent);
    for (const f of [...visible.keys()]) {
      if (leftovers.some((l) => f === l || f.startsWith(`${l}/`))) {
        visible.delete(f);
      }
    }
    visible.delete(NEIGHBOUR);
    const whole = [...versions].some(([, files]) => visible.size === files.size && [...files].every(([f, c]) => visible.get(f) === c));
    if (!whole) {
      throw new Error(`${what}: no journal, yet the output and record are neither whole version: ${describeState(parent)}`);
    }
  }
  recoverOutput(path.join(parent, 'dist'), path.join(parent, RECORD), path.join(parent, 'cluster-tls'));
  const resolved = versionOf(parent);
  if (resolved === undefined) {
    throw new Error(`${what}: after recovery the output and record are neither whole version: ${describeState(parent)}`);
  }
  if (fs.readFileSync(path.join(parent, NEIGHBOUR), 'utf8') !== 'mine\n') {
    throw new Error(`${what}: the file beside the output changed`);
  }
  const next = await synth(parent, 'new');
  if (next.status !== 0) {
    throw new Error(`${what}: the next synth failed: ${next.stderr}`);
  }
  if (versionOf(parent) !== 'new') {
    throw new Error(`${what}: the next synth did not leave the new version whole: ${describeState(parent)}`);
  }
  const beside = fs.readdirSync(parent).sort();
  if (beside.join(',') !== ['cluster-tls', 'cluster-tls.lock.json', 'dist', NEIGHBOUR].sort().join(',')) {
    throw new Error(`${what}: the next synth left ${beside.join(', ')}`);
  }
  return resolved;
}

/** The calls that commit a swap's steps: its renames and the journal's writing. */
const COMMITS = /^renameSync|journal/;

/** Where a traced run is killed: at every step of the swap, or at those that commit one. */
type SwapSteps = 'every step' | 'commits';

/**
 * The kill points of a traced run: every step outside the staging folder's files (or only those
 * that commit, `COMMITS`), and at least `spread` more spread evenly over the rest, `minimum` in all.
 */
function killPoints(trace: readonly string[], spread: number, minimum: number, steps: SwapSteps = 'every step'): number[] {
  const swap = trace.map((c, i) => ({ c, at: i + 1 }))
    .filter(({ c }) => !/staging-[^/\s]*\//.test(c) && !/^writeSync fd/.test(c) && (steps === 'every step' || COMMITS.test(c))).map(({ at }) => at);
  const rest = trace.map((_, i) => i + 1).filter((at) => !swap.includes(at));
  spread = Math.max(spread, minimum - swap.length);
  const spreadPoints = Array.from({ length: spread }, (_, k) => rest[Math.floor(((k + 0.5) * rest.length) / spread)]);
  return [...new Set([...swap, ...spreadPoints])].sort((a, b) => a - b);
}

/** Whether `dir` is on tmpfs (statfs's f_type TMPFS_MAGIC). */
function onTmpfs(dir: string): boolean {
  try {
    return fs.statfsSync(dir).type === 0x01021994;
  } catch {
    return false;
  }
}

// One timeout for the whole file: jest.setTimeout in a describe body applies to every test of the
// file, the last call winning, so it is set once, for the longest (the kills on disk, about 30 s
// alone and a few minutes on a loaded 2-core machine).
jest.setTimeout(900_000);

const shm = '/dev/shm';
/** Runs a shell script in a mount namespace of its own, as root there: how the test mounts a small or read-only tmpfs. */
const unshare = ['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c'];
const canMount = spawnSync(unshare[0], [...unshare.slice(1), 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && umount "$d" && rmdir "$d"']).status === 0;

beforeAll(async () => {
  // The synths run the compiled library: build it from the sources under test, or fail here.
  expect(spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], { cwd: ROOT, stdio: 'inherit' }).status).toBe(0);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-faults-'));
  appFile = path.join(work, 'app.js');
  fs.writeFileSync(appFile, APP);
  for (const version of ['old', 'new'] as Version[]) {
    const parent = path.join(work, `reference-${version}`);
    fs.mkdirSync(parent);
    const run = await synth(parent, version);
    expect(run).toMatchObject({ status: 0, stderr: '' });
    versions.set(version, snapshot(parent));
  }
}, 180_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a synth killed at any step', () => {

  /** Kills the new version's synth over the old state at each point, on the file system holding `base`. */
  async function killEverywhere(base: string, spread: number, minimum: number, steps: SwapSteps = 'every step'): Promise<Record<Version, number>> {
    const traced = oldState(base, 'traced');
    const trace = path.join(base, 'trace.log');
    expect(await synth(traced, 'new', { FAULT_LOG: trace })).toMatchObject({ status: 0 });
    const calls = fs.readFileSync(trace, 'utf8').split('\n').filter((l) => l);
    const points = killPoints(calls, spread, minimum, steps);
    expect(points.length).toBeGreaterThanOrEqual(minimum);
    // The trace holds the swap's commits (every rename and the journal's writing), each a kill point.
    const commits = calls.filter((c) => COMMITS.test(c));
    expect(commits.length).toBeGreaterThanOrEqual(2);
    for (const step of commits) {
      expect(points).toContain(calls.indexOf(step) + 1);
    }
    const outcomes = await inPool(points.map((at, i) => async () => {
      const parent = oldState(base, `kill-${at}`);
      const torn = i % 2 === 1;
      const run = await synth(parent, 'new', { FAULT_KILL_AT: String(at), ...(torn ? { FAULT_TORN: '1' } : {}) });
      const what = `killed before call ${at} (${calls[at - 1]})${torn ? ', a write torn' : ''}`;
      if (run.signal !== 'SIGKILL') {
        throw new Error(`${what}: the synth was not killed (status ${run.status}): ${run.stderr}`);
      }
      const version = await checkAfterKill(parent, what);
      fs.rmSync(parent, { recursive: true, force: true });
      return version;
    }));
    const count = { old: outcomes.filter((v) => v === 'old').length, new: outcomes.filter((v) => v === 'new').length };
    // Kills before the journal keep the old version, kills after it give the new one: both happen.
    expect(count.old).toBeGreaterThan(0);
    expect(count.new).toBeGreaterThan(0);
    return count;
  }

  test(`${EXHAUSTIVE ? 'a step of the swap' : 'a rename of the swap or the journal\'s writing'} that fails (EIO) instead: one line, and the old or the new version whole; the next synth succeeds and leaves nothing behind`, async () => {
    const base = fs.mkdtempSync(path.join(work, 'fail-'));
    const traced = oldState(base, 'traced');
    const trace = path.join(base, 'trace.log');
    expect(await synth(traced, 'new', { FAULT_LOG: trace })).toMatchObject({ status: 0 });
    const calls = fs.readFileSync(trace, 'utf8').split('\n').filter((l) => l);
    const points = killPoints(calls, 6, 0, EXHAUSTIVE ? 'every step' : 'commits');
    const outcomes = await inPool(points.map((at) => async () => {
      const parent = oldState(base, `fail-${at}`);
      const what = `call ${at} (${calls[at - 1]}) failing`;
      const run = await synth(parent, 'new', { FAULT_FAIL_AT: String(at) });
      if (run.status === 0) {
        // A failure the writer may shrug off: releasing a lock no one else holds, deleting a leftover.
        expect(run.stderr).toBe('');
      } else if (!/^error: [^\n]*\(EIO\): the disk reported an input\/output error[^\n]*\n$/.test(run.stderr)) {
        throw new Error(`${what}: expected one line naming EIO, received status ${run.status}: ${run.stderr}`);
      }
      const version = await checkAfterKill(parent, what);
      fs.rmSync(parent, { recursive: true, force: true });
      return { version, failed: run.status !== 0 };
    }));
    // Failures before the new output took the folder's place are undone at once.
    expect(outcomes.some((o) => o.failed && o.version === 'old')).toBe(true);
  });

  test(`on disk, at ${EXHAUSTIVE ? '50 points and more' : 'every rename of the swap, the journal\'s writing and 4 points between'}: the old or the new version whole, recovered and cleaned by the next synth`, async () => {
    const base = fs.mkdtempSync(path.join(work, 'disk-'));
    expect(onTmpfs(base)).toBe(false);
    await (EXHAUSTIVE ? killEverywhere(base, 40, 50) : killEverywhere(base, 4, 0, 'commits'));
  });

  const tmpfs = onTmpfs(shm) && EXHAUSTIVE ? describe : describe.skip;
  if (!EXHAUSTIVE) {
    // eslint-disable-next-line no-console
    console.log('skipping the kills on tmpfs: the fast tier leaves them to npm test (test/_tiers.js)');
  } else if (!onTmpfs(shm)) {
    // eslint-disable-next-line no-console
    console.log(`skipping the kills on tmpfs: ${shm} is not a tmpfs here${inCi ? ' (under CI=true the test below fails instead)' : ''}`);
    if (inCi) {
      test('tmpfs is available under CI', () => {
        throw new Error(`CI=true but ${shm} is not a tmpfs: the kills on tmpfs cannot run`);
      });
    }
  }
  tmpfs('on tmpfs', () => {
    test('at 25 points and more, the same holds', async () => {
      const base = fs.mkdtempSync(path.join(shm, 'cluster-tls-faults-'));
      try {
        await killEverywhere(base, 15, 25);
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    });
  });

  test(`killed at random moments by a timer, ${EXHAUSTIVE ? 10 : 3} times, the same holds`, async () => {
    const base = fs.mkdtempSync(path.join(work, 'timer-'));
    const start = Date.now();
    expect(await synth(oldState(base, 'timed'), 'new')).toMatchObject({ status: 0 });
    const full = Date.now() - start;
    await inPool(Array.from({ length: EXHAUSTIVE ? 10 : 3 }, (_, i) => async () => {
      const parent = oldState(base, `timer-${i}`);
      const child = spawn(process.execPath, [appFile, path.join(parent, 'dist'), 'new'], { cwd: parent, stdio: ['ignore', 'pipe', 'pipe'] });
      const delay = Math.floor(Math.random() * full);
      setTimeout(() => child.kill('SIGKILL'), delay);
      const run = await finished(child);
      await checkAfterKill(parent, `killed by a timer after ${delay} ms (${run.signal ?? `ended with ${run.status}`})`);
    }));
  });
});

describe('other faults', () => {

  test('two synths of different versions at once: one writes, the other is refused in one line, and output and record agree', async () => {
    const base = fs.mkdtempSync(path.join(work, 'two-'));
    for (let i = 0; i < 4; i++) {
      const parent = oldState(base, `pair-${i}`);
      const [a, b] = await Promise.all([synth(parent, 'new'), synth(parent, i % 2 ? 'old' : 'new')]);
      for (const run of [a, b]) {
        if (run.status !== 0) {
          expect(run.stderr).toMatch(/^error: [^\n]*dist: received a synth while another one writes it \(process \d+ on [^)]*\)[^\n]*\n$/);
        }
      }
      expect(a.status === 0 || b.status === 0).toBe(true);
      expect(versionOf(parent)).toBeDefined();
      expect(fs.readdirSync(parent).sort()).toEqual([RECORD, 'cluster-tls', 'dist', NEIGHBOUR].sort());
    }
  });

  test('a lock left by a killed synth does not hold the next one', async () => {
    const parent = oldState(fs.mkdtempSync(path.join(work, 'stale-')), 'p');
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    fs.writeFileSync(path.join(parent, '.dist.cluster-tls-lock'), JSON.stringify({ pid: dead, host: os.hostname(), nonce: '1-0123456789ab', started: '2026-11-24T00:00:00Z', ...IDENTITY }));
    expect(await synth(parent, 'new')).toMatchObject({ status: 0, stderr: '' });
    expect(versionOf(parent)).toBe('new');
    expect(fs.readdirSync(parent).sort()).toEqual([RECORD, 'cluster-tls', 'dist', NEIGHBOUR].sort());
  });

  test('a symbolic link or a file where the output folder belongs: one line, nothing changed', async () => {
    const base = fs.mkdtempSync(path.join(work, 'link-'));
    const parent = oldState(base, 'p');
    fs.renameSync(path.join(parent, 'dist'), path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(parent, 'dist'));
    const before = snapshot(base);
    const linked = await synth(parent, 'new');
    expect(linked.status).toBe(1);
    expect(linked.stderr).toMatch(/^error: [^\n]*dist: received a symbolic link \(to [^)]*real\); expected a folder[^\n]*\n$/);
    expect(snapshot(base)).toEqual(before);
    fs.rmSync(path.join(parent, 'dist'));
    fs.writeFileSync(path.join(parent, 'dist'), 'a file');
    const file = await synth(parent, 'new');
    expect(file.status).toBe(1);
    expect(file.stderr).toMatch(/^error: [^\n]*dist: received a file that is not a folder[^\n]*\n$/);
    expect(fs.readFileSync(path.join(parent, 'dist'), 'utf8')).toBe('a file');
  });

  test('a lock whose process was killed but not yet reaped (a zombie) does not hold the next synth', async () => {
    const parent = oldState(fs.mkdtempSync(path.join(work, 'zombie-')), 'p');
    // The inner sleep ends and stays a zombie: its parent, exec'd into a sleep of its own, never reaps it.
    const holder = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 20'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => holder.stdout!.once('data', (d) => resolve(String(d).trim()))));
      await new Promise((r) => setTimeout(r, 500));
      expect(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
      fs.writeFileSync(path.join(parent, LOCK), JSON.stringify({ pid, host: os.hostname(), nonce: '5-0123456789ab', started: 'earlier', ...IDENTITY }));
      expect(await synth(parent, 'new')).toMatchObject({ status: 0, stderr: '' });
      expect(versionOf(parent)).toBe('new');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('a live synth holding the lock: the next is refused in one line naming it, and nothing changes', async () => {
    const parent = oldState(fs.mkdtempSync(path.join(work, 'held-')), 'p');
    const holder = spawn('sleep', ['60']);
    try {
      fs.writeFileSync(path.join(parent, LOCK), JSON.stringify({ pid: holder.pid, host: os.hostname(), nonce: '2-0123456789ab', started: '2026-11-24T00:00:00Z', ...IDENTITY }));
      const run = await synth(parent, 'new');
      expect(run.status).toBe(1);
      // The synth runs in the folder that holds the output, so the paths are relative to it.
      expect(run.stderr).toBe(`error: dist: received a synth while another one writes it (process ${holder.pid} on ${os.hostname()}, since 2026-11-24T00:00:00Z); `
        + `expected one synth at a time per output folder: run again when it ends; if no synth runs, delete ${LOCK}\n`);
      expect(versionOf(parent)).toBe('old');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('inputs that never end (a record, a Secret list, standard input from /dev/zero) are refused in one line, not read into memory', async () => {
    const parent = oldState(fs.mkdtempSync(path.join(work, 'endless-')), 'p');
    fs.rmSync(path.join(parent, RECORD));
    fs.symlinkSync('/dev/zero', path.join(parent, RECORD));
    const run = await synth(parent, 'new');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: [^\n]*cluster-tls\.lock\.json: the record of settings fixed at creation: received a device, not a regular file; [^\n]*\n$/);
    const cli = path.join(ROOT, 'build', 'bin', 'cluster-tls.js');
    const fromFile = spawnSync(process.execPath, [cli, 'verify', '--dist', path.join(ROOT, 'dist'), '--secrets', '/dev/zero'], { encoding: 'utf8' });
    expect(fromFile.status).not.toBe(0);
    expect(fromFile.stderr.split('\n')[0]).toMatch(/^error: --secrets: file: received "\/dev\/zero"; expected a list of Secrets \(and pods\) from kubectl of at most 256 MiB/);
    const fromStdin = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" verify --dist "${path.join(ROOT, 'dist')}" --secrets - < /dev/zero`], { encoding: 'utf8' });
    expect(fromStdin.status).not.toBe(0);
    expect(fromStdin.stderr.split('\n')[0]).toMatch(/^error: --secrets: standard input: received input larger than 256 MiB; expected a list of Secrets \(and pods\) from kubectl of at most 256 MiB/);
  });

  const mounting = canMount ? describe : describe.skip;
  if (!canMount) {
    // eslint-disable-next-line no-console
    console.log(`skipping the read-only and full file systems: cannot mount a tmpfs in a mount namespace here (unshare)${inCi ? '; under CI=true the test below fails instead' : ''}`);
    if (inCi) {
      test('a tmpfs can be mounted under CI', () => {
        throw new Error('CI=true but unshare --user --map-root-user --mount cannot mount a tmpfs: the read-only and full file-system tests cannot run');
      });
    }
  }

  /**
   * Runs, in a mount namespace, the old version's synth on a new tmpfs of `size`, then `fault`
   * (shell), the new version's synth, `repair` and the new version's synth again; returns both
   * runs and the folder's content after each.
   */
  function onSmallFileSystem(size: string, fault: (mnt: string) => string, repair: (mnt: string) => string) {
    const out = fs.mkdtempSync(path.join(work, 'mounted-'));
    const mnt = path.join(out, 'mnt');
    fs.mkdirSync(mnt);
    const node = (version: Version, tag: string) => `"${process.execPath}" "${appFile}" "${mnt}/p/dist" ${version} > "${out}/${tag}.out" 2> "${out}/${tag}.err"; echo $? > "${out}/${tag}.status"`;
    const script = [
      'set -u',
      `mount -t tmpfs -o size=${size} tmpfs "${mnt}" || exit 90`,
      `mkdir "${mnt}/p" && cd "${mnt}/p"`,
      node('old', 'first'),
      `cp -a "${mnt}/p" "${out}/before"`,
      fault(mnt),
      node('new', 'faulted'),
      `cp -a "${mnt}/p" "${out}/after-fault"`,
      repair(mnt),
      node('new', 'repaired'),
      `cp -a "${mnt}/p" "${out}/after-repair"`,
    ].join('\n');
    const result = spawnSync(unshare[0], [...unshare.slice(1), script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const read = (tag: string) => ({
      status: Number(fs.readFileSync(path.join(out, `${tag}.status`), 'utf8')),
      stderr: fs.readFileSync(path.join(out, `${tag}.err`), 'utf8'),
    });
    return { first: read('first'), faulted: read('faulted'), repaired: read('repaired'), out };
  }

  mounting('mounted file systems', () => {
    test('read-only: one line naming the path and what to do, the old output and record as they were', () => {
      const r = onSmallFileSystem('64m', (mnt) => `mount -o remount,ro "${mnt}"`, (mnt) => `mount -o remount,rw "${mnt}"`);
      expect(r.first.status).toBe(0);
      expect(r.faulted.status).toBe(1);
      expect(r.faulted.stderr).toMatch(/^error: [^\n]*: cannot [^\n]* \(EROFS\): the file system is read-only: synthesize into a writable folder[^\n]*; the previous output is as it was\n$/);
      expect(snapshot(path.join(r.out, 'after-fault'))).toEqual(snapshot(path.join(r.out, 'before')));
      expect(r.repaired.status).toBe(0);
      expect(fs.readdirSync(path.join(r.out, 'after-repair')).sort()).toEqual(['cluster-tls', RECORD, 'dist']);
    });

    test('a mount point as the output folder: refused in one line before anything is written, since the swap renames the folder', () => {
      const out = fs.mkdtempSync(path.join(work, 'mountpoint-'));
      const script = [
        `mkdir -p "${out}/p/dist" && mount -t tmpfs -o size=8m tmpfs "${out}/p/dist" || exit 90`,
        `cd "${out}/p" && "${process.execPath}" "${appFile}" "${out}/p/dist" old > "${out}/run.out" 2> "${out}/run.err"; echo $? > "${out}/run.status"`,
        `ls -A "${out}/p/dist" > "${out}/inside"; ls -A "${out}/p" > "${out}/beside"`,
      ].join('\n');
      expect(spawnSync(unshare[0], [...unshare.slice(1), script]).status).toBe(0);
      expect(fs.readFileSync(path.join(out, 'run.status'), 'utf8').trim()).toBe('1');
      expect(fs.readFileSync(path.join(out, 'run.err'), 'utf8')).toBe('error: dist: received a mount point as the output folder; expected a folder on the same file system as the folder that holds it, '
        + 'since the swap renames it: set the output folder (outdir, CDK8S_OUTDIR) to a folder inside the mounted one\n');
      expect(fs.readFileSync(path.join(out, 'inside'), 'utf8')).toBe('');
      expect(fs.readFileSync(path.join(out, 'beside'), 'utf8')).toBe('dist\n');
    });

    for (const room of [0, 64, 256]) {
      test(`full, with ${room} KiB left: one line, the old output and record as they were; the next synth with room succeeds and leaves nothing behind`, () => {
        const fill = (mnt: string) => `avail=$(df --output=avail -B1 "${mnt}" | tail -1); head -c $((avail - ${room * 1024})) /dev/zero > "${mnt}/filler" 2>/dev/null; true`;
        const r = onSmallFileSystem('16m', fill, (mnt) => `rm -f "${mnt}/filler"`);
        expect(r.first.status).toBe(0);
        expect(r.faulted.status).toBe(1);
        expect(r.faulted.stderr).toMatch(/^error: [^\n]*: cannot [^\n]* \((ENOSPC|EDQUOT)\): [^\n]*; the previous output is as it was\n$/);
        expect(snapshot(path.join(r.out, 'after-fault'))).toEqual(snapshot(path.join(r.out, 'before')));
        expect(r.repaired).toMatchObject({ status: 0, stderr: '' });
        expect(fs.readdirSync(path.join(r.out, 'after-repair')).sort()).toEqual(['cluster-tls', RECORD, 'dist']);
      });
    }
  });
});

/**
 * What a hostile tester found against the first version of the swap, each case as it was
 * reproduced: every one ended in lost or torn output, a stack trace, a hang or a message of several
 * lines before its fix.
 */
describe('a hostile tester\'s cases', () => {
  /** Kills the new version's synth just after its commit point: the journal written, nothing renamed. */
  const AFTER_COMMIT = { FAULT_KILL_ON: '^renameSync .*/dist -> ' };
  let base: string;
  beforeAll(() => {
    base = fs.mkdtempSync(path.join(work, 'hostile-'));
  });

  /** Runs `sh -c script` with a bound on its time, so that a hang fails the test instead of the suite. */
  function timed(script: string, cwd: string, env: Record<string, string> = {}) {
    return spawnSync('sh', ['-c', script], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  }
  const node = (version: Version) => `"${process.execPath}" "${appFile}" dist ${version}`;

  test('a project folder moved or copied after a kill is finished where it now is, the record with the output', async () => {
    const parent = oldState(base, 'moved');
    expect((await synth(parent, 'new', AFTER_COMMIT)).signal).toBe('SIGKILL');
    const copy = path.join(base, 'copied');
    fs.cpSync(parent, copy, { recursive: true, verbatimSymlinks: true });
    const moved = path.join(base, 'moved-away');
    fs.renameSync(parent, moved);
    expect(await synth(moved, 'new')).toMatchObject({ status: 0, stderr: '' });
    expect(versionOf(moved)).toBe('new');
    // The copy is finished on its own, and finishing it touches nothing of the moved folder.
    const before = snapshot(moved);
    recoverOutput(path.join(copy, 'dist'), path.join(copy, RECORD), path.join(copy, 'cluster-tls'));
    expect(versionOf(copy)).toBe('new');
    expect(snapshot(moved)).toEqual(before);
  });

  test('a staged output deleted by hand after a kill leaves the old output and the old record', async () => {
    const parent = oldState(base, 'staging-deleted');
    expect((await synth(parent, 'new', AFTER_COMMIT)).signal).toBe('SIGKILL');
    for (const entry of fs.readdirSync(parent).filter((e) => /^\.dist\.staging-\d+-[0-9a-f]{12}$/.test(e))) {
      fs.rmSync(path.join(parent, entry), { recursive: true });
    }
    recoverOutput(path.join(parent, 'dist'), path.join(parent, RECORD), path.join(parent, 'cluster-tls'));
    expect(versionOf(parent)).toBe('old');
  });

  test.each([
    ['as the old files folder is moved aside', '^renameSync .*/cluster-tls -> '],
    ['after the old files folder was moved aside, as the new one is renamed in', '^renameSync .*\\.files -> .*/cluster-tls$'],
  ])('a staged files folder deleted by hand after a kill %s gives the old output back too, with the old record', async (_when, killOn) => {
    const parent = oldState(base, `files-staging-deleted-${killOn.length}`);
    expect((await synth(parent, 'new', { FAULT_KILL_ON: killOn })).signal).toBe('SIGKILL');
    // The new manifests are in dist already.
    expect(fs.readFileSync(path.join(parent, 'dist', '.cluster-tls-output'), 'latin1')).toBe(expected('new').get('dist/.cluster-tls-output'));
    const staged = fs.readdirSync(parent).filter((e) => /^\.dist\.staging-\d+-[0-9a-f]{12}\.files$/.test(e));
    expect(staged).toHaveLength(1);
    fs.rmSync(path.join(parent, staged[0]), { recursive: true });
    recoverOutput(path.join(parent, 'dist'), path.join(parent, RECORD), path.join(parent, 'cluster-tls'));
    expect(versionOf(parent)).toBe('old');
    expect(await synth(parent, 'new')).toMatchObject({ status: 0, stderr: '' });
    expect(versionOf(parent)).toBe('new');
  });

  test('an output folder deleted after a kill (as the cdk8s CLI deletes its own output folder) is finished into a whole version all the same', async () => {
    for (const [name, killOn] of [['before', '^renameSync .*/dist -> '], ['after', '^renameSync .*/cluster-tls -> ']]) {
      const parent = oldState(base, `output-deleted-${name}`);
      expect((await synth(parent, 'new', { FAULT_KILL_ON: killOn })).signal).toBe('SIGKILL');
      fs.rmSync(path.join(parent, 'dist'), { recursive: true, force: true });
      recoverOutput(path.join(parent, 'dist'), path.join(parent, RECORD), path.join(parent, 'cluster-tls'));
      const now = state(parent);
      // Whole: every file of the folders the deletion left is of one version, with the record of that version.
      const version = [...versions].find(([, files]) => [...now].every(([f, c]) => files.get(f) === c))?.[0];
      expect({ name, version: version ?? 'mixed' }).toEqual({ name, version: expect.stringMatching(/^(old|new)$/) });
      expect(fs.readdirSync(parent).filter((e) => e.startsWith('.') && e !== LOCK && e !== FILES_LOCK)).toEqual([]);
      expect(await synth(parent, 'new')).toMatchObject({ status: 0, stderr: '' });
      expect(versionOf(parent)).toBe('new');
    }
  });

  test('a journal that is not one synth writes is refused in one line and nothing is moved', () => {
    for (const staged of ['file', 'folder']) {
      const parent = oldState(base, `journal-${staged}`);
      const name = '.dist.staging-1-0123456789ab';
      if (staged === 'file') {
        fs.writeFileSync(path.join(parent, name), 'not an output\n');
      } else {
        fs.mkdirSync(path.join(parent, name, 'notes'), { recursive: true });
      }
      fs.writeFileSync(path.join(parent, '.dist.cluster-tls-journal.json'), JSON.stringify({ staging: name, previous: `${name}.previous`, hadOutput: true }));
      const before = snapshot(parent);
      const run = timed(node('new'), parent);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('error: .dist.cluster-tls-journal.json: received a file that is not a journal synth writes; expected the journal of a killed synth, or none: '
        + 'delete it, then check that dist holds the output you expect\n');
      expect(snapshot(parent)).toEqual(before);
    }
    // A journal that never ends, or one far too large: the same line, not a stack trace.
    const parent = oldState(base, 'journal-endless');
    fs.symlinkSync('/dev/zero', path.join(parent, '.dist.cluster-tls-journal.json'));
    expect(timed(node('new'), parent).stderr).toMatch(/^error: \.dist\.cluster-tls-journal\.json: received a file that is not a journal synth writes; [^\n]*\n$/);
  });

  test('files beside the output that only look like a swap\'s own are kept', async () => {
    const parent = oldState(base, 'look-alikes');
    const keep = ['.dist.staging-notes.md', '.dist.staging-backup/old-ca-key.pem', '.cluster-tls.lock.json.staging-mine', '.dist.staging-1-0123456789ab.bak'];
    for (const f of keep) {
      fs.mkdirSync(path.dirname(path.join(parent, f)), { recursive: true });
      fs.writeFileSync(path.join(parent, f), 'keep\n');
    }
    expect(await synth(parent, 'new')).toMatchObject({ status: 0, stderr: '' });
    for (const f of keep) {
      expect(fs.readFileSync(path.join(parent, f), 'utf8')).toBe('keep\n');
    }
  });

  test('a marker that is not a synth\'s, or keys of any name or only recognised by content, keep the folder from being replaced', async () => {
    for (const marker of ['null', '{}', '{"writtenBy":"someone else","files":[]}']) {
      const parent = oldState(base, `marker-${marker.length}`);
      fs.writeFileSync(path.join(parent, 'dist', '.cluster-tls-output'), marker);
      fs.writeFileSync(path.join(parent, 'dist', 'important.txt'), 'data');
      fs.mkdirSync(path.join(parent, 'dist', 'empty-of-mine'));
      const run = await synth(parent, 'new');
      expect(run.stderr).toMatch(/^error: dist: received a folder no synth wrote \(it has no valid \.cluster-tls-output\) holding [^\n]*empty-of-mine\/[^\n]*important\.txt[^\n]*\n$/);
      expect(fs.readFileSync(path.join(parent, 'dist', 'important.txt'), 'utf8')).toBe('data');
    }
    const parent = oldState(base, 'keys');
    const keys = ['CA-KEY.PEM', 'ca-key.pem.bak', 'tls.der', 'client.p8', 'id_ed25519', 'keystore.jks', 'server.KEY', 'notes.txt'];
    for (const k of keys) {
      fs.writeFileSync(path.join(parent, 'dist', k), k === 'notes.txt' ? '-----BEGIN EC PRIVATE KEY-----\nMHc=\n-----END EC PRIVATE KEY-----\n' : 'secret');
    }
    const run = await synth(parent, 'new', { CLUSTER_TLS_TAKE_OVER: 'dist' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: dist: received keys or certificates that synth did not write \(CA-KEY\.PEM, ca-key\.pem\.bak, client\.p8, id_ed25519, keystore\.jks and 3 more\); [^\n]*\n$/);
    for (const k of keys) {
      expect(fs.existsSync(path.join(parent, 'dist', k))).toBe(true);
    }
  });

  test('a named pipe where synth or verify reads a file is one line, not a wait that never ends', () => {
    const places = [RECORD, '.dist.cluster-tls-journal.json', LOCK, 'dist/.cluster-tls-output', 'report.json'];
    for (const place of places) {
      const parent = oldState(base, `fifo-${places.indexOf(place)}`);
      fs.rmSync(path.join(parent, place), { force: true });
      expect(spawnSync('mkfifo', [path.join(parent, place)]).status).toBe(0);
      const run = timed(node('new'), parent, place === 'report.json' ? { CLUSTER_TLS_VERIFY_REPORT: 'report.json' } : {});
      expect(run.error).toBeUndefined();
      if (place === 'report.json') {
        // The report is read only when a phase moves on; with none, the synth just succeeds.
        expect(run.status).toBe(0);
      } else {
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(/^error: [^\n]*\n$/);
      }
    }
    const dist = path.join(base, 'fifo-verify');
    fs.mkdirSync(dist);
    expect(spawnSync('mkfifo', [path.join(dist, '.cluster-tls-output')]).status).toBe(0);
    const cli = path.join(ROOT, 'build', 'bin', 'cluster-tls.js');
    const verify = timed(`"${process.execPath}" "${cli}" verify --dist "${dist}" --secrets /dev/null`, base);
    expect(verify.error).toBeUndefined();
  });

  test('a lock that is not a synth\'s (a dangling link, a folder, pid 0, garbage) is one line naming it, and nothing in it is deleted', () => {
    const cases: [string, (lock: string) => void][] = [
      ['dangling link', (lock) => fs.symlinkSync('/nonexistent/lock', lock)],
      ['folder', (lock) => { fs.mkdirSync(lock); fs.writeFileSync(path.join(lock, 'mine.txt'), 'keep'); }],
      ['pid 0', (lock) => fs.writeFileSync(lock, JSON.stringify({ pid: 0, host: os.hostname(), nonce: '1-0123456789ab', started: 'x' }))],
      ['garbage', (lock) => fs.writeFileSync(lock, 'garbage')],
    ];
    for (const [what, make] of cases) {
      const parent = oldState(base, `lock-${what.replace(' ', '-')}`);
      make(path.join(parent, LOCK));
      const before = snapshot(parent);
      const run = timed(node('new'), parent);
      expect(run.stderr).toBe(`error: ${LOCK}: received a file that is not a lock synth writes; expected the lock of a synth, or none: if no synth runs, delete it and synthesize again\n`);
      expect(snapshot(parent)).toEqual(before);
    }
    expect(fs.readFileSync(path.join(base, 'lock-folder', LOCK, 'mine.txt'), 'utf8')).toBe('keep');
  });

  test('a name with a line break (a link target, a file in the output, a lock field) and a usage error of cluster-tls stay one line', () => {
    const parent = oldState(base, 'newlines');
    fs.writeFileSync(path.join(parent, 'dist', 'notes\nerror: all good.md'), 'x');
    expect(timed(node('new'), parent).stderr).toMatch(/^error: dist: received files the last synth did not write \("notes\\nerror: all good\.md"\); [^\n]*\n$/);
    const linked = oldState(base, 'newline-link');
    fs.renameSync(path.join(linked, 'dist'), path.join(linked, 'real\nerror: fake success'));
    fs.symlinkSync('real\nerror: fake success', path.join(linked, 'dist'));
    expect(timed(node('new'), linked).stderr).toMatch(/^error: dist: received a symbolic link \(to "[^\n]*real\\nerror: fake success"\); [^\n]*\n$/);
    const held = oldState(base, 'newline-lock');
    const holder = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(held, LOCK), JSON.stringify({ pid: holder.pid, host: os.hostname(), nonce: '1-0123456789ab', started: 'y\nINJECTED', ...IDENTITY }));
      expect(timed(node('new'), held).stderr).toMatch(/^error: [^\n]*since "y\\nINJECTED"[^\n]*\n$/);
    } finally {
      holder.kill('SIGKILL');
    }
    const cli = path.join(ROOT, 'build', 'bin', 'cluster-tls.js');
    const usage = spawnSync(process.execPath, [cli, 'verify', '--bogus\nline2'], { encoding: 'utf8' });
    expect(usage.stderr).toMatch(/^error: "--bogus\\nline2": received an option the command does not take; [^\n]*; run cluster-tls --help for usage\n$/);
  });

  test('an output folder name too long for the swap\'s names beside it is refused before anything is written', () => {
    const parent = fs.mkdtempSync(path.join(base, 'long-'));
    const name = 'd'.repeat(230);
    const run = spawnSync(process.execPath, [appFile, name, 'old'], { cwd: parent, encoding: 'utf8' });
    expect(run.stderr).toBe(`error: ${name}: received an output folder name of 230 bytes; expected at most 200, since the swap's files beside it add their suffixes to it: `
      + 'set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own, such as dist\n');
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  const isWithinTmp = (dir: string) => !path.relative(os.tmpdir(), dir).startsWith('..');
  const asNobody = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;
  (asNobody ? test : test.skip)('an output folder its owner made read-only is replaced whole, and the synth says so', () => {
    const parent = oldState(base, 'read-only');
    spawnSync('chown', ['-R', '65534:65534', parent]);
    // The user reaches the app and the folder through the test's private temporary folders.
    for (let dir = base; isWithinTmp(dir); dir = path.dirname(dir)) {
      fs.chmodSync(dir, 0o755);
    }
    const asUser = (script: string) => spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', '-c', script], { cwd: parent, encoding: 'utf8' });
    expect(asUser('chmod -R a-w dist').status).toBe(0);
    const run = asUser(node('new'));
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(versionOf(parent)).toBe('new');
    expect(fs.readdirSync(parent).sort()).toEqual([RECORD, 'cluster-tls', 'dist', NEIGHBOUR].sort());
  });

  test('what was put in the output folder after a kill is checked before the journal moves the folder aside', async () => {
    const parent = oldState(base, 'added-after-kill');
    expect((await synth(parent, 'new', AFTER_COMMIT)).signal).toBe('SIGKILL');
    fs.writeFileSync(path.join(parent, 'dist', 'ca-key.pem'), '-----BEGIN EC PRIVATE KEY-----\n');
    fs.writeFileSync(path.join(parent, 'dist', 'notes.md'), 'mine');
    const run = timed(node('new'), parent);
    expect(run.stderr).toMatch(/^error: dist: received keys or certificates that synth did not write \(ca-key\.pem\); [^\n]*\n$/);
    fs.rmSync(path.join(parent, 'dist', 'ca-key.pem'));
    expect(timed(node('new'), parent).stderr).toMatch(/^error: dist: received files the last synth did not write \(notes\.md\); [^\n]*\n$/);
    expect(fs.readFileSync(path.join(parent, 'dist', 'notes.md'), 'utf8')).toBe('mine');
    // A file in the output folder's place is refused too, not moved aside and deleted.
    const replaced = oldState(base, 'replaced-after-kill');
    expect((await synth(replaced, 'new', AFTER_COMMIT)).signal).toBe('SIGKILL');
    fs.rmSync(path.join(replaced, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(replaced, 'dist'), 'mine');
    expect(timed(node('new'), replaced).stderr).toMatch(/^error: dist: received a file that is not a folder; [^\n]*\n$/);
    expect(fs.readFileSync(path.join(replaced, 'dist'), 'utf8')).toBe('mine');
  });

  test('a synth whose lock another one took while it wrote commits nothing and says so', async () => {
    const parent = oldState(base, 'stolen');
    const flag = path.join(base, 'stolen.paused');
    const running = synth(parent, 'new', { FAULT_PAUSE_ON: 'staging-[^/ ]*\\.record$', FAULT_PAUSE_MS: '4000', FAULT_PAUSE_FLAG: flag });
    while (!fs.existsSync(flag)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // Another synth took the lock for stale: its own lock is in place now.
    fs.writeFileSync(path.join(parent, LOCK), JSON.stringify({ pid: process.pid, host: os.hostname(), nonce: '3-0123456789ab', started: 'now' }));
    const run = await running;
    expect(run.stderr).toBe('error: dist: received a synth whose lock another synth took while it wrote; expected one synth at a time per output folder: '
      + 'nothing was changed by this one; run again when no other synth runs\n');
    fs.rmSync(path.join(parent, LOCK));
    recoverOutput(path.join(parent, 'dist'), path.join(parent, RECORD), path.join(parent, 'cluster-tls'));
    expect(versionOf(parent)).toBe('old');
  });

  test('a record outside the project folder, which moved after a kill: the record this run is given is the one finished', async () => {
    const root = fs.mkdtempSync(path.join(base, 'outside-'));
    fs.mkdirSync(path.join(root, 'state'));
    const record = path.join(root, 'state', 'rec.json');
    const project = path.join(root, 'proj');
    fs.mkdirSync(project);
    expect(await synth(project, 'old', { RECORD: record })).toMatchObject({ status: 0 });
    const oldRecord = fs.readFileSync(record, 'utf8');
    expect((await synth(project, 'new', { RECORD: record, ...AFTER_COMMIT })).signal).toBe('SIGKILL');
    fs.mkdirSync(path.join(root, 'moved', 'deeper'), { recursive: true });
    const moved = path.join(root, 'moved', 'deeper', 'proj');
    fs.renameSync(project, moved);
    recoverOutput(path.join(moved, 'dist'), record, path.join(moved, 'cluster-tls'));
    const newRecord = fs.readFileSync(record, 'utf8');
    expect(newRecord).not.toBe(oldRecord);
    expect(JSON.parse(newRecord).clusters).toEqual(JSON.parse(expected('new').get(RECORD)!).clusters);
    expect(fs.readFileSync(path.join(moved, 'dist', '.cluster-tls-output'), 'latin1')).toBe(expected('new').get('dist/.cluster-tls-output'));
  });

  test('a lock of another host is held while young and taken over once older than any synth runs', async () => {
    const parent = oldState(base, 'other-host');
    const lock = path.join(parent, LOCK);
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, host: 'ci-runner-elsewhere', nonce: '4-0123456789ab', started: 'earlier' }));
    expect(timed(node('new'), parent).stderr).toMatch(/^error: dist: received a synth while another one writes it \(process 1 on ci-runner-elsewhere, since earlier\); /);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, hourAgo, hourAgo);
    expect(timed(node('new'), parent)).toMatchObject({ status: 0, stderr: '' });
    expect(versionOf(parent)).toBe('new');
  });

  test('a working folder deleted under the synth, and a YAML alias bomb given to verify: one line each', () => {
    const gone = fs.mkdtempSync(path.join(base, 'gone-'));
    const parent = oldState(base, 'cwd-gone');
    const run = timed(`cd "${gone}" && rmdir "${gone}" && "${process.execPath}" "${appFile}" "${path.join(parent, 'dist')}" new`, base);
    expect(run.stderr).toBe('error: the working folder: received a folder that no longer exists; expected the folder the synth runs in: change to an existing folder and synthesize again\n');
    const dist = path.join(fs.mkdtempSync(path.join(base, 'bomb-')), 'dist');
    fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
    fs.cpSync(path.join(ROOT, 'cluster-tls'), path.join(path.dirname(dist), 'cluster-tls'), { recursive: true });
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++) {
      lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${new Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`);
    }
    fs.writeFileSync(path.join(dist, 'bomb.k8s.yaml'), `${lines.join('\n')}\n`);
    const cli = path.join(ROOT, 'build', 'bin', 'cluster-tls.js');
    const verify = timed(`"${process.execPath}" "${cli}" verify --dist "${dist}" --secrets /dev/null`, base);
    expect(verify.stderr).toMatch(/^error: bomb\.k8s\.yaml: content: received "YAML that does not parse"; expected valid YAML; the parser said: [^\n]*\n$/);
  });
});

