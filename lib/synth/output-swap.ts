/**
 * Replacing an output folder and its record together, so that no failure and no kill loses
 * either: one synth at a time per folder (a lock file), the new output written in full beside
 * the old, then a write-ahead journal, the commit point, which the renames follow. A synth killed
 * before the journal leaves the old output and record; one killed after it leaves a journal that
 * the next run completes. Every run first finishes or cleans what a killed one left.
 *
 * Beside the output folder `<parent>/<name>`, the swap uses:
 *
 * ```
 * .<name>.cluster-tls-lock            the lock: pid, host and a nonce of the synth writing the folder
 * .<name>.cluster-tls-journal.json    the commit point: what to rename where
 * .<name>.staging-<nonce>             the new output, written in full before the journal
 * .<name>.staging-<nonce>.previous    the old output, between its rename and its deletion
 * .<record>.staging-<nonce>           the new record, beside the record, until it is renamed over it
 * ```
 *
 * A folder cannot be replaced by one rename(2) of a non-empty folder, so between the two renames
 * of the swap (microseconds) nothing is at the output path; the journal written before them names
 * the new output, and a run that finds it finishes the swap. Deletion never follows a symbolic
 * link.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { READ_LIMITS, readBounded } from '../spec/bounded-read';
import { ClusterTlsError } from '../spec/errors';
import { displayPath } from './guards';
import { machineError } from './machine-errors';

/** Environment variable naming output folders synth may take over although they hold files it did not write. */
export const TAKE_OVER_ENV = 'CLUSTER_TLS_TAKE_OVER';

/** How long a lock file may stay empty or unreadable before it counts as left by a killed synth. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

/** The content of the lock file. */
interface LockContent {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly started: string;
}

/** The content of the journal: names relative to the output's parent, the record as absolute paths. */
interface Journal {
  readonly staging: string;
  readonly previous: string;
  readonly record?: { readonly from: string; readonly to: string };
}

/** The paths of the swap of one output folder. */
class SwapPaths {
  public readonly parent: string;
  public readonly name: string;
  constructor(public readonly target: string) {
    this.parent = path.dirname(target);
    this.name = path.basename(target);
  }

  get lock(): string {
    return path.join(this.parent, `.${this.name}.cluster-tls-lock`);
  }

  get journal(): string {
    return path.join(this.parent, `.${this.name}.cluster-tls-journal.json`);
  }

  /** The prefix of everything a swap leaves in the parent folder until it ends. */
  get stagingPrefix(): string {
    return `.${this.name}.staging-`;
  }

  staging(nonce: string): string {
    return path.join(this.parent, `${this.stagingPrefix}${nonce}`);
  }
}

/** The staging name of a record file: beside it, so that its rename stays on one file system. */
function recordStaging(record: string, nonce: string): string {
  return path.join(path.dirname(record), `.${path.basename(record)}.staging-${nonce}`);
}

/** A rendered output file. */
export interface SwapFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  readonly content: string;
  readonly executable: boolean;
}

/** What the folder at the output path is, as synth found it. */
export interface FoundOutput {
  /** Whether a folder is at the path. */
  readonly exists: boolean;
  /** The parsed marker of an earlier synth, when there is one. */
  readonly marker?: { readonly files?: unknown };
}

/**
 * One synth's hold on an output folder: taken with {@link OutputSwap.open}, which waits for no
 * one (another live synth makes it fail with one line), finishes what a killed synth left, and
 * refuses an output path that is a link or a file. {@link commit} then replaces the folder and
 * the record; {@link close} lets go of the lock.
 */
export class OutputSwap {
  /**
   * Takes the lock of `outdir` and recovers from a killed synth.
   * @param recordFile the record replaced with the output, when there is one
   */
  public static open(outdir: string, recordFile?: string): OutputSwap {
    const paths = new SwapPaths(path.resolve(outdir));
    refuseUnsafeTarget(paths.target, recordFile);
    fsStep(paths.parent, 'create the folder that holds the output folder', () => fs.mkdirSync(paths.parent, { recursive: true }));
    const nonce = `${process.pid}-${randomBytes(6).toString('hex')}`;
    acquireLock(paths, nonce);
    const swap = new OutputSwap(paths, nonce, recordFile);
    try {
      recover(paths, recordFile);
      swap.found = inspect(paths.target);
    } catch (e) {
      swap.close();
      throw e;
    }
    return swap;
  }

  private found: FoundOutput = { exists: false };
  private closed = false;

  private constructor(private readonly paths: SwapPaths, private readonly nonce: string, private readonly recordFile: string | undefined) {}

  /** The output folder, as an absolute path. */
  public get target(): string {
    return this.paths.target;
  }

  /** What is at the output path now. */
  public get output(): FoundOutput {
    return this.found;
  }

  /**
   * Writes `files` to a staging folder, then replaces the output folder with it and, when
   * `recordText` is given, the record with it: both or neither, whatever fails or kills the
   * process. `files` is read once, one file at a time.
   */
  public commit(files: Iterable<SwapFile>, recordText?: string): void {
    const staging = this.paths.staging(this.nonce);
    const recordTemp = this.recordFile !== undefined && recordText !== undefined ? recordStaging(this.recordFile, this.nonce) : undefined;
    try {
      writeStaging(staging, this.paths.target, files);
      if (recordTemp !== undefined) {
        fsStep(this.recordFile!, 'write the record', () => fs.writeFileSync(recordTemp, recordText!));
      }
    } catch (e) {
      removeQuietly(staging);
      removeQuietly(recordTemp);
      throw e;
    }
    const journal: Journal = {
      staging: path.basename(staging),
      previous: `${path.basename(staging)}.previous`,
      ...(recordTemp !== undefined ? { record: { from: recordTemp, to: this.recordFile! } } : {}),
    };
    try {
      writeJournal(this.paths, journal, this.nonce);
    } catch (e) {
      removeQuietly(staging);
      removeQuietly(recordTemp);
      throw e;
    }
    // The commit point is passed: a kill from here is finished by the next run. A failure while
    // this run still lives is undone when the new output has not taken the folder's place yet.
    try {
      complete(this.paths, journal);
    } catch (e) {
      if (rollBack(this.paths, journal)) {
        throw machineError(e, this.paths.target, 'replace the output folder');
      }
      throw machineError(e, this.paths.target, 'replace the output folder',
        `the new output is staged and ${displayPath(this.paths.journal)} names it: the next synth finishes the swap`);
    }
  }

  /** Lets go of the lock (once). */
  public close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    releaseLock(this.paths, this.nonce);
  }
}

/**
 * Finishes a swap a killed synth left, without taking the lock: for a run that holds it, or a
 * test that stands for the next run.
 */
export function recoverOutput(outdir: string, recordFile?: string): void {
  recover(new SwapPaths(path.resolve(outdir)), recordFile);
}

/** One step of the file system, with a failure of the machine turned into one line naming `at`. */
function fsStep<T>(at: string, action: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw machineError(e, at, action);
  }
}

/** Writes the files to a new folder. */
function writeStaging(staging: string, target: string, files: Iterable<SwapFile>): void {
  // Made with the mode a new folder gets (0777 less the umask), as stock cdk8s makes the output folder.
  fsStep(staging, 'create the staging folder of the output', () => fs.mkdirSync(staging));
  const folders = new Set<string>([staging]);
  // The umask, read off the new folder: a file's mode is set again only where the umask took bits off.
  const umask = ~fs.statSync(staging).mode & 0o777;
  for (const file of files) {
    const dest = path.join(staging, ...file.path.split('/'));
    const folder = path.dirname(dest);
    const mode = file.executable ? 0o755 : 0o644;
    fsStep(path.join(target, file.path), 'write the output file', () => {
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      fs.writeFileSync(dest, file.content, { mode });
      if ((mode & umask) !== 0) {
        fs.chmodSync(dest, mode);
      }
    });
  }
}

/** Writes the journal whole: to a staging name, then renamed into place. */
function writeJournal(paths: SwapPaths, journal: Journal, nonce: string): void {
  const temporary = `${paths.staging(nonce)}.journal`;
  try {
    fsStep(paths.journal, 'write the journal of the swap', () => {
      fs.writeFileSync(temporary, `${JSON.stringify(journal)}\n`);
      fs.renameSync(temporary, paths.journal);
    });
  } catch (e) {
    removeQuietly(temporary);
    throw e;
  }
}

/**
 * Carries out a journal: each step is done only when its source is still there, so a run killed
 * at any step is completed by the next, step by step.
 */
function complete(paths: SwapPaths, journal: Journal): void {
  const staging = path.join(paths.parent, journal.staging);
  const previous = path.join(paths.parent, journal.previous);
  if (exists(staging)) {
    if (exists(paths.target) && !exists(previous)) {
      fs.renameSync(paths.target, previous);
    }
    fs.renameSync(staging, paths.target);
  }
  if (journal.record !== undefined && exists(journal.record.from)) {
    fs.renameSync(journal.record.from, journal.record.to);
  }
  fs.unlinkSync(paths.journal);
  if (exists(previous)) {
    removeTree(previous);
  }
}

/**
 * Undoes a journal whose new output has not taken the folder's place: the old output goes back if
 * it was moved aside, then the journal and the staged copies are deleted.
 * @returns whether the old output and record are in place again
 */
function rollBack(paths: SwapPaths, journal: Journal): boolean {
  const staging = path.join(paths.parent, journal.staging);
  const previous = path.join(paths.parent, journal.previous);
  try {
    if (!exists(staging)) {
      return false;
    }
    if (!exists(paths.target) && exists(previous)) {
      fs.renameSync(previous, paths.target);
    }
    fs.unlinkSync(paths.journal);
  } catch {
    return false;
  }
  removeQuietly(staging);
  removeQuietly(journal.record?.from);
  return true;
}

/**
 * Refuses an output folder whose swap would take more than the output with it: the root of the
 * file system, a folder that holds the record (the swap would delete it), or one that holds the
 * working folder.
 */
function refuseUnsafeTarget(target: string, recordFile: string | undefined): void {
  const inside = (p: string) => {
    const relative = path.relative(target, path.resolve(p));
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
  const fix = 'set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own, such as dist';
  if (path.dirname(target) === target) {
    throw new ClusterTlsError(`${target}: received the root of the file system as the output folder; expected a folder synth may replace whole: ${fix}`);
  }
  if (inside(process.cwd())) {
    throw new ClusterTlsError(`${displayPath(target)}: received an output folder that holds the working folder (${process.cwd()}); expected a folder synth may replace whole: ${fix}`);
  }
  if (recordFile !== undefined && inside(recordFile)) {
    throw new ClusterTlsError(`${displayPath(target)}: received an output folder that holds the record ${displayPath(path.resolve(recordFile))}; `
      + 'expected the record outside it, since every synth replaces the output folder whole: set recordFile to a path beside the output folder');
  }
}

/**
 * Finishes what a killed synth left: a journal is completed; staging folders, record copies and
 * old outputs that no journal names are deleted (the synth that wrote them never reached its
 * commit point, or had passed it and was deleting the old output).
 */
function recover(paths: SwapPaths, recordFile: string | undefined): void {
  fsStep(paths.journal, 'finish the swap a killed synth left', () => {
    const journal = readJournal(paths);
    if (journal !== undefined) {
      complete(paths, journal);
    }
    for (const entry of fs.readdirSync(paths.parent)) {
      if (entry.startsWith(paths.stagingPrefix)) {
        removeTree(path.join(paths.parent, entry));
      }
    }
    if (recordFile !== undefined) {
      const folder = path.dirname(path.resolve(recordFile));
      const prefix = `.${path.basename(recordFile)}.staging-`;
      for (const entry of exists(folder) ? fs.readdirSync(folder) : []) {
        if (entry.startsWith(prefix)) {
          removeTree(path.join(folder, entry));
        }
      }
    }
  });
}

/** The journal a killed synth left, or undefined; refused in one line when it is not one a synth writes. */
function readJournal(paths: SwapPaths): Journal | undefined {
  const text = readSmall(paths.journal);
  if (text === undefined) {
    return undefined;
  }
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const inParent = (name: unknown) => typeof name === 'string' && name.startsWith(paths.stagingPrefix) && !name.includes('/') && !name.includes(path.sep);
  const record = parsed?.record;
  const recordOk = record === undefined || (typeof record?.from === 'string' && typeof record.to === 'string'
    && path.isAbsolute(record.from) && path.dirname(record.from) === path.dirname(record.to) && path.basename(record.from).startsWith(`.${path.basename(record.to)}.staging-`));
  if (!inParent(parsed?.staging) || !inParent(parsed.previous) || !recordOk) {
    throw new ClusterTlsError(`${displayPath(paths.journal)}: received a file that is not a journal synth writes; expected the journal of a killed synth: `
      + `delete it, then check that ${displayPath(paths.target)} holds the output you expect`);
  }
  return parsed;
}

/**
 * What is at the output path: nothing, or a folder. A symbolic link or a file is refused with one
 * line: the swap would replace it, and a link's target is not the synth's to delete.
 */
function inspect(target: string): FoundOutput {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { exists: false };
    }
    throw machineError(e, target, 'read the output folder');
  }
  if (stat.isSymbolicLink()) {
    const to = fsStep(target, 'read the link', () => fs.readlinkSync(target));
    throw new ClusterTlsError(`${displayPath(target)}: received a symbolic link (to ${to}); expected a folder: synth replaces the output folder whole and never writes `
      + 'through a link: set the output folder (outdir, CDK8S_OUTDIR) to the folder the link points to');
  }
  if (!stat.isDirectory()) {
    throw new ClusterTlsError(`${displayPath(target)}: received a file that is not a folder; expected the output folder: move the file away, or set the output folder (outdir, CDK8S_OUTDIR) to another path`);
  }
  if (stat.dev !== fsStep(target, 'read the folder that holds the output folder', () => fs.statSync(path.dirname(target))).dev) {
    throw new ClusterTlsError(`${displayPath(target)}: received a mount point as the output folder; expected a folder on the same file system as the folder that holds it, `
      + 'since the swap renames it: set the output folder (outdir, CDK8S_OUTDIR) to a folder inside the mounted one');
  }
  return { exists: true };
}

/** Takes the lock, or fails with one line naming the live synth that holds it. */
function acquireLock(paths: SwapPaths, nonce: string): void {
  const content: LockContent = { pid: process.pid, host: os.hostname(), nonce, started: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(paths.lock, 'wx');
      try {
        fs.writeSync(fd, `${JSON.stringify(content)}\n`);
      } catch (e) {
        // Not left behind empty: the next run would take it for a synth taking the lock.
        fs.closeSync(fd);
        fs.rmSync(paths.lock, { force: true });
        throw e;
      }
      fs.closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw machineError(e, paths.lock, 'create the lock file');
      }
    }
    const held = readLock(paths.lock);
    if (held === 'gone') {
      continue;
    }
    if (held !== 'unreadable' && isHeldByLiveProcess(held)) {
      throw new ClusterTlsError(`${displayPath(paths.target)}: received a synth while another one writes it (process ${held.pid} on ${held.host}, since ${held.started}); `
        + `expected one synth at a time per output folder: run again when it ends; if no synth runs, delete ${displayPath(paths.lock)}`);
    }
    if (held === 'unreadable' && !isOlderThan(paths.lock, UNREADABLE_LOCK_GRACE_MS)) {
      throw new ClusterTlsError(`${displayPath(paths.target)}: received a synth while another one is taking the lock; expected one synth at a time per output folder: `
        + `run again in a few seconds; if no synth runs, delete ${displayPath(paths.lock)}`);
    }
    breakStaleLock(paths, nonce, held === 'unreadable' ? undefined : held.nonce);
  }
  throw new ClusterTlsError(`${displayPath(paths.target)}: received a lock file that other synths keep taking (${displayPath(paths.lock)}); expected one synth at a time per output folder: run again when they end`);
}

/** Reads the lock file: its content, 'gone' when it was deleted meanwhile, or 'unreadable'. */
function readLock(file: string): LockContent | 'gone' | 'unreadable' {
  let text: string | undefined;
  try {
    text = readSmall(file);
  } catch {
    return 'unreadable';
  }
  if (text === undefined) {
    return 'gone';
  }
  try {
    const parsed = JSON.parse(text);
    if (Number.isSafeInteger(parsed?.pid) && typeof parsed.host === 'string' && typeof parsed.nonce === 'string' && typeof parsed.started === 'string') {
      return parsed;
    }
  } catch {
    // Unreadable: written by a synth killed between creating and filling it, or not by a synth.
  }
  return 'unreadable';
}

/**
 * Whether the process a lock names still runs. A lock of another host is taken as held: its
 * process cannot be asked. A lock of this process's own pid that is not its own was left by an
 * earlier process of the same pid (a container starts each run with the same pids).
 */
function isHeldByLiveProcess(lock: LockContent): boolean {
  if (lock.host !== os.hostname()) {
    return true;
  }
  if (lock.pid === process.pid) {
    return false;
  }
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a file was last modified more than `ms` ago (a file gone meanwhile counts as old). */
function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return true;
  }
}

/**
 * Removes a lock left by a dead synth. It is first renamed to a name of this run's, then checked:
 * when another run replaced it meanwhile with a live lock of its own, that lock is put back.
 */
function breakStaleLock(paths: SwapPaths, nonce: string, staleNonce: string | undefined): void {
  const aside = `${paths.staging(nonce)}.stale-lock`;
  try {
    fs.renameSync(paths.lock, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw machineError(e, paths.lock, 'remove the lock file a killed synth left');
  }
  const taken = readLock(aside);
  const wasStale = taken === 'gone' || taken === 'unreadable' ? staleNonce === undefined : taken.nonce === staleNonce;
  if (!wasStale) {
    try {
      fs.linkSync(aside, paths.lock);
    } catch {
      // A third run holds the lock now; the one put aside loses it, and its own release sees that.
    }
  }
  removeTree(aside);
}

/**
 * Lets go of the lock, when it is still this run's. A failure is let pass: the lock then names a
 * process that is gone once this one ends, which the next run takes over.
 */
function releaseLock(paths: SwapPaths, nonce: string): void {
  const held = readLock(paths.lock);
  if (typeof held === 'object' && held.nonce === nonce) {
    try {
      fs.unlinkSync(paths.lock);
    } catch {
      // Left for the next run, as a killed synth's lock is.
    }
  }
}

/** A small file's text, undefined when it does not exist; refused past its bound. */
function readSmall(file: string): string | undefined {
  try {
    return readBounded(file, READ_LIMITS.small);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
  }
}

/** Whether a path exists, itself (a link is not followed). */
function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Deletes what is at a path, if anything, ignoring failures: cleaning after a failure that is reported already. */
function removeQuietly(p: string | undefined): void {
  if (p === undefined) {
    return;
  }
  try {
    removeTree(p);
  } catch {
    // The next run deletes what is left: its name starts with the staging prefix.
  }
}

/**
 * Deletes a path and, when it is a folder, everything below it; a symbolic link is deleted, never
 * followed. Each entry's type is taken from its folder's listing instead of asked for again entry
 * by entry: deleting the previous output is then one system call per file, not two.
 */
export function removeTree(p: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw e;
  }
  if (stat.isDirectory()) {
    removeFolder(p);
  } else {
    fs.unlinkSync(p);
  }
}

function removeFolder(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeFolder(entryPath);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      fs.unlinkSync(entryPath);
    } else {
      removeTree(entryPath);
    }
  }
  fs.rmdirSync(dir);
}
