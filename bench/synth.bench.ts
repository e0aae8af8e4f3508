/**
 * `npm run bench`: synthesizes N complete deployments with the library and writes the same files
 * directly with the `yaml` package (the floor), for several N, on disk and on tmpfs, and prints
 * time, throughput, peak memory, the ratio library/floor, how the cost per deployment scales, and
 * the targets of issues 20 and 61.
 *
 * Every measurement runs in a fresh Node.js process, so that peak RSS is the peak of that run
 * alone; the library and the floor alternate, so that a change in the machine's load affects both.
 * The time measured is the whole command as a user waits for it: from the process's start (Node.js
 * start-up and module loading included, also shown apart as `startup`) to the last file written.
 *
 * Each run writes over the output of the run before it, as `npm run synth` writes over `dist/`:
 * an untimed first run of each mode and N makes that output (and its record of fixed settings),
 * and the timed repetitions replace it. After each run the file system is flushed (`sync`), so
 * that no run pays for writing back the files of the one before.
 *
 * Usage: npm run bench [-- --sizes 10,100,1000,3000] [--reps 5] [--reps-large 3] [--storage disk,tmpfs] [--stock]
 * `--reps-large` is the number of repetitions from N=3000 on. `--storage` chooses where the output
 * goes: `disk` is the system's temporary folder, `tmpfs` is `/dev/shm` (left out where it does
 * not exist). `--stock` adds stock cdk8s `App.synth()` for N <= 1000: construct building and the
 * manifests only, no other files.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RenderedFile } from '../lib/synth/synthesize';
import { LARGE, Mode, REFERENCE, Row, Run, fixed, machine, report, summarize, targets, thousands } from './report';

/** Where the output goes: the system's temporary folder, or memory. */
type Storage = 'disk' | 'tmpfs';

/** The folder each storage's outputs are made in. */
const STORAGE_ROOT: Record<Storage, () => string> = { disk: () => os.tmpdir(), tmpfs: () => '/dev/shm' };

/** Options of the command line. */
interface Options {
  readonly sizes: number[];
  readonly reps: number;
  readonly repsLarge: number;
  readonly stock: boolean;
  readonly storages: Storage[];
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (value('--sizes') ?? '10,100,1000,3000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--sizes: expected positive whole numbers separated by commas, received ${value('--sizes')}`);
  }
  const count = (name: string, fallback: number) => {
    const n = Number(value(name) ?? fallback);
    if (!Number.isInteger(n) || n < 1) {
      throw new Error(`${name}: expected a positive whole number, received ${value(name)}`);
    }
    return n;
  };
  const storages = (value('--storage') ?? 'disk,tmpfs').split(',') as Storage[];
  if (storages.some((st) => !(st in STORAGE_ROOT))) {
    throw new Error(`--storage: expected disk, tmpfs or both separated by commas, received ${value('--storage')}`);
  }
  return {
    sizes, reps: count('--reps', 5), repsLarge: count('--reps-large', 3), stock: argv.includes('--stock'),
    storages: storages.filter((st) => st !== 'tmpfs' || fs.existsSync(STORAGE_ROOT.tmpfs())),
  };
}

// ---------------------------------------------------------------- child processes

/** A file of an output folder, as written. */
interface WrittenFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  readonly executable: boolean;
  readonly content: Buffer;
}

/** The files of an output folder, as written, but those in `leaveOut`. */
function writtenFiles(outdir: string, leaveOut: ReadonlySet<string>): WrittenFile[] {
  return fs.readdirSync(outdir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((full) => ({ full, rel: path.relative(outdir, full).split(path.sep).join('/') }))
    .filter(({ rel }) => !leaveOut.has(rel))
    .map(({ full, rel }) => ({ path: rel, executable: (fs.statSync(full).mode & 0o100) !== 0, content: fs.readFileSync(full) }));
}

/** Digest of a set of files, independent of the order they were produced in. */
function digest(files: readonly WrittenFile[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${f.path}\0${f.executable ? 'x' : '-'}\0`);
    hash.update(f.content);
    hash.update('\0');
  }
  return hash.digest('hex');
}

async function child(mode: Mode, n: number, outdir: string, templateFile: string, withDigest: boolean): Promise<Run> {
  let written: number;
  let objects: number;
  let start: number;
  let part: number;
  let end: number;
  if (mode === 'floor') {
    const { compileTemplate, writeFloor } = await import('./floor');
    const template = JSON.parse(fs.readFileSync(templateFile, 'utf8'));
    start = performance.now();
    const tenant = compileTemplate(template);
    const files: RenderedFile[] = [];
    for (let i = 0; i < n; i++) {
      files.push(...tenant(`tenant-${i}`));
    }
    part = performance.now();
    writeFloor(outdir, files);
    end = performance.now();
    written = files.length;
    part = end - part;
    objects = template.files.reduce((sum: number, f: { docs?: unknown[] }) => sum + (f.docs?.length ?? 0), 0) * n;
  } else if (mode === 'library') {
    const { buildDeployments } = await import('./deployment');
    const { synthesize } = await import('../lib/synth/synthesize');
    const { OUTPUT_MARKER_FILE } = await import('../lib/model/output-layout');
    start = performance.now();
    const app = buildDeployments(n, outdir);
    part = performance.now() - start;
    const result = synthesize(app, { outdir, acknowledgeRecreation: [] });
    end = performance.now();
    written = [...result.files, ...result.otherFiles].filter((f) => f !== OUTPUT_MARKER_FILE).length;
    objects = result.objects;
  } else {
    const { buildDeployments } = await import('./deployment');
    start = performance.now();
    const app = buildDeployments(n, outdir, {}, true);
    part = performance.now() - start;
    app.synth();
    end = performance.now();
    const { ApiObject } = await import('cdk8s');
    written = fs.readdirSync(outdir).length;
    objects = app.node.findAll().filter((c) => c instanceof ApiObject).length;
  }
  const maxRssKb = process.resourceUsage().maxRSS;
  // Read back after the timed work: the library's marker of a synthesized folder is left out, as
  // the floor, made from renderApp(), does not write it.
  const { OUTPUT_MARKER_FILE: marker, filesFolderOf } = await import('../lib/model/output-layout');
  // The library writes the manifests and the other files to two folders, the floor to one: the
  // digest reads both of the library's, each file by its path in its folder (the paths never meet).
  const files = () => [...writtenFiles(outdir, new Set([marker])), ...(mode === 'library' ? writtenFiles(filesFolderOf(outdir), new Set([marker])) : [])];
  return {
    mode,
    n,
    // performance.now() counts from the process's start: the time includes Node.js and module loading.
    ms: end,
    partMs: part,
    startupMs: start,
    maxRssKb,
    objects,
    files: written,
    digest: withDigest && mode !== 'stock' ? digest(files()) : undefined,
  };
}

/** Runs one measurement in a fresh process, writing over `outdir`, then flushes the file system. */
function measure(mode: Mode, n: number, outdir: string, templateFile: string, withDigest: boolean): Run {
  try {
    const result = spawnSync(process.execPath, [__filename, '--child', mode, String(n), outdir, templateFile, String(withDigest)], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (result.status !== 0) {
      throw new Error(`the ${mode} run of N=${n} failed (exit ${result.status}):\n${result.stderr}`);
    }
    return JSON.parse(result.stdout.trim().split('\n').pop()!);
  } finally {
    spawnSync('sync');
  }
}

/**
 * The medians of one N on one storage: an untimed first run per mode makes the output folder (and
 * gives the digest), then the timed repetitions write over it, the modes alternating.
 */
function measureSize(n: number, storage: Storage, options: Options, templateFile: string): Row {
  const base = fs.mkdtempSync(path.join(STORAGE_ROOT[storage](), 'cluster-tls-bench-'));
  const outdir = (mode: Mode) => path.join(base, mode, 'dist');
  try {
    const digests = new Map((['library', 'floor'] as Mode[]).map((mode) => [mode, measure(mode, n, outdir(mode), templateFile, true)]));
    const reps = n >= LARGE ? options.repsLarge : options.reps;
    const runs: Run[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const order: Mode[] = rep % 2 === 0 ? ['library', 'floor'] : ['floor', 'library'];
      for (const mode of order) {
        runs.push(measure(mode, n, outdir(mode), templateFile, false));
      }
      if (options.stock && n <= REFERENCE) {
        runs.push(measure('stock', n, outdir('stock'), templateFile, false));
      }
    }
    const first = (mode: Mode) => digests.get(mode)!;
    return {
      n,
      objects: first('library').objects,
      files: first('library').files,
      library: summarize(runs, 'library'),
      floor: summarize(runs, 'floor'),
      stockMs: runs.some((r) => r.mode === 'stock') ? summarize(runs, 'stock').ms : undefined,
      identical: first('library').digest === first('floor').digest && first('library').objects === first('floor').objects,
    };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- main

async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === '--child') {
    const [, mode, n, outdir, templateFile, withDigest] = argv;
    const run = await child(mode as Mode, Number(n), outdir, templateFile, withDigest === 'true');
    process.stdout.write(`${JSON.stringify(run)}\n`);
    return;
  }
  const options = parseOptions(argv);
  const { makeTemplate } = await import('./floor');
  const { LONG_TENANT, buildTenant, tenantNamespace } = await import('./deployment');
  const { renderApp } = await import('../lib/synth/synthesize');
  const sample = (i: number) => ({ rendered: renderApp(buildTenant(i)), namespace: tenantNamespace(i) });
  const templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-bench-template-'));
  const templateFile = path.join(templateDir, 'template.json');
  fs.writeFileSync(templateFile, JSON.stringify(makeTemplate([sample(0), sample(LONG_TENANT)])));

  console.log(`Machine: ${machine()}`);
  console.log(`Load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const large = options.sizes.some((n) => n >= LARGE) ? ` (${options.repsLarge} from N=${LARGE})` : '';
  console.log(`Sizes ${options.sizes.join(', ')}; ${options.reps} repetitions${large}, median of each; `
    + `storage: ${options.storages.map((st) => `${st} (${STORAGE_ROOT[st]()})`).join(', ')}.\n`);
  const tables: { storage: Storage; rows: Row[] }[] = [];
  try {
    for (const storage of options.storages) {
      const rows: Row[] = [];
      for (const n of options.sizes) {
        const row = measureSize(n, storage, options, templateFile);
        rows.push(row);
        console.log(`${storage} N=${n}: library ${thousands(row.library.ms)} ms, floor ${thousands(row.floor.ms)} ms, ratio ${fixed(row.library.ms / row.floor.ms, 2)}`);
      }
      tables.push({ storage, rows });
    }
  } finally {
    fs.rmSync(templateDir, { recursive: true, force: true });
  }
  for (const { storage, rows } of tables) {
    console.log(`\n## ${storage === 'tmpfs' ? 'tmpfs (/dev/shm): the files written to memory' : `disk (${os.tmpdir()})`}\n\n${report(rows, options.stock)}`);
  }
  // The targets hold on tmpfs, where writing files costs least and the library's own work shows most.
  const judged = tables.find((t) => t.storage === 'tmpfs') ?? tables[0];
  if (judged) {
    console.log(`\nTargets of issues 20 and 61, on ${judged.storage}:\n${targets(judged.rows).map((l) => `- ${l}`).join('\n')}`);
  }
  console.log(`\nLoad average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exitCode = 1;
});
