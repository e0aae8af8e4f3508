/**
 * The real programs built from Go modules by scripts/build-control-plane.sh (etcd, kube-apiserver,
 * kube-controller-manager and kubectl of one Kubernetes release, cert-manager's controllers and
 * webhook, cmctl, the launcher, the Go TLS peer): whether they are there, the suites that need
 * them, and {@link ControlPlane}, which runs them for one test file. Outside CI a suite whose
 * programs are missing or out of date is skipped with its reason printed; under CI (CI=true) it
 * runs and fails with what to do.
 *
 * Every program started here stops when the test process ends, however it ends: the launcher,
 * the webhook and the controllers stop when their standard input closes, and the garbage
 * collector when its log pipe breaks.
 */
import { ChildProcess, SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SecretPem } from './_handshakes';

/** The namespace cert-manager runs in, as its chart installs it. */
const CERT_MANAGER_NAMESPACE = 'cert-manager';

/** Where the build script puts the programs. */
export const TOOLS_BIN = path.join(__dirname, '..', '.cache', 'control-plane', 'bin');

/** The programs the build script makes. */
export type Program = 'etcd' | 'etcdctl' | 'kube-apiserver' | 'kube-controller-manager' | 'kubectl' | 'launcher' | 'cert-manager-controller' | 'cert-manager-webhook' | 'cmctl' | 'helm' | 'tls-peer'
  | 'mysql-client' | 'quantity' | 'tidb-server' | 'tidb-controller-manager' | 'operator-peers' | 'duration' | 'yaml-read' | 'dm-task-check';

/** The path of a built program. */
export function tool(name: Program): string {
  return path.join(TOOLS_BIN, name);
}

const inCi = process.env.CI === 'true';

/**
 * Resolves once `child` prints `text` on `stream` (which it then keeps reading, so that the
 * program never blocks on a full pipe); rejects with the end of what it printed when it exits
 * first or takes more than two minutes.
 */
function untilPrinted(child: ChildProcess, stream: 'stdout' | 'stderr', text: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let printed = '';
    const fail = (why: string) => { clearTimeout(timer); reject(new Error(`${what} ${why}: ${printed.slice(-2000)}`)); };
    const timer = setTimeout(() => fail('did not start within 120 s'), 120_000);
    child.stderr!.on('data', (d) => { printed = (printed + d).slice(-100_000); });
    child[stream]!.on('data', (d) => {
      if (stream === 'stdout') {
        printed = (printed + d).slice(-100_000);
      }
      if (printed.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => fail(`stopped (exit ${code})`));
  });
}

/** The programs a {@link ControlPlane} runs. */
export const CONTROL_PLANE_TOOLS: readonly Program[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl', 'launcher', 'cert-manager-controller', 'cert-manager-webhook'];

/**
 * A control plane of its own for one test file: etcd and kube-apiserver started by the launcher
 * with cert-manager's release CRDs, the operator's (crds/operator/) and prometheus-operator's PrometheusRule, an admin kubeconfig, the
 * garbage collector of kube-controller-manager (what deletes a deleted Certificate's
 * CertificateRequests; the other controllers manage pods, which a node-less cluster has none
 * of), and the real cert-manager, its webhook and its controllers, once {@link startCertManager}
 * is called. {@link stop} stops them all and removes the folder.
 */
export class ControlPlane {
  /** Starts etcd and kube-apiserver, then the garbage collector; resolves once both run. */
  public static async start(): Promise<ControlPlane> {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-control-plane-'));
    const kubeconfig = path.join(work, 'kubeconfig');
    const crds = [path.join(TOOLS_BIN, '..', 'crds', 'cert-manager'), ...['operator', 'prometheus-operator'].map((d) => path.join(__dirname, '..', 'crds', d))].join(',');
    const started: ChildProcess[] = [];
    try {
      const launcher = spawn(tool('launcher'), ['--assets', TOOLS_BIN, '--crds', crds, '--kubeconfig-out', kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'] });
      started.push(launcher);
      await untilPrinted(launcher, 'stdout', 'ready', 'the control plane');
      const collector = spawn(tool('kube-controller-manager'), ['--kubeconfig', kubeconfig, '--controllers=garbagecollector', '--leader-elect=false', '--secure-port=0'],
        { stdio: ['ignore', 'ignore', 'pipe'] });
      started.push(collector);
      await untilPrinted(collector, 'stderr', 'Proceeding to collect garbage', 'the garbage collector');
      return new ControlPlane(work, kubeconfig, launcher, collector);
    } catch (e) {
      await stopAll(started.reverse());
      fs.rmSync(work, { recursive: true, force: true });
      throw e;
    }
  }

  private controller?: ChildProcess;
  private webhook?: ChildProcess;

  private constructor(
    /** A private folder of the test file's, removed by {@link stop}. */
    public readonly work: string,
    /** The admin user's kubeconfig. */
    public readonly kubeconfig: string,
    private readonly launcher: ChildProcess,
    private readonly collector: ChildProcess,
  ) {}

  /** Runs the release's kubectl against this API server. */
  public kubectl(args: readonly string[], input?: string): SpawnSyncReturns<string> {
    return spawnSync(tool('kubectl'), ['--kubeconfig', this.kubeconfig, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  }

  /** The Secrets of a namespace that hold a certificate, as the API server holds them now, by name, decoded. */
  public tlsSecrets(namespace: string): Map<string, SecretPem> {
    const got = this.kubectl(['get', 'secrets', '-n', namespace, '-o', 'json']);
    if (got.status !== 0) {
      throw new Error(`kubectl get secrets -n ${namespace}: ${got.stderr}`);
    }
    return new Map(JSON.parse(got.stdout).items.filter((s: any) => s.data?.['tls.crt'] !== undefined)
      .map((s: any) => [s.metadata.name, Object.fromEntries(
        Object.entries(s.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      ) as SecretPem]));
  }

  /**
   * Starts cert-manager as a cluster runs it: the webhook first (registered with the API server,
   * failing closed, so that every cert-manager object applied from then on passes its validation),
   * then the controllers, with the release's defaults, in the namespace its chart installs it in
   * (`cert-manager`, made here), which its chart also gives as the namespace of ClusterIssuers' Secrets.
   */
  public async startCertManager(): Promise<void> {
    const namespace = this.kubectl(['create', 'namespace', CERT_MANAGER_NAMESPACE]);
    if (namespace.status !== 0) {
      throw new Error(`kubectl create namespace ${CERT_MANAGER_NAMESPACE}: ${namespace.stderr}`);
    }
    this.webhook = spawn(tool('cert-manager-webhook'), ['--kubeconfig', this.kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'] });
    await untilPrinted(this.webhook, 'stdout', 'ready', 'cert-manager\'s webhook');
    this.startCertManagerController();
  }

  /** Starts cert-manager's controllers (its approver among them), as {@link startCertManager} does after the webhook. */
  public startCertManagerController(): void {
    this.controller = spawn(tool('cert-manager-controller'), ['--kubeconfig', this.kubeconfig, `--cluster-resource-namespace=${CERT_MANAGER_NAMESPACE}`],
      { stdio: ['pipe', 'ignore', 'ignore'] });
  }

  /**
   * Stops cert-manager's controllers and waits until they have exited; the webhook keeps running, so
   * cert-manager's objects are still admitted, and nothing approves or signs them until
   * {@link startCertManagerController}.
   */
  public async stopCertManagerController(): Promise<void> {
    if (this.controller) {
      await stopAll([this.controller]);
    }
  }

  /** Stops cert-manager (controllers, then webhook) and the garbage collector, then etcd and kube-apiserver, and removes the folder. */
  public async stop(): Promise<void> {
    await stopAll([this.controller, this.webhook, this.collector, this.launcher].filter((c): c is ChildProcess => c !== undefined));
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}

/**
 * Stops programs one after the other, each waited for: by closing its standard input when it has
 * one (the launcher then stops etcd and kube-apiserver itself), else by SIGTERM.
 */
async function stopAll(programs: readonly ChildProcess[]): Promise<void> {
  for (const program of programs) {
    if (program.exitCode !== null || program.signalCode !== null) {
      continue;
    }
    const stopped = new Promise((resolve) => program.on('exit', resolve));
    if (program.stdin) {
      program.stdin.end();
    } else {
      program.kill('SIGTERM');
    }
    await stopped;
  }
}

let stale: Set<string> | undefined;

/**
 * The programs of `names` that are missing or not built from the current sources (the build
 * script's `--check`, asked once per test file).
 */
export function missingTools(names: readonly Program[]): Program[] {
  if (stale === undefined) {
    const checked = spawnSync('bash', [path.join(__dirname, '..', 'scripts', 'build-control-plane.sh'), '--check'], { encoding: 'utf8' });
    stale = new Set([...(checked.stdout ?? '').matchAll(/build-control-plane: (\S+) is not built from the current sources/g)].map((m) => m[1]));
  }
  return names.filter((n) => !fs.existsSync(path.join(TOOLS_BIN, n)) || stale!.has(n));
}

/**
 * `describe` when the programs are there or under CI, else `describe.skip` after printing why.
 * Under CI a suite whose programs are missing gets one failing test saying what to run.
 */
export function describeWithTools(what: string, names: readonly Program[], body: () => void): void {
  const missing = missingTools(names);
  if (missing.length === 0) {
    describe(what, body);
    return;
  }
  const why = `${missing.join(', ')} not built from the current sources (run scripts/build-control-plane.sh; .ci/run does)`;
  if (inCi) {
    describe(what, () => {
      test('has the programs it needs', () => {
        throw new Error(`CI=true but ${why}`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.log(`skipping ${what}: ${why}; under CI=true the suite fails instead`);
  describe.skip(what, body);
}

/** Waits until `done` holds, polling every `every` ms; throws with `why()` after `ms`. */
export async function until(done: () => boolean, why: () => string, ms = 60_000, every = 20): Promise<void> {
  for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, every))) {
    if (Date.now() - start > ms) {
      throw new Error(`timed out: ${why()}`);
    }
  }
}
