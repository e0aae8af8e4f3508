/**
 * The library in Python, Go and Java. The reference app of main.ts, written in each language
 * (examples/<language>), is built and run by the commands of docs/how-to/languages.md for that language, as written, in a
 * copy of the example beside the clone: it must write the TypeScript reference output byte for
 * byte (both folders and the record, file modes included), and a refused input must give the same
 * one line as in TypeScript, exit code 1, and write nothing. The API reference of each language
 * (API.<language>.md) must be what `npm run docs` generates.
 *
 * A language whose toolchain is missing is skipped with its reason outside CI; under CI=true the
 * test runs and fails instead.
 *
 * @live builds and runs the Python, Go and Java apps with their toolchains (test/_tiers.js)
 */
import { SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Run, emitProgram } from './_api-emit';
import { Coverage, coverage, loadApi } from './_api-model';
import { Outcome, Statement, Value, runProgram } from './_api-programs';
import { Generated, generateScenarios } from './_api-scenarios';
import { docBlocks } from './_readme';

const ROOT = path.resolve(__dirname, '..');
const inCi = process.env.CI === 'true';

/** The refused input: the coordinator's storage, in every language's copy of the app. */
const GOOD_STORAGE = '"10Gi"';
const BAD_STORAGE = '"10 GiB"';

/** One language: what it needs on the machine, and where its app and its guide's commands are. */
interface Language {
  readonly name: 'python' | 'go' | 'java';
  /** The subsection of the language in docs/how-to/languages.md. */
  readonly section: string;
  /** Commands that must be on PATH. */
  readonly tools: string[];
  /** What installs the missing tools. */
  readonly install: string;
  /** The example's file that holds the coordinator's storage. */
  readonly source: string;
  /**
   * Where the app pins the npm packages' releases, each as its registry names it: the guide's set-up
   * block (`readme`) or a file of the example.
   */
  readonly pins: { readonly in: string; readonly text: (pkg: string, version: string) => string; readonly packages: string[] };
  /** Where the generated program goes in the app's folder, the commands that build it there, and the command that runs it (with the output folder after it). */
  readonly generated: { readonly file: string; readonly build: string; readonly run: string };
}

const LANGUAGES: Language[] = [
  {
    name: 'python', section: 'Python', tools: ['python3'], install: 'CPython 3 with its venv module', source: 'main.py',
    pins: { in: 'readme', text: (pkg, version) => `${pkg}==${version}`, packages: ['cdk8s', 'cdk8s-plus-27', 'constructs'] },
    generated: { file: 'generated.py', build: 'true', run: '.venv/bin/python generated.py' },
  },
  {
    name: 'go', section: 'Go', tools: ['go'], install: 'Go', source: 'main.go',
    // cdk8s-plus-27 comes in through the library's module (the guide's replace), constructs through cdk8s's.
    pins: { in: 'go.mod', text: (_pkg, version) => `github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v${version}\n`, packages: ['cdk8s'] },
    // A package of its own in the app's module, which imports constructs and cdk8s-plus-27 itself.
    generated: { file: path.join('generated', 'main.go'), build: 'go mod tidy && go build -o generated-app ./generated', run: './generated-app' },
  },
  {
    name: 'java', section: 'Java', tools: ['java', 'mvn'], install: 'a JDK 17 and Maven', source: path.join('src', 'main', 'java', 'example', 'Main.java'),
    pins: { in: 'pom.xml', text: (pkg, version) => `<artifactId>${pkg}</artifactId>\n      <version>${version}</version>`, packages: ['cdk8s'] },
    generated: {
      file: path.join('src', 'main', 'java', 'example', 'Generated.java'),
      build: 'mvn -q -B compile',
      run: 'JSII_NOSTACK=1 java -cp "target/classes:$(cat classpath.txt)" example.Generated',
    },
  },
];

/** The environment of every program run here: the library's and the cdk8s CLI's variables unset. */
const ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLUSTER_TLS_') && !k.startsWith('CDK8S_') && !k.startsWith('JSII_')));

/** A file no synth wrote, in the output folder: the synth refuses to replace the folder. */
const STRAY = path.join('dist', 'notes.yaml');

/**
 * The TypeScript reference: main.ts's output, the line of its refusal of the bad storage (made in a
 * construct), and the line of its refusal to replace an output folder holding {@link STRAY} (made
 * at synth).
 */
let reference: { readonly tree: FileEntry[]; readonly inputRefusal: string; readonly synthRefusal: string };

beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reference-ts-'));
  // build/main.js, run from a folder of its own: its modules are found where they are.
  const main = fs.readFileSync(path.join(ROOT, 'build', 'main.js'), 'utf8')
    .replace('require("./lib")', `require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))})`)
    .replace('require("cdk8s")', `require(${JSON.stringify(require.resolve('cdk8s'))})`);
  fs.writeFileSync(path.join(dir, 'main.js'), main);
  const refused = main.replace(`storage: '10Gi'`, `storage: '10 GiB'`);
  expect(refused).not.toBe(main);
  fs.writeFileSync(path.join(dir, 'refused.js'), refused);
  run('node', ['main.js'], dir);
  const tree = outputTree(dir);
  const failed = attempt('node', ['refused.js'], dir);
  expect(failed.status).toBe(1);
  expect(outputTree(dir)).toEqual(tree);
  fs.writeFileSync(path.join(dir, STRAY), 'kind: Notes\n');
  const stray = attempt('node', ['main.js'], dir);
  expect(stray.status).toBe(1);
  reference = { tree, inputRefusal: failed.stderr, synthRefusal: stray.stderr };
  expect(reference.inputRefusal).toMatch(/^error: demo\/basic-database: coordinator\.storage: received "10 GiB"; expected [^\n]+\n$/);
  expect(reference.synthRefusal).toMatch(/^error: [^\n]*notes\.yaml[^\n]*\n$/);
}, 60_000);

/** What a run of a generated app gives: its output (both folders and the record), or the first line of its refusal. */
type RunResult = { readonly tree: FileEntry[] } | { readonly refusal: string };

/**
 * The apps generated from the jsii assembly (`_api-scenarios.ts`): every run of them (each scenario
 * in its maps' order, and, where it has maps, reversed and emptied), with what TypeScript gives.
 */
let api: { readonly coverage: Coverage; readonly generated: Generated; readonly runs: Run[]; readonly expected: ReadonlyMap<string, RunResult> };

beforeAll(async () => {
  const assembly = await loadApi();
  const cov = coverage(assembly);
  const generated = generateScenarios(assembly, cov);
  const runs = generated.scenarios.flatMap((s) => (['forward', 'reverse', 'empty'] as const)
    .filter((order) => order === 'forward' || hasMaps([...s.program.statements, ...(s.program.synthesize ? [s.program.synthesize] : [])]))
    .map((order) => ({ name: `${s.name}-${order}`, program: s.program, order })));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-ts-'));
  const expected = new Map(runs.map((run) => {
    const folder = path.join(root, run.name);
    return [run.name, resultOf(runProgram(run.program, folder, run.order), folder)] as const;
  }));
  api = { coverage: cov, generated, runs, expected };
}, 300_000);

describe('the apps generated from the jsii assembly', () => {
  test('give every prop, callable, union member and enum member of the assembly, and nothing ends in anything but a one-line refusal', () => {
    const { coverage: cov, generated } = api;
    const given = (t: { key: string }) => generated.covered.has(t.key) || generated.refused.has(t.key);
    const props = cov.targets.filter((t) => t.prop);
    // eslint-disable-next-line no-console
    console.log([
      `the generated apps set ${props.filter(given).length} of ${props.length} props and give ${cov.targets.filter(given).length} of ${cov.targets.length} targets`,
      `(callables, props, union members, enum members) in ${generated.scenarios.length} apps, found in ${generated.runs} runs;`,
      `${generated.refused.size} targets only in apps the library refuses as they give it (a phase a fresh synth cannot start at): ${[...generated.refused].join('; ')};`,
      `base structs, whose fields are counted in each struct that extends them: ${cov.bases.join(', ')};`,
      `structs no callable takes (results, and types of TypeScript-only functions): ${cov.notTaken.join(', ')}`,
    ].join('\n'));
    expect(generated.crashes).toEqual([]);
    expect(generated.uncovered).toEqual([]);
  });

  test('a map in reverse order gives the output of the map in its order', () => {
    const reversed = api.runs.filter((r) => r.order === 'reverse');
    expect(reversed.length).toBeGreaterThan(0);
    for (const run of reversed) {
      expect({ run: run.name, result: api.expected.get(run.name) }).toEqual({ run: run.name, result: api.expected.get(run.name.replace(/-reverse$/, '-forward')) });
    }
  });
});

/** Whether any statement gives a map (a map prop, or JSON holding an object). */
function hasMaps(statements: readonly Statement[]): boolean {
  const inValue = (v: Value | undefined): boolean => {
    switch (v?.kind) {
      case 'map': return true;
      case 'json': return typeof v.value === 'object';
      case 'struct': return v.fields.some(([, x]) => inValue(x));
      case 'list': return v.items.some(inValue);
      case 'implementation': return inValue(v.returns);
      default: return false;
    }
  };
  return statements.some((s) => s.kind !== 'secret' && s.args.some(inValue));
}

/** A run's result from its outcome and its folder: a refusal names the folder as `<folder>`. */
function resultOf(outcome: Outcome, folder: string): RunResult {
  if (outcome.ok) {
    return { tree: outputTree(folder) };
  }
  return { refusal: inFolder(outcome.message.split('\n')[0], folder) };
}

/**
 * A refusal's line with the run's folder taken out of the paths it names: TypeScript runs with
 * the run's folder as its working folder (and names paths relative to it), the other languages
 * from the app's folder (naming them whole).
 */
function inFolder(line: string, folder: string): string {
  return line.split(`${folder}/`).join('').split(folder).join('.');
}

test('the package build refuses a language it does not know, in one line, before building anything', () => {
  const result = attempt(path.join(ROOT, 'scripts', 'build-packages.sh'), ['python', 'ruby'], ROOT);
  expect({ status: result.status, stdout: result.stdout, stderr: result.stderr })
    .toEqual({ status: 2, stdout: '', stderr: 'scripts/build-packages.sh: received "ruby"; expected python, go or java\n' });
});

describe('the API reference in each language', () => {
  let generated: string;

  beforeAll(() => {
    // As `npm run docs` makes them: jsii's assembly, then jsii-docgen's reference per language.
    generated = fs.mkdtempSync(path.join(os.tmpdir(), 'api-languages-'));
    run(path.join(ROOT, 'scripts', 'compile-jsii.sh'), [], ROOT);
    run('npx', ['jsii-docgen', ...LANGUAGES.flatMap((l) => ['--language', l.name]), '--output', path.join(generated, 'API.md')], ROOT);
  }, 300_000);

  test.each(LANGUAGES.map((l) => [l.name]))('API.%s.md is what npm run docs generates, with the names of that language', (name) => {
    const committed = fs.readFileSync(path.join(ROOT, `API.${name}.md`), 'utf8');
    // A stale reference: run `npm run docs` and commit the API.*.md files.
    expect(committed === fs.readFileSync(path.join(generated, `API.${name}.md`), 'utf8')).toBe(true);
    const initializer = {
      python: 'cdk8s_cluster_tls.ClusterCertificates(\n  scope: Construct,\n  id: str,\n  cluster_name: str,',
      go: 'clustertls.NewClusterCertificates(scope Construct, id *string, props ClusterCertificatesProps) ClusterCertificates',
      java: 'ClusterCertificates.Builder.create(Construct scope, java.lang.String id)',
    }[name as Language['name']];
    expect(committed).toContain(initializer);
  });
});

for (const language of LANGUAGES) {
  const missing = language.tools.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
  const describeIfTools = missing.length > 0 && !inCi ? describe.skip : describe;
  if (missing.length > 0 && !inCi) {
    // eslint-disable-next-line no-console
    console.log(`skipping the ${language.name} app: ${missing.join(' and ')} not found on PATH (install ${language.install}; under CI=true the test runs and fails instead)`);
  }

  describeIfTools(`the reference app in ${language.name}, built and run as docs/how-to/languages.md says`, () => {
    const blocks = docBlocks().filter((b) => b.section === language.section);
    const [setUp, runApp] = blocks.filter((b) => b.lang === 'sh');
    let app: string;

    beforeAll(() => {
      if (missing.length > 0) {
        throw new Error(`CI=true but ${missing.join(' and ')} not found on PATH: install ${language.install} (.ci/run does)`);
      }
      // The layout the guide's commands assume: the app's folder beside the clone.
      const work = fs.mkdtempSync(path.join(os.tmpdir(), `reference-${language.name}-`));
      fs.symlinkSync(ROOT, path.join(work, 'cdk8s-cluster-tls'));
      app = path.join(work, 'my-app');
      fs.cpSync(path.join(ROOT, 'examples', language.name), app, { recursive: true });
      bash(setUp.text, app);
    }, 30 * 60_000);

    test('the guide has its two command blocks, and every other block of the subsection is an excerpt of the example', () => {
      expect(blocks.filter((b) => b.lang === 'sh')).toHaveLength(2);
      expect(setUp.text).toContain(`../cdk8s-cluster-tls/scripts/build-packages.sh ${language.name}\n`);
      expect(runApp.text).toMatch(/^export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20[ \n]/);
      const example = fs.readFileSync(path.join(ROOT, 'examples', language.name, language.source), 'utf8');
      const excerpts = blocks.filter((b) => b.lang !== 'sh');
      expect(excerpts.length).toBeGreaterThan(0);
      for (const block of excerpts) {
        expect(example).toContain(block.text.trimEnd());
      }
    });

    test('pins the releases of cdk8s the TypeScript build runs on', () => {
      const { pins } = language;
      const text = pins.in === 'readme' ? setUp.text : fs.readFileSync(path.join(ROOT, 'examples', language.name, pins.in), 'utf8');
      for (const pkg of pins.packages) {
        expect(text).toContain(pins.text(pkg, installedVersion(pkg)));
      }
    });

    test('synthesizes the TypeScript reference output byte for byte: both folders and the record, file modes included', () => {
      const result = bash(runApp.text, app);
      expect(result.stderr).toBe('');
      expect(outputTree(app)).toEqual(reference.tree);
    }, 10 * 60_000);

    test('a synth that must not replace the output gives the same one line as in TypeScript, exit code 1, and leaves the output as it was', () => {
      bash(runApp.text, app);
      fs.writeFileSync(path.join(app, STRAY), 'kind: Notes\n');
      try {
        const before = outputTree(app);
        const result = attempt('bash', [...BASH, runApp.text], app);
        expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 1, stderr: reference.synthRefusal });
        expect(outputTree(app)).toEqual(before);
      } finally {
        fs.rmSync(path.join(app, STRAY));
      }
    }, 10 * 60_000);

    test('the generated apps give, on each of two runs, what TypeScript gives: the same output byte for byte, or the same refusal', () => {
      const file = path.join(app, language.generated.file);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, emitProgram(language.name, api.runs));
      bash(language.generated.build, app);
      const differences: string[] = [];
      for (const round of [1, 2]) {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), `generated-${language.name}-`));
        const { stdout } = bash(`export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20\n${language.generated.run} ${root}`, app);
        const lines = new Map(stdout.split('\n').filter((l) => l !== '').map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
        for (const run of api.runs) {
          const folder = path.join(root, run.name);
          const line = lines.get(run.name);
          const actual: RunResult | undefined = line === 'ok' ? { tree: outputTree(folder) }
            : line?.startsWith('error: ') ? { refusal: inFolder(line.slice('error: '.length), folder) } : undefined;
          if (JSON.stringify(actual) !== JSON.stringify(api.expected.get(run.name))) {
            differences.push(`run ${round}, ${run.name}: ${line ?? 'no line'}; TypeScript: ${JSON.stringify(api.expected.get(run.name)).slice(0, 300)}`);
          }
        }
      }
      expect(differences).toEqual([]);
    }, 30 * 60_000);

    test('a refused input gives the same one line as in TypeScript, exit code 1, and leaves the output as it was', () => {
      bash(runApp.text, app);
      const before = outputTree(app);
      expect(before).toEqual(reference.tree);
      const source = path.join(app, language.source);
      const text = fs.readFileSync(source, 'utf8');
      expect(text.split(GOOD_STORAGE)).toHaveLength(2);
      fs.writeFileSync(source, text.replace(GOOD_STORAGE, BAD_STORAGE));
      bash(setUp.text, app);
      const result = attempt('bash', [...BASH, runApp.text], app);
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 1, stderr: reference.inputRefusal });
      expect(outputTree(app)).toEqual(before);
    }, 10 * 60_000);
  });
}

/** A file of an output: its path, mode and a digest of its content. */
interface FileEntry {
  readonly path: string;
  readonly mode: string;
  readonly sha256: string;
}

/** Every file of `dist/`, `cluster-tls/` and `cluster-tls.lock.json` below `root`, sorted by path. */
function outputTree(root: string): FileEntry[] {
  const entries: FileEntry[] = [];
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    if (stat === undefined) {
      return;
    }
    if (stat.isDirectory()) {
      fs.readdirSync(full).forEach((name) => visit(path.posix.join(rel, name)));
      return;
    }
    entries.push({ path: rel, mode: (stat.mode & 0o777).toString(8), sha256: createHash('sha256').update(fs.readFileSync(full)).digest('hex') });
  };
  ['dist', 'cluster-tls', 'cluster-tls.lock.json'].forEach(visit);
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Runs a program to completion, in the test's environment, with no standard input; returns how it ended. */
function attempt(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a program to completion; a failure throws with the end of what it printed. */
function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const result = attempt(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}:\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`);
  }
  return result;
}

/** bash as a script runs: no start-up file (bash reads ~/.bashrc when it takes its input for a remote shell's), stopping at the first failure. */
const BASH = ['--norc', '--noprofile', '-eu', '-o', 'pipefail', '-c'];

/** Runs the guide's commands with bash, stopping at the first that fails; a failure throws with the end of what they printed. */
function bash(commands: string, cwd: string): SpawnSyncReturns<string> {
  return run('bash', [...BASH, commands], cwd);
}

/** The version of an npm package the project installed: the one the TypeScript reference runs on. */
function installedVersion(pkg: string): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}
