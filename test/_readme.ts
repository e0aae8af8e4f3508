/**
 * The fenced code blocks of README.md, for the tests that compile and follow them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** README.md of the project. */
export const README = path.join(__dirname, '..', 'README.md');

/** One fenced block of README.md. */
export interface ReadmeBlock {
  /** The line of its opening fence (1-based). */
  readonly line: number;
  /** The language after the fence (`ts`, `sh`, `yaml`), or '' for none. */
  readonly lang: string;
  /** The heading (`## …` or `### …`) above it. */
  readonly section: string;
  /**
   * The file the block is, when its first line names one (`// main.ts`, `# cdk8s.yaml`): such a
   * block is a whole file, not a fragment.
   */
  readonly file?: string;
  /** The text between the fences, with a final newline. */
  readonly text: string;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(text = fs.readFileSync(README, 'utf8')): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let section = '';
  let open: { line: number; lang: string; lines: string[] } | undefined;
  text.split('\n').forEach((line, i) => {
    if (open) {
      if (line === '```') {
        const body = `${open.lines.join('\n')}\n`;
        const file = /^(?:\/\/|#) ([\w.-]+\.(?:ts|ya?ml|json))$/.exec(open.lines[0] ?? '')?.[1];
        blocks.push({ line: open.line, lang: open.lang, section, file, text: body });
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
    throw new Error(`README.md:${open.line}: a code block is never closed`);
  }
  return blocks;
}
