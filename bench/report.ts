/**
 * The report of `npm run bench`: medians of the runs, the tables, the linearity line and the
 * targets of issues 20 and 61 with their margins.
 */
import * as os from 'node:os';

/** What a run measures: the library, the floor, or stock cdk8s `App.synth()`. */
export type Mode = 'library' | 'floor' | 'stock';

/** What one measured run reports. */
export interface Run {
  readonly mode: Mode;
  readonly n: number;
  /** From the process's start to the last file written (start-up, build, render and write), in milliseconds. */
  readonly ms: number;
  /**
   * Part of `ms`: for the library, building the constructs (the rest is `synthesize()`); for the
   * floor, writing the files (the rest is making the objects and serializing them).
   */
  readonly partMs: number;
  /** Part of `ms`: from the process's start to the beginning of the work, Node.js start and module loading. */
  readonly startupMs: number;
  /** Peak resident set size of the process, in kilobytes. */
  readonly maxRssKb: number;
  readonly objects: number;
  readonly files: number;
  /** SHA-256 over every file's path and content, in path order (first repetition only). */
  readonly digest?: string;
}

/**
 * The targets of issues 20 and 61, on tmpfs: the library at most 0.9x the floor's time, the cost
 * per deployment at N=3000 at most 10% above N=1000's (issue 20 allowed 15%), peak RSS at most 3x
 * the floor's.
 */
export const TARGETS = { ratio: 0.9, linearity: 0.1, rss: 3 } as const;
/** The largest N of the targets, compared with {@link REFERENCE}. */
export const LARGE = 3000;
/** The N the cost per deployment at {@link LARGE} is compared with. */
export const REFERENCE = 1000;

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Medians of one mode's runs. */
export interface Summary {
  readonly ms: number;
  readonly partMs: number;
  readonly startupMs: number;
  readonly rssMb: number;
}

/** The medians of one N. */
export interface Row {
  readonly n: number;
  readonly objects: number;
  readonly files: number;
  readonly library: Summary;
  readonly floor: Summary;
  readonly stockMs?: number;
  readonly identical: boolean;
}

/** The medians of one mode's runs. */
export function summarize(runs: readonly Run[], mode: Mode) {
  return {
    ms: median(runs.filter((r) => r.mode === mode).map((r) => r.ms)),
    partMs: median(runs.filter((r) => r.mode === mode).map((r) => r.partMs)),
    startupMs: median(runs.filter((r) => r.mode === mode).map((r) => r.startupMs)),
    rssMb: median(runs.filter((r) => r.mode === mode).map((r) => r.maxRssKb)) / 1024,
  };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 2)}|` : `${'-'.repeat(w + 1)}:|`)).join('')}`, ...rows.map(line)].join('\n');
}

export const fixed = (x: number, digits = 0) => x.toFixed(digits);
export const thousands = (x: number) => Math.round(x).toLocaleString('en-US');
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

/** The machine the benchmark runs on. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node.js ${process.version}, ${os.platform()} ${os.release()}`;
}

function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS';
}

/** The tables and the linearity line, as Markdown. */
export function report(rows: readonly Row[], withStock: boolean): string {
  const out: string[] = [];
  out.push(table(
    ['N', 'objects', 'files', 'library ms', 'floor ms', 'ratio', 'library obj/s', 'floor obj/s', 'library RSS MB', 'floor RSS MB', 'RSS ratio', ...(withStock ? ['stock synth ms'] : [])],
    rows.map((r) => [
      String(r.n), thousands(r.objects), thousands(r.files),
      thousands(r.library.ms), thousands(r.floor.ms), fixed(r.library.ms / r.floor.ms, 2),
      thousands(r.objects / (r.library.ms / 1000)), thousands(r.objects / (r.floor.ms / 1000)),
      fixed(r.library.rssMb), fixed(r.floor.rssMb), fixed(r.library.rssMb / r.floor.rssMb, 2),
      ...(withStock ? [r.stockMs === undefined ? '-' : thousands(r.stockMs)] : []),
    ]),
  ));
  out.push('', 'Where the time goes (medians, ms; the ratio without writes takes the floor\'s write time off both sides):', '');
  out.push(table(
    ['N', 'library: start-up', 'library: constructs', 'library: synthesize()', 'floor: start-up', 'floor: objects + yaml', 'floor: write files', 'ratio without writes'],
    rows.map((r) => [
      String(r.n), thousands(r.library.startupMs), thousands(r.library.partMs), thousands(r.library.ms - r.library.startupMs - r.library.partMs),
      thousands(r.floor.startupMs), thousands(r.floor.ms - r.floor.startupMs - r.floor.partMs), thousands(r.floor.partMs),
      fixed((r.library.ms - r.floor.partMs) / (r.floor.ms - r.floor.partMs), 2),
    ]),
  ));
  out.push('', `Identical output (same paths and bytes as the floor): ${rows.every((r) => r.identical) ? 'yes' : `NO for N=${rows.filter((r) => !r.identical).map((r) => r.n).join(', ')} `
    + '(was build/ rebuilt from changed sources while the benchmark ran?)'}.`);
  const growth = linearity(rows);
  if (growth) {
    out.push(`Linearity: cost per deployment at N=${LARGE} is ${fixed(growth.perLarge, 2)} ms against ${fixed(growth.perRef, 2)} ms at N=${REFERENCE} `
      + `(${signed(growth.library * 100)}%); within ${TARGETS.linearity * 100}%: ${growth.library <= TARGETS.linearity ? 'yes' : 'no'}. (The floor: ${signed(growth.floor * 100)}%.)`);
  }
  return out.join('\n');
}

/** How the cost per deployment grows from N=1000 to N=3000, for the library and the floor; `undefined` without both rows. */
function linearity(rows: readonly Row[]) {
  const reference = rows.find((r) => r.n === REFERENCE);
  const large = rows.find((r) => r.n === LARGE);
  if (!reference || !large) {
    return undefined;
  }
  const perRef = reference.library.ms / reference.n;
  const perLarge = large.library.ms / large.n;
  return { perRef, perLarge, library: perLarge / perRef - 1, floor: (large.floor.ms / large.n) / (reference.floor.ms / reference.n) - 1 };
}

/** The targets, one line each with its verdict and margin. */
export function targets(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  const growth = linearity(rows);
  if (growth) {
    lines.push(`cost per deployment at N=${LARGE} at most ${TARGETS.linearity * 100}% above N=${REFERENCE}'s: ${verdict(growth.library <= TARGETS.linearity)} `
      + `(${signed(growth.library * 100)}%, margin ${fixed((TARGETS.linearity - growth.library) * 100, 1)} points)`);
  }
  for (const row of rows.filter((r) => r.n === REFERENCE || r.n === LARGE)) {
    const ratio = row.library.ms / row.floor.ms;
    lines.push(`ratio to the floor at N=${row.n} <= ${TARGETS.ratio}: ${verdict(ratio <= TARGETS.ratio)} (${fixed(ratio, 2)}; `
      + `${ratio <= TARGETS.ratio ? `${fixed((1 - ratio / TARGETS.ratio) * 100, 0)}% under the target` : `over by ${fixed(ratio - TARGETS.ratio, 2)}, the library needs to be ${fixed((1 - TARGETS.ratio / ratio) * 100, 0)}% faster`})`);
  }
  const large = rows.find((r) => r.n === LARGE);
  if (large) {
    const rss = large.library.rssMb / large.floor.rssMb;
    lines.push(`peak RSS at N=${LARGE} <= ${TARGETS.rss}x the floor's: ${verdict(rss <= TARGETS.rss)} (${fixed(rss, 2)}x: ${fixed(large.library.rssMb)} MB against ${fixed(large.floor.rssMb)} MB)`);
  }
  if (!rows.some((r) => r.n === REFERENCE) || !large) {
    lines.push(`not all judged: the targets need N=${REFERENCE} and N=${LARGE} among --sizes`);
  }
  return lines;
}
