/** Finds synthesized objects by kind and name, never by position. */
import * as YAML from 'yaml';
import { parseOutputPath } from '../lib/model/output-layout';

/** The one object of `kind` named `name`; fails the test when there is not exactly one. */
export function findObject(objects: readonly any[], kind: string, name: string): any {
  const found = objects.filter((o) => o.kind === kind && o.metadata?.name === name);
  if (found.length !== 1) {
    throw new Error(`expected one ${kind} named ${name}, found ${found.length}; have: ${objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(', ')}`);
  }
  return found[0];
}

/** The names of the objects of one kind, sorted. */
export function namesOf(objects: readonly any[], kind: string): string[] {
  return objects.filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
}

/**
 * The objects of the one-off operations (Backup, Restore) among rendered files of the files folder:
 * `<namespace>/<cluster>/operations/<name>.yaml`, read by the layout's own parser.
 */
export function operationsOf(files: readonly { path: string; content: string }[]): any[] {
  return files.filter((f) => parseOutputPath(f.path)?.file === 'operation').flatMap((f) => YAML.parseAllDocuments(f.content).map((d) => d.toJSON()));
}
