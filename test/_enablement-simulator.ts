/**
 * A simulator of turning TLS on in a running database cluster, pod by pod. Every pod speaks plain
 * text or TLS, as it started; the operator speaks what the cluster resource says at every moment;
 * every coordinator member is stored with a peer URL (`http` or `https`) that the other members
 * dial. After every step (a phase applied, one pod restarted, a member's peer URL updated, members
 * added or removed) it checks every pair that talks, and records each failure with its step:
 *
 * - both sides plain: a real plain-text exchange (an HTTP request to a plain server);
 * - both TLS: a real mutual handshake (`node:tls`, OpenSSL), each side verifying the other;
 * - one plain, one TLS: a real plain-text request to a TLS server, or a real TLS handshake with a
 *   plain server, and OpenSSL's reason for the failure;
 * - coordinator to coordinator: dialed as the target's stored peer URL says, whatever the dialer
 *   speaks, and refused before dialing when the URL is `https` and the dialer has no TLS.
 *
 * Pairs: every server pod (components and the drainer) dials every other, and the operator and
 * the client of the client Secret (the monitor, the tools) dial every server pod. That is more
 * pairs than talk in a real cluster (the store never dials the drainer), so the window it
 * measures is the span in which any pair fails: an upper bound of what the users lose. Verdicts depend
 * only on the two sides' material, the mode and the name dialed, so each is run once and reused.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { ClusterKind, OPERATOR_ROLL_ORDER, ComponentToken } from '../lib/model/catalog';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { parseDuration } from '../lib/model/duration';
import { OPERATOR_EVICT_LEADER_TIMEOUT } from '../lib/model/enablement';
import { HandshakeOutcome, TlsMaterial, describeOutcome, dialedNames, mutualHandshake } from '../lib/verify/handshake';
import type { SecretPem } from './_handshakes';
import { materialOf } from './_rotation-simulator';

type Speaks = 'plain' | 'tls';

/** A pod of the cluster, the drainer, or a client. */
export interface SimPod {
  readonly name: string;
  readonly component?: ComponentToken;
  readonly ordinal?: number;
  readonly secretName?: string;
  readonly dialedAs?: string;
  speaks: Speaks;
  material?: TlsMaterial;
}

/** One failing pair after a step. */
export interface PairFailure {
  readonly step: number;
  readonly client: string;
  readonly server: string;
  readonly reason: string;
}

/** One step of the simulation, and what it cost. */
export interface SimStep {
  readonly index: number;
  readonly label: string;
  /** Whether the step restarted a pod. */
  readonly restart: boolean;
  /** The wait before the step (a store's leader eviction), in milliseconds. */
  readonly waitMs: number;
  /** The failing pairs after it, the operator's left out. */
  readonly failing: number;
}

/** The outage the users see: from the first step after which a pair fails to the step after which none does. */
export interface OutageWindow {
  /** The step that opened it. */
  readonly opens: string;
  /** The step that closed it, or undefined when it never closed. */
  readonly closes?: string;
  /** Pod restarts from the opening step to the closing one, both included. */
  readonly restarts: number;
  /** The waits within it (leader evictions), in milliseconds. */
  readonly waitMs: number;
}

/** The operator's name in the simulator's pairs. */
export const OPERATOR = 'operator';
/** The client of the cluster's client Secret. */
export const CLIENT = 'database client';

let cached: { plainServer?: Promise<{ port: number; close(): void }> } = {};

export class EnablementSimulator {
  public readonly pods: SimPod[] = [];
  public readonly steps: SimStep[] = [];
  public readonly failures: PairFailure[] = [];
  /** The peer URL scheme each coordinator member is stored with. */
  public readonly peerUrls = new Map<string, 'http' | 'https'>();
  /** What the cluster resource says: the operator dials with TLS once it flips. */
  public resourceTls = false;
  /** Set when the operator cannot go on (it refuses to roll a coordinator it cannot read). */
  public stalled?: string;
  private readonly verdicts = new Map<string, string | undefined>();
  private secrets: ReadonlyMap<string, SecretPem> = new Map();
  private readonly plan: TlsPlan;

  constructor(plan: TlsPlan, replicas: Readonly<Partial<Record<ComponentToken, number>>>) {
    this.plan = plan;
    for (const token of POD_ORDER) {
      const secret = plan.secrets.find((s) => s.role === 'server' && s.component === token);
      if (secret !== undefined) {
        for (let i = 0; i < (replicas[token] ?? 1); i++) {
          this.addPod(token, i);
        }
      }
    }
    this.pods.push({ name: CLIENT, secretName: plan.secrets.find((s) => s.role === 'client' && s.cluster === ClusterKind.DATABASE)!.name, speaks: 'plain' });
  }

  /** The Secrets pods load from now on. */
  public useSecrets(secrets: ReadonlyMap<string, SecretPem>): void {
    this.secrets = secrets;
  }

  /** Adds a pod of a component, speaking what the cluster resource says, as a new pod does. */
  public addPod(token: ComponentToken, ordinal: number, speaks: Speaks = 'plain'): SimPod {
    const secret = this.plan.secrets.find((s) => s.role === 'server' && s.component === token)!;
    const pod: SimPod = { name: `${token}-${ordinal}`, component: token, ordinal, secretName: secret.name, dialedAs: dialedNames(secret)[0], speaks };
    this.load(pod);
    const at = this.pods.findIndex((p) => p.component === undefined || (order(p.component) > order(token)));
    this.pods.splice(at === -1 ? this.pods.length : at, 0, pod);
    if (token === 'coordinator') {
      this.peerUrls.set(pod.name, speaks === 'tls' ? 'https' : 'http');
    }
    return pod;
  }

  /** Removes a pod (a member scaled in). */
  public removePod(name: string): void {
    const at = this.pods.findIndex((p) => p.name === name);
    if (at < 0) {
      throw new Error(`no pod ${name} to remove`);
    }
    this.pods.splice(at, 1);
    this.peerUrls.delete(name);
  }

  /** The pods of a component, highest ordinal first. */
  public podsOf(token: ComponentToken): SimPod[] {
    return this.pods.filter((p) => p.component === token).sort((a, b) => b.ordinal! - a.ordinal!);
  }

  /** Restarts a pod speaking `speaks`, with its Secret as it is now. */
  public restart(pod: SimPod, speaks: Speaks): void {
    pod.speaks = speaks;
    this.load(pod);
  }

  /** Records a step and checks every pair after it. */
  public async step(label: string, options: { restart?: boolean; waitMs?: number } = {}): Promise<PairFailure[]> {
    const index = this.steps.length;
    const found: PairFailure[] = [];
    for (const server of this.pods.filter((p) => p.component !== undefined)) {
      for (const client of [...this.pods.filter((p) => p !== server), { name: OPERATOR, speaks: this.resourceTls ? 'tls' : 'plain' } as SimPod]) {
        const reason = await this.pair(client, server);
        if (reason !== undefined) {
          found.push({ step: index, client: client.name, server: server.name, reason });
        }
      }
    }
    this.failures.push(...found);
    this.steps.push({ index, label, restart: options.restart ?? false, waitMs: options.waitMs ?? 0, failing: found.filter((f) => f.client !== OPERATOR).length });
    return found;
  }

  /** The users' outage window, or undefined when no pair failed. */
  public window(): OutageWindow | undefined {
    const failing = this.steps.filter((s) => s.failing > 0);
    if (failing.length === 0) {
      return undefined;
    }
    const first = failing[0].index;
    const last = failing[failing.length - 1].index;
    const closing = this.steps[last + 1];
    const span = this.steps.slice(first, closing === undefined ? undefined : closing.index + 1);
    return {
      opens: this.steps[first].label,
      closes: closing?.label,
      restarts: span.filter((s) => s.restart).length,
      waitMs: span.reduce((sum, s) => sum + s.waitMs, 0),
    };
  }

  /** Whether the coordinator members can reach each other: a majority of the members that all reach one another. */
  public async coordinatorQuorum(): Promise<boolean> {
    const members = this.podsOf('coordinator');
    for (let size = members.length; size > members.length / 2; size--) {
      for (const group of subsets(members, size)) {
        let connected = true;
        for (const a of group) {
          for (const b of group) {
            connected &&= a === b || (await this.pair(a, b)) === undefined;
          }
        }
        if (connected) {
          return true;
        }
      }
    }
    return false;
  }

  private load(pod: SimPod): void {
    const secret = pod.secretName === undefined ? undefined : this.secrets.get(pod.secretName);
    pod.material = secret && materialOf(secret);
  }

  /** Why `client` cannot reach `server`, or undefined when it can. */
  private async pair(client: SimPod, server: SimPod): Promise<string | undefined> {
    let dials: Speaks = client.speaks;
    if (client.component === 'coordinator' && server.component === 'coordinator') {
      const url = this.peerUrls.get(server.name)!;
      if (url === 'https' && client.speaks === 'plain') {
        return `stored peer URL of ${server.name} is https and ${client.name} has no TLS`;
      }
      dials = url === 'https' ? 'tls' : 'plain';
    }
    const clientMaterial = dials === 'plain' ? undefined : client.name === OPERATOR ? this.operatorMaterial() : client.material;
    if (dials === 'tls' && clientMaterial === undefined) {
      return `${client.name} has no certificate`;
    }
    const key = `${dials}/${server.speaks}/${dials === 'tls' && server.speaks === 'tls' ? `${fingerprint(clientMaterial!)}/${fingerprint(server.material!)}/${server.dialedAs}` : ''}`;
    if (!this.verdicts.has(key)) {
      this.verdicts.set(key, await exchange(dials, server.speaks, clientMaterial, server.material, server.dialedAs));
    }
    return this.verdicts.get(key);
  }

  /** The operator dials with the cluster's client certificate. */
  private operatorMaterial(): TlsMaterial | undefined {
    const secret = this.secrets.get(this.pods.find((p) => p.name === CLIENT)!.secretName!);
    return secret && materialOf(secret);
  }
}

/** The server pods' components in the operator's order, then the drainer's. */
const POD_ORDER: readonly ComponentToken[] = [...OPERATOR_ROLL_ORDER[ClusterKind.DATABASE], 'drainer'];

function order(token: ComponentToken): number {
  return POD_ORDER.indexOf(token);
}

function fingerprint(m: TlsMaterial): string {
  return createHash('sha256').update(m.cert).update('\0').update(m.key).update('\0').update(m.ca).digest('hex');
}

function* subsets<T>(items: readonly T[], size: number): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = 0; i <= items.length - size; i++) {
    for (const rest of subsets(items.slice(i + 1), size - 1)) {
      yield [items[i], ...rest];
    }
  }
}

/** One real exchange between a client and a server speaking what they speak: undefined when it works, else why not. */
async function exchange(client: Speaks, server: Speaks, clientMaterial: TlsMaterial | undefined, serverMaterial: TlsMaterial | undefined, name?: string): Promise<string | undefined> {
  if (client === 'tls' && server === 'tls') {
    const outcome: HandshakeOutcome = await mutualHandshake(serverMaterial!, clientMaterial!, { name });
    return outcome.ok ? undefined : describeOutcome(outcome);
  }
  if (server === 'plain') {
    return client === 'plain' ? plainRequest() : tlsToPlain(clientMaterial!, name);
  }
  return plainToTls(serverMaterial!);
}

/** OpenSSL's reason for a failed handshake (`wrong version number`), or the message when it gives none. */
function opensslReason(e: Error): string {
  return (e as Error & { reason?: string }).reason ?? e.message;
}

/** A plain HTTP server that answers every request, shared by the plain exchanges. */
function plainServer(): Promise<{ port: number; close(): void }> {
  cached.plainServer ??= new Promise((resolve) => {
    const server = http.createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as net.AddressInfo).port, close: () => server.close() }));
    server.unref();
  });
  return cached.plainServer;
}

/** Closes the shared plain server (call once, after the last simulation). */
export async function closeExchanges(): Promise<void> {
  (await cached.plainServer)?.close();
  cached = {};
}

async function plainRequest(): Promise<string | undefined> {
  const { port } = await plainServer();
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? undefined : `plain request answered ${res.statusCode}`));
    }).on('error', (e) => resolve(`plain request failed: ${e.message}`));
  });
}

/** A TLS client against a plain server: OpenSSL's reason. */
async function tlsToPlain(material: TlsMaterial, name?: string): Promise<string | undefined> {
  const { port } = await plainServer();
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: name, cert: material.cert, key: material.key, ca: material.ca, checkServerIdentity: () => undefined });
    socket.on('secureConnect', () => { socket.destroy(); resolve(undefined); });
    socket.on('error', (e) => resolve(`TLS client to a plain-text server: ${opensslReason(e)}`));
  });
}

/** A plain-text client against a TLS server: the server's reason. */
async function plainToTls(material: TlsMaterial): Promise<string | undefined> {
  const server = tls.createServer({ cert: material.cert, key: material.key, ca: material.ca, requestCert: true });
  const reason = new Promise<string>((resolve) => server.on('tlsClientError', (e) => resolve(`plain-text client to a TLS server: ${opensslReason(e)}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('error', () => undefined);
    const answered = await Promise.race([reason, new Promise<undefined>((resolve) => socket.on('data', () => resolve(undefined)))]);
    socket.destroy();
    return answered;
  } finally {
    server.close();
  }
}

/** How the enablement is carried out, to compare the library's choices with worse ones. */
export interface EnablementChoices {
  /** Scale the coordinator to one member before the flip. */
  readonly scaleIn: boolean;
  /** Store the member's peer URL as https right after its restart, before the scale-out. */
  readonly peerUrlBeforeScaleOut: boolean;
  /** Upgrade the drainer to TLS after the roll. */
  readonly drainerToTls: boolean;
  /** The store's eviction timeout during the roll. */
  readonly evictLeaderTimeout: string;
}

/** The operator's default eviction timeout, for the comparison. */
export const OPERATOR_DEFAULT_EVICTION = OPERATOR_EVICT_LEADER_TIMEOUT;

/**
 * Steps a simulator through the phases, restart by restart, in the operator's order: issue (the
 * Secrets appear, nothing restarts), scale-in, enable (the flip; the coordinator, the peer-URL
 * update, the other components with each store's eviction wait, the drainer, the clients), and
 * scale-out. `declared` is the coordinator's declared replicas.
 */
export async function runEnablement(sim: EnablementSimulator, secrets: ReadonlyMap<string, SecretPem>, declared: number, choices: EnablementChoices): Promise<void> {
  await sim.step('running in plain text');
  sim.useSecrets(secrets);
  await sim.step('issue: Secrets written');
  if (choices.scaleIn) {
    for (const pod of sim.podsOf('coordinator').filter((p) => p.ordinal! > 0)) {
      sim.removePod(pod.name);
      await sim.step(`scale-in: removed ${pod.name}`);
    }
  }
  sim.resourceTls = true;
  await sim.step('enable: tlsCluster.enabled applied');
  const coordinators = sim.podsOf('coordinator');
  if (coordinators.length > 1) {
    // The operator reads a multi-member coordinator's status over TLS from plain members, fails, and refuses to roll it.
    sim.stalled = 'the operator cannot read the coordinator\'s status and refuses to roll it';
    await sim.step('enable: operator refuses to roll the coordinator');
    return;
  }
  sim.restart(coordinators[0], 'tls');
  await sim.step(`enable: restarted ${coordinators[0].name}`, { restart: true });
  if (choices.peerUrlBeforeScaleOut) {
    await updatePeerUrl(sim, coordinators[0]);
  }
  const wait = parseDuration(choices.evictLeaderTimeout)!;
  for (const token of OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].filter((t) => t !== 'coordinator')) {
    for (const pod of sim.podsOf(token)) {
      sim.restart(pod, 'tls');
      await sim.step(`enable: restarted ${pod.name}`, { restart: true, waitMs: token === 'store' ? wait : 0 });
    }
  }
  if (choices.drainerToTls) {
    for (const pod of sim.podsOf('drainer')) {
      sim.restart(pod, 'tls');
      await sim.step(`enable: restarted ${pod.name} (helm upgrade)`, { restart: true });
    }
  }
  const client = sim.pods.find((p) => p.name === CLIENT)!;
  sim.restart(client, 'tls');
  await sim.step(`enable: restarted ${CLIENT}`, { restart: true });
  for (let i = 1; i < declared; i++) {
    // A member is added by a change the existing members commit: it needs their quorum.
    if (!(await sim.coordinatorQuorum())) {
      await sim.step(`scale-out: adding coordinator-${i} refused: no quorum`);
      return;
    }
    sim.addPod('coordinator', i, 'tls');
    await sim.step(`scale-out: added coordinator-${i}`, { restart: true });
  }
  if (!choices.peerUrlBeforeScaleOut) {
    await updatePeerUrl(sim, coordinators[0]);
  }
}

/** `etcdctl member update`: a change the members commit, so it needs their quorum. */
async function updatePeerUrl(sim: EnablementSimulator, member: SimPod): Promise<void> {
  if (!(await sim.coordinatorQuorum())) {
    await sim.step(`member update of ${member.name} refused: no quorum`);
    return;
  }
  sim.peerUrls.set(member.name, 'https');
  await sim.step(`peer URL of ${member.name} stored as https`);
}
