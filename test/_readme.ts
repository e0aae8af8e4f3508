/**
 * The fenced code blocks of the project's documents (README.md, CONTRIBUTING.md and every
 * docs/**\/*.md), for the tests that compile, run and check them. Tests find a block by the heading
 * of its section, which is unique across the documents.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository's root. */
export const ROOT = path.join(__dirname, '..');

/** README.md of the project. */
export const README = path.join(ROOT, 'README.md');

/** One fenced block of a document. */
export interface DocBlock {
  /** The document, relative to the repository's root (`README.md`, `docs/how-to/cfssl.md`). */
  readonly doc: string;
  /** The line of its opening fence (1-based). */
  readonly line: number;
  /** The language after the fence (`ts`, `sh`, `yaml`), or '' for none. */
  readonly lang: string;
  /** The heading (`## …` or `### …`) above it, in its document. */
  readonly section: string;
  /**
   * The file the block is, when its first line names one (`// main.ts`, `# cdk8s.yaml`): such a
   * block is a whole file, not a fragment.
   */
  readonly file?: string;
  /** The text between the fences, with a final newline. */
  readonly text: string;
}

/**
 * The documents, relative to the repository's root: README.md, CONTRIBUTING.md, then every
 * `.md` file below docs/, sorted.
 */
export function documents(): string[] {
  const docsDir = path.join(ROOT, 'docs');
  const docs = fs.existsSync(docsDir)
    ? fs.readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md') && fs.statSync(path.join(docsDir, f)).isFile())
      .map((f) => path.posix.join('docs', ...f.split(path.sep)))
      .sort()
    : [];
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((doc) => fs.existsSync(path.join(ROOT, doc)));
}

/** Every fenced block of one document's text (README.md's by default), in order; errors name `<doc>:<line>`. */
export function readmeBlocks(text = fs.readFileSync(README, 'utf8'), doc = 'README.md'): DocBlock[] {
  const blocks: DocBlock[] = [];
  let section = '';
  let open: { line: number; lang: string; lines: string[] } | undefined;
  text.split('\n').forEach((line, i) => {
    if (open) {
      if (line === '```') {
        const body = `${open.lines.join('\n')}\n`;
        const file = /^(?:\/\/|#) ([\w.-]+\.(?:ts|ya?ml|json))$/.exec(open.lines[0] ?? '')?.[1];
        blocks.push({ doc, line: open.line, lang: open.lang, section, file, text: body });
        open = undefined;
      } else {
        open.lines.push(line);
      }
    } else if (line.startsWith('```')) {
      open = { line: i + 1, lang: line.slice(3).trim(), lines: [] };
    } else if (/^#{2,3} /.test(line)) {
      section = line.replace(/^#+ /, '');
    }
  });
  if (open) {
    throw new Error(`${doc}:${open.line}: a code block is never closed`);
  }
  return blocks;
}

/** Every fenced block of every document, in the order of {@link documents}. */
export function docBlocks(): DocBlock[] {
  return documents().flatMap((doc) => readmeBlocks(fs.readFileSync(path.join(ROOT, doc), 'utf8'), doc));
}
