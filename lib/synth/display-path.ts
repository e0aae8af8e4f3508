/**
 * Paths and names as a one-line message shows them: relative to the working folder when inside
 * it, quoted when a control character would split the line, and never repeated when they hold a
 * URL's user name or password. Below every other module of the writer, which all report paths.
 */
import * as path from 'node:path';
import { hasCredentials } from '../model/errors';

/** A name as a message shows it: as it is, or quoted when a line break or other control character would split the one-line message. */
export function shownName(name: string): string {
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name;
}

/**
 * A path as a message shows it: relative to the working folder when inside it, quoted when it
 * holds a control character, and never repeated when it holds a URL's user name or password (an
 * output folder named after a repository URL).
 */
export function displayPath(file: string): string {
  const shown = relativePath(file);
  return hasCredentials(shown) || pathHoldsCredentials(shown) ? 'a path with a user name or password in it (not repeated here)' : shownName(shown);
}

/**
 * Whether a path holds a URL's user information below its first folder (a folder named after a
 * repository URL, `…/https:/user:token@host/…`): a folder name `user:password@host`, or a name with
 * an '@' right after a folder named like a scheme (`https:`).
 */
function pathHoldsCredentials(file: string): boolean {
  const parts = file.split(/[/\\]/);
  return parts.some((part, i) => /^[^@]*:[^@]*@/.test(part) || (part.includes('@') && i > 0 && /^[a-z][a-z0-9+.-]*:$/i.test(parts[i - 1])));
}

/** A path relative to the working folder when inside it, else as given: for a received value, which `describeValue` quotes and masks. */
export function relativePath(file: string): string {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    // The working folder was deleted: the path as given.
    return file;
  }
  const relative = path.relative(cwd, file);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
