/**
 * Replacing an output folder, its files folder and its record together, so that no failure and no
 * kill loses any of them: one synth at a time per folder (a lock file), the new output written in full beside
 * the old, then a write-ahead journal, the commit point, which the renames follow. A synth killed
 * before the journal leaves the old output and record; one killed after it leaves a journal that
 * the next run completes. Every run first finishes or cleans what a killed one left.
 *
 * Beside the output folder `<parent>/<name>`, the swap uses:
 *
 * ```
 * .<name>.cluster-tls-lock            the lock: pid, host, boot, pid namespace, start and nonce of the synth writing it
 * .cluster-tls.cluster-tls-lock       the files folder's lock, of the same content: every output folder beside it writes it
 * .<name>.cluster-tls-journal.json    the commit point: what to rename where
 * .<name>.staging-<nonce>             the new output, written in full before the journal
 * .<name>.staging-<nonce>.previous    the old output, between its rename and its deletion
 * .<name>.staging-<nonce>.files       the new files folder, written in full before the journal
 * .<name>.staging-<nonce>.files-previous  the old files folder, between its rename and its deletion
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
 * of a folder's swap (microseconds) nothing is at its path, and between the output folder's swap
 * and the files folder's the new manifests sit beside the old files; the journal written before
 * them names the new output, and a run that finds it finishes the swap. Deletion never follows a symbolic
 * link.
 *
 * Each operation is a module of its own: the lock (swap-lock.ts), the journal and the recovery
 * (swap-journal.ts), and the steps they share (swap-files.ts); this one stages and commits.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClusterTlsError } from '../model/errors';
import { displayPath, shownName } from './display-path';
import { machineError } from './machine-errors';
import { FoundOutput, SwapPaths, besideStaging, exists, fsStep, inspect, isWithin, realPath, removeQuietly } from './swap-files';
import { Journal, RecoveryOptions, complete, recover, rollBack, writeJournal } from './swap-journal';
import { acquireLock, readLock, releaseLock } from './swap-lock';

export type { FoundOutput } from './swap-files';

/** Options of {@link OutputSwap.open}. */
export interface SwapOptions extends RecoveryOptions {
  /**
   * The files folder replaced with the output folder, beside it: the files marked
   * {@link SwapFile.inFilesFolder} go there.
   * @default - none: every file goes to the output folder
   */
  readonly filesFolder?: string;
}

/** The longest output folder name, in bytes: the swap's names beside it add up to 40 bytes to it, and a file system takes 255. */
const MAX_OUTPUT_NAME_BYTES = 200;

/** A rendered output file. */
export interface SwapFile {
  /** Path relative to its folder, with '/' separators. */
  readonly path: string;
  readonly content: string;
  readonly executable: boolean;
  /** Whether the file goes to the files folder rather than the output folder. */
  readonly inFilesFolder?: boolean;
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
    const filesFolder = options.filesFolder === undefined ? undefined : path.resolve(options.filesFolder);
    refuseUnsafeTarget(paths, recordFile);
    if (filesFolder !== undefined) {
      refuseUnsafeFilesFolder(paths, filesFolder, recordFile);
    }
    fsStep(paths.parent, 'create the folder that holds the output folder', () => fs.mkdirSync(paths.parent, { recursive: true }));
    const nonce = `${process.pid}-${randomBytes(6).toString('hex')}`;
    acquireLock(paths, nonce);
    // The files folder has a lock of its own: every output folder beside it would write it.
    const filesPaths = filesFolder === undefined ? undefined : new SwapPaths(filesFolder);
    if (filesPaths !== undefined) {
      try {
        acquireLock(filesPaths, nonce);
      } catch (e) {
        releaseLock(paths, nonce);
        throw e;
      }
    }
    const swap = new OutputSwap(paths, nonce, recordFile === undefined ? undefined : path.resolve(recordFile), filesFolder, filesPaths);
    try {
      recover(paths, recordFile, options, filesPaths);
      swap.found = inspect(paths.target);
      swap.foundFiles = filesFolder === undefined ? { exists: false } : inspect(filesFolder, true);
    } catch (e) {
      swap.close();
      throw e;
    }
    return swap;
  }

  private found: FoundOutput = { exists: false };
  private foundFiles: FoundOutput = { exists: false };
  private closed = false;

  private constructor(private readonly paths: SwapPaths, private readonly nonce: string, private readonly recordFile: string | undefined,
    private readonly filesFolder: string | undefined, private readonly filesPaths: SwapPaths | undefined) {}

  /** The output folder, as an absolute path. */
  public get target(): string {
    return this.paths.target;
  }

  /** What is at the output path now. */
  public get output(): FoundOutput {
    return this.found;
  }

  /** What is at the files folder's path now (nothing, without a files folder). */
  public get files(): FoundOutput {
    return this.foundFiles;
  }

  /**
   * Writes `files` to staging folders, then replaces the output folder and the files folder with
   * them and, when `recordText` is given, the record with it: all or none, whatever fails or kills
   * the process. `files` is read once, one file at a time.
   */
  public commit(files: Iterable<SwapFile>, recordText?: string): void {
    const staging = this.paths.staging(this.nonce);
    const filesStaging = this.filesFolder === undefined ? undefined : this.paths.filesStaging(this.nonce);
    const recordTemp = this.recordFile !== undefined && recordText !== undefined
      ? path.join(path.dirname(this.recordFile), besideStaging(path.basename(staging), 'record')) : undefined;
    const removeStaged = () => [staging, filesStaging, recordTemp].forEach(removeQuietly);
    try {
      writeStaging({ output: staging, files: filesStaging }, { output: this.paths.target, files: this.filesFolder }, files);
      if (recordTemp !== undefined) {
        fsStep(this.recordFile!, 'write the record', () => fs.writeFileSync(recordTemp, recordText!));
      }
    } catch (e) {
      removeStaged();
      throw e;
    }
    const relative = (p: string) => path.relative(this.paths.parent, p);
    const journal: Journal = {
      staging: path.basename(staging),
      previous: besideStaging(path.basename(staging), 'previous'),
      hadOutput: this.found.exists,
      ...(this.filesFolder !== undefined ? { files: { target: path.basename(this.filesFolder), hadOutput: this.foundFiles.exists } } : {}),
      ...(recordTemp !== undefined ? { record: { from: relative(recordTemp), to: relative(this.recordFile!) } } : {}),
    };
    try {
      this.checkStillMine(staging);
      writeJournal(this.paths, journal, this.nonce);
    } catch (e) {
      removeStaged();
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
    if (this.filesPaths !== undefined) {
      releaseLock(this.filesPaths, this.nonce);
    }
    releaseLock(this.paths, this.nonce);
  }
}

/**
 * Finishes a swap a killed synth left, without taking the lock: for the tests, standing for the
 * first step of the next run (which runs it under the lock), with the files folder a synth writes
 * beside the output folder.
 */
export function recoverOutput(outdir: string, recordFile?: string, filesFolder?: string): void {
  recover(new SwapPaths(path.resolve(outdir)), recordFile, {}, filesFolder === undefined ? undefined : new SwapPaths(path.resolve(filesFolder)));
}

/** The output folder and the files folder, or their staging folders. */
interface FolderPair {
  readonly output: string;
  readonly files?: string;
}

/** Writes the files to new folders: the output folder's staging folder, and the files folder's when there is one. */
function writeStaging(staging: FolderPair, target: FolderPair, files: Iterable<SwapFile>): void {
  // Made with the mode a new folder gets (0777 less the umask), as stock cdk8s makes the output folder.
  const made = [staging.output, staging.files].filter((f): f is string => f !== undefined);
  for (const folder of made) {
    fsStep(folder, 'create the staging folder of the output', () => fs.mkdirSync(folder));
  }
  const folders = new Set<string>(made);
  // The umask, read off the new folder: a file's mode is set again only where the umask took bits off.
  const umask = ~fs.statSync(staging.output).mode & 0o777;
  for (const file of files) {
    const inFiles = file.inFilesFolder === true && staging.files !== undefined;
    const dest = path.join(inFiles ? staging.files! : staging.output, ...file.path.split('/'));
    const folder = path.dirname(dest);
    const mode = file.executable ? 0o755 : 0o644;
    fsStep(path.join(inFiles ? target.files! : target.output, file.path), 'write the output file', () => {
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

/**
 * Refuses a files folder the swap cannot replace with the output folder: one that is not beside
 * it (the swap renames both in the folder that holds them), the output folder itself, or one that
 * holds the working folder or the record.
 */
function refuseUnsafeFilesFolder(paths: SwapPaths, filesFolder: string, recordFile: string | undefined): void {
  const fix = `set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own not named ${path.basename(filesFolder)}, such as dist`;
  if (path.dirname(filesFolder) !== paths.parent || filesFolder === paths.target) {
    throw new ClusterTlsError(`${displayPath(paths.target)}: received an output folder whose files folder is ${displayPath(filesFolder)}; `
      + `expected the files folder beside the output folder, under another name: ${fix}`);
  }
  const real = realPath(filesFolder);
  if (isWithin(real, fs.realpathSync(process.cwd()))) {
    throw new ClusterTlsError(`${displayPath(filesFolder)}: received a files folder that holds the working folder (${shownName(process.cwd())}); `
      + 'expected a folder synth may replace whole: run the synth from the folder that holds the output folder');
  }
  if (recordFile !== undefined && isWithin(real, realPath(recordFile))) {
    throw new ClusterTlsError(`${displayPath(filesFolder)}: received a files folder that holds the record ${displayPath(path.resolve(recordFile))}; `
      + 'expected the record outside it, since every synth replaces the files folder whole: set recordFile to a path beside the output folder');
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
