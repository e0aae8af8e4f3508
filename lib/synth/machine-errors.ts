/**
 * Failures of the machine (a full disk, a read-only file system, a permission, a name too long)
 * as one line that names the path and what to do, with the system's error kept as `cause`.
 */
import { ClusterTlsError } from '../model/errors';
import { displayPath } from './display-path';

/** What to do about each error code of the file system. */
const ADVICE: Readonly<Record<string, string>> = {
  ENOSPC: 'the file system is full: free space on it and synthesize again',
  EDQUOT: 'the disk quota is used up: free space and synthesize again',
  EROFS: 'the file system is read-only: synthesize into a writable folder (outdir, CDK8S_OUTDIR)',
  EACCES: 'permission denied: give this user write access to the folder, or synthesize into another one',
  EPERM: 'the operation is not permitted: give this user write access to the folder, or synthesize into another one',
  ENAMETOOLONG: 'a file name is too long for the file system: shorten the chart, namespace or cluster name that makes it',
  ENOTDIR: 'a file stands where a folder belongs: move it away, or synthesize into another folder',
  EISDIR: 'a folder stands where a file belongs: move it away, or synthesize into another folder',
  EEXIST: 'something stands where a new entry belongs: move it away, or synthesize into another folder',
  ENOTEMPTY: 'a folder that should be gone still holds files: move them away and synthesize again',
  EMFILE: 'too many files are open: raise the limit (ulimit -n) and synthesize again',
  ENFILE: 'too many files are open on this machine: synthesize again when fewer are',
  EIO: 'the disk reported an input/output error: check the disk, then synthesize again',
  EBUSY: 'the path is in use (a mount point?): synthesize into another folder',
  EXDEV: 'the output folder and what is beside it are on different file systems: synthesize into a folder on one file system',
  ELOOP: 'too many symbolic links: synthesize into a folder reached without links',
};

/** Whether an error is the file system's (carries an errno code). */
export function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * The one-line error of a failed file-system step: `<path>: cannot <action> (<code>): <what to do>; <outcome>`.
 * A user error passes through unchanged; any other error that is not the file system's is a fault,
 * returned as it is to keep its stack.
 */
export function machineError(e: unknown, at: string, action: string, outcome = 'the previous output is as it was'): Error {
  if (e instanceof ClusterTlsError || !isSystemError(e)) {
    return e as Error;
  }
  const code = e.code!;
  // The system's message is not repeated: it holds the raw path, which may hold a credential.
  const advice = ADVICE[code] ?? `the system refused it (${e.syscall}); check the path and synthesize again`;
  return new ClusterTlsError(`${displayPath(at)}: cannot ${action} (${code}): ${advice}; ${outcome}`, { cause: e });
}
