/**
 * docs/tutorial.md, run as written. Its `sh` blocks marked `<!-- run: test/tutorial.test.ts -->`
 * run in order with bash, in a temporary folder laid out as the tutorial says: the clone of the
 * project, packed as test/consumer.test.ts packs it, and the tutorial's app beside it. The files
 * the tutorial shows whole (`// main.ts`, `// tsconfig.json`) are written from its blocks when the
 * reading reaches them, in the folder the commands before them moved to. Each block starts where
 * the one before left the reader's shell: its folder, and what it exported.
 *
 * The main case is the reader with no cluster: every block from the playground's `up` (which links
 * the clone's programs from the machine's store and starts the real kube-apiserver, cert-manager
 * and the real operator v1.6.6) through issuing, verify, the DatabaseCluster, what the operator
 * made of it (the coordinator's StatefulSet mounting the planned Secret, its configuration with
 * the allow-list), the troubleshooting commands, to the clean-up and `down`; then no process the
 * playground started runs and its state folder is gone. What the tutorial marks not run is what
 * needs the internet (the clone, cert-manager's and the operator's releases: the clone is packed
 * here) or nodes (the pods, a MySQL connection).
 *
 * The cases that break one step (the CRDs after the manifests, one CRD missing) follow the reader
 * with a cluster of their own, the playground's blocks skipped: a control plane with cert-manager
 * (test/_control-plane.ts) whose operator CRDs are deleted first, so that the tutorial's own step
 * installs them. They must stop at the apply step with kubectl's error, and run nothing after it.
 */
import { SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools, tool } from './_control-plane';
import { readmeBlocks } from './_readme';
import { failures } from './_runbooks';
import { operatorName } from './_operator-names';
import { alive, listTree } from '../tools/playground/process-tree';

const ROOT = path.join(__dirname, '..');
const TUTORIAL = path.join(ROOT, 'docs', 'tutorial.md');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** What a clone holds beyond its sources: never copied into the project copy that is packed (as test/consumer.test.ts). */
const NOT_SOURCES = new Set(['node_modules', 'build', 'dist', 'cluster-tls', 'coverage', '.git', '.jest-cache', '.cache', '.jsii']);
const RUN_MARKER = '<!-- run: test/tutorial.test.ts -->';
const NAMESPACE = 'tutorial';
const CLUSTER = 'orders';

/** One fenced block of the tutorial. */
interface Block {
  /** The line of its opening fence (1-based). */
  readonly line: number;
  /** The language after the fence. */
  readonly lang: string;
  /** The heading above it. */
  readonly heading: string;
  /** The line right before the opening fence. */
  readonly before: string;
  /** Whether the marker before it says the test runs it; undefined without a marker. */
  readonly run?: boolean;
  /** The file the block is, when its first line names one (`// main.ts`): a whole file. */
  readonly file?: string;
  /** The text between the fences, with a final newline. */
  readonly text: string;
}

/** The fenced blocks of a Markdown text, in order, with the marker line before each. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  let open: { line: number; lang: string; before: string; lines: string[] } | undefined;
  lines.forEach((line, i) => {
    if (open) {
      if (line === '```') {
        const file = /^(?:\/\/|#) ([\w.-]+\.(?:ts|ya?ml|json))$/.exec(open.lines[0] ?? '')?.[1];
        const run = open.before === RUN_MARKER ? true : /^<!-- not run: .+ -->$/.test(open.before) ? false : undefined;
        blocks.push({ line: open.line, lang: open.lang, heading, before: open.before, run, file, text: `${open.lines.join('\n')}\n` });
        open = undefined;
      } else {
        open.lines.push(line);
      }
    } else if (line.startsWith('```')) {
      open = { line: i + 1, lang: line.slice(3).trim(), before: lines[i - 1] ?? '', lines: [] };
    } else if (/^#{1,6} /.test(line)) {
      heading = line.replace(/^#+ /, '');
    }
  });
  if (open) {
    throw new Error(`docs/tutorial.md:${open.line}: a code block is never closed`);
  }
  return blocks;
}

const tutorial = () => fs.readFileSync(TUTORIAL, 'utf8');
/** The blocks the test acts on, in order: the commands it runs and the whole files it writes. */
const steps = () => blocksOf(tutorial()).filter((b) => (b.lang === 'sh' && b.run) || (b.file !== undefined));
const touchesCluster = (b: Block) => b.lang === 'sh' && /\bkubectl\b/.test(b.text);
const where = (b: Block) => `docs/tutorial.md:${b.line} (${b.heading})`;

describe('docs/tutorial.md, as a document', () => {
  test('every command block says whether this test runs it, on the line before its fence', () => {
    const unmarked = blocksOf(tutorial()).filter((b) => b.lang === 'sh' && b.run === undefined);
    expect(unmarked.map(where)).toEqual([]);
    expect(steps().filter((b) => b.lang === 'sh').length).toBeGreaterThan(0);
  });

  test('what it does not run is what needs the internet or nodes: the clone, cert-manager\'s release, the operator\'s release, the pods and a MySQL connection', () => {
    const notRun = blocksOf(tutorial()).filter((b) => b.lang === 'sh' && b.run === false);
    expect(notRun.map((b) => b.text.split('\n')[0])).toEqual([
      'git clone <repository URL> cdk8s-cluster-tls',
      'kubectl apply -f https://github.com/cert-manager/cert-manager/releases/download/v1.21.2/cert-manager.yaml',
      'kubectl apply --server-side -f <the CRDs of your operator\'s release>',
      'kubectl get pods -n tutorial',
    ]);
    // Nothing the test runs needs an address outside the machine or a value to fill in.
    expect(steps().filter((b) => b.lang === 'sh' && /https?:|<[^>]+>/.test(b.text)).map(where)).toEqual([]);
  });

  test('one title, then sections, each heading its own and none of README.md\'s', () => {
    const headings = tutorial().split('\n').filter((l) => /^#{1,6} /.test(l));
    expect(headings[0]).toBe('# Tutorial: from zero to a TLS cluster');
    expect(headings.slice(1).filter((h) => !h.startsWith('## '))).toEqual([]);
    const texts = headings.map((h) => h.replace(/^#+ /, ''));
    expect(texts.filter((t, i) => texts.indexOf(t) !== i)).toEqual([]);
    const readme = new Set(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((h) => h.replace(/^#+ /, '')));
    expect(texts.filter((t) => readme.has(t))).toEqual([]);
  });

  test('installs the package as README.md\'s "Use it in your app" does: the tarball npm pack writes, from beside the clone', () => {
    const line = `npm install ../cdk8s-cluster-tls/${PACKAGE.name}-${PACKAGE.version}.tgz`;
    const readme = readmeBlocks().filter((b) => b.section === 'Use it in your app' && b.lang === 'sh').map((b) => b.text).join('');
    expect(readme).toContain(`${line}\n`);
    expect(steps().filter((b) => b.text.split('\n').includes(line)).map(where)).toHaveLength(1);
  });

  test('shows tsconfig.json and main.ts whole, in that order: the test writes them from the tutorial', () => {
    expect(steps().filter((b) => b.file).map((b) => b.file)).toEqual(['tsconfig.json', 'main.ts']);
  });
});

/** What one command block did. */
interface Ran {
  readonly block: Block;
  /** Its exit code. */
  readonly status: number;
  /** Standard output, then standard error. */
  readonly stdout: string;
  readonly stderr: string;
}

/** Variables of bash's own, which a shell sets anew: not carried from one block to the next. */
const SHELL_OWN = new Set(['_', 'SHLVL', 'PWD', 'OLDPWD']);

/**
 * Runs the blocks in order from `cwd`, as a reader's shell would: each `sh` block with bash
 * (`-eo pipefail`, so that a failing command fails the block), sourced in the folder where the one
 * before it left off and with the environment it left (what it exported: the playground's
 * `KUBECONFIG` and `PATH`), as separate commands (bash ignores `-e` inside the left side of `&&`);
 * each whole file is written in that folder. Stops at the first block that fails. Asynchronous, so
 * that the control plane's programs are read from meanwhile.
 */
async function follow(blocks: readonly Block[], cwd: string, env: NodeJS.ProcessEnv, scratch: string): Promise<{ ran: Ran[]; cwd: string; env: NodeJS.ProcessEnv }> {
  const ran: Ran[] = [];
  fs.mkdirSync(scratch, { recursive: true });
  for (const [i, block] of blocks.entries()) {
    if (block.lang !== 'sh') {
      fs.writeFileSync(path.join(cwd, block.file!), block.text);
      continue;
    }
    const script = path.join(scratch, `block-${i}.sh`);
    const pwd = path.join(scratch, `block-${i}.pwd`);
    const left = path.join(scratch, `block-${i}.env`);
    fs.writeFileSync(script, block.text);
    const result = await new Promise<Ran>((resolve, reject) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-eo', 'pipefail', '-c', 'cd "$1"; . "$2"; pwd > "$3"; env -0 > "$4"', 'bash', cwd, script, pwd, left],
        { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ block, status: code ?? (signal ? 128 : 1), stdout, stderr }));
    });
    ran.push(result);
    if (result.status !== 0) {
      break;
    }
    cwd = fs.readFileSync(pwd, 'utf8').trim();
    env = Object.fromEntries(fs.readFileSync(left, 'utf8').split('\0').filter((v) => v.includes('='))
      .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]).filter(([k]) => !SHELL_OWN.has(k)));
  }
  return { ran, cwd, env };
}

/** A block's output for a failure message. */
const shown = (r: Ran) => `${where(r.block)} exited ${r.status}:\n${r.block.text}--- stdout:\n${r.stdout}--- stderr:\n${r.stderr}`;

// For the whole file: packing, npm and a control plane per case on a loaded 2-core machine are slow.
jest.setTimeout(600_000);

describeWithTools('docs/tutorial.md on a real API server with the real cert-manager', [...CONTROL_PLANE_TOOLS, 'tidb-controller-manager', 'cmctl'], () => {
  let work: string;
  let clone: string;
  /** The app folder, where the blocks before the first kubectl left the reader. */
  let app: string;
  /** The blocks that reach the cluster, from the first kubectl on, in the tutorial's order. */
  let clusterSteps: Block[];

  /** The environment of the tutorial's commands against a control plane: its kubectl first on the PATH, its kubeconfig. */
  function envFor(plane: ControlPlane): NodeJS.ProcessEnv {
    const bin = path.join(plane.work, 'tools');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'kubectl'))) {
      fs.symlinkSync(tool('kubectl'), path.join(bin, 'kubectl'));
    }
    // kubectl's discovery cache of its own, so that no earlier control plane's kinds are remembered.
    const env: NodeJS.ProcessEnv = { ...npmEnv(), PATH: `${bin}${path.delimiter}${process.env.PATH}`, KUBECONFIG: plane.kubeconfig, KUBECACHEDIR: path.join(plane.work, 'kube-cache') };
    for (const name of ['KUBECTL', 'CDK8S_OUTDIR']) {
      delete env[name];
    }
    return env;
  }

  /**
   * A control plane for one case, with cert-manager running (the tutorial's prerequisite) and
   * without the operator's CRDs, which the tutorial's own step installs.
   */
  async function withControlPlane<T>(body: (plane: ControlPlane, env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
    const plane = await ControlPlane.start();
    try {
      await plane.startCertManager();
      const removed = plane.kubectl(['delete', '-f', path.join(ROOT, 'crds', 'operator'), '--wait=true']);
      expect({ status: removed.status, stderr: removed.stderr }).toEqual({ status: 0, stderr: '' });
      expect(plane.kubectl(['get', 'crds', '-o', 'name']).stdout).not.toContain('db.operator.io');
      return await body(plane, envFor(plane));
    } finally {
      await plane.stop();
    }
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-tutorial-'));
    // The clone of section 1, as a user has it after `npm install`: its sources and its packages,
    // packed the way the tutorial packs it (npm pack runs the prepack script, a clean jsii build).
    clone = path.join(work, 'cdk8s-cluster-tls');
    fs.mkdirSync(clone);
    for (const entry of fs.readdirSync(ROOT)) {
      if (!NOT_SOURCES.has(entry)) {
        fs.cpSync(path.join(ROOT, entry), path.join(clone, entry), { recursive: true });
      }
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    const pack = spawnSync('npm', ['pack', '--json', '--foreground-scripts=false'], { cwd: clone, env: npmEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect({ status: pack.status, stderr: pack.status === 0 ? '' : pack.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0].filename).toBe(`${PACKAGE.name}-${PACKAGE.version}.tgz`);

    // Sections 2 to 4, which need no cluster, once for every case: from the folder that holds the
    // clone to the synthesized app.
    const all = steps();
    const first = all.findIndex(touchesCluster);
    clusterSteps = all.slice(first);
    const { ran, cwd } = await follow(all.slice(0, first), work, npmEnv(), path.join(work, 'blocks-app'));
    const failed = ran.find((r) => r.status !== 0);
    if (failed) {
      throw new Error(shown(failed));
    }
    app = cwd;
  }, 900_000);

  afterAll(() => {
    if (work) {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test('sections 2 to 4 make the app beside the clone and write what the tutorial lists', () => {
    expect(path.relative(work, app)).toBe('tls-tutorial');
    const listed = blocksOf(tutorial()).find((b) => b.lang === 'text' && b.text.startsWith('dist/\n'))!;
    expect(listed).toBeDefined();
    // The tree the tutorial draws, as paths: each entry's name, under the folders above it.
    const drawn: string[] = [];
    const parents: string[] = [];
    for (const line of listed.text.split('\n').filter((l) => l.trim() !== '')) {
      const depth = (line.length - line.trimStart().length) / 2;
      const name = line.trim().split(/\s+/)[0];
      parents.length = depth;
      if (name.endsWith('/')) {
        parents.push(name.replace(/\/$/, ''));
      } else {
        drawn.push([...parents, name].join('/'));
      }
    }
    const written = ['dist', 'cluster-tls'].flatMap((folder) => fs.readdirSync(path.join(app, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => path.relative(app, path.join(e.parentPath, e.name))));
    expect([...drawn].sort()).toEqual([...written, 'cluster-tls.lock.json'].sort());
    expect(fs.existsSync(path.join(app, 'cluster-tls.lock.json'))).toBe(true);
    // The library came from the tarball, and the app's cdk8s is the minor version it lays out.
    const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${PACKAGE.name}`].resolved).toBe(`file:../cdk8s-cluster-tls/${PACKAGE.name}-${PACKAGE.version}.tgz`);
    expect(lock.packages['node_modules/cdk8s'].version).toMatch(/^2\.70\./);
    const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(app, 'dist', `${NAMESPACE}.k8s.yaml`), 'utf8')).map((d) => d.toJS());
    expect(objects.at(-1)).toMatchObject({ kind: 'DatabaseCluster', metadata: { name: CLUSTER, namespace: NAMESPACE }, spec: { tlsCluster: { enabled: true } } });
    // Section 7 applies the issuers and certificates alone by their label: every object but the cluster carries it.
    expect(objects.filter((o) => o.metadata.labels?.['cdk8s-cluster-tls/certificates'] !== CLUSTER).map((o) => o.kind)).toEqual(['DatabaseCluster']);
    // What the tutorial says the synth prints.
    expect(tutorial()).toContain(`It prints \`synthesized 1 manifest (${objects.length} objects) into dist and 3 other files into cluster-tls\``);
  });

  test('on the playground, as written: every Certificate Ready, cluster-tls verify passes every Secret, the operator mounts the planned Secret and writes the allow-list; down leaves nothing', async () => {
    const state = path.join(clone, '.cache', 'playground');
    // A reader's shell: no kubeconfig or kubectl of the test's; the playground's block sets both.
    const env: NodeJS.ProcessEnv = { ...npmEnv(), KUBECACHEDIR: path.join(work, 'kube-cache') };
    for (const name of ['KUBECONFIG', 'KUBECTL', 'CDK8S_OUTDIR']) {
      delete env[name];
    }
    const cleanUp = clusterSteps.findIndex((b) => b.heading === '12. Clean up');
    expect(cleanUp).toBeGreaterThan(0);
    try {
      const first = await follow(clusterSteps.slice(0, cleanUp), app, env, path.join(work, 'blocks-playground'));
      const failed = first.ran.find((r) => r.status !== 0);
      expect(failed ? shown(failed) : '').toBe('');
      expect(first.ran.map((r) => r.block.line)).toEqual(clusterSteps.slice(0, cleanUp).filter((b) => b.lang === 'sh').map((b) => b.line));
      // Every program the playground started, from its server down: what down must stop.
      const server = Number(fs.readFileSync(path.join(state, 'server.pid'), 'utf8'));
      const started = listTree(server);
      const programs = started.map((p) => exe(p.pid));
      expect(programs).toEqual(expect.arrayContaining(['launcher', 'etcd', 'kube-apiserver', 'kube-controller-manager', 'cert-manager-webhook', 'cert-manager-controller', 'tidb-controller-manager']));
      checkIssuedAndCreated(first.ran, (args) => spawnSync('kubectl', args, { env: first.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }), first.env);
      checkOperatorWork(first.ran, (args) => spawnSync('kubectl', args, { env: first.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
      await checkTroubleshooting(first.env);

      // Clean up, as written: the tutorial's objects, then the playground.
      const second = await follow(clusterSteps.slice(cleanUp), first.cwd, first.env, path.join(work, 'blocks-clean-up'));
      const failedCleanUp = second.ran.find((r) => r.status !== 0);
      expect(failedCleanUp ? shown(failedCleanUp) : '').toBe('');
      expect(started.filter(alive).map((p) => `${p.pid} ${exe(p.pid)}`)).toEqual([]);
      expect(fs.existsSync(state)).toBe(false);
    } finally {
      if (fs.existsSync(state)) {
        spawnSync(process.execPath, [path.join(clone, 'build', 'tools', 'playground', 'main.js'), 'down'], { encoding: 'utf8' });
      }
    }
  }, 1_200_000);

  /** Runs kubectl with these arguments against the tutorial's cluster. */
  type Kube = (args: readonly string[]) => SpawnSyncReturns<string>;

  /** Sections 7 to 9 did what they say: every Certificate Ready with its Secret, verify's report as shown, the cluster created. */
  function checkIssuedAndCreated(ran: readonly Ran[], kube: Kube, env: NodeJS.ProcessEnv): void {
    const json = (args: readonly string[]) => JSON.parse(kube([...args, '-o', 'json']).stdout || '{}');
    // Every Certificate of the cluster, in its namespace and in cert-manager's, Ready.
    const certificates = (json(['get', 'certificates', '-A', '-l', `cdk8s-cluster-tls/certificates=${CLUSTER}`]).items as any[]);
    const applied = YAML.parseAllDocuments(fs.readFileSync(path.join(app, 'dist', `${NAMESPACE}.k8s.yaml`), 'utf8')).map((d) => d.toJS()).filter((o) => o.kind === 'Certificate');
    expect(certificates.map((c) => `${c.metadata.namespace}/${c.metadata.name}`).sort()).toEqual(applied.map((c) => `${c.metadata.namespace}/${c.metadata.name}`).sort());
    const ready = (c: any) => (c.status?.conditions ?? []).some((k: any) => k.type === 'Ready' && k.status === 'True');
    expect(certificates.filter((c) => !ready(c)).map((c) => c.metadata.name)).toEqual([]);

    // The Secret of each, as cert-manager wrote it.
    for (const c of certificates) {
      const secret = json(['get', 'secret', c.spec.secretName, '-n', c.metadata.namespace]);
      const keys = Object.entries(secret.data ?? {}).filter(([, v]) => typeof v === 'string' && v !== '').map(([k]) => k).sort();
      expect([c.spec.secretName, keys]).toEqual([c.spec.secretName, expect.arrayContaining(['ca.crt', 'tls.crt', 'tls.key'])]);
    }

    // The tutorial's verify block: exit code 0 (the block would have failed otherwise) and a
    // report of every Secret the plan requires (the components', the clients', those for MySQL
    // clients; the CA's is the reference they are checked against), each PASS.
    const verified = ran.find((r) => r.block.text.includes('npx cluster-tls verify'))!;
    const plan = JSON.parse(fs.readFileSync(path.join(app, 'cluster-tls', NAMESPACE, CLUSTER, 'tls-plan.json'), 'utf8'));
    const required = [...plan.secrets, ...plan.sqlTls.secrets].map((s: any) => s.name as string).sort();
    expect(required).toHaveLength(8);
    const rows = [...verified.stdout.matchAll(/^(\S+)\s+\S+\/\S+\s+.+?\s+(PASS|FAIL)$/gm)].map(([, name, result]) => [name, result]);
    expect(rows.map(([name]) => name).sort()).toEqual(required);
    expect(rows.filter(([, result]) => result !== 'PASS')).toEqual([]);
    expect(verified.stdout).toMatch(new RegExp(`^${required.length} secrets checked: ${required.length} passed, 0 failed$`, 'm'));
    // The report the tutorial shows is this one, but for the time of the check.
    const shownReport = blocksOf(tutorial()).find((b) => b.lang === 'text' && b.heading === verified.block.heading)!;
    const timeless = (report: string) => report.replace(/checked at \S+/, 'checked at <time>');
    expect(timeless(shownReport.text)).toBe(timeless(verified.stdout));
    // The same command's JSON report, with no failing check.
    const report = spawnSync('bash', ['--norc', '--noprofile', '-eo', 'pipefail', '-c', `${verified.block.text.trim()} --json`], { cwd: app, env, encoding: 'utf8' });
    expect({ status: report.status, stderr: report.stderr }).toEqual({ status: 0, stderr: '' });
    expect({ ok: JSON.parse(report.stdout).ok, failures: failures(JSON.parse(report.stdout)) }).toEqual({ ok: true, failures: [] });
    // What the troubleshooting table says verify prints for a Secret not written yet: the same
    // command, with the coordinator's Secret left out of its input.
    const missing = spawnSync('bash', ['--norc', '--noprofile', '-o', 'pipefail', '-c',
      `kubectl get secrets -n ${NAMESPACE} -o json | node -e 'const l = JSON.parse(require("fs").readFileSync(0, "utf8")); l.items = l.items.filter((s) => s.metadata.name !== "${CLUSTER}-coordinator-cluster-secret"); console.log(JSON.stringify(l))' | npx cluster-tls verify --dist dist --secrets -`],
    { cwd: app, env, encoding: 'utf8' });
    expect(missing.status).toBe(1);
    const said = /verify` fails it with\n`([^`]+)`/.exec(tutorial())![1].replace('<name>', `${CLUSTER}-coordinator-cluster-secret`);
    expect(missing.stdout).toContain(said);

    // Section 9 created the cluster, TLS on, and left the issuers and certificates as they were.
    const apply = ran.find((r) => /^kubectl apply -f dist\/$/m.test(r.block.text))!;
    const created = apply.stdout.split('\n').filter((l) => / (created|configured|unchanged)$/.test(l));
    expect(created.filter((l) => !l.endsWith(' unchanged'))).toEqual([`databasecluster.db.operator.io/${CLUSTER} created`]);
    expect(json(['get', 'databasecluster', CLUSTER, '-n', NAMESPACE]).spec.tlsCluster).toEqual({ enabled: true });
  }

  /**
   * The table of section 11, as cert-manager says it: the coordinator's Certificate applied where
   * its issuer is missing, then beside its issuer where the CA's Secret is missing, each request
   * stopped with the message the table quotes, which `cmctl status certificate` shows (with the
   * issuer's own for the second).
   */
  async function checkTroubleshooting(env: NodeJS.ProcessEnv): Promise<void> {
    const table = tutorial().slice(tutorial().indexOf('| What you see |'));
    const quoted = (row: number) => [...table.split('\n')[row + 1].split(' | ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((q) => q.includes(' '));
    const sh = (command: string) => spawnSync('bash', ['--norc', '--noprofile', '-o', 'pipefail', '-c', command], { env, encoding: 'utf8' });
    const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(app, 'dist', `${NAMESPACE}.k8s.yaml`), 'utf8')).map((d) => d.toJS());
    const inScratch = (o: any, ns: string) => YAML.stringify({ ...o, metadata: { ...o.metadata, namespace: ns } });
    const certificate = objects.find((o) => o.kind === 'Certificate' && o.metadata.name === `${CLUSTER}-coordinator-cluster-secret`);
    const issuer = objects.find((o) => o.kind === 'Issuer' && o.metadata.name === certificate.spec.issuerRef.name);
    for (const [ns, manifests, row] of [['no-issuer', [certificate], 2], ['no-ca-secret', [issuer, certificate], 3]] as const) {
      expect(sh(`kubectl create namespace ${ns} && kubectl apply -f - <<'EOF'\n${manifests.map((o) => inScratch(o, ns)).join('---\n')}EOF`).status).toBe(0);
      const expected = quoted(row);
      expect(expected.length).toBeGreaterThan(0);
      let status = '';
      for (const start = Date.now(); !expected.every((q) => status.includes(q)) && Date.now() - start < 60_000; await new Promise((r) => setTimeout(r, 1000))) {
        status = sh(`cmctl status certificate ${certificate.metadata.name} -n ${ns}`).stdout;
      }
      expect(expected.filter((q) => !status.includes(q))).toEqual([]);
      sh(`kubectl delete namespace ${ns} --wait=false`);
    }
  }

  /**
   * Section 10 as the operator did it: the coordinator's StatefulSet mounts the Secret the plan
   * names for the coordinator (under the operator's name, the same data), and its configuration
   * carries TLS and the allow-list the library wrote; what the tutorial shows is what was printed.
   */
  function checkOperatorWork(ran: readonly Ran[], kube: Kube): void {
    const json = (args: readonly string[]) => JSON.parse(kube([...args, '-o', 'json']).stdout || '{}');
    const plan = JSON.parse(fs.readFileSync(path.join(app, 'cluster-tls', NAMESPACE, CLUSTER, 'tls-plan.json'), 'utf8'));
    const planned = (plan.secrets as any[]).find((s) => s.component === 'coordinator')?.name ?? `${CLUSTER}-coordinator-cluster-secret`;
    expect(planned).toBe(`${CLUSTER}-coordinator-cluster-secret`);
    const statefulSet = json(['get', 'statefulset', `${CLUSTER}-pd`, '-n', NAMESPACE]);
    const pod = statefulSet.spec.template.spec;
    const volume = (pod.volumes as any[]).find((v) => v.secret?.secretName === operatorName(planned, CLUSTER));
    expect(volume).toBeDefined();
    expect((pod.containers[0].volumeMounts as any[]).map((m) => m.name)).toContain(volume.name);
    // The mounted Secret holds the planned one's certificate and key, byte for byte.
    const data = (name: string) => json(['get', 'secret', name, '-n', NAMESPACE]).data;
    expect(data(operatorName(planned, CLUSTER))).toEqual(data(planned));
    // The configuration: TLS on, and the coordinator's allow-list, the certificates' Common Name.
    const config = TOML.parse(json(['get', 'configmap', `${CLUSTER}-pd`, '-n', NAMESPACE]).data['config-file']) as any;
    expect(config.security['cert-allowed-cn']).toEqual([plan.commonName ?? CLUSTER]);
    expect(config.security['cacert-path']).toMatch(/ca\.crt$/);
    // What the tutorial shows of both is what the blocks printed.
    const section = ran.filter((r) => r.block.heading === '10. See what the operator made of it');
    const shownOutputs = blocksOf(tutorial()).filter((b) => b.lang === 'text' && b.heading === '10. See what the operator made of it');
    expect(section.map((r) => r.stdout)).toEqual(shownOutputs.map((b) => b.text));
  }

  /**
   * Runs the cluster's blocks with one step broken, and expects the run to stop at the first
   * block that applies dist/, with kubectl's refusal of the kind no CRD defines, and nothing
   * after it run.
   */
  async function expectStopsAtApply(blocks: Block[], env: NodeJS.ProcessEnv, scratch: string): Promise<Ran> {
    const { ran } = await follow(blocks, app, env, scratch);
    const last = ran.at(-1)!;
    const apply = blocks.find((b) => /^kubectl apply -f dist\//m.test(b.text))!;
    expect({ stoppedAt: last.block.line, failed: last.status !== 0 }).toEqual({ stoppedAt: apply.line, failed: true });
    expect(last.stderr).toContain('no matches for kind "DatabaseCluster" in version "db.operator.io/v1alpha1"');
    expect(last.stderr).toContain('ensure CRDs are installed first');
    expect(ran).toHaveLength(blocks.filter((b) => b.lang === 'sh').indexOf(apply) + 1);
    return last;
  }

  const crdStep = () => clusterSteps.find((b) => b.text.includes('crds/operator/'))!;
  /** The blocks of a reader with a cluster of their own: the playground's skipped. */
  const ownCluster = () => clusterSteps.filter((b) => !/\bplayground\b/.test(b.text));

  test('broken: the CRDs installed after the manifests are applied, the run stops at the apply step with kubectl\'s error', async () => {
    await withControlPlane(async (plane, env) => {
      const crds = crdStep();
      const others = ownCluster().filter((b) => b !== crds);
      const apply = others.findIndex((b) => /^kubectl apply -f dist\//m.test(b.text));
      const reordered = [...others.slice(0, apply + 1), crds, ...others.slice(apply + 1)];
      await expectStopsAtApply(reordered, env, path.join(plane.work, 'blocks'));
      // The CRD step never ran: the API server knows no kind of the operator's.
      expect(plane.kubectl(['get', 'crds', '-o', 'name']).stdout).not.toContain('db.operator.io');
    });
  });

  test('broken: the DatabaseCluster CRD missing from the CRDs installed, the run stops at the apply step with kubectl\'s error', async () => {
    const crd = path.join(clone, 'crds', 'operator', 'databaseclusters.yaml');
    const aside = path.join(work, 'databaseclusters.yaml');
    fs.renameSync(crd, aside);
    try {
      await withControlPlane(async (plane, env) => {
        await expectStopsAtApply(ownCluster(), env, path.join(plane.work, 'blocks'));
        // The CRD step ran and installed the others.
        const installed = plane.kubectl(['get', 'crds', '-o', 'name']).stdout.split('\n').filter((n) => n.includes('db.operator.io')).sort();
        expect(installed).toEqual(['backups', 'databasemonitors', 'migrationclusters', 'restores']
          .map((kind) => `customresourcedefinition.apiextensions.k8s.io/${kind}.db.operator.io`));
      });
    } finally {
      fs.renameSync(aside, crd);
    }
  });
});

/** The program a process runs, by its file's name; '' once it has ended. */
function exe(pid: number): string {
  try {
    return path.basename(fs.readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return '';
  }
}

/** The environment of npm commands: quiet, the cache first; the behaviour is npm's. */
function npmEnv(): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true' };
}
