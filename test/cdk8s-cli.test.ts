/**
 * `cdk8s synth` with no network: README.md's *Synthesize* block, run as written, and the way
 * cdk8s.yaml gives, the environment's CDK8S_CHECK_UPGRADE=false. The CLI's check for a newer
 * cdk8s-cli asks the npm registry on every run; without a network it prints an `http error` trace
 * and "A new version undefined". Each run is in a network namespace of its own (`unshare -n`, as
 * root: no interface but a loopback that is down), in a copy of the project, whose cdk8s.yaml runs
 * the project's own app; standard error must be empty (the library's line saying what it wrote goes
 * to standard output, which the CLI keeps to itself), and the CLI's standard output must list the
 * manifests. The same command without the option prints the trace, so the namespace is
 * offline indeed. Skipped, with the reason printed, where it cannot run as root with `unshare`,
 * except under CI.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readmeBlocks } from './_readme';

const ROOT = path.join(__dirname, '..');
/** What a copy of the project leaves out or links instead. */
const LEFT_OUT = new Set(['node_modules', '.git', '.jest-cache', '.cache', 'coverage']);

const offline = process.getuid?.() !== 0 ? 'not root: the runs need a network namespace of their own'
  : spawnSync('sh', ['-c', 'command -v unshare']).status !== 0 ? 'unshare not found on PATH' : undefined;
if (offline !== undefined && process.env.CI !== 'true') {
  // eslint-disable-next-line no-console
  console.log(`skipping cdk8s synth without a network: ${offline}; under CI=true it runs and fails instead`);
}

(offline === undefined || process.env.CI === 'true' ? describe : describe.skip)('cdk8s synth without a network', () => {
  let copy: string;
  /** Runs a shell command in the copy, with no network. */
  const run = (command: string, extra: NodeJS.ProcessEnv = {}) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
    for (const name of Object.keys(env).filter((k) => k.startsWith('CDK8S_') && !(k in extra))) {
      delete env[name];
    }
    return spawnSync('unshare', ['-n', 'bash', '--norc', '--noprofile', '-eo', 'pipefail', '-c', command], { cwd: copy, env, encoding: 'utf8' });
  };

  beforeAll(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-cli-'));
    for (const entry of fs.readdirSync(ROOT).filter((e) => !LEFT_OUT.has(e))) {
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true, preserveTimestamps: true });
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  });

  afterAll(() => {
    if (copy) {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  const block = () => {
    const found = readmeBlocks().filter((b) => b.section === 'Synthesize' && b.lang === 'sh');
    expect(found).toHaveLength(1);
    return found[0].text;
  };

  test('README.md\'s synth command prints nothing on standard error, lists the manifests and writes the reference output', () => {
    expect(block()).toMatch(/^npx cdk8s synth --no-check-upgrade /);
    const synth = run(block());
    expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: '' });
    expect(synth.stdout).toMatch(/demo\.k8s\.yaml/);
    for (const file of ['demo.k8s.yaml', 'demo-cfssl.k8s.yaml']) {
      expect(fs.readFileSync(path.join(copy, 'dist', file), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'dist', file), 'utf8'));
    }
  }, 300_000);

  test('cdk8s.yaml says how, and its way, CDK8S_CHECK_UPGRADE=false, prints nothing else either', () => {
    const config = fs.readFileSync(path.join(ROOT, 'cdk8s.yaml'), 'utf8');
    expect(config).toContain('npx cdk8s synth --no-check-upgrade');
    expect(config).toContain('CDK8S_CHECK_UPGRADE=false');
    const synth = run('npx cdk8s synth', { CDK8S_CHECK_UPGRADE: 'false' });
    expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: '' });
  }, 300_000);

  test('without them the CLI prints its trace: the runs are offline indeed', () => {
    const synth = run(block().replace(' --no-check-upgrade', ''));
    expect(synth.stderr).toMatch(/http error: getaddrinfo|A new version undefined/);
  }, 300_000);
});
