/**
 * The files of one output folder's swap (see output-swap.ts for how they are used) and the small
 * file-system steps every part of the swap shares: what a path is, reading a small file, deleting
 * a leftover without following a link.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { READ_LIMITS, readBounded } from '../model/bounded-read';
import { ClusterTlsError } from '../model/errors';
import { displayPath } from './display-path';
import { machineError } from './machine-errors';

/** A run's nonce: its pid and 12 random hex digits. */
export const NONCE = '\\d+-[0-9a-f]{12}';

/** The suffixes of a swap's files beside its staging folder. */
export const SUFFIXES = ['previous', 'files', 'files-previous', 'record', 'journal', 'lock', 'stale-lock'] as const;

/** The name of one of a swap's files beside its staging folder: `<staging>.<suffix>` (a name, or a path). */
export function besideStaging(staging: string, suffix: typeof SUFFIXES[number]): string {
  return `${staging}.${suffix}`;
}

/** The paths of the swap of one output folder. */
export class SwapPaths {
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

  /** The staging folder of the files folder, beside the output's: `<staging>.files`. */
  filesStaging(nonce: string): string {
    return besideStaging(this.staging(nonce), 'files');
  }

  /** Whether an entry's name is one a swap of this folder leaves until it ends, exactly. */
  isLeftover(entry: string, suffix?: typeof SUFFIXES[number]): boolean {
    return this.leftover.test(entry) && (suffix === undefined || entry.endsWith(`.${suffix}`));
  }
}

/** What the folder at the output path is, as synth found it. */
export interface FoundOutput {
  /** Whether a folder is at the path. */
  readonly exists: boolean;
}

/** One step of the file system, with a failure of the machine turned into one line naming `at`. */
export function fsStep<T>(at: string, action: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw machineError(e, at, action);
  }
}

/**
 * What is at the output path (or the files folder's, with `filesFolder`): nothing, or a folder. A
 * symbolic link, a file or a mount point is refused with one line: the swap would replace it, and a
 * link's target is not the synth's to delete.
 */
export function inspect(target: string, filesFolder = false): FoundOutput {
  let stat: fs.Stats | undefined;
  try {
    stat = lstatIfAny(target);
  } catch (e) {
    throw machineError(e, target, filesFolder ? 'read the files folder' : 'read the output folder');
  }
  if (stat === undefined) {
    return { exists: false };
  }
  // The output folder's place is the user's to choose; the files folder's is fixed, beside it.
  const fix = (outdirFix: string) => (filesFolder ? `move it away: synth writes its files folder ${path.basename(target)} beside the output folder, as a folder of its own` : outdirFix);
  if (stat.isSymbolicLink()) {
    const to = fsStep(target, 'read the link', () => fs.readlinkSync(target));
    throw new ClusterTlsError(`${displayPath(target)}: received a symbolic link (to ${displayPath(path.resolve(path.dirname(target), to))}); expected a folder: `
      + `synth replaces the ${filesFolder ? 'files' : 'output'} folder whole and never writes through a link: ${fix('set the output folder (outdir, CDK8S_OUTDIR) to the folder the link points to')}`);
  }
  if (!stat.isDirectory()) {
    throw new ClusterTlsError(`${displayPath(target)}: received a file that is not a folder; expected the ${filesFolder ? 'files' : 'output'} folder: `
      + fix('move the file away, or set the output folder (outdir, CDK8S_OUTDIR) to another path'));
  }
  if (stat.dev !== fsStep(target, 'read the folder that holds the output folder', () => fs.statSync(path.dirname(target))).dev) {
    throw new ClusterTlsError(`${displayPath(target)}: received a mount point as the ${filesFolder ? 'files' : 'output'} folder; expected a folder on the same file system as the folder that holds it, `
      + `since the swap renames it: ${fix('set the output folder (outdir, CDK8S_OUTDIR) to a folder inside the mounted one')}`);
  }
  return { exists: true };
}

/** Whether `inner` is `outer` or below it (compare real paths, see {@link realPath}, where links may lead elsewhere). */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** A path with the links of its folder resolved (the folder must exist), for comparing places. */
export function realPath(p: string): string {
  const folder = path.dirname(path.resolve(p));
  try {
    return path.join(fs.realpathSync(folder), path.basename(p));
  } catch {
    return path.resolve(p);
  }
}

/** A small file's text, undefined when it does not exist; refused past its bound or when not a regular file. */
export function readSmall(file: string): string | undefined {
  try {
    return readBounded(file, READ_LIMITS.small);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
  }
}

/** What a path is, itself (a link is not followed); undefined when nothing is there. */
function lstatIfAny(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
  }
}

/** Whether a path exists, itself (a link is not followed). */
export function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Deletes what is at a path, if anything, ignoring failures: its name is a swap's own, and the next run deletes what is left. */
export function removeQuietly(p: string | undefined): void {
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
export function removeTree(p: string): void {
  const stat = lstatIfAny(p);
  if (stat === undefined) {
    return;
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
