/**
 * What an API server without nodes lacks, around the real control plane (test/_control-plane.ts),
 * so that a rotation runbook runs as written with the real kubectl against the real API server
 * while the real cert-manager issues, renews and takes Secrets back:
 *
 * - the pods: one Pod object per rotation-simulator pod, mounting its Secret; every start loads
 *   the Secret as the API server holds it at that moment into the simulator, which runs real
 *   handshakes between every pair, and is written into the Pod's status (`startedAt`) as a kubelet
 *   reports it, so that `cluster-tls verify` compares it with the Secret's real write times;
 * - the operator, called by the test once the runbook has applied the cluster resources: it
 *   restarts, one pod at a time, the pods of every component whose pod-template annotations
 *   changed on the server, in the operator's order, in every legal interleaving
 *   (`LEGAL_ROLLS`), each pod loading its Secret as it is then;
 * - the drainer's StatefulSet controller: it notices `kubectl rollout restart` (a new
 *   `metadata.generation`), restarts the drainer's pods the same way and reports the rollout
 *   done in the StatefulSet's status, so that `kubectl rollout status` returns.
 */
import { KUBELET_PROJECTION_SECONDS } from '../lib/model/catalog-pods';
import type { ControlPlane } from './_control-plane';
import { ComponentAnnotations, componentAnnotations, podWorkload } from './_fake-cluster';
import type { SecretPem } from './_handshakes';
import { LEGAL_ROLLS, Pod, RollOptions, RotationSimulator } from './_rotation-simulator';

/** Options of {@link LiveCluster}. */
export interface LiveClusterOptions {
  readonly namespace: string;
  readonly clusterName: string;
  /** The drainer's StatefulSet (the chart's, created by {@link LiveCluster.start} as the chart would). @default - no drainer: the plan has none */
  readonly drainer?: string;
  /** The workload of each client pod, by its Secret. @default - `unknown-client-of-<secret>` */
  readonly clients?: ReadonlyMap<string, string>;
  /** Called after every step (a pod restarted, a Secret projected), once the simulator has checked its pairs: checks across clusters, say. @default - nothing */
  readonly afterStep?: (step: string) => Promise<void>;
}

const IMAGE = 'registry.example.com/stand-in:1.0.0';

/** Whole seconds since the epoch: the precision of the times the API server writes. */
const seconds = (t: number) => Math.floor(t / 1000);

/** The pods and controllers a node-less API server lacks, until {@link stop}. */
export class LiveCluster {
  /** Every error a controller met (a test fails on any). */
  public readonly errors: string[] = [];
  private rolled = new Map<string, string>();
  private running = false;
  private loop?: Promise<void>;

  constructor(private readonly plane: ControlPlane, public readonly sim: RotationSimulator, private readonly options: LiveClusterOptions) {}

  /** The TLS Secrets of the namespace as the API server holds them now. */
  public secrets(): Map<string, SecretPem> {
    return this.plane.tlsSecrets(this.options.namespace);
  }

  /** Creates the drainer's StatefulSet and every pod, starts each with its Secret as it is now, and starts the StatefulSet controller. */
  public async start(): Promise<void> {
    const { namespace, drainer } = this.options;
    const drainerPods = this.sim.pods.filter((p) => p.component === 'drainer');
    if ((drainerPods.length === 0) !== (drainer === undefined)) {
      throw new Error(drainer === undefined ? 'the plan has a drainer: name its StatefulSet' : `the plan has no drainer, so StatefulSet ${drainer} would have no pod: give the app a DrainerRelease`);
    }
    if (drainer !== undefined) {
      const labels = { 'app.kubernetes.io/instance': drainer };
      this.create({
        apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: drainer, namespace },
        spec: {
          replicas: drainerPods.length, serviceName: drainer, selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: IMAGE }], volumes: [{ name: 'tls', secret: { secretName: drainerPods[0].secretName } }] } },
        },
      });
    }
    for (const pod of this.sim.pods) {
      this.create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name: this.podName(pod), namespace },
        spec: { containers: [{ name: 'main', image: IMAGE }], volumes: [{ name: 'tls', secret: { secretName: pod.secretName } }] },
      });
    }
    await this.waitPastWrites();
    const secrets = this.secrets();
    for (const pod of this.sim.pods) {
      this.started(pod, secrets);
    }
    this.rolled = new Map([...this.annotations()].map(([key, a]) => [key, a.value]));
    if (drainer !== undefined) {
      this.reportRolledOut(this.object('statefulset', drainer));
      this.running = true;
      this.loop = this.run(drainer);
    }
  }

  /** Stops the StatefulSet controller once its current step ends. */
  public async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /**
   * The operator: restarts the pods of every component whose annotations changed since the last
   * roll, one at a time, in each legal order from the pods as they were (the pods end restarted
   * either way). Returns the components it rolled.
   */
  public async operatorRoll(rolls: readonly RollOptions[] = LEGAL_ROLLS): Promise<string[]> {
    const now = this.annotations();
    const changed = [...now].filter(([key, a]) => this.rolled.get(key) !== a.value).map(([, a]) => a.token as string);
    this.rolled = new Map([...now].map(([key, a]) => [key, a.value]));
    const pods = this.sim.pods.filter((p) => p.component !== undefined && changed.includes(p.component));
    // What each pod loaded and what its volume holds, as they were before the roll (a pod that re-reads its certificate presents its volume's).
    const before = new Map(pods.map((p) => [p, [p.loaded, p.volume] as const]));
    for (const roll of rolls) {
      pods.forEach((p) => { [p.loaded, p.volume] = before.get(p)!; });
      for (const pod of this.sim.rollSequence(roll).filter((p) => pods.includes(p))) {
        await this.restart(pod, `operator restarted ${pod.name} (${roll.interleaving ?? 'alternate'})`);
      }
    }
    return changed;
  }

  /**
   * The kubelets: once the pods that re-read their certificate hold something else than their
   * Secret, waits until {@link KUBELET_PROJECTION_SECONDS} have passed since the Secrets' last
   * write (what `cluster-tls verify` waits for), then writes each Secret into those pods, one at a
   * time, checking every pair after each. Nothing to wait for when no such pod is behind.
   */
  public async kubeletSync(): Promise<void> {
    if (this.sim.unprojected(this.secrets()).length === 0) {
      return;
    }
    const last = this.lastWrite();
    while (seconds(Date.now()) < last + KUBELET_PROJECTION_SECONDS) {
      await new Promise((r) => setTimeout(r, 500));
    }
    await this.sim.projectAll('kubelet', () => this.secrets(), 'forward', this.options.afterStep);
  }

  /** Restarts the client pods (the team's own workloads, which the runbook asks the user to restart). */
  public async restartClients(): Promise<void> {
    for (const pod of this.sim.pods.filter((p) => p.component === undefined)) {
      await this.restart(pod, `the team restarted ${pod.name}`);
    }
  }

  /** Restarts one pod with its Secret as the API server holds it now, writes its start, and checks every pair. */
  private async restart(pod: Pod, step: string): Promise<void> {
    await this.waitPastWrites(pod.secretName);
    this.started(pod, this.secrets());
    await this.sim.check(step);
    await this.options.afterStep?.(step);
  }

  /** Loads the pod's Secret into the simulator and writes the start into the Pod's status, as a kubelet does. */
  private started(pod: Pod, secrets: ReadonlyMap<string, SecretPem>): void {
    this.sim.restart(pod, secrets);
    const startedAt = `${new Date(seconds(Date.now()) * 1000).toISOString().slice(0, 19)}Z`;
    const status = {
      phase: 'Running',
      containerStatuses: [{ name: 'main', image: IMAGE, imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt } } }],
    };
    this.kubectl(['patch', 'pod', this.podName(pod), '-n', this.options.namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
  }

  /**
   * Waits until the clock is past the second of the last write of `secretName` (of every Secret
   * when none is named): a pod starts after what it loads was written, and the API server's times
   * have one-second precision.
   */
  private async waitPastWrites(secretName?: string): Promise<void> {
    const last = this.lastWrite(secretName);
    while (seconds(Date.now()) <= last) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The second of the last write of `secretName` (of every Secret of the namespace when none is named), as the API server records it. */
  private lastWrite(secretName?: string): number {
    const items = JSON.parse(this.kubectl(['get', 'secrets', '-n', this.options.namespace, '-o', 'json', '--show-managed-fields'])).items as any[];
    const times = items.filter((s) => secretName === undefined || s.metadata.name === secretName)
      .flatMap((s) => [s.metadata.creationTimestamp, ...(s.metadata.managedFields ?? []).map((m: any) => m.time)])
      .filter((t): t is string => typeof t === 'string').map((t) => seconds(Date.parse(t)));
    return Math.max(0, ...times);
  }

  /** The StatefulSet controller: restarts the drainer's pods when `kubectl rollout restart` changes its template. */
  private async run(drainer: string): Promise<void> {
    while (this.running) {
      try {
        const set = this.object('statefulset', drainer);
        if (set.metadata.generation !== set.status?.observedGeneration) {
          const pods = this.sim.pods.filter((p) => p.component === 'drainer').sort((a, b) => b.ordinal! - a.ordinal!);
          for (const pod of pods) {
            await this.restart(pod, `rollout restart StatefulSet/${drainer}: restarted ${pod.name}`);
          }
          this.reportRolledOut(set);
        }
      } catch (e) {
        this.errors.push((e as Error).message);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Writes a StatefulSet's status as its controller does once every pod runs the current template. */
  private reportRolledOut(set: any): void {
    const replicas = set.spec.replicas;
    const revision = `${set.metadata.name}-${set.metadata.generation}`;
    const status = {
      observedGeneration: set.metadata.generation, replicas, readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: replicas,
      availableReplicas: replicas, currentRevision: revision, updateRevision: revision,
    };
    this.kubectl(['patch', 'statefulset', set.metadata.name, '-n', this.options.namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
  }

  /** The pod-template annotations of every component, as the cluster resources on the server hold them now. */
  private annotations(): Map<string, ComponentAnnotations> {
    const items = ['databasecluster', 'migrationcluster'].flatMap((kind) => JSON.parse(this.kubectl(['get', kind, '-n', this.options.namespace, '-o', 'json'])).items);
    return componentAnnotations(items, this.options.namespace);
  }

  /** The name of a simulator pod's Pod object. */
  public podName(pod: Pod): string {
    return podWorkload(pod, { ...this.options, clients: this.options.clients ?? new Map() }).name;
  }

  private object(kind: string, name: string): any {
    return JSON.parse(this.kubectl(['get', kind, name, '-n', this.options.namespace, '-o', 'json']));
  }

  private create(object: unknown): void {
    this.kubectl(['create', '-f', '-'], JSON.stringify(object));
  }

  /** Runs kubectl against the API server; throws with its error when it fails. */
  private kubectl(args: readonly string[], input?: string): string {
    const done = this.plane.kubectl(args, input);
    if (done.status !== 0) {
      throw new Error(`kubectl ${args.slice(0, 3).join(' ')}: ${done.stderr.trim()}`);
    }
    return done.stdout;
  }
}
