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
 * .<name>.cluster-tls-lock            the lock: pid, host, boot, pid namespace, start and nonce of the synth writing it
 * .<name>.cluster-tls-journal.json    the commit point: what to rename where
 * .<name>.staging-<nonce>             the new output, written in full before the journal
 * .<name>.staging-<nonce>.previous    the old output, between its rename and its deletion
 * .<name>.staging-<nonce>.record      the new record, in the record's folder, until it is renamed over it
 * .<name>.staging-<nonce>.journal     the journal, until it is renamed into place
 * .<name>.staging-<nonce>.lock        the lock, until it is linked into place
 * .<name>.staging-<nonce>.stale-lock  a dead synth's lock, set aside before it is deleted
 * ```
 *
 * `<nonce>` is `<pid>-<12 hex digits>`; the next run deletes what matches these names exactly and
 * nothing else. The journal names paths relative to the output's parent, so a project folder
 * moved or copied after a kill is finished where it now is.
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
import { READ_LIMITS, UnreadableInputError, readBounded } from '../spec/bounded-read';
import { ClusterTlsError } from '../spec/errors';
import { displayPath, shownName } from './display-path';
import { checkReplaceable } from './guards';
import { machineError } from './machine-errors';

/** The content of the lock file. */
interface LockContent {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly started: string;
  /** The kernel's boot id (Linux): a lock of an earlier boot is stale whatever its pid. */
  readonly boot?: string;
  /** The process's pid namespace (Linux): a pid means something only inside its own. */
  readonly pidNamespace?: string;
}

/** How old a lock whose process cannot be asked (another host, another pid namespace) must be to count as left by a killed synth: no synth takes this long. */
const UNCHECKABLE_LOCK_MS = 10 * 60 * 1000;

/** A line of a file of /proc, or undefined where there is none (not Linux). */
function procValue(read: () => string): string | undefined {
  try {
    return read().trim();
  } catch {
    return undefined;
  }
}

/** This process's boot id and pid namespace, as its lock records them. */
const IDENTITY = {
  boot: procValue(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
  pidNamespace: procValue(() => fs.readlinkSync('/proc/self/ns/pid')),
};

/** The content of the journal: every path relative to the output's parent folder. */
interface Journal {
  readonly staging: string;
  readonly previous: string;
  /** Whether an output folder was there to move aside. */
  readonly hadOutput: boolean;
  readonly record?: { readonly from: string; readonly to: string };
}

/** A run's nonce: its pid and 12 random hex digits. */
const NONCE = '\\d+-[0-9a-f]{12}';

/** The suffixes of a swap's files beside its staging folder. */
const SUFFIXES = ['previous', 'record', 'journal', 'lock', 'stale-lock'] as const;

/** The longest output folder name, in bytes: the swap's names beside it add up to 40 bytes to it, and a file system takes 255. */
const MAX_OUTPUT_NAME_BYTES = 200;

/** The paths of the swap of one output folder. */
class SwapPaths {
  public readonly parent: string;
  public readonly name: string;
  private readonly leftover: RegExp;
  constructor(public readonly target: string) {
    this.parent = path.dirname(target);
    this.name = path.basename(target);
    const escaped = this.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.leftover = new RegExp(`^\\.${escaped}\\.staging-${NONCE}(\\.(${SUFFIXES.join('|')}))?$`);
  }

  get lock(): string {
    return path.join(this.parent, `.${this.name}.cluster-tls-lock`);
  }

  get journal(): string {
    return path.join(this.parent, `.${this.name}.cluster-tls-journal.json`);
  }

  staging(nonce: string): string {
    return path.join(this.parent, `.${this.name}.staging-${nonce}`);
  }

  /** Whether an entry's name is one a swap of this folder leaves until it ends, exactly. */
  isLeftover(entry: string, suffix?: typeof SUFFIXES[number]): boolean {
    return this.leftover.test(entry) && (suffix === undefined || entry.endsWith(`.${suffix}`));
  }
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
}

/** Options of {@link OutputSwap.open}. */
export interface SwapOptions {
  /**
   * Whether files no synth wrote may be deleted with the old output (keys never are), when a
   * killed synth's journal is about to move the output folder aside; the caller checks the folder
   * it replaces itself.
   * @default false
   */
  readonly takeOver?: boolean;
}

/**
 * One synth's hold on an output folder: taken with {@link OutputSwap.open}, which waits for no
 * one (another live synth makes it fail with one line), finishes what a killed synth left, and
 * refuses an output path that is a link, a file or a mount point. {@link commit} then replaces the
 * folder and the record; {@link close} lets go of the lock.
 */
export class OutputSwap {
  /**
   * Takes the lock of `outdir` and recovers from a killed synth.
   * @param recordFile the record replaced with the output, when there is one
   */
  public static open(outdir: string, recordFile?: string, options: SwapOptions = {}): OutputSwap {
    const paths = new SwapPaths(path.resolve(outdir));
    refuseUnsafeTarget(paths, recordFile);
    fsStep(paths.parent, 'create the folder that holds the output folder', () => fs.mkdirSync(paths.parent, { recursive: true }));
    const nonce = `${process.pid}-${randomBytes(6).toString('hex')}`;
    acquireLock(paths, nonce);
    const swap = new OutputSwap(paths, nonce, recordFile === undefined ? undefined : path.resolve(recordFile));
    try {
      recover(paths, recordFile, options);
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
    const recordTemp = this.recordFile !== undefined && recordText !== undefined
      ? path.join(path.dirname(this.recordFile), `${path.basename(staging)}.record`) : undefined;
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
    const relative = (p: string) => path.relative(this.paths.parent, p);
    const journal: Journal = {
      staging: path.basename(staging),
      previous: `${path.basename(staging)}.previous`,
      hadOutput: this.found.exists,
      ...(recordTemp !== undefined ? { record: { from: relative(recordTemp), to: relative(this.recordFile!) } } : {}),
    };
    try {
      this.checkStillMine(staging);
      writeJournal(this.paths, journal, this.nonce);
    } catch (e) {
      removeQuietly(staging);
      removeQuietly(recordTemp);
      throw e;
    }
    // The commit point is passed: a kill from here is finished by the next run. A failure while
    // this run still lives is undone when the new output has not taken the folder's place yet.
    try {
      complete(this.paths, journal, this.recordFile);
    } catch (e) {
      if (rollBack(this.paths, journal)) {
        throw machineError(e, this.paths.target, 'replace the output folder');
      }
      throw machineError(e, this.paths.target, 'replace the output folder',
        `the new output is in place and ${displayPath(this.paths.journal)} names what is left to do: the next synth finishes it`);
    }
  }

  /**
   * Refuses to commit when another synth took the lock meanwhile (its process could not be asked,
   * and it took this one for stale) and with it, maybe, this run's staged files.
   */
  private checkStillMine(staging: string): void {
    const held = readLock(this.paths.lock);
    if (typeof held !== 'object' || held.nonce !== this.nonce || !exists(staging)) {
      throw new ClusterTlsError(`${displayPath(this.paths.target)}: received a synth whose lock another synth took while it wrote; expected one synth at a time per output folder: `
        + 'nothing was changed by this one; run again when no other synth runs');
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
 * Finishes a swap a killed synth left, without taking the lock: for the tests, standing for the
 * first step of the next run (which runs it under the lock).
 */
export function recoverOutput(outdir: string, recordFile?: string): void {
  recover(new SwapPaths(path.resolve(outdir)), recordFile, {});
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
 * at any step is completed by the next, step by step. The record follows the output only once the
 * new output holds the folder's place; a staged output that is gone (deleted by hand after a kill)
 * leaves both the old output and the old record.
 */
function complete(paths: SwapPaths, journal: Journal, recordFile?: string): void {
  const staging = path.join(paths.parent, journal.staging);
  const previous = path.join(paths.parent, journal.previous);
  let swapped: boolean;
  if (exists(staging)) {
    if (journal.hadOutput && exists(paths.target) && !exists(previous)) {
      fs.renameSync(paths.target, previous);
    }
    fs.renameSync(staging, paths.target);
    swapped = true;
  } else {
    swapped = journal.hadOutput ? exists(previous) : exists(paths.target);
  }
  // The record this run is given wins over the journal's relative path: the project may have moved
  // since, and a record outside it did not move with it.
  const record = journal.record && (recordFile !== undefined
    ? { from: path.join(path.dirname(path.resolve(recordFile)), `${journal.staging}.record`), to: path.resolve(recordFile) }
    : { from: path.resolve(paths.parent, journal.record.from), to: path.resolve(paths.parent, journal.record.to) });
  if (swapped && record !== undefined && exists(record.from)) {
    fs.renameSync(record.from, record.to);
  }
  fs.unlinkSync(paths.journal);
  removeQuietly(swapped ? undefined : record?.from);
  removeQuietly(previous);
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
  removeQuietly(journal.record && path.resolve(paths.parent, journal.record.from));
  return true;
}

/** Whether `inner` is `outer` or below it, both real paths. */
function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** A path with the links of its folder resolved (the folder must exist), for comparing places. */
function realPath(p: string): string {
  const folder = path.dirname(path.resolve(p));
  try {
    return path.join(fs.realpathSync(folder), path.basename(p));
  } catch {
    return path.resolve(p);
  }
}

/**
 * Refuses an output folder whose swap would take more than the output with it, compared where the
 * paths really lead (links resolved): the root of the file system, a folder that holds the record
 * (the swap would delete it), or one that holds the working folder; and a name too long for the
 * swap's own names beside it.
 */
function refuseUnsafeTarget(paths: SwapPaths, recordFile: string | undefined): void {
  const target = realPath(paths.target);
  const fix = 'set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own, such as dist';
  if (path.dirname(paths.target) === paths.target) {
    throw new ClusterTlsError(`${paths.target}: received the root of the file system as the output folder; expected a folder synth may replace whole: ${fix}`);
  }
  if (Buffer.byteLength(paths.name) > MAX_OUTPUT_NAME_BYTES) {
    throw new ClusterTlsError(`${displayPath(paths.target)}: received an output folder name of ${Buffer.byteLength(paths.name)} bytes; expected at most ${MAX_OUTPUT_NAME_BYTES}, `
      + `since the swap's files beside it add their suffixes to it: ${fix}`);
  }
  if (isWithin(target, fs.realpathSync(process.cwd()))) {
    throw new ClusterTlsError(`${displayPath(paths.target)}: received an output folder that holds the working folder (${shownName(process.cwd())}); expected a folder synth may replace whole: ${fix}`);
  }
  if (recordFile !== undefined && isWithin(target, realPath(recordFile))) {
    throw new ClusterTlsError(`${displayPath(paths.target)}: received an output folder that holds the record ${displayPath(path.resolve(recordFile))}; `
      + 'expected the record outside it, since every synth replaces the output folder whole: set recordFile to a path beside the output folder');
  }
}

/**
 * Finishes what a killed synth left: a journal is completed; staging folders, record copies and
 * old outputs that no journal names are deleted (the synth that wrote them never reached its
 * commit point, or had passed it and was deleting the old output). Only names a swap of this
 * folder makes are touched.
 */
function recover(paths: SwapPaths, recordFile: string | undefined, options: SwapOptions): void {
  fsStep(paths.journal, 'finish the swap a killed synth left', () => {
    const journal = readJournal(paths);
    if (journal !== undefined) {
      const staging = path.join(paths.parent, journal.staging);
      if (journal.hadOutput && exists(staging) && exists(paths.target) && !exists(path.join(paths.parent, journal.previous))) {
        // The output folder is about to be moved aside and deleted: what was put in it since the kill is checked as at any synth.
        inspect(paths.target);
        checkReplaceable(paths.target, new Set(), options.takeOver ?? false);
      }
      complete(paths, journal, recordFile);
    }
    for (const entry of fs.readdirSync(paths.parent)) {
      if (paths.isLeftover(entry)) {
        removeQuietly(path.join(paths.parent, entry));
      }
    }
    const folder = recordFile === undefined ? undefined : path.dirname(path.resolve(recordFile));
    if (folder !== undefined && folder !== paths.parent && exists(folder)) {
      for (const entry of fs.readdirSync(folder)) {
        if (paths.isLeftover(entry, 'record')) {
          removeQuietly(path.join(folder, entry));
        }
      }
    }
  });
}

/**
 * The journal a killed synth left, or undefined. Refused in one line, before anything is moved,
 * when it is not one a synth writes: names other than a swap's own, or a staged output that is not
 * a folder holding a synth's marker.
 */
function readJournal(paths: SwapPaths): Journal | undefined {
  let text: string | undefined;
  try {
    text = readSmall(paths.journal);
  } catch (e) {
    if (!(e instanceof UnreadableInputError)) {
      throw e;
    }
    text = '';
  }
  if (text === undefined) {
    return undefined;
  }
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const staging = parsed?.staging;
  const record = parsed?.record;
  const relativeName = (p: unknown) => typeof p === 'string' && !path.isAbsolute(p);
  const valid = typeof staging === 'string' && paths.isLeftover(staging) && !/\.[a-z-]+$/.test(staging.replace(/^.*staging-/, ''))
    && parsed.previous === `${staging}.previous` && typeof parsed.hadOutput === 'boolean'
    && (record === undefined || (relativeName(record?.from) && relativeName(record.to) && path.basename(record.from) === `${staging}.record`
      && path.dirname(record.from) === path.dirname(record.to)))
    && (!exists(path.join(paths.parent, staging)) || isStagedOutput(path.join(paths.parent, staging)));
  if (!valid) {
    throw new ClusterTlsError(`${displayPath(paths.journal)}: received a file that is not a journal synth writes; expected the journal of a killed synth, or none: `
      + `delete it, then check that ${displayPath(paths.target)} holds the output you expect`);
  }
  return parsed;
}

/** Whether a path is a folder holding the marker of a synth output (a staged output, not a user's file). */
function isStagedOutput(folder: string): boolean {
  try {
    if (!fs.lstatSync(folder).isDirectory()) {
      return false;
    }
    return JSON.parse(readBounded(path.join(folder, '.cluster-tls-output.json'), READ_LIMITS.small))?.writtenBy === 'cdk8s-cluster-tls';
  } catch {
    return false;
  }
}

/**
 * What is at the output path: nothing, or a folder. A symbolic link, a file or a mount point is
 * refused with one line: the swap would replace it, and a link's target is not the synth's to
 * delete.
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
    throw new ClusterTlsError(`${displayPath(target)}: received a symbolic link (to ${displayPath(path.resolve(path.dirname(target), to))}); expected a folder: `
      + 'synth replaces the output folder whole and never writes through a link: set the output folder (outdir, CDK8S_OUTDIR) to the folder the link points to');
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

/** Hard links are not offered by every file system; there the lock is created in place instead. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Takes the lock, or fails with one line naming the live synth that holds it. The lock is written
 * whole under a staging name, then linked into place, which fails when a lock is there: a lock is
 * never seen half-written.
 */
function acquireLock(paths: SwapPaths, nonce: string): void {
  const content: LockContent = { pid: process.pid, host: os.hostname(), nonce, started: new Date().toISOString(), ...IDENTITY };
  const temporary = `${paths.staging(nonce)}.lock`;
  try {
    fsStep(paths.lock, 'create the lock file', () => fs.writeFileSync(temporary, `${JSON.stringify(content)}\n`, { flag: 'wx' }));
    for (let attempt = 0; attempt < 5; attempt++) {
      const placed = placeLock(paths, temporary);
      if (placed === 'placed') {
        return;
      }
      if (placed === 'temporary gone') {
        // The synth holding the lock cleaned it as a leftover: write it again and try again.
        fsStep(paths.lock, 'create the lock file', () => fs.writeFileSync(temporary, `${JSON.stringify(content)}\n`, { flag: 'wx' }));
        continue;
      }
      const held = readLock(paths.lock);
      if (held === 'gone') {
        continue;
      }
      if (held === 'foreign') {
        throw new ClusterTlsError(`${displayPath(paths.lock)}: received a file that is not a lock synth writes; expected the lock of a synth, or none: `
          + 'if no synth runs, delete it and synthesize again');
      }
      if (isHeldByLiveProcess(held, paths.lock)) {
        throw new ClusterTlsError(`${displayPath(paths.target)}: received a synth while another one writes it (process ${held.pid} on ${shownName(held.host)}, since ${shownName(held.started)}); `
          + `expected one synth at a time per output folder: run again when it ends; if no synth runs, delete ${displayPath(paths.lock)}`);
      }
      breakStaleLock(paths, nonce, held.nonce);
    }
    throw new ClusterTlsError(`${displayPath(paths.target)}: received a lock file that other synths keep taking (${displayPath(paths.lock)}); `
      + 'expected one synth at a time per output folder: run again when they end; if none runs, delete the lock file');
  } finally {
    removeQuietly(temporary);
  }
}

/** Puts the staged lock in place: 'held' when a lock is there already, 'temporary gone' when the staged one was deleted meanwhile. */
function placeLock(paths: SwapPaths, temporary: string): 'placed' | 'held' | 'temporary gone' {
  const outcome = (e: unknown): 'held' | 'temporary gone' | undefined => {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EEXIST' ? 'held' : code === 'ENOENT' && !exists(temporary) ? 'temporary gone' : undefined;
  };
  try {
    fs.linkSync(temporary, paths.lock);
    return 'placed';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const known = outcome(e);
    if (known !== undefined) {
      return known;
    }
    if (code === undefined || !NO_LINKS.has(code)) {
      throw machineError(e, paths.lock, 'create the lock file');
    }
  }
  try {
    fs.copyFileSync(temporary, paths.lock, fs.constants.COPYFILE_EXCL);
    return 'placed';
  } catch (e) {
    const known = outcome(e);
    if (known !== undefined) {
      return known;
    }
    throw machineError(e, paths.lock, 'create the lock file');
  }
}

/** Reads the lock file: its content, 'gone' when there is none, or 'foreign' when it is not a lock a synth writes. */
function readLock(file: string): LockContent | 'gone' | 'foreign' {
  let text: string | undefined;
  try {
    if (!fs.lstatSync(file).isFile()) {
      return 'foreign';
    }
    text = readSmall(file);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'foreign';
  }
  if (text === undefined) {
    return 'gone';
  }
  try {
    const parsed = JSON.parse(text);
    const plain = (v: unknown) => typeof v === 'string' && v.length <= 256;
    const optional = (v: unknown) => v === undefined || plain(v);
    if (Number.isSafeInteger(parsed?.pid) && parsed.pid > 0 && plain(parsed.host) && plain(parsed.started) && optional(parsed.boot) && optional(parsed.pidNamespace)
      && typeof parsed.nonce === 'string' && new RegExp(`^${NONCE}$`).test(parsed.nonce)) {
      return parsed;
    }
  } catch {
    // Not JSON: not a lock a synth writes.
  }
  return 'foreign';
}

/**
 * Whether the process a lock names still runs. A lock of an earlier boot of this host is not. A
 * lock whose process cannot be asked (another host, another pid namespace) is taken as held until
 * it is older than any synth runs. A lock of this process's own pid that is not its own was left by
 * an earlier process of the same pid (a container starts each run with the same pids).
 */
function isHeldByLiveProcess(lock: LockContent, file: string): boolean {
  if (lock.boot !== undefined && IDENTITY.boot !== undefined && lock.boot !== IDENTITY.boot && lock.host === os.hostname()) {
    return false;
  }
  if (lock.host !== os.hostname() || lock.pidNamespace !== IDENTITY.pidNamespace) {
    // Its process cannot be asked: held, unless older than any synth runs.
    return !isOlderThan(file, UNCHECKABLE_LOCK_MS);
  }
  if (lock.pid === process.pid) {
    return false;
  }
  try {
    process.kill(lock.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isDeadProcess(lock.pid);
}

/**
 * Whether a process that still has its pid has ended: a zombie, killed but not yet reaped by its
 * parent (Linux's /proc/<pid>/stat says Z or X). Where there is no /proc, it counts as running.
 */
function isDeadProcess(pid: number): boolean {
  const stat = procValue(() => fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  // The state follows the command name, which is in parentheses and may hold anything.
  const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/** Whether a file was last modified more than `ms` ago. */
function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.lstatSync(file).mtimeMs > ms;
  } catch {
    return true;
  }
}

/**
 * Removes a lock left by a dead synth. It is first renamed to a name of this run's, then checked:
 * when another run replaced it meanwhile with a live lock of its own, that lock is put back.
 */
function breakStaleLock(paths: SwapPaths, nonce: string, staleNonce: string): void {
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
  if (typeof taken === 'object' && taken.nonce !== staleNonce) {
    try {
      fs.linkSync(aside, paths.lock);
    } catch {
      // A third run holds the lock now; the one put aside loses it, and its own release sees that.
    }
  }
  removeQuietly(aside);
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

/** A small file's text, undefined when it does not exist; refused past its bound or when not a regular file. */
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

/** Deletes what is at a path, if anything, ignoring failures: its name is a swap's own, and the next run deletes what is left. */
function removeQuietly(p: string | undefined): void {
  if (p === undefined) {
    return;
  }
  try {
    removeTree(p);
  } catch {
    // Left for the next run.
  }
}

/**
 * Deletes a path and, when it is a folder, everything below it; a symbolic link is deleted, never
 * followed. A folder made read-only is given its owner's write access back first. Each
 * entry's type is taken from its folder's listing instead of asked for again entry by entry:
 * deleting the previous output is then one system call per file, not two.
 */
function removeTree(p: string): void {
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
  // Read-only below is a mode, not a refusal: the owner may give write access back, as rm -rf does not.
  const mode = fs.lstatSync(dir).mode;
  if ((mode & 0o700) !== 0o700) {
    fs.chmodSync(dir, mode | 0o700);
  }
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
