/**
 * The playground: on one machine, from the programs the clone's build script built, an API server
 * with cert-manager (webhook and controllers), the CRDs of cert-manager, of the operator's release
 * and of prometheus-operator's PrometheusRule, the real operator release 1.6.6, and the bridge that
 * hands it what a user applies (bridge.ts). The specification's CRDs (`crds/operator/`) are the
 * user's to install, as on any cluster. It needs no network.
 *
 * `up` starts one process in the background, the server, which starts every program as its child
 * (control-plane.ts) and writes the state folder; `down` stops the server, which stops its children
 * and removes the folder, then stops whatever of the server's processes is left and removes the
 * folder if it is still there. Every program is started with the state folder's `tmp/` as its
 * temporary folder (etcd's data, the API server's and the webhook's certificates), so that nothing
 * of the playground is kept outside it.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Bridge, kubectlAt } from './bridge';
import { ControlPlane } from './control-plane';
import { stopTree } from './process-tree';
import { CERT_MANAGER_CRDS, OPERATOR_CRDS, OPERATOR_RELEASE, PROJECT_ROOT, type Program, missingTools, tool } from './programs';

/** The state folder of the clone's playground. */
export const STATE = path.join(PROJECT_ROOT, '.cache', 'playground');

/** The programs the playground runs, and those it puts on the PATH it prints. */
export const PLAYGROUND_TOOLS: readonly Program[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl', 'launcher',
  'cert-manager-controller', 'cert-manager-webhook', 'tidb-controller-manager', 'cmctl'];
const ON_PATH: readonly Program[] = ['kubectl', 'cmctl'];

/** The port the operator's release binds on every address, fixed in its code (its metrics and pprof). */
const OPERATOR_PORT = 6060;

/** Whether a TCP port can be bound on every address. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** What the server writes once every program runs. */
interface Running {
  /** The server's process id. */
  readonly pid: number;
  /** The process ids of its children, by program. */
  readonly programs: Readonly<Record<string, number>>;
}

/** The files of a state folder. */
function files(state: string) {
  return {
    running: path.join(state, 'running.json'),
    server: path.join(state, 'server.pid'),
    kubeconfig: path.join(state, 'control-plane', 'kubeconfig'),
    bin: path.join(state, 'bin'),
    tmp: path.join(state, 'tmp'),
    log: path.join(state, 'playground.log'),
  };
}

/** The shell lines that point kubectl and cmctl at the playground. */
export function envLines(state = STATE): string {
  const f = files(state);
  return `export KUBECONFIG=${f.kubeconfig}\nexport PATH=${f.bin}:$PATH\n`;
}

/** What `up` says when the programs are not built: one line, with what to run and how long it takes. */
export function notBuilt(missing: readonly string[]): string {
  return `playground: ${missing.join(', ')} not built: run scripts/build-control-plane.sh in ${PROJECT_ROOT} first `
    + '(Go 1.26 and the Go module proxy; about 27 minutes on 2 cores with cold Go caches, seconds once this machine\'s store holds the programs)';
}

/** The server's record, when the state folder holds one and the server runs. */
function running(state: string): Running | undefined {
  try {
    const record: Running = JSON.parse(fs.readFileSync(files(state).running, 'utf8'));
    process.kill(record.pid, 0);
    return record;
  } catch {
    return undefined;
  }
}

/** Starts the playground unless it runs; returns the lines to print, or throws with why it did not start. */
export async function up(state = STATE): Promise<string> {
  const already = running(state);
  if (already) {
    return `# playground: already up (server ${already.pid}); stop it with: npm run playground -- down\n${envLines(state)}`;
  }
  const missing = missingTools(PLAYGROUND_TOOLS);
  if (missing.length > 0 || !fs.existsSync(OPERATOR_CRDS)) {
    throw new Error(notBuilt(missing.length > 0 ? missing : ['the operator\'s CRDs']));
  }
  await down(state);
  if (!await portFree(OPERATOR_PORT)) {
    throw new Error(`playground: port ${OPERATOR_PORT} is taken: the operator's release serves its metrics there on every address, and stops when it cannot `
      + '(another playground on this machine?)');
  }
  fs.mkdirSync(files(state).tmp, { recursive: true });
  const log = fs.openSync(files(state).log, 'a');
  const server = spawn(process.execPath, [require.resolve('./main'), 'serve', state], { detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  server.unref();
  fs.writeFileSync(files(state).server, `${server.pid}\n`);
  let code: number | undefined;
  server.on('exit', (c) => { code = c ?? 1; });
  for (const start = Date.now(); !running(state); await new Promise((r) => setTimeout(r, 200))) {
    if (code !== undefined || Date.now() - start > 300_000) {
      const printed = fs.existsSync(files(state).log) ? fs.readFileSync(files(state).log, 'utf8').slice(-3000) : '';
      await down(state);
      throw new Error(`playground: did not start (${code === undefined ? 'not up within 300 s' : `exit ${code}`}):\n${printed}`);
    }
  }
  return `# playground: up, from ${PROJECT_ROOT}: kube-apiserver, cert-manager, the operator ${OPERATOR_RELEASE} (server ${running(state)!.pid}, state in ${state});`
    + ' stop it with: npm run playground -- down\n'
    + `${envLines(state)}`;
}

/** Stops the playground and removes its state; returns the line to print. */
export async function down(state = STATE): Promise<string> {
  if (!fs.existsSync(state)) {
    return '# playground: not up\n';
  }
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
  const server = Number(read(files(state).server) ?? NaN);
  const programs: number[] = Object.values(JSON.parse(read(files(state).running) ?? '{"programs":{}}').programs);
  const stopped = Number.isInteger(server) ? await stopTree(server, 60_000, programs) : 0;
  fs.rmSync(state, { recursive: true, force: true });
  return `# playground: down: ${stopped} processes stopped, ${state} removed\n`;
}

/** The lines that point a shell at the running playground, or throws when it is not up. */
export function env(state = STATE): string {
  if (!running(state)) {
    throw new Error('playground: not up: start it with: npm run playground -- up');
  }
  return envLines(state);
}

/**
 * The server: starts the control plane, cert-manager, the operator and the bridge, writes the
 * record once all run, and on SIGTERM or SIGINT stops them in the reverse order and removes the
 * state folder.
 */
export async function serve(state: string): Promise<void> {
  const f = files(state);
  const programEnv = { ...process.env, TMPDIR: f.tmp, KUBECACHEDIR: path.join(f.tmp, 'kube-cache') };
  // cert-manager's CRDs and prometheus-operator's PrometheusRule by the launcher; not the
  // specification's (crds/operator/), which a user installs as on any cluster.
  const crds = [CERT_MANAGER_CRDS, path.join(PROJECT_ROOT, 'crds', 'prometheus-operator')];
  // The namespace controller too, so that a namespace deleted is emptied and goes, as on any cluster.
  const plane = await ControlPlane.start({ work: path.dirname(f.kubeconfig), crds, env: programEnv, controllers: ['garbagecollector', 'namespace'] });
  let operator: ChildProcess | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) {
      return;
    }
    stopping = true;
    if (operator && operator.exitCode === null && operator.signalCode === null) {
      const exited = new Promise((r) => operator!.on('exit', r));
      operator.kill('SIGTERM');
      await exited;
    }
    await plane.stop();
    fs.rmSync(state, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  try {
    // The operator release's CRDs, applied here rather than by the launcher, which gives CRDs 10 s
    // to be served: its TidbCluster CRD, over 1 MB, takes longer on a busy machine. Server-side,
    // since it is too large for the annotation of a client-side apply.
    for (const args of [['apply', '--server-side', '-f', OPERATOR_CRDS], ['wait', '--for=condition=Established', '-f', OPERATOR_CRDS, '--timeout=300s']]) {
      const done = plane.kubectl(args);
      if (done.status !== 0) {
        throw new Error(`kubectl ${args.join(' ')}: ${done.stderr}`);
      }
    }
    await plane.startCertManager();
    // The real operator, as its chart runs it: in a namespace of its own, watching every namespace.
    // Its log goes through this process, so that it stops, writing to a closed pipe, if this one is killed.
    operator = spawn(tool('tidb-controller-manager'), [], { env: { ...programEnv, KUBECONFIG: f.kubeconfig, NAMESPACE: 'default' }, stdio: ['ignore', 'pipe', 'pipe'] });
    operator.stdout!.on('data', (d) => process.stdout.write(d));
    operator.stderr!.on('data', (d) => process.stdout.write(d));
    operator.on('exit', (code, signal) => {
      if (!stopping) {
        process.stdout.write(`playground: the operator stopped (${code ?? signal})\n`);
        void stop();
      }
    });
    fs.mkdirSync(f.bin, { recursive: true });
    for (const program of ON_PATH) {
      fs.symlinkSync(tool(program), path.join(f.bin, program));
    }
    const bridge = new Bridge(kubectlAt(tool('kubectl'), f.kubeconfig, programEnv));
    const record: Running = { pid: process.pid, programs: { ...plane.pids, 'tidb-controller-manager': operator.pid! } };
    fs.writeFileSync(`${f.running}.partial`, JSON.stringify(record));
    fs.renameSync(`${f.running}.partial`, f.running);
    process.stdout.write(`playground: up: ${JSON.stringify(record)}\n`);
    let reported = '';
    while (!stopping) {
      const error = await bridge.sync();
      if (error !== undefined && error !== reported) {
        process.stdout.write(`playground: bridge: ${error}\n`);
      }
      reported = error ?? '';
      await new Promise((r) => setTimeout(r, 1000));
    }
  } catch (e) {
    process.stdout.write(`playground: ${(e as Error).message}\n`);
    await stop(1);
  }
}
