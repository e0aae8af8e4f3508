/**
 * Props as trees of plain values for the bad-input and hostile-input tests: the references
 * between constructs (`$certs`, `$db`) resolved as the constructs are made, and a folder's files
 * read whole to compare before and after a refused synth.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A function that copies a tree of props, each string naming a key of `refs` replaced by what
 * `refs` holds when it is called. Values that are not plain data (functions, symbols, class
 * instances, objects with getters) pass on as they are, cycles stay cycles; with `dropUndefined`,
 * a key whose value is undefined is left out of the copy.
 */
export function propResolver(refs: Readonly<Record<string, unknown>>, options: { readonly dropUndefined?: boolean } = {}): (v: any) => any {
  const copies = new Map<unknown, unknown>();
  const resolve = (v: any): any => {
    if (typeof v === 'string') {
      return v in refs ? refs[v] : v;
    }
    if (typeof v !== 'object' || v === null || ![Object.prototype, Array.prototype].includes(Object.getPrototypeOf(v))
      || Object.values(Object.getOwnPropertyDescriptors(v)).some((d) => !('value' in d))) {
      return v;
    }
    if (!copies.has(v)) {
      const copy: any = Array.isArray(v) ? [] : {};
      copies.set(v, copy);
      for (const [k, x] of Object.entries(v)) {
        if (x !== undefined || !options.dropUndefined) {
          copy[k] = resolve(x);
        }
      }
    }
    return copies.get(v);
  };
  return resolve;
}

/** Every file below a folder, by relative path, with its bytes as text. */
export function filesBelow(parent: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(parent, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => [path.relative(parent, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), 'latin1')]));
}
