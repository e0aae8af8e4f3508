/**
 * Reading what the library did not write itself (a record, a verify report, a plan, a Secret list,
 * standard input) with a size bound: a file that never ends (`/dev/zero`, a pipe left open) is
 * refused instead of filling memory. Each bound sits far above what a real file of its kind holds.
 */
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
  outputFile: 64 * 1024 * 1024,
  /** The marker, lock and journal files: a few hundred bytes, a file list at most. */
  small: 4 * 1024 * 1024,
} as const;

/** The error of a read past its bound: its message is what was received, for a one-line error. */
export class TooLargeError extends Error {
  constructor(limit: number) {
    super(`larger than ${limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`}`);
    this.name = 'TooLargeError';
  }
}

/** A file's text, refused with {@link TooLargeError} past `limit` bytes; the errors of the system as they come. */
export function readBounded(file: string, limit: number): string {
  const fd = fs.openSync(file, 'r');
  try {
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

/** A stream's text (standard input), refused with {@link TooLargeError} past `limit` bytes. */
export async function readStreamBounded(stream: AsyncIterable<Buffer | string>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.from(chunk);
    total += buffer.length;
    if (total > limit) {
      throw new TooLargeError(limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
