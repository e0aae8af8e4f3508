/**
 * {@link ControlPlane}: a real control plane for one test file, run from the programs
 * scripts/build-control-plane.sh builds from Go modules (etcd and kube-apiserver started by the
 * launcher, kube-controller-manager's garbage collector, cert-manager's controllers and webhook).
 * Where the programs are, and `describeWithTools`, are in `_programs.ts` (re-exported here).
 *
 * Every program started here stops when the test process ends, however it ends: the launcher,
 * the webhook and the controllers stop when their standard input closes, and the garbage
 * collector when its log pipe breaks.
 *
 * @live a suite that imports this module, directly or through a helper, is in `npm test` only, not
 * in `npm run test:fast` (test/_tiers.js)
 */
import { ChildProcess, SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SecretPem } from './_handshakes';
import { type Program, TOOLS_BIN, tool } from './_programs';

export { TOOLS_BIN, describeWithTools, missingTools, tool, until } from './_programs';
export type { Program } from './_programs';

/** The namespace cert-manager runs in, as its chart installs it. */
const CERT_MANAGER_NAMESPACE = 'cert-manager';


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
    // The webhook asks the system for a free port, then binds it: another program may take the port
    // in between (the span's tests start control planes side by side), and the webhook then exits
    // with "address already in use". It is started again, on a port asked for anew.
    for (let attempt = 1; ; attempt++) {
      this.webhook = spawn(tool('cert-manager-webhook'), ['--kubeconfig', this.kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'] });
      try {
        await untilPrinted(this.webhook, 'stdout', 'ready', 'cert-manager\'s webhook');
        break;
      } catch (e) {
        if (attempt === 3 || !(e as Error).message.includes('address already in use')) {
          throw e;
        }
      }
    }
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
