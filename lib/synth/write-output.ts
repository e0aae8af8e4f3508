/**
 * Writing an output folder whole: files go to a staging folder beside it, which then takes its
 * place, so that a failure leaves the previous content as it was.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A file of the synthesized output. */
export interface RenderedFile {
  /** Path relative to the output folder, with '/' separators. */
  readonly path: string;
  /** The content. */
  readonly content: string;
  /** Whether the file is executable. */
  readonly executable: boolean;
}

/**
 * Writes rendered files to `outdir`, replacing its previous content only when every file was
 * written: the files go to a staging folder beside it, which then takes its place. On failure
 * (an error writing, or one thrown by `files` while it makes the next file) the previous content
 * is left as it was. `files` is read once, one file at a time, so a generator that renders each
 * file as it is asked for keeps only one file in memory.
 */
export function writeOutput(outdir: string, files: Iterable<RenderedFile>): void {
  const target = path.resolve(outdir);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  // Made with the mode a new folder gets (0777 less the umask), as stock cdk8s makes the output folder.
  const staging = path.join(parent, `.${path.basename(target)}.staging-${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(staging);
  const folders = new Set<string>([staging]);
  try {
    // The umask, read off the new folder: a file's mode is set again only where the umask took bits off.
    const umask = ~fs.statSync(staging).mode & 0o777;
    for (const file of files) {
      const dest = path.join(staging, ...file.path.split('/'));
      const folder = path.dirname(dest);
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      const mode = file.executable ? 0o755 : 0o644;
      fs.writeFileSync(dest, file.content, { mode });
      if ((mode & umask) !== 0) {
        fs.chmodSync(dest, mode);
      }
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  const previous = fs.existsSync(target) ? `${staging}.previous` : undefined;
  if (previous) {
    fs.renameSync(target, previous);
  }
  try {
    fs.renameSync(staging, target);
  } catch (e) {
    if (previous) {
      fs.renameSync(previous, target);
    }
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  if (previous) {
    removeTree(previous);
  }
}

/**
 * Deletes a folder and everything below it, as `fs.rmSync(dir, { recursive: true })` does, but
 * with each entry's type taken from its folder's listing instead of asked for again entry by
 * entry: deleting the previous output is then one system call per file, not two.
 */
function removeTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeTree(entryPath);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      fs.unlinkSync(entryPath);
    } else {
      // A type the listing does not give (some file systems leave it unknown): ask Node.js.
      fs.rmSync(entryPath, { recursive: true, force: true });
    }
  }
  fs.rmdirSync(dir);
}


/** Copies files from one folder into another, keeping what else the other holds (as `App.synth()` writes its manifests). */
export function copyFiles(from: string, to: string, files: readonly string[]): void {
  for (const file of files) {
    const dest = path.join(to, ...file.split('/'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(from, ...file.split('/')), dest);
  }
}
