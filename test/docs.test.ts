/**
 * The documents' shape: README.md short and for users, every relative link resolving, every
 * heading unique (tests find blocks by it), test internals kept to the contributors' documents,
 * and every command block either run by a named test or marked as not run, with the reason.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, docBlocks, documents } from './_readme';

/** The languages of command blocks: each must say whether a test runs it. */
const COMMAND_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
/** Where test internals may be described. */
const FOR_CONTRIBUTORS = (doc: string) => doc === 'CONTRIBUTING.md' || doc.startsWith('docs/development/');

const read = (doc: string) => fs.readFileSync(path.join(ROOT, doc), 'utf8');

/**
 * A document's lines with its fenced blocks and inline code blanked (line numbers kept), so that
 * links and headings are read from its prose only.
 */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
  });
}

/** The `##`/`###` headings of a document, with their lines. */
function headings(text: string): { line: number; level: number; text: string }[] {
  return prose(text).flatMap((line, i) => {
    const m = /^(#{1,6}) (.+)$/.exec(line);
    // The heading's own text, inline code included: read it from the document, not from the blanked line.
    return m ? [{ line: i + 1, level: m[1].length, text: text.split('\n')[i].replace(/^#+ /, '') }] : [];
  });
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as dashes. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a document's headings, with GitHub's suffixes for repeated ones. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(text)) {
    const base = anchor(h.text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every Markdown link of a document's prose (inline and reference definitions), with its line. */
function links(text: string): { line: number; target: string }[] {
  return prose(text).flatMap((line, i) => [
    ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({ line: i + 1, target: m[1] })),
    ...[...line.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map((m) => ({ line: i + 1, target: m[1] })),
  ]);
}

const DOCS = documents();

describe('README.md', () => {
  const lines = read('README.md').replace(/\n$/, '').split('\n');

  test('is at most 300 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  test('names, in its first 40 lines, what must already run in the cluster', () => {
    const first = lines.slice(0, 40).join('\n');
    expect(first).toContain('cert-manager');
    expect(first).toContain('prometheus-operator');
    // The database operator itself, not only prometheus-operator.
    expect(first).toMatch(/(?<!prometheus-)operator\b/);
  });
});

describe('the documents', () => {
  test('are README.md, CONTRIBUTING.md and docs/', () => {
    expect(DOCS.slice(0, 2)).toEqual(['README.md', 'CONTRIBUTING.md']);
    expect(DOCS).toContain('docs/README.md');
  });

  test('every relative link resolves to a file, and its anchor to a heading of that file', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const { line, target } of links(read(doc))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          continue; // https:, mailto:
        }
        const [file, hash] = target.split('#', 2);
        const resolved = file === '' ? path.join(ROOT, doc) : path.resolve(path.dirname(path.join(ROOT, doc)), decodeURIComponent(file));
        if (!fs.existsSync(resolved)) {
          broken.push(`${doc}:${line}: ${target}: no such file`);
        } else if (hash !== undefined && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(hash)) {
          broken.push(`${doc}:${line}: ${target}: no heading with that anchor in ${path.relative(ROOT, resolved)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test('no two sections share a heading, since tests find code blocks by it', () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const doc of DOCS) {
      for (const h of headings(read(doc)).filter((x) => x.level === 2 || x.level === 3)) {
        const first = seen.get(h.text);
        if (first) {
          repeated.push(`${doc}:${h.line}: "${h.text}" is also the heading at ${first}`);
        } else {
          seen.set(h.text, `${doc}:${h.line}`);
        }
      }
    }
    expect(repeated).toEqual([]);
  });

  test('only the contributors\' documents name the test files', () => {
    const found: string[] = [];
    for (const doc of DOCS.filter((d) => !FOR_CONTRIBUTORS(d))) {
      read(doc).split('\n').forEach((line, i) => {
        const text = line.replace(/<!-- (?:not )?run: .*? -->/g, '');
        if (/(?<![\w.-])test\/[\w.-]+/.test(text)) {
          found.push(`${doc}:${i + 1}: ${text.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  test('every command block is run by a test that names it, or marked not run with a reason', () => {
    const problems: string[] = [];
    for (const block of docBlocks().filter((b) => COMMAND_LANGUAGES.has(b.lang))) {
      const where = `${block.doc}:${block.line}`;
      const before = read(block.doc).split('\n')[block.line - 2] ?? '';
      const run = /^<!-- run: (test\/[\w.-]+\.test\.ts) -->$/.exec(before);
      const notRun = /^<!-- not run: (.*?) -->$/.exec(before);
      if (run) {
        const test = path.join(ROOT, run[1]);
        if (!fs.existsSync(test)) {
          problems.push(`${where}: ${run[1]} does not exist`);
        } else if (![block.section, block.doc].some((name) => name !== '' && fs.readFileSync(test, 'utf8').includes(name))) {
          problems.push(`${where}: ${run[1]} names neither the block's section "${block.section}" nor ${block.doc}, so it does not run this block`);
        } else if (!/\b(?:docBlocks|readmeBlocks|blocksOf)\(/.test(fs.readFileSync(test, 'utf8'))) {
          // A test that runs a block as written reads it from the document; one that only names it runs its own copy.
          problems.push(`${where}: ${run[1]} reads no block from the documents, so it does not run this one as written`);
        }
      } else if (notRun) {
        if (notRun[1].trim() === '') {
          problems.push(`${where}: a command block marked not run gives no reason`);
        }
      } else {
        problems.push(`${where}: a command block is neither run by a test nor marked not run`);
      }
    }
    expect(problems).toEqual([]);
  });
});
