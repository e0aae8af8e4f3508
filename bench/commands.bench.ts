/**
 * The everyday command, timed: `npm run synth` against `node scripts/synth.js`, the compiled app
 * alone and an empty Node.js, with nothing changed; then `node scripts/synth.js` after an edit
 * under `lib/` and after a type error (with its exit code).
 *
 * It runs in a scratch copy of the project (sources, scripts, the last build, `node_modules`
 * linked), so that it never writes the project's own `dist/`. Every run writes over the output of
 * the run before it, as `npm run synth` writes over `dist/`. The commands alternate, round after
 * round, so that a change in the machine's load affects them all; the figures are the median and
 * the 10th-90th percentile of each.
 *
 * Usage: node scripts/synth.js build/bench/commands.bench.js [--rounds 15] [--edits 3]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine, median } from './report';

const ROOT = path.resolve(__dirname, '..', '..');
/** What the copy needs to build and run the app, besides `node_modules`. */
const COPIED = ['lib', 'imports', 'bench', 'bin', 'scripts', 'main.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'cdk8s.yaml', 'build'];

/** One command of the table. */
interface Command {
  readonly label: string;
  readonly argv: readonly string[];
}

const NOTHING_CHANGED: readonly Command[] = [
  { label: '`node scripts/synth.js`, nothing changed (the app command)', argv: [process.execPath, 'scripts/synth.js'] },
  { label: '`npm run synth`, nothing changed (the same, plus npm\'s own start-up)', argv: ['npm', 'run', '--silent', 'synth'] },
  { label: '`node build/main.js` alone, no type check', argv: [process.execPath, 'build/main.js'] },
  { label: '`node -e 0`, an empty Node.js', argv: [process.execPath, '-e', '0'] },
];

/** Runs a command in `dir`; its time in milliseconds and exit code. */
function time(dir: string, argv: readonly string[]): { ms: number; status: number | null; output: string } {
  const start = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { cwd: dir, encoding: 'utf8' });
  return { ms: performance.now() - start, status: result.status, output: result.stdout + result.stderr };
}

/** The 10th and 90th percentiles and the median, rounded, as BENCHMARK.md's tables show them. */
function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `| ${Math.round(median(values))} ms | ${Math.round(at(0.1))}-${Math.round(at(0.9))} ms |`;
}

/** A scratch copy of the project, built and synthesized once, so that later runs write over it. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-commands-'));
  for (const entry of COPIED) {
    if (fs.existsSync(path.join(ROOT, entry))) {
      fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true, preserveTimestamps: true });
    }
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const first = time(dir, [process.execPath, 'scripts/synth.js']);
  if (first.status !== 0) {
    throw new Error(`the first synth in the copy failed (exit ${first.status}):\n${first.output}`);
  }
  return dir;
}

/** Appends a line to a module under `lib/` of the copy (`model/names.ts`, which most modules import). */
function editLib(dir: string, line: string): void {
  fs.appendFileSync(path.join(dir, 'lib', 'spec', 'names.ts'), `${line}\n`);
}

function main(argv: readonly string[]): void {
  const option = (name: string, fallback: number) => Number(argv[argv.indexOf(name) + 1] ?? fallback) || fallback;
  const rounds = argv.includes('--rounds') ? option('--rounds', 15) : 15;
  const edits = argv.includes('--edits') ? option('--edits', 3) : 3;
  const dir = scratchCopy();
  try {
    console.log(`Machine: ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}; ${rounds} rounds.\n`);
    const times = NOTHING_CHANGED.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      NOTHING_CHANGED.forEach((c, i) => times[i].push(time(dir, c.argv).ms));
    }
    console.log('| Command | Median | p10-p90 |\n|---|---:|---:|');
    NOTHING_CHANGED.forEach((c, i) => console.log(`| ${c.label} ${spread(times[i])}`));

    // A comment leaves the module's declarations as they were; a new export changes them, so tsc
    // checks the modules that import it again.
    for (const [kind, line] of [['a comment', (i: number) => `// bench edit ${i}`], ['a new export', (i: number) => `export const benchEdit${i} = ${i};`]] as const) {
      const edited: number[] = [];
      for (let i = 0; i < edits; i++) {
        editLib(dir, line(i));
        edited.push(time(dir, [process.execPath, 'scripts/synth.js']).ms);
      }
      console.log(`| \`node scripts/synth.js\` after an edit under \`lib/\` (${kind}: tsc -b, then the app), ${edits} edits ${spread(edited)}`);
    }
    editLib(dir, 'export const typeError: number = \'not a number\';');
    const failed = time(dir, [process.execPath, 'scripts/synth.js']);
    console.log(`\nA type error: exit code ${failed.status}, after ${Math.round(failed.ms)} ms; tsc said: ${failed.output.split('\n').find((l) => l.includes('error TS')) ?? '(nothing)'}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2));
