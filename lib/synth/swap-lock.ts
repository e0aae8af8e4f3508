/**
 * The lock of an output folder: one synth at a time. Written whole under a staging name and linked
 * into place only when no lock is there; a lock whose process is gone is taken over.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { ClusterTlsError } from '../model/errors';
import { displayPath, shownName } from './display-path';
import { machineError } from './machine-errors';
import { NONCE, SwapPaths, besideStaging, exists, fsStep, readSmall, removeQuietly } from './swap-files';

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
export const IDENTITY = {
  boot: procValue(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
  pidNamespace: procValue(() => fs.readlinkSync('/proc/self/ns/pid')),
};

/** Hard links are not offered by every file system; there the lock is created in place instead. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Takes the lock, or fails with one line naming the live synth that holds it. The lock is written
 * whole under a staging name, then linked into place, which fails when a lock is there: a lock is
 * never seen half-written.
 */
export function acquireLock(paths: SwapPaths, nonce: string): void {
  const content: LockContent = { pid: process.pid, host: os.hostname(), nonce, started: new Date().toISOString(), ...IDENTITY };
  const temporary = besideStaging(paths.staging(nonce), 'lock');
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
export function readLock(file: string): LockContent | 'gone' | 'foreign' {
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
  const aside = besideStaging(paths.staging(nonce), 'stale-lock');
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
export function releaseLock(paths: SwapPaths, nonce: string): void {
  const held = readLock(paths.lock);
  if (typeof held === 'object' && held.nonce === nonce) {
    try {
      fs.unlinkSync(paths.lock);
    } catch {
      // Left for the next run, as a killed synth's lock is.
    }
  }
}
