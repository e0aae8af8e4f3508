import * as path from 'node:path';
import * as ts from 'typescript';
import { README, ReadmeBlock, readmeBlocks } from './_readme';

const ROOT = path.join(__dirname, '..');
/** Where the blocks are placed, virtually: inside the project, so that its packages resolve. */
const BLOCKS_DIR = path.join(ROOT, 'test', '.readme-blocks');

/**
 * What the README's fragments take from the examples before them. A global script, so that a
 * fragment (a module) that declares one of these names itself shadows it without a clash.
 */
const CONTEXT = `
declare const app: import('cdk8s').App;
declare const demo: import('cdk8s').Chart;
declare const chart: import('cdk8s').Chart;
declare const certs: import('cdk8s-cluster-tls').ClusterCertificates;
declare const database: import('cdk8s-cluster-tls').TlsDatabaseCluster;
`;

/** The test's compiler options, with `cdk8s-cluster-tls` resolved to the library's sources. */
function compilerOptions(): ts.CompilerOptions {
  const tsconfig = path.join(ROOT, 'test', 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(tsconfig, ts.sys.readFile).config, ts.sys, path.dirname(tsconfig));
  return { ...parsed.options, noEmit: true, types: ['node'], baseUrl: ROOT, paths: { 'cdk8s-cluster-tls': ['lib/index.ts'] } };
}

/** Type-checks virtual files (name → text) and returns every diagnostic, located in README.md. */
function typeCheck(files: ReadonlyMap<string, { text: string; block?: ReadmeBlock }>): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const virtual = new Map([...files].map(([name, f]) => [path.join(BLOCKS_DIR, name), f]));
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f)?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const v = virtual.get(f);
    return v ? ts.createSourceFile(f, v.text, language) : getSourceFile.call(host, f, language, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const block = d.file ? virtual.get(d.file.fileName)?.block : undefined;
    if (!d.file || d.start === undefined) {
      return text;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return block ? `README.md:${block.line + 1 + line}: ${text}` : `${path.relative(ROOT, d.file.fileName)}:${line + 1}: ${text}`;
  });
}

const blocks = readmeBlocks();
const typescript = blocks.filter((b) => b.lang === 'ts');

describe('README.md', () => {
  test('marks every code block with a language the tests know, and has TypeScript blocks to compile', () => {
    expect([...new Set(blocks.map((b) => b.lang))].sort()).toEqual(['', 'sh', 'ts', 'yaml']);
    expect(typescript.length).toBeGreaterThanOrEqual(8);
  });

  test('every TypeScript fragment compiles in strict mode against the library, each continuing the examples before it', () => {
    const fragments = typescript.filter((b) => b.file === undefined);
    const files = new Map<string, { text: string; block?: ReadmeBlock }>([['context.d.ts', { text: CONTEXT }]]);
    // `export {}` makes each fragment a module of its own, as each would be in an app.
    fragments.forEach((block) => files.set(`line-${block.line}.ts`, { text: `${block.text}export {};\n`, block }));
    expect(typeCheck(files)).toEqual([]);
  }, 120_000);

  test('every TypeScript file it shows compiles alone in strict mode, without the fragments\' context', () => {
    const whole = typescript.filter((b) => b.file !== undefined);
    expect(whole.map((b) => b.file)).toEqual(['main.ts']);
    for (const block of whole) {
      expect(typeCheck(new Map([[block.file!, { text: block.text, block }]]))).toEqual([]);
    }
  }, 120_000);
});

test('blocks are read with their lines, sections and file names', () => {
  const text = ['# Title', '## Use it', '```ts', '// main.ts', 'x;', '```', '### More', '```yaml', '# demo/a.yaml', 'a: 1', '```'].join('\n');
  expect(readmeBlocks(text)).toEqual([
    { line: 3, lang: 'ts', section: 'Use it', file: 'main.ts', text: '// main.ts\nx;\n' },
    { line: 8, lang: 'yaml', section: 'More', file: undefined, text: '# demo/a.yaml\na: 1\n' },
  ]);
  expect(() => readmeBlocks('```ts\nx;\n')).toThrow('README.md:1: a code block is never closed');
  expect(README.endsWith('README.md')).toBe(true);
});
