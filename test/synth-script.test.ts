import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * scripts/synth.js, run on a small project of its own: a copy of the script, a tsconfig.json,
 * two sources, and a `typescript` package whose `bin/tsc` logs each start and then runs the real
 * compiler, so the tests see whether the type check ran.
 */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-synth-script-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(__dirname, '..', 'scripts', 'synth.js'), path.join(dir, 'scripts', 'synth.js'));
  const bin = path.join(dir, 'node_modules', 'typescript', 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const realTsc = require.resolve('typescript/bin/tsc');
  fs.writeFileSync(path.join(bin, 'tsc'),
    `require('node:fs').appendFileSync(${JSON.stringify(path.join(dir, 'tsc.log'))}, 'tsc\\n');\nrequire(${JSON.stringify(realTsc)});\n`);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'commonjs', strict: true, types: [], composite: true,
      rootDir: '.', outDir: 'build', tsBuildInfoFile: 'build/.tsbuildinfo',
    },
    include: ['main.ts', 'src/**/*.ts'],
  }));
  fs.mkdirSync(path.join(dir, 'src'));
  writeSource(dir, 'export function greeting(name: string): string { return `hello ${name}`; }\n');
  fs.writeFileSync(path.join(dir, 'main.ts'), [
    'import { greeting } from \'./src/greet\';',
    'declare const console: { log(text: string): void };',
    'declare const process: { argv: string[] };',
    'console.log(greeting(process.argv[2] ?? \'world\'));',
    '',
  ].join('\n'));
  return dir;
}

function writeSource(dir: string, text: string): void {
  fs.writeFileSync(path.join(dir, 'src', 'greet.ts'), text);
}

function run(dir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [path.join(dir, 'scripts', 'synth.js'), ...args], { cwd: dir, encoding: 'utf8' });
  const log = path.join(dir, 'tsc.log');
  return {
    status: result.status,
    stdout: result.stdout,
    output: result.stdout + result.stderr,
    tscRuns: fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l).length : 0,
  };
}

describe('scripts/synth.js', () => {
  jest.setTimeout(120_000);

  test('type-checks the first time, then runs the app without tsc while nothing changes', () => {
    const dir = project();
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hello world\n', tscRuns: 1 });
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hello world\n', tscRuns: 1 });
    expect(run(dir, 'build/main.js', 'there')).toMatchObject({ status: 0, stdout: 'hello there\n', tscRuns: 1 });
  });

  test('a type error fails the synth with tsc\'s exit code and runs nothing, every time until fixed', () => {
    const dir = project();
    expect(run(dir).tscRuns).toBe(1);
    writeSource(dir, 'export function greeting(name: string): string { return name * 2; }\n');
    const failed = run(dir);
    expect(failed.status).not.toBe(0);
    expect(failed.output).toContain('error TS2362');
    expect(failed.stdout).not.toContain('hello');
    expect(failed.tscRuns).toBe(2);
    expect(run(dir)).toMatchObject({ tscRuns: 3 });
    expect(run(dir).status).not.toBe(0);
    writeSource(dir, 'export function greeting(name: string): string { return `hi ${name}`; }\n');
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hi world\n', tscRuns: 5 });
  });

  test('a new source file, a removed output or --force runs tsc again', () => {
    const dir = project();
    run(dir);
    fs.writeFileSync(path.join(dir, 'src', 'extra.ts'), 'export const extra = 1;\n');
    expect(run(dir).tscRuns).toBe(2);
    fs.rmSync(path.join(dir, 'build'), { recursive: true });
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hello world\n', tscRuns: 3 });
    expect(run(dir, '--force').tscRuns).toBe(4);
    expect(run(dir, '--build-only')).toMatchObject({ status: 0, stdout: '', tscRuns: 4 });
  });

  test('a module rebuilt with new content of the same length runs the new code', () => {
    const dir = project();
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hello world\n' });
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hello world\n' });
    writeSource(dir, 'export function greeting(name: string): string { return `hallo ${name}`; }\n');
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hallo world\n', tscRuns: 2 });
    expect(run(dir)).toMatchObject({ status: 0, stdout: 'hallo world\n', tscRuns: 2 });
  });

  test('an unknown option is refused', () => {
    const dir = project();
    const result = run(dir, '--fast');
    expect(result.status).toBe(2);
    expect(result.output).toContain('scripts/synth.js: unknown option --fast; expected --force or --build-only before the entry');
    expect(result.tscRuns).toBe(0);
  });
});
