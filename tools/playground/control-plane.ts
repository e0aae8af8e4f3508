/**
 * {@link ControlPlane}: a real control plane run from the programs scripts/build-control-plane.sh
 * builds from Go modules (etcd and kube-apiserver started by the launcher, kube-controller-manager's
 * garbage collector, cert-manager's controllers and webhook). The tests start one per test file
 * (test/_control-plane.ts), the playground one per clone (playground.ts): this is the one way both
 * start it.
 *
 * Every program started here stops when the process that started it ends, however it ends: the
 * launcher, the webhook and the controllers stop when their standard input closes, and the garbage
 * collector when its log pipe breaks.
 */
import { ChildProcess, SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stopAll, untilPrinted } from './processes';
import { CERT_MANAGER_CRDS, PROJECT_ROOT, TOOLS_BIN, tool } from './programs';

/** The namespace cert-manager runs in, as its chart installs it. */
export const CERT_MANAGER_NAMESPACE = 'cert-manager';

/** A certificate Secret's three keys, decoded. */
export type CertificateSecret = Readonly<Record<'tls.crt' | 'tls.key' | 'ca.crt', string>>;

/**
 * The CRDs a control plane installs unless told otherwise: cert-manager's release's, the
 * specification's operator kinds (`crds/operator/`, API group `db.operator.io`) and
 * prometheus-operator's PrometheusRule.
 */
export const CONTROL_PLANE_CRDS: readonly string[] = [CERT_MANAGER_CRDS, ...['operator', 'prometheus-operator'].map((d) => path.join(PROJECT_ROOT, 'crds', d))];

/** How to start a {@link ControlPlane}. */
export interface ControlPlaneOptions {
  /**
   * The folder of its files (the kubeconfig), made if missing and removed by {@link ControlPlane.stop}.
   * @default - a new folder in the system's temporary folder
   */
  readonly work?: string;
  /**
   * The folders of the CRDs to install.
   * @default CONTROL_PLANE_CRDS
   */
  readonly crds?: readonly string[];
  /**
   * The controllers of kube-controller-manager to run.
   * @default ['garbagecollector']
   */
  readonly controllers?: readonly string[];
  /**
   * The environment of the programs.
   * @default - this process's
   */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * A control plane: etcd and kube-apiserver started by the launcher with its CRDs (by default
 * cert-manager's release's, the operator's of crds/operator/ and prometheus-operator's
 * PrometheusRule), an admin kubeconfig, the garbage collector of kube-controller-manager (what deletes a deleted
 * Certificate's CertificateRequests, and what an owner reference makes go with its owner; the other
 * controllers manage pods, which a node-less cluster has none of), and the real cert-manager, its
 * webhook and its controllers, once {@link startCertManager} is called. {@link stop} stops them all
 * and removes the folder.
 */
export class ControlPlane {
  /** Starts etcd and kube-apiserver, then the garbage collector; resolves once both run. */
  public static async start(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
    const work = options.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-control-plane-'));
    fs.mkdirSync(work, { recursive: true });
    const kubeconfig = path.join(work, 'kubeconfig');
    const crds = (options.crds ?? CONTROL_PLANE_CRDS).join(',');
    const env = options.env ?? process.env;
    const started: ChildProcess[] = [];
    try {
      const launcher = spawn(tool('launcher'), ['--assets', TOOLS_BIN, '--crds', crds, '--kubeconfig-out', kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'], env });
      started.push(launcher);
      await untilPrinted(launcher, 'stdout', 'ready', 'the control plane');
      const controllers = (options.controllers ?? ['garbagecollector']).join(',');
      const collector = spawn(tool('kube-controller-manager'), ['--kubeconfig', kubeconfig, `--controllers=${controllers}`, '--leader-elect=false', '--secure-port=0'],
        { stdio: ['ignore', 'ignore', 'pipe'], env });
      started.push(collector);
      await untilPrinted(collector, 'stderr', 'Proceeding to collect garbage', 'the garbage collector');
      return new ControlPlane(work, kubeconfig, env, launcher, collector);
    } catch (e) {
      await stopAll(started.reverse());
      fs.rmSync(work, { recursive: true, force: true });
      throw e;
    }
  }

  private controller?: ChildProcess;
  private webhook?: ChildProcess;

  private constructor(
    /** The folder of its files, removed by {@link stop}. */
    public readonly work: string,
    /** The admin user's kubeconfig. */
    public readonly kubeconfig: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly launcher: ChildProcess,
    private readonly collector: ChildProcess,
  ) {}

  /** The process ids of the programs it started and that run, by program. */
  public get pids(): Readonly<Record<string, number>> {
    const running = { 'launcher': this.launcher, 'kube-controller-manager': this.collector, 'cert-manager-webhook': this.webhook, 'cert-manager-controller': this.controller };
    return Object.fromEntries(Object.entries(running).filter(([, c]) => c?.pid !== undefined && c.exitCode === null && c.signalCode === null).map(([n, c]) => [n, c!.pid!]));
  }

  /** Runs the release's kubectl against this API server. */
  public kubectl(args: readonly string[], input?: string): SpawnSyncReturns<string> {
    return spawnSync(tool('kubectl'), ['--kubeconfig', this.kubeconfig, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: this.env });
  }

  /** The Secrets of a namespace that hold a certificate, as the API server holds them now, by name, decoded. */
  public tlsSecrets(namespace: string): Map<string, CertificateSecret> {
    const got = this.kubectl(['get', 'secrets', '-n', namespace, '-o', 'json']);
    if (got.status !== 0) {
      throw new Error(`kubectl get secrets -n ${namespace}: ${got.stderr}`);
    }
    return new Map(JSON.parse(got.stdout).items.filter((s: any) => s.data?.['tls.crt'] !== undefined)
      .map((s: any) => [s.metadata.name, Object.fromEntries(
        Object.entries(s.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      ) as CertificateSecret]));
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
      this.webhook = spawn(tool('cert-manager-webhook'), ['--kubeconfig', this.kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'], env: this.env });
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
      { stdio: ['pipe', 'ignore', 'ignore'], env: this.env });
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
