/**
 * Reading files that may have been changed outside the library (a record, a verify report, a plan,
 * a Secret list, standard input) with a size bound: a file that never ends (`/dev/zero`, a pipe left open) is
 * refused instead of filling memory, and a file the library finds by its name must be a regular
 * file, so that a named pipe put in its place cannot make a synth wait forever. Each bound sits
 * far above what a real file of its kind holds.
 */
import { FILE_MAX } from './limits';
import * as fs from 'node:fs';

/** The bounds, in bytes, by what is read. */
export const READ_LIMITS = {
  /** The record of settings fixed at creation: a few hundred bytes per cluster. */
  record: 16 * 1024 * 1024,
  /** A verify report: a few hundred bytes per Secret. */
  verifyReport: 64 * 1024 * 1024,
  /** A Secret and pod list from kubectl: a few KiB per object, thousands of objects. */
  kubectlList: 256 * 1024 * 1024,
  /** A manifest or a certificate plan of the output folder. */
  outputFile: FILE_MAX,
  /** etcdctl's member list of a coordinator: a line of about two hundred bytes per member. */
  membersFile: 1024 * 1024,
  /** The marker, lock and journal files: a few hundred bytes, a file list at most. */
  small: 4 * 1024 * 1024,
} as const;

/** A size as a message gives it. */
function size(limit: number): string {
  return limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`;
}

/**
 * Input the library refuses to read whole: its message says what was received (`a file larger
 * than 16 MiB`, `a named pipe, not a regular file`), for a one-line error.
 */
export class UnreadableInputError extends Error {
  constructor(received: string) {
    super(received);
    this.name = 'UnreadableInputError';
  }
}

/** Input past its size bound. */
export class TooLargeError extends UnreadableInputError {
  constructor(public readonly limit: number, what = 'a file') {
    super(`${what} larger than ${size(limit)}`);
    this.name = 'TooLargeError';
  }
}

/** What a file that is not a regular one is. */
function kind(stat: fs.Stats): string {
  return stat.isFIFO() ? 'a named pipe' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : stat.isSocket() ? 'a socket'
    : stat.isDirectory() ? 'a folder' : 'something';
}

/** Options of {@link readBounded}. */
export interface BoundedReadOptions {
  /**
   * Whether anything but a regular file is refused: a file the library finds by name (a record, a
   * journal, a report) must be one; a file the user names on the command line (`--secrets
   * <(kubectl …)`) may be a pipe or a device.
   * @default true
   */
  readonly regularOnly?: boolean;
}

/**
 * A file's text, refused with an {@link UnreadableInputError} past `limit` bytes or, unless told
 * otherwise, when it is not a regular file; the errors of the system as they come.
 */
export function readBounded(file: string, limit: number, options: BoundedReadOptions = {}): string {
  const regularOnly = options.regularOnly ?? true;
  // Opened without waiting: a named pipe with no writer would otherwise block the open itself.
  const fd = fs.openSync(file, regularOnly ? fs.constants.O_RDONLY | fs.constants.O_NONBLOCK : 'r');
  try {
    const stat = fs.fstatSync(fd);
    if (regularOnly && !stat.isFile()) {
      throw new UnreadableInputError(`${kind(stat)}, not a regular file`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(Math.min(limit + 1, 1024 * 1024));
    for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) {
      total += n;
      if (total > limit) {
        throw new TooLargeError(limit);
      }
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** A stream's text (standard input), refused with a {@link TooLargeError} past `limit` bytes. */
export async function readStreamBounded(stream: AsyncIterable<Buffer | string>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.from(chunk);
    total += buffer.length;
    if (total > limit) {
      throw new TooLargeError(limit, 'input');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
