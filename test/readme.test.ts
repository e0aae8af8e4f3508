import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { DocBlock, README, docBlocks, readmeBlocks } from './_readme';
import { TLS_PLAN_VERSION } from '../lib/plan/certificate-options';

const ROOT = path.join(__dirname, '..');
/** Where the blocks are placed, virtually: inside the project, so that its packages resolve. */
const BLOCKS_DIR = path.join(ROOT, 'test', '.readme-blocks');

/**
 * What the documents' fragments take from the examples of their sections (an app, a chart, the
 * certificates and the database cluster of `demo`). A global script, so that a fragment (a module)
 * that declares one of these names itself shadows it without a clash.
 */
const CONTEXT = `
declare const app: import('cdk8s').App;
declare const demo: import('cdk8s').Chart;
declare const chart: import('cdk8s').Chart;
declare const certs: import('cdk8s-cluster-tls').ClusterCertificates;
declare const database: import('cdk8s-cluster-tls').TlsDatabaseCluster;
`;

/**
 * The test's compiler options, with `cdk8s-cluster-tls` resolved to the declarations the package
 * publishes (its `types`, jsii's build, which the suite brings up to date first): what an app
 * compiles against. Checking against the declarations rather than the sources took a tenth of the time.
 */
function compilerOptions(types: string[]): ts.CompilerOptions {
  const tsconfig = path.join(ROOT, 'test', 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(tsconfig, ts.sys.readFile).config, ts.sys, path.dirname(tsconfig));
  const published = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { types: string }).types;
  return { ...parsed.options, noEmit: true, types, baseUrl: ROOT, paths: { 'cdk8s-cluster-tls': [published] } };
}

/** Type-checks virtual files (name → text) and returns every diagnostic, located in its document (`<doc>:<line>`). */
function typeCheck(files: ReadonlyMap<string, { text: string; block?: DocBlock }>, types = ['node']): string[] {
  const options = compilerOptions(types);
  const host = ts.createCompilerHost(options);
  const virtual = new Map([...files].map(([name, f]) => [path.join(BLOCKS_DIR, name), f]));
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  const { directoryExists } = host;
  host.directoryExists = (d) => [...virtual.keys()].some((f) => f.startsWith(`${d}${path.sep}`)) || (directoryExists?.call(host, d) ?? true);
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
    return block ? `${block.doc}:${block.line + 1 + line}: ${text}` : `${path.relative(ROOT, d.file.fileName)}:${line + 1}: ${text}`;
  });
}

// The declarations the fragments compile against are jsii's build of the sources as they are now:
// scripts/compile-jsii.sh does nothing when it is current (npm test ran it), and makes it otherwise.
beforeAll(() => {
  const compiled = spawnSync(path.join(ROOT, 'scripts', 'compile-jsii.sh'), [], { cwd: ROOT, encoding: 'utf8' });
  expect({ status: compiled.status, stderr: compiled.stderr }).toMatchObject({ status: 0 });
}, 300_000);

const blocks = docBlocks();
const typescript = blocks.filter((b) => b.lang === 'ts');

describe('the documents (README.md, CONTRIBUTING.md, docs/)', () => {
  test('README.md states the plan version the library writes', () => {
    expect(fs.readFileSync(README, 'utf8')).toContain(`its \`version\` (now ${TLS_PLAN_VERSION}) changes whenever a`);
  });

  test('marks every code block with a language the tests know, and has TypeScript blocks to compile', () => {
    // python and java, and go in *Python, Go and Java* (docs/how-to/languages.md), are excerpts of
    // examples/, which test/languages.test.ts checks and runs; jsonc and text are the tutorial's
    // (docs/tutorial.md), which test/tutorial.test.ts reads.
    const known = ['', 'go', 'java', 'jsonc', 'python', 'sh', 'sql', 'text', 'ts', 'yaml'];
    expect([...new Set(blocks.map((b) => b.lang))].filter((lang) => !known.includes(lang)).map((lang) => {
      const first = blocks.find((b) => b.lang === lang)!;
      return `${first.doc}:${first.line}: ${lang}`;
    })).toEqual([]);
    expect(typescript.length).toBeGreaterThanOrEqual(8);
  });

  test('every TypeScript fragment compiles in strict mode against the library, each continuing the examples before it', () => {
    const fragments = typescript.filter((b) => b.file === undefined);
    const files = new Map<string, { text: string; block?: DocBlock }>([['context.d.ts', { text: CONTEXT }]]);
    // `export {}` makes each fragment a module of its own, as each would be in an app.
    fragments.forEach((block) => files.set(`${block.doc.replace(/\W+/g, '-')}-line-${block.line}.ts`, { text: `${block.text}export {};\n`, block }));
    expect(typeCheck(files)).toEqual([]);
  }, 120_000);

  test('every TypeScript file it shows compiles in strict mode with the files of its section, without the fragments\' context', () => {
    const whole = typescript.filter((b) => b.file !== undefined);
    // README.md's app and the cdk8s init guide's, which test/consumer.test.ts runs; the span guides',
    // which test/span.test.ts and test/span-kept-root.test.ts run; the tutorial's (docs/tutorial.md)
    // besides, which test/tutorial.test.ts runs.
    expect(whole.filter((b) => b.doc !== 'docs/tutorial.md').map((b) => `${b.doc}: ${b.section}: ${b.file}`)).toEqual([
      'README.md: Use it in your app: main.ts',
      'docs/how-to/across-kubernetes-clusters.md: 1. Declare the span once: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: 1. Declare the span once: main.ts',
      'docs/how-to/across-kubernetes-clusters.md: 7. Add a Kubernetes cluster later: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: 9. Replace the root: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: 9. Replace the root: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: 9. Replace the root: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: A namespace of its own in each Kubernetes cluster: clusters.ts',
      'docs/how-to/across-kubernetes-clusters.md: A namespace of its own in each Kubernetes cluster: main.ts',
      'docs/how-to/cdk8s-init.md: Starting from `cdk8s init typescript-app`: chart.ts',
      'docs/how-to/cdk8s-init.md: Starting from `cdk8s init typescript-app`: main.ts',
      'docs/how-to/cdk8s-init.md: Starting from `cdk8s init typescript-app`: main.test.ts',
      'docs/how-to/root-in-cert-manager.md: 1. Declare the span, and where its root is kept: clusters.ts',
      'docs/how-to/root-in-cert-manager.md: 1. Declare the span, and where its root is kept: main.ts',
    ]);
    for (const section of new Set(whole.map((b) => b.section))) {
      // One folder per section: its files import one another, as they do in one app.
      const files = new Map(whole.filter((b) => b.section === section).map((block) => [path.join(section.replace(/\W+/g, '-'), block.file!), { text: block.text, block }]));
      expect(typeCheck(files, [...files.keys()].some((f) => f.endsWith('.test.ts')) ? ['node', 'jest'] : ['node'])).toEqual([]);
    }
  }, 120_000);
});

/**
 * The Go fragments of TLS for applications (docs/how-to/application-tls.md), each compiled as the
 * body of a function in a copy of the Go application the application-TLS tests run
 * (tools/control-plane/mysql-client), against its go-sql-driver/mysql. (The Go of *Python, Go and
 * Java* is an excerpt of examples/go.) Skipped, with the reason printed, where Go is missing outside CI.
 */
const hasGo = spawnSync('sh', ['-c', 'command -v go']).status === 0;
(hasGo || process.env.CI === 'true' ? test : test.skip)('every Go fragment of TLS for applications compiles against go-sql-driver/mysql', () => {
  const fragments = docBlocks().filter((b) => b.lang === 'go' && b.section !== 'Go');
  expect(fragments.length).toBeGreaterThanOrEqual(1);
  const module = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-go-'));
  try {
    for (const file of ['go.mod', 'go.sum']) {
      fs.copyFileSync(path.join(ROOT, 'tools', 'control-plane', 'mysql-client', file), path.join(module, file));
    }
    const body = fragments.map((b, i) => `func fragment${i}() (*sql.DB, error) {\n${b.text}\treturn db, err\n}\n`).join('\n');
    fs.writeFileSync(path.join(module, 'main.go'), `package main\n\nimport (\n\t"crypto/tls"\n\t"crypto/x509"\n\t"database/sql"\n\t"os"\n\n\t"github.com/go-sql-driver/mysql"\n)\n\n${body}\nfunc main() {}\n`);
    const built = spawnSync('go', ['vet', '.'], { cwd: module, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=readonly' } });
    expect({ status: built.status, errors: built.status === 0 ? '' : built.stderr }).toEqual({ status: 0, errors: '' });
  } finally {
    fs.rmSync(module, { recursive: true, force: true });
  }
}, 300_000);

test('blocks are read with their lines, sections and file names', () => {
  const text = ['# Title', '## Use it', '```ts', '// main.ts', 'x;', '```', '### More', '```yaml', '# demo/a.yaml', 'a: 1', '```'].join('\n');
  expect(readmeBlocks(text)).toEqual([
    { doc: 'README.md', line: 3, lang: 'ts', section: 'Use it', file: 'main.ts', text: '// main.ts\nx;\n' },
    { doc: 'README.md', line: 8, lang: 'yaml', section: 'More', file: undefined, text: '# demo/a.yaml\na: 1\n' },
  ]);
  expect(readmeBlocks(text, 'docs/how-to/x.md').map((b) => b.doc)).toEqual(['docs/how-to/x.md', 'docs/how-to/x.md']);
  expect(() => readmeBlocks('```ts\nx;\n')).toThrow('README.md:1: a code block is never closed');
  expect(() => readmeBlocks('```ts\nx;\n', 'docs/a.md')).toThrow('docs/a.md:1: a code block is never closed');
  expect(README.endsWith('README.md')).toBe(true);
});
