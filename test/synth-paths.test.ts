/**
 * The same refusals, and nothing committed lost, whichever way a user synthesizes: the project's
 * `npm run synth` (scripts/synth.js running the app), the cdk8s CLI (`cdk8s synth`, configured as
 * the project's cdk8s.yaml is), and `app.synth()` in a user's own app, which does what the
 * library's `synthesize(app)` does.
 *
 * Each way runs, in a folder of its own, an app of the compiled library: one database cluster
 * issued with cfssl and its drainer, with settings taken from the environment. After a first
 * synth, four changes are tried in turn; each must be refused with one line, leaving the output
 * folder, the record beside it and any key in the output folder exactly as they were.
 */
import { SpawnSyncReturns, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');
const SYNTH_SCRIPT = path.join(ROOT, 'scripts', 'synth.js');
const CDK8S_CLI = path.join(path.dirname(require.resolve('cdk8s-cli/package.json')), 'bin', 'cdk8s');

/** The user's app: the settings come from the environment; WAY=app.synth ends with app.synth(), as cdk8s init's apps do. */
const APP = `'use strict';
const path = require('node:path');
const ROOT = ${JSON.stringify(ROOT)};
const lib = require(path.join(ROOT, 'build', 'lib'));
const { App, Chart, JsonPatch } = require(require.resolve('cdk8s', { paths: [ROOT] }));
const env = process.env;
function build() {
  const app = new App();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new lib.ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: lib.IssuingMethod.CFSSL });
  const cluster = new lib.TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: env.VERSION || 'v4.0.5', certificates });
  if (env.TLS === 'off') {
    cluster.resource.addJsonPatch(JsonPatch.replace('/spec/tlsCluster/enabled', false));
  }
  new lib.DrainerRelease(chart, 'drainer', { cluster, releaseName: env.RELEASE || 'binlog', drainerName: env.DRAINER_NAME, chart: { version: '1.1.0' } });
  return app;
}
if (env.WAY === 'app.synth') {
  build().synth();
} else {
  lib.synthesizeOrExit(build, { outdir: 'dist' });
}
`;

type Way = 'npm run synth' | 'cdk8s synth' | 'app.synth()';

/** A folder with the app, and a cdk8s.yaml configured as the project's own. */
function userProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-ways-'));
  fs.writeFileSync(path.join(dir, 'app.js'), APP);
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), `language: typescript\napp: node ${SYNTH_SCRIPT} ${path.join(dir, 'app.js')}\noutput: cdk8s-out\n`);
  return dir;
}

/** Synthesizes the app in `dir` one way, with the settings in `env`. */
function synth(way: Way, dir: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const base = { ...process.env, ...env };
  delete base.CDK8S_OUTDIR;
  delete base.CLUSTER_TLS_RECREATE;
  const options = { cwd: dir, encoding: 'utf8' as const, env: base };
  switch (way) {
    case 'npm run synth':
      return spawnSync(process.execPath, [SYNTH_SCRIPT, path.join(dir, 'app.js')], options);
    case 'cdk8s synth':
      return spawnSync(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], options);
    case 'app.synth()':
      return spawnSync(process.execPath, [path.join(dir, 'app.js')], { ...options, env: { ...base, WAY: 'app.synth' } });
  }
}

/** Every file of the output folder, of the files folder beside it and the record, with its content. */
function state(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const folder of ['dist', 'cluster-tls'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f))) {
    for (const e of fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((x) => x.isFile())) {
      const full = path.join(e.parentPath, e.name);
      out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  }
  const record = path.join(dir, 'cluster-tls.lock.json');
  if (fs.existsSync(record)) {
    out['cluster-tls.lock.json'] = fs.readFileSync(record, 'utf8');
  }
  return out;
}

/** The error lines the library printed (the CLI adds lines of its own around them). */
function errorLines(run: SpawnSyncReturns<string>): string[] {
  return run.stderr.split('\n').filter((l) => l.startsWith('error: ') || l.includes('ClusterTlsError'));
}

/** A change to try after a first synth, and how each way refuses it. */
interface Scenario {
  readonly name: string;
  readonly before: Record<string, string>;
  readonly after: Record<string, string>;
  readonly refusal: RegExp;
  readonly prepare?: (dir: string) => void;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'tlsCluster.enabled committed false, the app now says true',
    before: { TLS: 'off' },
    after: {},
    refusal: /^error: demo\/db\/Resource: DatabaseCluster "basic" tlsCluster\.enabled: received true; expected false as recorded in cluster-tls\.lock\.json: .*CLUSTER_TLS_RECREATE=DatabaseCluster\/demo\/basic$/,
  },
  {
    name: 'the drainer renamed against the committed values',
    before: {},
    after: { DRAINER_NAME: 'renamed' },
    refusal: /^error: demo\/drainer: drainerName: received "renamed" from drainerName; expected "basic-binlog-drainer" as recorded in cluster-tls\.lock\.json: /,
  },
  {
    name: 'the drainer renamed through its release name',
    before: {},
    after: { RELEASE: 'other' },
    refusal: /^error: demo\/drainer: drainerName: received "basic-other-drainer" from releaseName "other" \(was "binlog"\); expected "basic-binlog-drainer" as recorded in /,
  },
  {
    name: 'a bad version',
    before: {},
    after: { VERSION: 'four' },
    refusal: /^error: demo\/db: version: received "four"; expected a release version of the form v<major>\.<minor>\.<patch>, such as "v4\.0\.5"$/,
  },
  {
    name: 'ca-key.pem left inside the synthesized cfssl folder',
    before: {},
    after: {},
    prepare: (dir) => fs.writeFileSync(path.join(dir, 'cluster-tls', 'demo', 'basic', 'cfssl', 'ca-key.pem'), 'KEY'),
    refusal: /^error: cluster-tls: received keys or certificates that synth did not write \(demo\/basic\/cfssl\/ca-key\.pem\); /,
  },
];

beforeAll(() => {
  // The app uses the compiled library, as scripts/synth.js builds it.
  const build = spawnSync(process.execPath, [SYNTH_SCRIPT, '--build-only'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status).toBe(0);
}, 300_000);

describe.each(['npm run synth', 'cdk8s synth', 'app.synth()'] as Way[])('%s', (way) => {
  test.each(SCENARIOS)('$name: refused with one line; dist/, the record and any key intact', ({ before, after, refusal, prepare }) => {
    const dir = userProject();
    // The committed state, made the supported way.
    const first = synth('npm run synth', dir, before);
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    prepare?.(dir);
    const committed = state(dir);
    expect(Object.keys(committed)).toEqual(expect.arrayContaining(['dist/demo.k8s.yaml', 'cluster-tls/demo/basic/drainer-binlog-values.yaml', 'cluster-tls.lock.json']));

    const run = synth(way, dir, after);
    expect(run.status).not.toBe(0);
    if (way === 'app.synth()') {
      // Thrown, as cdk8s throws its own validation errors; left uncaught, it is one line, exit code 1, no stack trace.
      expect({ status: run.status, lines: run.stderr.trimEnd().split('\n').length }).toEqual({ status: 1, lines: 1 });
    }
    const lines = errorLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(refusal);
    expect(state(dir)).toEqual(committed);
  }, 60_000);
});

describe('app.synth(), as the apps cdk8s init makes end', () => {
  test('writes what synthesize writes, the output folder and the record, from nothing and over a committed output', () => {
    const supported = userProject();
    expect(synth('npm run synth', supported).status).toBe(0);
    const stock = userProject();
    const first = synth('app.synth()', stock);
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(state(stock)).toEqual(state(supported));
    // Again, over what it wrote: the same, as synthesize's guards and swap leave it.
    expect(synth('app.synth()', stock).status).toBe(0);
    expect(state(stock)).toEqual(state(supported));
  }, 60_000);
});

describe('the project\'s own configuration', () => {
  test('cdk8s synth with the project\'s cdk8s.yaml reproduces dist/ and its record, refuses a renamed drainer, and never deletes dist/', () => {
    // A copy of the project: its sources, configuration and committed output, with its packages.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-project-'));
    for (const entry of ['lib', 'imports', 'bench', 'bin', 'crds', 'scripts', 'main.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'cdk8s.yaml', 'dist', 'cluster-tls', 'cluster-tls.lock.json']) {
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    const env = { ...process.env };
    delete env.CDK8S_OUTDIR;
    const cli = () => spawnSync(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], { cwd: copy, encoding: 'utf8', env });
    const committedState = state(copy);

    const first = cli();
    // The CLI keeps the app's standard output, where the line of what was written goes: standard error stays empty.
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(state(copy)).toEqual(committedState);
    expect(fs.readdirSync(path.join(copy, 'build', 'cdk8s-cli'))).toContain('demo.k8s.yaml');

    const main = path.join(copy, 'main.ts');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace("releaseName: 'binlog'", "releaseName: 'other'"));
    const refused = cli();
    expect(refused.status).not.toBe(0);
    expect(errorLines(refused)).toEqual([expect.stringMatching(
      /^error: demo(-cfssl)?\/basic-drainer: drainerName: received "basic-other-drainer" from releaseName "other" \(was "binlog"\); expected "basic-binlog-drainer" as recorded in cluster-tls\.lock\.json: /,
    )]);
    expect(state(copy)).toEqual(committedState);
  }, 300_000);
});

describe('what each way writes when nothing is wrong', () => {
  test('npm run synth and cdk8s synth write the same dist/ and record; the CLI gets a copy of the manifests in its own folder', () => {
    const viaScript = userProject();
    const viaCli = userProject();
    expect(synth('npm run synth', viaScript).status).toBe(0);
    const cli = synth('cdk8s synth', viaCli);
    // The CLI keeps the app's standard output, where the line of what was written goes: standard error stays empty.
    expect({ status: cli.status, stderr: cli.stderr }).toEqual({ status: 0, stderr: '' });
    expect(state(viaCli)).toEqual(state(viaScript));
    expect(fs.readdirSync(path.join(viaCli, 'cdk8s-out'))).toEqual(['demo.k8s.yaml']);
    expect(fs.readFileSync(path.join(viaCli, 'cdk8s-out', 'demo.k8s.yaml'), 'utf8')).toBe(fs.readFileSync(path.join(viaCli, 'dist', 'demo.k8s.yaml'), 'utf8'));
    expect(cli.stdout).toContain('  - cdk8s-out/demo.k8s.yaml');
  }, 60_000);

  test('an App given no outdir under cdk8s synth (the CLI\'s folder is then the output folder) is refused in one line that names the fix; dist/ is kept', () => {
    const dir = userProject();
    expect(synth('npm run synth', dir).status).toBe(0);
    const before = state(dir);
    const run = synth('cdk8s synth', dir, { WAY: 'app.synth' });
    expect(run.status).not.toBe(0);
    expect(errorLines(run)).toEqual([`error: CDK8S_OUTDIR: received cdk8s-out, the folder the app writes its output to as well; expected the cdk8s CLI's folder apart from the app's, `
      + 'since the CLI deletes it before every run: give the app its own output folder (new App({ outdir: \'dist\' }), or synthesizeOrExit(build, { outdir: \'dist\' })) '
      + 'and keep output in cdk8s.yaml on another folder, such as cdk8s.out']);
    expect(state(dir)).toEqual(before);
  }, 60_000);

  test('cdk8s synth --stdout prints the manifests and still writes dist/', () => {
    const dir = userProject();
    const run = spawnSync(process.execPath, [CDK8S_CLI, 'synth', '--stdout', '--no-check-upgrade'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CDK8S_OUTDIR: '' } });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(fs.readFileSync(path.join(dir, 'dist', 'demo.k8s.yaml'), 'utf8'));
  }, 60_000);

  test('stock app.synth() with the manifests-only context writes the manifests alone, as the user asked', () => {
    const dir = userProject();
    fs.writeFileSync(path.join(dir, 'app.js'), APP.replace("const app = new App();", "const app = new App({ outdir: 'dist' });\napp.node.setContext('cdk8s-cluster-tls/manifests-only', true);"));
    const run = synth('app.synth()', dir);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.readdirSync(path.join(dir, 'dist'))).toEqual(['demo.k8s.yaml']);
    expect(fs.existsSync(path.join(dir, 'cluster-tls'))).toBe(false);
  }, 60_000);
});
