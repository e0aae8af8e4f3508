/** Output folders written by hand, laid out as a synth lays them out. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesFolderOf, parseOutputPath } from '../lib/model/output-layout';

/**
 * Whether a path of the layout belongs in the files folder rather than the output folder: a file
 * of a cluster's, or a folder below `<namespace>/<cluster>/`.
 */
export function belongsInFilesFolder(file: string, manifestExtension?: string): boolean {
  const is = parseOutputPath(file, manifestExtension)?.file;
  return is === undefined ? file.split('/').length >= 3 : is !== 'manifest' && is !== 'marker' && is !== 'construct-metadata';
}

/**
 * Writes files into `<root>/dist` and the files folder beside it as a synth lays them out (a
 * manifest, a marker or a path the layout does not know in the output folder, every other file in
 * the files folder); returns the output folder.
 */
export function writeLaidOut(root: string, files: Record<string, string>, manifestExtension?: string): string {
  const dist = path.join(root, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    const dest = path.join(belongsInFilesFolder(file, manifestExtension) ? filesFolderOf(dist) : dist, file);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, content);
  }
  return dist;
}

/** A file of a synthesized output by its layout path: from the files folder beside `outdir`, or from `outdir`. */
export function outputFile(outdir: string, file: string): string {
  return path.join(belongsInFilesFolder(file) ? filesFolderOf(outdir) : outdir, file);
}
