/**
 * Writing an output folder whole, through {@link OutputSwap}: the files go to a staging folder
 * beside it, which then takes its place, so that a failure or a kill leaves the previous content.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClusterTlsError, describeValue } from '../model/errors';
import { displayPath } from './display-path';
import { checkNoKeyMaterial } from './guards';
import { machineError } from './machine-errors';
import { OutputSwap } from './output-swap';

/** A file of the synthesized output. */
export interface RenderedFile {
  /** Path relative to its folder, with '/' separators: the output folder for a manifest, the files folder for any other file. */
  readonly path: string;
  /** The content. */
  readonly content: string;
  /** Whether the file is executable. */
  readonly executable: boolean;
}

/**
 * Writes rendered files to `outdir`, replacing its previous content only when every file was
 * written. One call at a time per folder (a lock file beside it); a call killed half-way is
 * finished or undone by the next. On failure (an error writing, or one thrown by `files` while it
 * makes the next file) the previous content is left as it was. `files` is read once, one file at
 * a time, so a generator that renders each file as it is asked for keeps only one file in memory.
 * An output path that is a symbolic link or a file is refused, as is a folder holding keys or
 * certificates (which the swap would delete) and a file path that would leave the folder.
 */
export function writeOutput(outdir: string, files: Iterable<RenderedFile>): void {
  const swap = OutputSwap.open(outdir);
  try {
    if (swap.output.exists) {
      // No list of what it will write is known ahead: no key of any name is deleted.
      checkNoKeyMaterial(swap.target, new Set());
    }
    swap.commit(insideOutput(files));
  } finally {
    swap.close();
  }
}

/** The files, each refused in one line when its path would leave the output folder. */
function* insideOutput(files: Iterable<RenderedFile>): Generator<RenderedFile> {
  for (const file of files) {
    const parts = typeof file.path === 'string' ? file.path.split('/') : [];
    if (parts.length === 0 || file.path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) {
      throw new ClusterTlsError(`writeOutput: path: received ${describeValue(file.path)}; expected a relative path inside the output folder, with '/' separators`);
    }
    yield file;
  }
}

/** Copies files from one folder into another, keeping what else the other holds (as `App.synth()` writes its manifests). */
export function copyFiles(from: string, to: string, files: readonly string[]): void {
  for (const file of files) {
    const dest = path.join(to, ...file.split('/'));
    try {
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(path.join(from, ...file.split('/')), dest);
    } catch (e) {
      throw machineError(e, dest, 'copy the manifest into the cdk8s CLI\'s output folder', `the output folder ${displayPath(from)} and its record are written; only the CLI's copy is not`);
    }
  }
}

/** Writes rendered files into the cdk8s CLI's output folder, beside the manifests copied there. */
export function writeFilesInto(to: string, files: readonly RenderedFile[]): void {
  for (const file of files) {
    const dest = path.join(to, ...file.path.split('/'));
    try {
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, file.content);
    } catch (e) {
      throw machineError(e, dest, 'write a file into the cdk8s CLI\'s output folder', `the output folder and its record are written; only the CLI's copy is not`);
    }
  }
}
