/**
 * The library as a platform team uses it: packed with `npm pack`, installed from the tarball into a
 * new cdk8s app in a temporary folder, as README.md's "Use it in your app" says, with that section's
 * `main.ts` and `cdk8s.yaml`. Nothing outside the temporary app is used but the tarball and the npm
 * registry (through npm's cache).
 *
 * @live packs the library and installs it from the npm registry into new apps (test/_tiers.js)
 */
import { SpawnSyncReturns, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import * as semver from 'semver';
import * as YAML from 'yaml';
import { docBlocks } from './_readme';

const ROOT = path.join(__dirname, '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** What a clone holds beyond its sources: never copied into the project copy that is packed. */
const NOT_SOURCES = new Set(['node_modules', 'build', 'dist', 'cluster-tls', 'coverage', '.git', '.jest-cache', '.cache', '.jsii']);
const SECTION = 'Use it in your app';

/**
 * The cdk8s-plus packages an app may use with the library: cdk8s-plus-27 at the floor of the
 * peer range (the design's default), and the newest major, as the project's devDependencies pin it.
 */
const PLUS_PACKAGES = [
  { name: 'cdk8s-plus-27', version: semver.minVersion(PACKAGE.peerDependencies['cdk8s-plus-27'])!.version },
  ...Object.keys(PACKAGE.devDependencies).filter((name) => /^cdk8s-plus-\d+$/.test(name) && name !== 'cdk8s-plus-27')
    .sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop())).slice(0, 1)
    .map((name) => ({ name, version: PACKAGE.devDependencies[name] as string })),
];

let work: string;
/** The app of each cdk8s-plus package, by package name. */
let apps: Record<string, string>;
/** The app on cdk8s-plus-27. */
let app: string;
/** The warnings npm printed while installing the package into each app, by cdk8s-plus package. */
const installWarnings: Record<string, string[]> = {};
let packed: { filename: string; files: { path: string }[] };

/** Runs a command and returns its result; a failure fails the test with the command's output. */
function run(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** npm with the flags that keep a test run quiet and use the cache first; the behaviour is npm's. */
function npm(cwd: string, ...args: string[]): SpawnSyncReturns<string> {
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  return run(cwd, 'npm', args, env);
}

/** The section's block that is the given file. */
function readmeFile(file: string): string {
  const block = docBlocks().find((b) => b.section === SECTION && b.file === file);
  if (!block) {
    throw new Error(`README.md: section "${SECTION}" shows no ${file}`);
  }
  return block.text;
}

/** Every file below a folder, relative, sorted, with its content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      out[path.relative(dir, file)] = fs.readFileSync(file, 'utf8');
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** What a synth wrote in an app: the output folder and the files folder beside it, each file under its folder's name. */
function output(app: string): Record<string, string> {
  return Object.fromEntries(['dist', 'cluster-tls'].flatMap((folder) => Object.entries(tree(path.join(app, folder))).map(([f, text]) => [`${folder}/${f}`, text])));
}

/**
 * The files a consumer loads from the package: from the entry points (`main`, `types`, `exports`,
 * `bin`), every relative `require` of the compiled JavaScript, the declarations of each module
 * loaded, and every relative import of the declarations, followed to the end.
 */
function runTimeClosure(packageDir: string): Set<string> {
  const entries = [
    PACKAGE.main, PACKAGE.types, ...Object.values(PACKAGE.bin as Record<string, string>),
    ...Object.values(PACKAGE.exports as Record<string, string | Record<string, string>>).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))),
  ].map((e) => path.posix.normalize(e));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) {
      return;
    }
    seen.add(file);
    if (!/\.(js|d\.ts)$/.test(file)) {
      return;
    }
    const declarations = file.replace(/\.js$/, '.d.ts');
    if (declarations !== file && fs.existsSync(path.join(packageDir, declarations))) {
      // The declarations of every loaded module are shipped, and with them what they refer to.
      visit(declarations);
    }
    const text = fs.readFileSync(path.join(packageDir, file), 'utf8');
    const specifiers = file.endsWith('.d.ts')
      ? [...text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
      : [...text.matchAll(/require\(['"](\.{1,2}\/[^'"]+)['"]\)/g)];
    for (const [, specifier] of specifiers) {
      const target = path.posix.join(path.posix.dirname(file), specifier);
      const candidates = file.endsWith('.d.ts')
        ? [`${target}.d.ts`, `${target}/index.d.ts`, target]
        : [target, `${target}.js`, `${target}/index.js`];
      const found = candidates.find((c) => fs.existsSync(path.join(packageDir, c)) && fs.statSync(path.join(packageDir, c)).isFile());
      // A specifier that resolves to nothing is listed as written, so that the check reports it.
      visit(found ?? target);
    }
  };
  entries.forEach(visit);
  return seen;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-consumer-'));

  // A clone of the project, as a user has it after `npm install`: its sources and its packages.
  const clone = path.join(work, 'cdk8s-cluster-tls');
  fs.mkdirSync(clone);
  for (const entry of fs.readdirSync(ROOT)) {
    if (!NOT_SOURCES.has(entry)) {
      fs.cpSync(path.join(ROOT, entry), path.join(clone, entry), { recursive: true });
    }
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  // `npm pack` runs the package's prepack script (a clean build) and prints the packed files.
  const pack = npm(clone, 'pack', '--json', '--foreground-scripts=false');
  packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0];

  apps = Object.fromEntries(PLUS_PACKAGES.map((plus) => [plus.name, newApp(plus)]));
  app = apps['cdk8s-plus-27'];
}, 900_000);

/**
 * A new cdk8s app in `my-app-<package>`: the packages of `cdk8s init typescript-app`, with the
 * lowest versions the library's peer-dependency ranges allow (so that the ranges are proven at their
 * floor), the given cdk8s-plus package, README's `main.ts` importing that package, README's
 * `cdk8s.yaml`, and the package installed as README says.
 */
function newApp(plus: { name: string; version: string }): string {
  const dir = path.join(work, `my-app-${plus.name}`);
  fs.mkdirSync(dir);
  const floor = (name: string) => semver.minVersion(PACKAGE.peerDependencies?.[name] ?? PACKAGE.dependencies[name])!.version;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'my-app',
    version: '1.0.0',
    private: true,
    dependencies: { 'cdk8s': floor('cdk8s'), [plus.name]: plus.version, 'constructs': floor('constructs') },
    devDependencies: {
      '@types/node': PACKAGE.devDependencies['@types/node'],
      'cdk8s-cli': PACKAGE.devDependencies['cdk8s-cli'],
      'ts-node': '^10.9.2',
      'typescript': PACKAGE.devDependencies.typescript,
    },
  }, undefined, 2));
  npm(dir, 'install', '--prefer-offline');
  // The compiler settings `cdk8s init typescript-app` writes: strict, and no skipLibCheck, so the
  // package's declarations are type-checked too.
  fs.copyFileSync(path.join(dir, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app', 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  const main = readmeFile('main.ts');
  expect(main).toContain("from 'cdk8s-plus-27';");
  fs.writeFileSync(path.join(dir, 'main.ts'), main.replaceAll("from 'cdk8s-plus-27';", `from '${plus.name}';`));
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), readmeFile('cdk8s.yaml'));

  // README's install command, from a folder beside the clone.
  // npm repeats at every install its notice of the app's own packages with install scripts
  // (cdk8s-cli's dependencies): that notice counts only when it names this package.
  const warnings = npm(dir, 'install', '--prefer-offline', `../cdk8s-cluster-tls/${packed.filename}`).stderr
    .split('\n').filter((line) => /\bwarn\b/i.test(line));
  const notice = warnings.filter((line) => line.startsWith('npm warn install-scripts'));
  installWarnings[plus.name] = notice.some((line) => line.includes(PACKAGE.name)) ? warnings : warnings.filter((line) => !notice.includes(line));
  return dir;
}

afterAll(() => {
  if (work) {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

describe('the package, as npm pack writes it', () => {
  test('README\'s install commands are the ones this test runs', () => {
    const commands = docBlocks().filter((b) => b.section === SECTION && b.lang === 'sh').map((b) => b.text).join('');
    expect(commands).toContain('cd cdk8s-cluster-tls && npm install && npm pack');
    expect(commands).toContain(`npm install ../cdk8s-cluster-tls/${packed.filename}\n`);
  });

  test('holds every file a consumer loads, and nothing else: no tests, benchmarks, sources or unused modules', () => {
    const files = packed.files.map((f) => f.path).sort();
    const installed = path.join(app, 'node_modules', PACKAGE.name);
    const needed = runTimeClosure(installed);
    expect([...needed].filter((f) => !files.includes(f))).toEqual([]);
    // A module is needed when its code is loaded or its declarations are referenced (a module of
    // types alone compiles to a file that nothing loads).
    const module = (f: string) => f.replace(/(\.d\.ts|\.js)$/, '');
    const neededModules = new Set([...needed].filter((f) => /\.(js|d\.ts)$/.test(f)).map(module));
    // jsii's assembly, which the Python, Java and Go runtimes load, and the dependencies jsii
    // bundles (those that are not jsii packages), with theirs.
    const bundled = bundledPackages();
    expect([...new Set(files.filter((f) => f.startsWith('node_modules/')).map(topPackage))].sort()).toEqual(bundled);
    const extra = files.filter((f) => !['package.json', 'README.md', 'LICENSE', 'API.md', 'CHANGELOG.md', '.jsii'].includes(f) && !f.startsWith('node_modules/') && !(
      (/^build\/jsii\/(lib|bin|imports)\/.+\.js$/.test(f) && neededModules.has(module(f)))
      || (/^build\/jsii\/(lib|imports)\/.+\.d\.ts$/.test(f) && neededModules.has(module(f)))
      || (/^build\/jsii\/lib\/.+\.json$/.test(f) && needed.has(f))));
    expect(extra).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['build/jsii/lib/index.js', 'build/jsii/lib/index.d.ts', 'build/jsii/bin/cluster-tls.js', 'build/jsii/lib/plan/tls-plan.schema.json']));
  });

  test('installs without a warning, and runs no script of the package on install', () => {
    expect(installWarnings).toEqual(Object.fromEntries(PLUS_PACKAGES.map((plus) => [plus.name, []])));
    const installed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', PACKAGE.name, 'package.json'), 'utf8'));
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'];
    expect(Object.keys(installed.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual([]);
  });

  test.each(PLUS_PACKAGES.map((plus) => [plus.name]))('shares the one copy of cdk8s, constructs and cdk8s-plus-27 of an app on %s (peer dependencies)', (plus) => {
    const app = apps[plus];
    // Where each package resolves from the app, and from the library inside it. An app on another
    // major gets cdk8s-plus-27 from npm, as a peer dependency, beside its own.
    const resolve = (from: string) => JSON.parse(run(app, process.execPath, ['-e', `
      const from = ${JSON.stringify(from)};
      const paths = from === 'app' ? [process.cwd()] : [require.resolve(from)];
      console.log(JSON.stringify(['cdk8s', 'constructs', 'cdk8s-plus-27'].map((p) => require.resolve(p, { paths }))));
    `]).stdout);
    const fromApp = resolve('app');
    expect(resolve(PACKAGE.name)).toEqual(fromApp);
    expect(fromApp.map((f: string) => path.relative(app, f).split(path.sep).slice(0, 2).join('/'))).toEqual(['node_modules/cdk8s', 'node_modules/constructs', 'node_modules/cdk8s-plus-27']);
    // The library's own node_modules holds the bundled dependencies alone, never these.
    const nested = path.join(app, 'node_modules', PACKAGE.name, 'node_modules');
    expect(fs.readdirSync(nested).filter((f) => !f.startsWith('.')).sort()).toEqual(bundledPackages());
    expect(PACKAGE.dependencies).not.toHaveProperty('cdk8s');
    expect(PACKAGE.dependencies).not.toHaveProperty('constructs');
    expect(PACKAGE.dependencies).not.toHaveProperty('cdk8s-plus-27');
  });
});

describe.each(PLUS_PACKAGES.map((plus) => [plus.name]))('a cdk8s app on %s that installs the package', (plus) => {
  let written: Record<string, string>;
  let app: string;
  beforeAll(() => {
    app = apps[plus];
  });

  test('compiles README\'s main.ts with tsc in strict mode, with the types from the package', () => {
    run(app, 'npx', ['--no-install', 'tsc']);
    expect(fs.existsSync(path.join(app, 'main.js'))).toBe(true);
    // TypeScript 6 and later load no @types package unless told to: the package's declarations
    // name the Node.js types they need themselves.
    fs.writeFileSync(path.join(app, 'tsconfig.no-types.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { types: [], noEmit: true } }));
    run(app, 'npx', ['--no-install', 'tsc', '-p', 'tsconfig.no-types.json']);
  }, 120_000);

  test('synthesizes with the documented entry point: every chart, the plan, the runbooks, the migration files and the record', () => {
    run(app, process.execPath, ['main.js']);
    written = output(app);
    // The manifests alone in dist/, as kubectl and GitOps tools read it; the rest beside it.
    expect(Object.keys(written)).toEqual([
      'dist/.cluster-tls-output',
      'dist/data.k8s.yaml',
      'dist/web.k8s.yaml',
      'cluster-tls/.cluster-tls-output',
      'cluster-tls/shop/orders/database-runbook.md',
      'cluster-tls/shop/orders/migration-runbook.md',
      'cluster-tls/shop/orders/migration/legacy.yaml',
      'cluster-tls/shop/orders/migration/task.yaml',
      'cluster-tls/shop/orders/mount-client-secret.patch.yaml',
      'cluster-tls/shop/orders/tls-plan.json',
    ]);
    // The storefront mounts a client certificate of its own (TLS for MySQL clients), never the
    // cluster's; the migration source's Secret is one of the app's cdk8s-plus package, given to the library.
    const [storefront] = YAML.parseAllDocuments(written['dist/web.k8s.yaml']).map((d) => d.toJS()).filter((o) => o.kind === 'Deployment');
    expect(storefront.spec.template.spec.volumes).toEqual([{ name: 'secret-storefront-shop-orders-sql-client', secret: { secretName: 'storefront-shop-orders-sql-client' } }]);
    expect(JSON.stringify(storefront)).not.toContain('orders-cluster-client-secret');
    expect(written['cluster-tls/shop/orders/migration/legacy.yaml']).toContain('orders-legacy-tls');
    expect(written['dist/data.k8s.yaml']).toMatch(/^kind: DatabaseCluster$/m);
    expect(written['dist/data.k8s.yaml']).toMatch(/^kind: MigrationCluster$/m);
    expect(fs.existsSync(path.join(app, 'cluster-tls.lock.json'))).toBe(true);
    // The plan is valid against the schema the package publishes under its documented path.
    const schemaFile = run(app, process.execPath, ['-p', 'require.resolve("cdk8s-cluster-tls/tls-plan.schema.json")']).stdout.trim();
    const validate = new Ajv({ strict: true }).compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
    expect(validate(JSON.parse(written['cluster-tls/shop/orders/tls-plan.json'])) ? [] : validate.errors).toEqual([]);
  }, 120_000);

  test('cdk8s synth with README\'s cdk8s.yaml writes the same dist/, and gives the CLI its copy of the manifests', () => {
    const env = { ...process.env };
    delete env.CDK8S_OUTDIR;
    const synth = run(app, 'npx', ['--no-install', 'cdk8s', 'synth', '--no-check-upgrade'], env);
    expect(output(app)).toEqual(written);
    // The CLI keeps the app's standard output (the line saying what was written) to itself, and lists what it copied.
    expect(synth.stderr).toBe('');
    expect(synth.stdout).toContain('cdk8s.out/data.k8s.yaml');
    expect(Object.keys(tree(path.join(app, 'cdk8s.out')))).toEqual(['data.k8s.yaml', 'web.k8s.yaml']);
  }, 180_000);

  test('cdk8s synth runs the package\'s validation plugin as docs/how-to/gitops.md lists it, and the output passes it', () => {
    const section = 'The validation plugin: the library\'s rules in `cdk8s synth`, for any manifest';
    const listing = docBlocks().find((b) => b.section === section && b.file === 'cdk8s.yaml');
    expect(listing).toBeDefined();
    const config = { ...YAML.parse(readmeFile('cdk8s.yaml')), ...YAML.parse(listing!.text) };
    expect(config.validations[0].version).toBe(PACKAGE.version);
    const env = { ...process.env };
    delete env.CDK8S_OUTDIR;
    // The listing goes into cdk8s.yaml for this run; README's file is put back after it.
    fs.writeFileSync(path.join(app, 'cdk8s.yaml'), YAML.stringify(config));
    try {
      const result = run(app, 'npx', ['--no-install', 'cdk8s', 'synth', '--no-check-upgrade'], env);
      const stdout = result.stdout;
      expect(stdout).toContain('Performing validations');
      expect(stdout).toContain('Validations ended succesfully');
      expect(stdout).toContain(PACKAGE.name);
      // The same output folder whichever command ran: the construct metadata the CLI asks for
      // its plugins goes to the CLI's folder alone.
      expect(output(app)).toEqual(written);
      const cliFolder = tree(path.join(app, 'cdk8s.out'));
      expect(Object.keys(cliFolder)).toEqual(['construct-metadata.json', 'data.k8s.yaml', 'web.k8s.yaml']);
      expect(JSON.parse(cliFolder['construct-metadata.json']).resources).toHaveProperty(['orders-ca']);
    } finally {
      fs.writeFileSync(path.join(app, 'cdk8s.yaml'), readmeFile('cdk8s.yaml'));
    }
  }, 180_000);

  test('runs the package\'s command: npx cluster-tls verify --help', () => {
    const help = run(app, 'npx', ['--no-install', 'cluster-tls', 'verify', '--help']);
    expect(help.stdout).toMatch(/^Usage:\n {2}cluster-tls verify --dist <folder> --secrets <file\|->/);
  });
});

/**
 * "Starting from `cdk8s init typescript-app`" (docs/how-to/cdk8s-init.md), run as written: the real `cdk8s init` of
 * the project's cdk8s-cli (on the search path as `cdk8s`, as `npm install -g cdk8s-cli` puts it),
 * the section's commands and files, then the template's own test command and both ways to
 * synthesize.
 */
describe('an app made by cdk8s init typescript-app, as docs/how-to/cdk8s-init.md starts one', () => {
  const INIT_SECTION = 'Starting from `cdk8s init typescript-app`';
  const blocks = () => docBlocks().filter((b) => b.section === INIT_SECTION);
  let myApp: string;
  let env: NodeJS.ProcessEnv;
  /** The output folders and the record, by path in the app. */
  const output = () => Object.fromEntries([
    ...['dist', 'cluster-tls'].flatMap((folder) => (fs.existsSync(path.join(myApp, folder))
      ? Object.entries(tree(path.join(myApp, folder))).map(([f, text]) => [`${folder}/${f}`, text]) : [])),
    ...(fs.existsSync(path.join(myApp, 'cluster-tls.lock.json')) ? [['cluster-tls.lock.json', fs.readFileSync(path.join(myApp, 'cluster-tls.lock.json'), 'utf8')]] : []),
  ]);
  /** A command of the app, with what it printed, whatever its exit code. */
  const attempt = (command: string, args: readonly string[]) => spawnSync(command, args, { cwd: myApp, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  let synthesized: Record<string, string>;

  beforeAll(() => {
    const bin = path.join(work, 'global-bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join(path.dirname(require.resolve('cdk8s-cli/package.json')), 'bin', 'cdk8s'), path.join(bin, 'cdk8s'));
    env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    delete env.CDK8S_OUTDIR;
    const [init, setUp] = blocks().filter((b) => b.lang === 'sh');
    expect(init.text).toBe('mkdir my-app && cd my-app\ncdk8s init typescript-app\n');
    const made = spawnSync('bash', ['--norc', '--noprofile', '-eo', 'pipefail', '-c', init.text], { cwd: work, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    myApp = path.join(work, 'my-app');
    // Without GitHub, init stops at its import step, as the guide says; the app is written and installed by then.
    if (made.status !== 0) {
      expect(`${made.stdout}${made.stderr}`).toMatch(/Command failed: npm run import/);
    }
    expect(JSON.parse(fs.readFileSync(path.join(myApp, 'package.json'), 'utf8')).dependencies).toHaveProperty('cdk8s-plus-33');
    expect(fs.readFileSync(path.join(myApp, 'main.ts'), 'utf8')).toMatch(/\napp\.synth\(\);\n$/);
    expect(fs.readFileSync(path.join(myApp, '.gitignore'), 'utf8').split('\n')).toContain('dist/');
    run(myApp, 'bash', ['-eo', 'pipefail', '-c', setUp.text], env);
    for (const file of blocks().filter((b) => b.lang === 'ts')) {
      fs.writeFileSync(path.join(myApp, file.file!), file.text);
    }
  }, 600_000);

  test('the set-up commits dist/ and ignores the CLI\'s folder, and points the CLI away from dist/', () => {
    const ignored = fs.readFileSync(path.join(myApp, '.gitignore'), 'utf8').split('\n');
    expect(ignored).not.toContain('dist/');
    expect(ignored).toContain('cdk8s.out/');
    expect(YAML.parse(fs.readFileSync(path.join(myApp, 'cdk8s.yaml'), 'utf8'))).toEqual({ language: 'typescript', app: 'npx ts-node main.ts', imports: ['k8s'], output: 'cdk8s.out' });
    expect(fs.existsSync(path.join(myApp, '__snapshots__'))).toBe(false);
  });

  test('npm test runs the guide\'s main.test.ts with the template\'s jest, and writes nothing', () => {
    const tested = attempt('npm', ['test']);
    expect({ status: tested.status, output: tested.status === 0 ? '' : `${tested.stdout}${tested.stderr}` }).toEqual({ status: 0, output: '' });
    expect(tested.stderr).toMatch(/Tests: +1 passed, 1 total/);
    expect(output()).toEqual({});
  }, 300_000);

  test('npx cdk8s synth writes the whole output: the manifests in dist/, the rest in cluster-tls/, and the record', () => {
    const synth = attempt('npx', ['--no-install', 'cdk8s', 'synth', '--no-check-upgrade']);
    expect({ status: synth.status, stderr: synth.status === 0 ? '' : synth.stderr }).toEqual({ status: 0, stderr: '' });
    synthesized = output();
    expect(Object.keys(synthesized)).toEqual(expect.arrayContaining(['dist/my-app.k8s.yaml', 'cluster-tls/shop/orders/tls-plan.json', 'cluster-tls/shop/orders/database-runbook.md', 'cluster-tls.lock.json']));
    expect(Object.keys(synthesized).filter((f) => f.startsWith('dist/'))).toEqual(['dist/.cluster-tls-output', 'dist/my-app.k8s.yaml']);
    expect(synthesized['dist/my-app.k8s.yaml']).toMatch(/^kind: DatabaseCluster$/m);
    // The CLI's own folder gets its copy of the manifests, to list, print and validate.
    expect(fs.readdirSync(path.join(myApp, 'cdk8s.out'))).toEqual(['my-app.k8s.yaml']);
  }, 300_000);

  test('npx ts-node main.ts writes the same', () => {
    for (const folder of ['dist', 'cluster-tls']) {
      fs.rmSync(path.join(myApp, folder), { recursive: true });
    }
    fs.rmSync(path.join(myApp, 'cluster-tls.lock.json'));
    const ran = attempt('npx', ['--no-install', 'ts-node', 'main.ts']);
    expect({ status: ran.status, stderr: ran.status === 0 ? '' : ran.stderr }).toEqual({ status: 0, stderr: '' });
    expect(output()).toEqual(synthesized);
  }, 300_000);

  test('a refused change fails both ways with one line of the library, and leaves the output and the record as they were', () => {
    const chart = path.join(myApp, 'chart.ts');
    const text = fs.readFileSync(chart, 'utf8');
    fs.writeFileSync(chart, text.replace("version: 'v4.0.5'", "version: 'four'"));
    try {
      for (const [command, args] of [['npx', ['--no-install', 'cdk8s', 'synth', '--no-check-upgrade']], ['npx', ['--no-install', 'ts-node', 'main.ts']]] as const) {
        const refused = attempt(command, args);
        expect(refused.status).not.toBe(0);
        // The app's own output, the library's one line and no stack trace; under cdk8s synth the CLI
        // reports the app's exit after it ("Error: command … returned a non-zero exit code"), with a trace of its own.
        const app = refused.stderr.split(/^Error: command /m)[0];
        expect(app.split('\n').filter((l) => l.trim() !== '')).toEqual([expect.stringMatching(/^error: my-app\/orders: version: received "four"; expected a release version/)]);
        expect(output()).toEqual(synthesized);
      }
    } finally {
      fs.writeFileSync(chart, text);
    }
  }, 300_000);
});

/** The packages jsii bundles into the package (its bundledDependencies), with their dependencies, sorted. */
function bundledPackages(): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) {
      return;
    }
    seen.add(name);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    Object.keys(manifest.dependencies ?? {}).forEach(visit);
  };
  (PACKAGE.bundledDependencies as string[]).forEach(visit);
  return [...seen].sort();
}

/** The package a path below node_modules/ belongs to. */
function topPackage(file: string): string {
  const parts = file.split('/');
  return parts[1].startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1];
}
