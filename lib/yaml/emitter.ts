/**
 * The library's YAML writer: the bytes `yaml`'s `stringify` writes for YAML 1.1 with its default
 * layout (block collections indented by two, sequences indented under their key), with every
 * string that a YAML 1.1 or 1.2 reader would take for another value quoted (`yaml` alone writes
 * `0o17` and `<<` plain), written directly for the shapes the library emits: maps and lists of
 * plain data holding the scalars `scalars.ts` proves. Any other document (a value outside that
 * subset, an object that appears twice and would get an anchor, a line `yaml` would fold, a key
 * `yaml` would write explicitly) is handed whole to `yaml`, its misread strings marked to be
 * quoted ({@link yamlDocument}).
 *
 * The manifests go through {@link stringifyManifests}, which writes what cdk8s's `Yaml.stringify`
 * writes; the chart values and migration files through {@link stringifyYaml}.
 */
import * as YAML from 'yaml';
import { keyScalar, literalBlock, readsAsOtherType, scalar } from './scalars';

/** Options of {@link stringifyYaml}: those of `yaml`'s `stringify` the library uses. */
export interface YamlOptions {
  /**
   * Whether a map entry whose value is `undefined` is written (as `null`) rather than left out.
   * @default false
   */
  readonly keepUndefined?: boolean;
  /**
   * The column past which `yaml` folds long strings; 0 never folds.
   * @default 80
   */
  readonly lineWidth?: number;
}

/** The options cdk8s's `Yaml.stringify` passes to `yaml` for each manifest document. */
export const MANIFEST_OPTIONS: YamlOptions = { keepUndefined: true, lineWidth: 0 };

/** `yaml` writes a key longer than this as an explicit key (`? key`), which the emitter does not. */
const LONGEST_IMPLICIT_KEY = 1000;

/** Free columns kept before the line width, so that a line the emitter writes is surely not folded. */
const FOLD_MARGIN = 4;

/** The state of one document being written. */
interface Writer {
  /** The lines written so far, joined at the end (one flat string rather than a rope of pieces). */
  readonly parts: string[];
  /** Collections already written: a second sighting is an alias in `yaml`'s output. */
  readonly seen: Set<object>;
  readonly keepUndefined: boolean;
  readonly lineWidth: number;
}

/** Whether a value is a plain object (as `JSON.parse` makes them) rather than a class instance. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether a map has no entry to write (none, or only `undefined` values that are left out). */
function isEmptyMap(w: Writer, map: Record<string, unknown>): boolean {
  for (const key in map) {
    if (Object.prototype.hasOwnProperty.call(map, key) && (w.keepUndefined || map[key] !== undefined)) {
      return false;
    }
  }
  return true;
}

/**
 * Writes a scalar after `lead`, on its line, or a string of several lines as a literal block
 * whose lines are indented by `indent`; false when it is not proven or could be folded there.
 */
function writeScalar(w: Writer, lead: string, value: unknown, indent: string): boolean {
  if (typeof value === 'string' && value.includes('\n')) {
    return writeText(w, lead, literalBlock(value, indent, w.lineWidth));
  }
  const text = scalar(value);
  // A string that would reach past the line width would be folded by `yaml`.
  const folded = w.lineWidth > 0 && typeof value === 'string' && text !== undefined && lead.length + 1 + text.length > w.lineWidth - FOLD_MARGIN;
  return writeText(w, lead, folded ? undefined : text);
}

/** Writes a scalar's text after `lead`; false when there is none to write. */
function writeText(w: Writer, lead: string, text: string | undefined): boolean {
  if (text === undefined) {
    return false;
  }
  w.parts.push(lead, ' ', text, '\n');
  return true;
}

/**
 * Writes a value after `lead` (`key:` in a map, `-` in a list): a scalar or an empty collection on
 * the same line; a non-empty collection below the key at `indent` (a list under a key is indented
 * under it, `key:` then `  - item`), or on the same line after a list's `- `, its next lines at
 * `indent`. Returns false when the document must go to `yaml`: a class instance, or a collection
 * seen before in this document.
 */
function writeValue(w: Writer, lead: string, value: unknown, indent: string, inList: boolean): boolean {
  if (value === null || typeof value !== 'object') {
    return writeScalar(w, lead, value, indent);
  }
  if (w.seen.has(value)) {
    return false;
  }
  w.seen.add(value);
  const list = Array.isArray(value);
  if (!list && !isPlainObject(value)) {
    return false;
  }
  if (list ? value.length === 0 : isEmptyMap(w, value as Record<string, unknown>)) {
    w.parts.push(lead, list ? ' []\n' : ' {}\n');
    return true;
  }
  let first = `${lead} `;
  if (!inList) {
    w.parts.push(lead, '\n');
    first = indent;
  }
  return list ? writeList(w, value, first, indent) : writeMap(w, value as Record<string, unknown>, first, indent);
}

/**
 * Writes the entries of a non-empty map, the first line starting with `first`, the others with
 * `indent`. Returns false when the document must go to `yaml`.
 */
function writeMap(w: Writer, map: Record<string, unknown>, first: string, indent: string): boolean {
  let prefix = first;
  const inner = `${indent}  `;
  for (const key of Object.keys(map)) {
    let value = map[key];
    if (value === undefined) {
      if (!w.keepUndefined) {
        continue;
      }
      value = null;
    }
    const k = keyScalar(key);
    if (k === undefined || k.length > LONGEST_IMPLICIT_KEY || !writeValue(w, `${prefix}${k}:`, value, inner, false)) {
      return false;
    }
    prefix = indent;
  }
  return true;
}

/**
 * Writes the items of a non-empty list, the first line starting with `first`, the others with
 * `indent`. Returns false when the document must go to `yaml`.
 */
function writeList(w: Writer, list: readonly unknown[], first: string, indent: string): boolean {
  const inner = `${indent}  `;
  const lead = `${indent}-`;
  for (let i = 0; i < list.length; i++) {
    // A hole or `undefined` in a list is written as null, whatever keepUndefined says.
    const item = list[i] === undefined ? null : list[i];
    if (!writeValue(w, i === 0 ? `${first}-` : lead, item, inner, true)) {
      return false;
    }
  }
  return true;
}

/**
 * The document written by the emitter alone, or `undefined` when it must go to `yaml`: the emitter
 * writes a map or a list at the top, `yaml` any other value. Exported for the tests, which check
 * how often it answers.
 */
export function emitYaml(value: unknown, options: YamlOptions): string | undefined {
  const parts: string[] = [];
  return emitInto(parts, value, options) ? parts.join('') : undefined;
}

/**
 * Writes the document of {@link emitYaml} at the end of `parts`, so that several documents make
 * one string with one join; false, with `parts` as it was, when the document must go to `yaml`.
 */
function emitInto(parts: string[], value: unknown, options: YamlOptions): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const w: Writer = { parts, seen: new Set([value]), keepUndefined: options.keepUndefined ?? false, lineWidth: options.lineWidth ?? 80 };
  const list = Array.isArray(value);
  if (!list && !isPlainObject(value)) {
    return false;
  }
  if (list ? value.length === 0 : isEmptyMap(w, value as Record<string, unknown>)) {
    parts.push(list ? '[]\n' : '{}\n');
    return true;
  }
  const start = parts.length;
  const ok = list ? writeList(w, value, '', '') : writeMap(w, value as Record<string, unknown>, '', '');
  if (!ok) {
    parts.length = start;
  }
  return ok;
}

/** The characters YAML 1.1 (and go-yaml) takes for line breaks, which YAML 1.2 and `yaml` do not, with their escapes. */
const LINE_BREAKS_OF_1_1: Readonly<Record<string, string>> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };
const LINE_BREAK_OF_1_1 = /[\u0085\u2028\u2029]/;

/**
 * Whether `yaml` would write a text of several lines as a block that a reader misreads, so that it
 * is double-quoted instead: blanks and line breaks alone, whose blanks a reader takes for
 * indentation (`" \n"` reads back as `"\n"`), or a tab anywhere, which go-yaml (kubectl's and
 * Helm's reader) refuses at the start of a block's line ("found a tab character where an
 * indentation space is expected").
 */
function misreadAsBlock(value: string): boolean {
  return value.includes('\n') && (value.includes('\t') || /^[ \n]*$/.test(value));
}

/**
 * A value as a `yaml` document for YAML 1.1, every string that a YAML 1.1 or 1.2 reader would
 * take for another value (`0o17`, `<<`, `yes`), or that holds a character YAML 1.1 takes for a
 * line break (U+0085, U+2028, U+2029), or that `yaml` would write as a block a reader
 * misreads (see `misreadAsBlock`), marked to be double-quoted, keys included. `<<` is a
 * string here, never the merge key `yaml` would write plain whatever the mark.
 */
export function yamlDocument(value: unknown, options: YamlOptions = {}): YAML.Document {
  const doc = new YAML.Document(value, { keepUndefined: options.keepUndefined, version: '1.1' });
  doc.schema.tags = doc.schema.tags.filter((tag) => tag.tag !== 'tag:yaml.org,2002:merge');
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && (readsAsOtherType(node.value) || LINE_BREAK_OF_1_1.test(node.value) || misreadAsBlock(node.value))) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  return doc;
}

/**
 * A `yaml` document as text, the characters YAML 1.1 takes for line breaks escaped: {@link
 * yamlDocument} double-quotes every string that holds one, where `yaml` writes it as it is and a
 * YAML 1.1 reader would fold it into a space; in a comment an escape is text, and no break.
 */
export function documentText(doc: YAML.Document, lineWidth?: number): string {
  const text = doc.toString(lineWidth === undefined ? {} : { lineWidth });
  return LINE_BREAK_OF_1_1.test(text) ? text.replace(/[\u0085\u2028\u2029]/g, (c) => LINE_BREAKS_OF_1_1[c]) : text;
}

/**
 * A value as YAML 1.1, as `YAML.stringify(value, { ...options, version: '1.1' })` writes it with
 * every string a YAML 1.1 or 1.2 reader would misread quoted: by the emitter when the value is in
 * its proven subset, else by `yaml` itself through {@link yamlDocument}.
 */
export function stringifyYaml(value: unknown, options: YamlOptions = {}): string {
  return emitYaml(value, options) ?? documentText(yamlDocument(value, options), options.lineWidth);
}

/**
 * Manifest documents as one YAML file, laid out as cdk8s's `Yaml.stringify(...docs)` writes them:
 * each document with {@link MANIFEST_OPTIONS}, an `undefined` document as an empty line, joined
 * by `---` lines.
 */
export function stringifyManifests(docs: readonly unknown[]): string {
  const parts: string[] = [];
  docs.forEach((d, i) => {
    if (i > 0) {
      parts.push('---\n');
    }
    if (d === undefined) {
      parts.push('\n');
    } else if (!emitInto(parts, d, MANIFEST_OPTIONS)) {
      parts.push(documentText(yamlDocument(d, MANIFEST_OPTIONS), MANIFEST_OPTIONS.lineWidth));
    }
  });
  return parts.join('');
}
