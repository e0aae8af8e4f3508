/**
 * The controllers of a cluster, re-created around the stand-in kubectl (test/_fake-kubectl.ts) so
 * that a runbook's commands can run as written while the cluster reacts, concurrently, as the
 * real one would:
 *
 * - cert-manager (the in-test issuer, test/_cert-manager-issuer.ts): issues every Certificate that
 *   is new, whose spec changed, or that `cmctl renew` marked (the `Issuing` condition), writes its
 *   Secret, raises `status.revision` and sets `Ready` at the object's generation, as its issuing
 *   and readiness controllers do, one step per tick, so that a script that does not wait sees the
 *   old state;
 * - the operator: when a component's pod-template annotations change in a `DatabaseCluster` or
 *   `MigrationCluster`, it restarts that component's pods one at a time, highest ordinal first,
 *   component after component in the operator's order; the two resources roll at the same time
 *   (or one after the other, as {@link RollOptions} says);
 * - the StatefulSet and Deployment controllers: `kubectl rollout restart` restarts the drainer's
 *   pods, a client workload's pod, or an application's pod in its own namespace (TLS for MySQL
 *   clients).
 *
 * Every restart goes through the rotation simulator, which loads the Secret as it is at that
 * moment and runs real handshakes between every pair of pods; the pods are also written into the
 * stand-in's state with their start time, as `kubectl get pods -o json` prints them.
 */
import { ClusterKind, COMPONENTS, ComponentToken, OPERATOR_ROLL_ORDER } from '../lib/model/catalog';
import { CertManagerIssuer } from './_cert-manager-issuer';
import * as names from '../lib/model/names';
import { FakeKubectl, FakeState, clockTime, tlsSecretsOf } from './_fake-kubectl';
import type { SecretPem } from './_handshakes';
import { Pod, RollOptions, RotationSimulator } from './_rotation-simulator';

/** The workload that runs a simulator pod, as `kubectl rollout restart` names it. */
export interface PodWorkload {
  /** `StatefulSet/<name>` or `Deployment/<name>`. */
  readonly workload: string;
  /** The pod's name in the cluster. */
  readonly name: string;
}

/** Options of {@link FakeCluster}. */
export interface FakeClusterOptions {
  readonly namespace: string;
  readonly clusterName: string;
  /** cert-manager, for the cert-manager method; none for the others. */
  readonly issuer?: CertManagerIssuer;
  /** How the operator orders its restarts. @default - both resources at once, the operator's order */
  readonly roll?: RollOptions;
  /** The workload of each client pod of the simulator, by its Secret. */
  readonly clients: ReadonlyMap<string, string>;
  /** The drainer's StatefulSet, when there is a drainer. */
  readonly drainer?: string;
  /** How long cert-manager lets a Certificate wait before it issues it, in milliseconds. @default 1500 */
  readonly issueDelayMs?: number;
  /** Applications of TLS for MySQL clients, each a Deployment of one simulator pod in its namespace mounting its Secret. @default - none */
  readonly applications?: readonly FakeApplication[];
}

/** An application's Deployment: one pod of the simulator, in the application's namespace. */
export interface FakeApplication {
  readonly namespace: string;
  readonly deployment: string;
  readonly secretName: string;
}

const RESOURCE_KINDS: Record<string, ClusterKind> = { DatabaseCluster: ClusterKind.DATABASE, MigrationCluster: ClusterKind.MIGRATION };

/** A component's pod-template annotations in its cluster resource, as the operator compares them. */
export interface ComponentAnnotations {
  readonly kind: ClusterKind;
  readonly token: ComponentToken;
  /** The annotations, as JSON. */
  readonly value: string;
}

/** The pod-template annotations of each component of the cluster resources among `objects`, by `<resource kind>/<component>`. */
export function componentAnnotations(objects: readonly any[], namespace: string): Map<string, ComponentAnnotations> {
  const out = new Map<string, ComponentAnnotations>();
  for (const o of objects.filter((x) => RESOURCE_KINDS[x.kind] !== undefined && x.metadata.namespace === namespace)) {
    for (const entry of COMPONENTS.filter((c) => c.cluster === RESOURCE_KINDS[o.kind] && c.specKey && o.spec?.[c.specKey])) {
      out.set(`${o.kind}/${entry.token}`, { kind: entry.cluster, token: entry.token, value: JSON.stringify(o.spec[entry.specKey!].annotations ?? {}) });
    }
  }
  return out;
}

/** Where a simulator pod runs: its workload and pod name, as the cluster names them. */
export function podWorkload(pod: Pod, cluster: {
  readonly clusterName: string; readonly clients: ReadonlyMap<string, string>; readonly drainer?: string; readonly applications?: readonly FakeApplication[];
}): PodWorkload {
  if (pod.component === undefined) {
    const deployment = cluster.applications?.find((a) => a.secretName === pod.secretName)?.deployment
      ?? cluster.clients.get(pod.secretName) ?? `unknown-client-of-${pod.secretName}`;
    return { workload: `Deployment/${deployment}`, name: `${deployment}-0` };
  }
  if (pod.component === 'discovery') {
    const deployment = names.discoveryDeploymentName(cluster.clusterName);
    return { workload: `Deployment/${deployment}`, name: `${deployment}-0` };
  }
  if (pod.component === 'drainer') {
    const set = cluster.drainer ?? `${cluster.clusterName}-drainer`;
    return { workload: `StatefulSet/${set}`, name: `${set}-${pod.ordinal}` };
  }
  return { workload: `StatefulSet/${cluster.clusterName}-${pod.component}`, name: `${cluster.clusterName}-${pod.component}-${pod.ordinal}` };
}

/** A Certificate's `namespace/name`, its key across namespaces. */
function keyOf(c: any): string {
  return `${c.metadata.namespace}/${c.metadata.name}`;
}

/** A cluster's controllers, running until {@link stop}. */
export class FakeCluster {
  /** Every error a controller met (a test fails on any). */
  public readonly errors: string[] = [];
  private readonly queues = new Map<ClusterKind, Pod[]>();
  private readonly rolled = new Map<string, string>();
  private running = true;
  private seenObjects?: string;
  private readonly pendingSince = new Map<string, number>();
  private busy = false;
  private loop?: Promise<void>;

  constructor(private readonly kubectl: FakeKubectl, private readonly sim: RotationSimulator, private readonly options: FakeClusterOptions) {}

  /** cert-manager, at once: issues everything the objects applied so far call for (the cluster's creation). */
  public async issueAll(): Promise<void> {
    while (this.pendingCertificates(this.kubectl.state()).length > 0) {
      await this.certManager(0);
    }
  }

  /** Starts the pods (each with its Secret as it is now) and the controllers. */
  public start(): void {
    this.sim.startAll(this.secrets());
    this.kubectl.update((state) => {
      this.noteRolled(state);
      state.pods = this.sim.pods.map((p) => this.podObject(p, state.clock ?? 0));
    });
    this.loop = this.run();
  }

  /**
   * Starts the controllers only, the pods left to the test (a cluster that runs without TLS, whose
   * pods load none of the Secrets cert-manager is about to issue).
   */
  public startControllers(): void {
    this.kubectl.update((state) => this.noteRolled(state));
    this.loop = this.run();
  }

  /** Stops the controllers once the current tick ends. */
  public async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** The rejected handshakes so far. */
  public outagesSoFar(): readonly import('./_rotation-simulator').Outage[] {
    return this.sim.outages;
  }

  /** Resolves once nothing is left to do: no Certificate to issue, no pod to restart. */
  public async idle(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.busy || !this.settled()) {
      if (Date.now() > deadline) {
        throw new Error('the fake cluster did not settle');
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The Secrets of the namespace, decoded, and those of the applications' namespaces. */
  public secrets(): Map<string, SecretPem> {
    const namespaces = [this.options.namespace, ...(this.options.applications ?? []).map((a) => a.namespace)];
    return new Map([...new Set(namespaces)].flatMap((n) => [...tlsSecretsOf(this.kubectl, n)]));
  }

  private settled(): boolean {
    const state = this.kubectl.state();
    const unrolled = [...this.annotations(state)].some(([key, a]) => this.rolled.get(key) !== a.value);
    return !unrolled && [...this.queues.values()].every((q) => q.length === 0) && (state.restarts ?? []).length === 0
      && this.pendingCertificates(state).length === 0 && this.sim.unprojected(this.secrets()).length === 0;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.busy = true;
      try {
        await this.tick();
      } catch (e) {
        this.errors.push((e as Error).message);
      }
      this.busy = false;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * One step of every controller: one issuance, one pod per rolling resource, one requested
   * restart, and the kubelet's projection of the Secrets into one pod that re-reads its certificate.
   */
  private async tick(): Promise<void> {
    await this.certManager();
    const unprojected = this.sim.unprojected(this.secrets())[0];
    if (unprojected !== undefined) {
      this.sim.project(unprojected, this.secrets());
      await this.sim.check(`kubelet projected the Secret into ${unprojected.name}`);
    }
    const state = this.kubectl.state();
    this.queueRolls(state);
    const next = this.nextRolled();
    for (const pod of next) {
      await this.restart(pod, `operator restarted ${pod.name}`);
    }
    const request = (state.restarts ?? [])[0];
    if (request !== undefined) {
      const target = `${request.kind}/${request.name}`;
      const pods = this.sim.pods.filter((p) => this.workloadOf(p).workload === target && this.namespaceOf(p) === request.namespace)
        .sort((a, b) => (b.ordinal ?? 0) - (a.ordinal ?? 0));
      for (const pod of pods) {
        await this.restart(pod, `rollout restart ${target}: restarted ${pod.name}`);
      }
      this.kubectl.update((s) => { s.restarts = (s.restarts ?? []).slice(1); });
    }
  }

  /** Certificates cert-manager has yet to act on: never issued, spec changed, or marked by cmctl renew. */
  private pendingCertificates(state: FakeState): any[] {
    return this.options.issuer === undefined ? [] : this.certificates(state).filter((c) => {
      const ready = (c.status?.conditions ?? []).find((x: any) => x.type === 'Ready');
      const issuing = (c.status?.conditions ?? []).some((x: any) => x.type === 'Issuing' && x.status === 'True');
      return issuing || ready?.observedGeneration !== c.metadata.generation;
    });
  }

  /** Every Certificate, in any namespace: cert-manager acts cluster-wide (the SQL CA lives in its own namespace). */
  private certificates(state: FakeState): any[] {
    return (state.objects ?? []).filter((o) => o.kind === 'Certificate');
  }

  /**
   * cert-manager: issues what the applied objects call for (new, changed, Secret missing), or one
   * Certificate marked for renewal, writes the Secrets and then the status, as its controllers do.
   */
  private async certManager(delayMs = this.options.issueDelayMs ?? 1500): Promise<void> {
    const issuer = this.options.issuer;
    if (issuer === undefined) {
      return;
    }
    const state = this.kubectl.state();
    // cert-manager takes a while (longer than starting a command takes): a Certificate waits, while
    // the operator goes on, so that a step that does not wait for it runs too early.
    const now = Date.now();
    const waiting = this.pendingCertificates(state);
    waiting.forEach((c) => this.pendingSince.set(keyOf(c), this.pendingSince.get(keyOf(c)) ?? now));
    const pending = waiting.filter((c) => now - this.pendingSince.get(keyOf(c))! >= delayMs);
    pending.forEach((c) => this.pendingSince.delete(keyOf(c)));
    // A ClusterIssuer is cluster-wide: the stand-in keeps it in the namespace it was applied in, without one.
    const objects = (state.objects ?? []).filter((o) => o.apiVersion === 'cert-manager.io/v1')
      .map((o) => (o.kind === 'ClusterIssuer' ? { ...o, metadata: { ...o.metadata, namespace: undefined } } : o));
    const seen = JSON.stringify(objects.map((o) => [o.kind, o.metadata.namespace, o.metadata.name, o.spec]));
    if (pending.length === 0 && seen === this.seenObjects) {
      return;
    }
    // Every change of the set reaches the issuer, so that a Certificate deleted and declared again
    // is issued anew, as the issuer's apply() says.
    this.seenObjects = seen;
    const written = await issuer.apply(objects);
    const renewed = pending.filter((c) => (c.status?.conditions ?? []).some((x: any) => x.type === 'Issuing' && x.status === 'True'));
    for (const c of renewed) {
      if (!written.has(`${c.metadata.namespace}/${c.spec.secretName}`)) {
        written.set(`${c.metadata.namespace}/${c.spec.secretName}`, await issuer.issue(`${c.metadata.namespace}/${c.metadata.name}`));
      }
    }
    for (const [key, secret] of written) {
      const [namespace, name] = key.split('/');
      this.kubectl.writeSecret(namespace, name, { ...secret });
    }
    // The status says what was issued for: the generation of the snapshot issued from (a spec
    // applied meanwhile stays pending), and a renewal mark set meanwhile stays for the next tick.
    const issuedFor = new Map(this.certificates(state).map((c) => [keyOf(c), c.metadata.generation]));
    const marked = new Set(renewed.map(keyOf));
    this.kubectl.update((s) => {
      for (const c of this.certificates(s)) {
        const issued = written.has(`${c.metadata.namespace}/${c.spec.secretName}`);
        if (!issuedFor.has(keyOf(c)) || (!issued && !pending.some((p) => keyOf(p) === keyOf(c)))) {
          continue;
        }
        const revision = (c.status?.revision ?? 0) + (issued ? 1 : 0);
        const kept = (c.status?.conditions ?? []).filter((x: any) => x.type !== 'Ready' && !(x.type === 'Issuing' && marked.has(keyOf(c))));
        c.status = {
          ...(revision > 0 ? { revision } : {}),
          conditions: [...kept, { type: 'Ready', status: 'True', observedGeneration: issuedFor.get(keyOf(c)), reason: 'Ready' }],
        };
      }
    });
  }

  private annotations(state: FakeState): Map<string, ComponentAnnotations> {
    return componentAnnotations(state.objects ?? [], this.options.namespace);
  }

  private noteRolled(state: FakeState): void {
    for (const [key, a] of this.annotations(state)) {
      this.rolled.set(key, a.value);
    }
  }

  /**
   * Queues the pods of every component whose annotations changed, in the operator's order. A
   * component seen for the first time (its resource applied while the controllers run) is
   * created by the operator, not rolled.
   */
  private queueRolls(state: FakeState): void {
    for (const [key, a] of this.annotations(state)) {
      const before = this.rolled.get(key);
      this.rolled.set(key, a.value);
      if (before === undefined || before === a.value) {
        continue;
      }
      const order = a.kind === ClusterKind.DATABASE ? this.options.roll?.databaseOrder ?? OPERATOR_ROLL_ORDER[a.kind] : OPERATOR_ROLL_ORDER[a.kind];
      const queue = [...(this.queues.get(a.kind) ?? []), ...this.sim.pods.filter((p) => p.component === a.token)];
      queue.sort((x, y) => order.indexOf(x.component!) - order.indexOf(y.component!) || (y.ordinal ?? 0) - (x.ordinal ?? 0));
      this.queues.set(a.kind, queue);
    }
  }

  /** The pods the operator restarts this tick: one per resource at once, or one resource's first. */
  private nextRolled(): Pod[] {
    const database = this.queues.get(ClusterKind.DATABASE) ?? [];
    const migration = this.queues.get(ClusterKind.MIGRATION) ?? [];
    const how = this.options.roll?.interleaving ?? 'alternate';
    const take = (q: Pod[]) => (q.length > 0 ? [q.shift()!] : []);
    if (how === 'database-first') {
      return database.length > 0 ? take(database) : take(migration);
    }
    if (how === 'migration-first') {
      return migration.length > 0 ? take(migration) : take(database);
    }
    return [...take(database), ...take(migration)];
  }

  /** Restarts one pod with its Secret as it is now, checks every pair, and records its start. */
  private async restart(pod: Pod, step: string): Promise<void> {
    this.sim.restart(pod, this.secrets());
    this.kubectl.update((s) => {
      s.clock = (s.clock ?? 0) + 1;
      const name = this.workloadOf(pod).name;
      s.pods = [...(s.pods ?? []).filter((p) => !(p.metadata.name === name && p.metadata.namespace === this.namespaceOf(pod))), this.podObject(pod, s.clock)];
    });
    await this.sim.check(step);
  }

  private workloadOf(pod: Pod): PodWorkload {
    return podWorkload(pod, this.options);
  }

  /** The namespace a pod runs in: an application's own, else the cluster's. */
  private namespaceOf(pod: Pod): string {
    return pod.application?.namespace ?? this.options.namespace;
  }

  /** A pod as `kubectl get pods -o json` prints it: the Secret it mounts and when it started. */
  private podObject(pod: Pod, clock: number): any {
    const { workload, name } = this.workloadOf(pod);
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      workload,
      metadata: { name, namespace: this.namespaceOf(pod) },
      spec: {
        containers: [{ name: 'main' }],
        volumes: [pod.secretName, ...(pod.sqlServer ? [pod.sqlServer.secretName] : [])].map((secretName, i) => ({ name: `tls-${i}`, secret: { secretName } })),
      },
      status: { phase: 'Running', containerStatuses: [{ name: 'main', ready: true, state: { running: { startedAt: clockTime(clock) } } }] },
    };
  }
}
