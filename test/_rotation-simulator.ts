/**
 * A rotation simulator: every pod of every component a plan declares (replicas read from the
 * synthesized cluster resources), each holding the `tls.crt`, `tls.key` and `ca.crt` it loaded at
 * its last start, and the pairs of pods that talk. After every step (Secrets written, one pod
 * restarted) it runs real mutual handshakes between every pair (`node:tls`, that is OpenSSL, each
 * side verifying the other against what it loaded), and records every rejection as an outage with
 * the step, the pair and OpenSSL's reason.
 *
 * Components whose release re-reads its certificate for each new connection (the plan's
 * `reloadsLeaf`) present what their volume holds, with the CA they loaded at start (none re-reads
 * its CA); the volume takes the Secret's files when the kubelet projects it ({@link project}),
 * some time after the write. The others present what they loaded at their last start. The
 * MySQL port of the SQL server always presents what it loaded.
 *
 * Pairs: within each cluster kind, every server pod dials every other server pod (components dial
 * each other with their server certificates), and the client of each client Secret (the monitor,
 * the tools) dials every server pod. Pods of the two kinds do not talk: the migration cluster
 * reaches the database with a Secret outside this CA. A handshake's verdict depends only on the
 * two sides' material and the name dialed, so each distinct triple is shaken once per simulation
 * and its verdict reused.
 */
import { createHash } from 'node:crypto';
import { ClusterKind, COMPONENTS, ComponentToken, OPERATOR_ROLL_ORDER } from '../lib/model/catalog';
import type { TlsPlan, TlsPlanSecret } from '../lib/plan/certificate-options';
import { RESTART_ORDER } from '../lib/plan/rotation';
import { HandshakeOutcome, TlsMaterial, describeOutcome, dialedNames, mutualHandshake } from '../lib/verify/handshake';
import type { SecretPem } from './_handshakes';

/** A pod and what it loaded at its last start. */
export interface Pod {
  /** The ordinal of a server pod in its StatefulSet. */
  readonly ordinal?: number;
  /** `<component>-<ordinal>`, or `<kind> client`. */
  readonly name: string;
  readonly kind: ClusterKind;
  /** The component, for server pods. */
  readonly component?: ComponentToken;
  /** The Secret it loads. */
  readonly secretName: string;
  /** The name its peers dial it by (server pods). */
  readonly dialedAs?: string;
  loaded?: TlsMaterial;
  /** What the pod's volume holds: the Secret as the kubelet last projected it. */
  volume?: TlsMaterial;
  /** Whether it re-reads `tls.crt` and `tls.key` from its volume for each new connection. */
  readonly reloadsLeaf: boolean;
  /** How many times it restarted since it started. */
  restarts: number;
  /** TLS for MySQL clients: an application's pod, in its own namespace, that connects to the SQL server with its Secret. */
  readonly application?: { readonly namespace: string };
  /** TLS for MySQL clients: the SQL server's Secret, which a sqlserver pod loads at start beside its own, and the name applications dial. */
  readonly sqlServer?: { readonly secretName: string; readonly dialedAs: string };
  sqlLoaded?: TlsMaterial;
}

/**
 * Judges a handshake between an application and the SQL server's MySQL port: by default OpenSSL
 * through `node:tls` (as every pair), or a real SQL server serving `server` (test/_tidb-judge.ts).
 */
export type SqlJudge = (server: TlsMaterial, client: TlsMaterial, dialedAs: string) => Promise<HandshakeOutcome>;

/** One rejected handshake: an outage. */
export interface Outage {
  readonly step: string;
  readonly client: string;
  readonly server: string;
  readonly reason: string;
}

/** The number of pods of a component, from the synthesized cluster resources (1 when it has no replicas field). */
function replicasOf(token: ComponentToken, manifests: readonly any[], kind: ClusterKind): number {
  const resource = manifests.find((m) => m?.kind === (kind === ClusterKind.DATABASE ? 'DatabaseCluster' : 'MigrationCluster'));
  const specKey = COMPONENTS.find((c) => c.token === token)?.specKey;
  return specKey === undefined ? 1 : resource?.spec?.[specKey]?.replicas ?? 1;
}

function digest(material: TlsMaterial): string {
  return createHash('sha256').update(material.cert).update('\0').update(material.key).update('\0').update(material.ca).digest('hex');
}

/** The material of a Secret, as a pod loads it. */
export function materialOf(secret: SecretPem): TlsMaterial {
  return { cert: secret['tls.crt'], key: secret['tls.key'], ca: secret['ca.crt'] };
}

/** The pods of a plan, servers in restart order then the clients, and their handshakes after every step. */
export class RotationSimulator {
  /** Every rejection seen so far. */
  public readonly outages: Outage[] = [];
  /** How many pair checks were made, and how many distinct handshakes were run for them. */
  public checks = 0;
  public handshakes = 0;
  public readonly pods: Pod[];
  private readonly verdicts = new Map<string, HandshakeOutcome>();
  private readonly sqlJudge?: SqlJudge;

  /**
   * @param options.sqlClients with TLS for MySQL clients on, also the applications' pods and the
   * SQL server's Secret in the sqlserver pods, and their handshakes
   * @param options.sqlJudge who judges those handshakes: OpenSSL through `node:tls` by default
   */
  constructor(plan: TlsPlan, manifests: readonly any[], options: { readonly sqlClients?: boolean; readonly sqlJudge?: SqlJudge } = {}) {
    this.sqlJudge = options.sqlJudge;
    const servers = plan.secrets.filter((s): s is TlsPlanSecret & { component: ComponentToken } => s.role === 'server' && s.component !== undefined)
      .filter((s) => RESTART_ORDER.includes(s.component))
      .sort((a, b) => RESTART_ORDER.indexOf(a.component) - RESTART_ORDER.indexOf(b.component));
    const sqlTls = options.sqlClients ? plan.sqlTls : undefined;
    const sqlServer = sqlTls?.secrets.find((s) => s.role === 'server');
    this.pods = [
      ...servers.flatMap((s) => Array.from({ length: replicasOf(s.component, manifests, s.cluster) }, (_, i) => ({
        name: `${s.component}-${i}`, ordinal: i, kind: s.cluster, component: s.component, secretName: s.name, dialedAs: dialedNames(s)[0],
        reloadsLeaf: s.reloadsLeaf === true, restarts: 0,
        ...(s.component === 'sqlserver' && sqlServer ? { sqlServer: { secretName: sqlServer.name, dialedAs: sqlServer.dnsNames![0] } } : {}),
      }))),
      ...plan.secrets.filter((s) => s.role === 'client').map((s) => ({ name: `${s.cluster} client`, kind: s.cluster, secretName: s.name, reloadsLeaf: false, restarts: 0 })),
      ...(sqlTls?.secrets ?? []).filter((s) => s.role === 'application')
        .map((s) => ({ name: `application ${s.application}`, kind: ClusterKind.DATABASE, secretName: s.name, reloadsLeaf: false, restarts: 0, application: { namespace: s.namespace } })),
    ];
  }

  /** Restarts one pod with its Secret as it is now, and counts the restart. */
  public restart(pod: Pod, secrets: ReadonlyMap<string, SecretPem>): void {
    this.start(pod, secrets);
    pod.restarts++;
  }

  /** The restarts of the components' pods since they started (clients, the operator and applications not counted). */
  public componentRestarts(): number {
    return this.pods.filter((p) => p.component !== undefined).reduce((n, p) => n + p.restarts, 0);
  }

  /** The restarts of each component since it started, by component, for the components that restarted. */
  public restartsByComponent(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const pod of this.pods.filter((p) => p.component !== undefined && p.restarts > 0)) {
      out[pod.component!] = (out[pod.component!] ?? 0) + pod.restarts;
    }
    return out;
  }

  /** The restarts of each component's pods since `before` (a {@link restartsByComponent} taken earlier), for the components that restarted. */
  public restartsSince(before: Readonly<Record<string, number>>): Record<string, number> {
    return Object.fromEntries(Object.entries(this.restartsByComponent()).map(([c, n]) => [c, n - (before[c] ?? 0)]).filter(([, n]) => n !== 0));
  }

  /** The kubelet writes the pod's Secret as it is now into its volume: a pod that re-reads its certificate presents it from its next connection. */
  public project(pod: Pod, secrets: ReadonlyMap<string, SecretPem>): void {
    const secret = secrets.get(pod.secretName);
    if (secret) {
      pod.volume = materialOf(secret);
    }
  }

  /**
   * The running pods that re-read their certificate and whose volume differs from their Secret
   * now: what the kubelet has yet to project. A pod never started (left to a test) is none.
   */
  public unprojected(secrets: ReadonlyMap<string, SecretPem>): Pod[] {
    return this.pods.filter((p) => p.reloadsLeaf && p.volume !== undefined && secrets.has(p.secretName)
      && digest(materialOf(secrets.get(p.secretName)!)) !== digest(p.volume));
  }

  /**
   * The kubelet projects the Secrets into every pod that re-reads its certificate, one pod at a
   * time in `order` (restart order, or its reverse), checking after each, then calling `afterEach`
   * (checks of the caller's, across clusters say).
   */
  public async projectAll(label: string, secrets: () => ReadonlyMap<string, SecretPem>, order: 'forward' | 'reverse' = 'forward',
    afterEach?: (step: string) => Promise<void>): Promise<void> {
    const pods = this.unprojected(secrets());
    for (const pod of order === 'forward' ? pods : [...pods].reverse()) {
      this.project(pod, secrets());
      const step = `${label}: kubelet projected the Secret into ${pod.name}`;
      await this.check(step);
      await afterEach?.(step);
    }
  }

  /** What a pod presents and verifies with on a new connection: its volume's certificate when it re-reads it, with the CA it loaded at start. */
  public presented(pod: Pod): TlsMaterial {
    return pod.reloadsLeaf && pod.volume !== undefined ? { cert: pod.volume.cert, key: pod.volume.key, ca: pod.loaded!.ca } : pod.loaded!;
  }

  /** Starts one pod with its Secret as it is now: it loads it, and its volume holds it. */
  private start(pod: Pod, secrets: ReadonlyMap<string, SecretPem>): void {
    const secret = secrets.get(pod.secretName);
    if (!secret) {
      throw new Error(`pod ${pod.name} cannot start: Secret ${pod.secretName} does not exist`);
    }
    pod.loaded = materialOf(secret);
    pod.volume = pod.loaded;
    if (pod.sqlServer) {
      const sql = secrets.get(pod.sqlServer.secretName);
      if (!sql) {
        throw new Error(`pod ${pod.name} cannot start: Secret ${pod.sqlServer.secretName} does not exist`);
      }
      pod.sqlLoaded = materialOf(sql);
    }
  }

  /** Starts every pod. */
  public startAll(secrets: ReadonlyMap<string, SecretPem>): void {
    this.pods.forEach((p) => this.start(p, secrets));
  }

  /** Runs every pair's handshake and records each rejection under `step`; returns the rejections of this step. */
  public async check(step: string): Promise<Outage[]> {
    const found: Outage[] = [];
    for (const server of this.pods.filter((p) => p.component !== undefined)) {
      for (const client of this.pods.filter((p) => p.kind === server.kind && p !== server && p.application === undefined)) {
        const outcome = await this.handshake(this.presented(server), this.presented(client), server.dialedAs);
        this.checks++;
        if (!outcome.ok) {
          found.push({ step, client: client.name, server: server.name, reason: describeOutcome(outcome) });
        }
      }
    }
    // TLS for MySQL clients: every application with every sqlserver pod, over what each loaded for it.
    for (const server of this.pods.filter((p) => p.sqlServer !== undefined)) {
      for (const client of this.pods.filter((p) => p.application !== undefined)) {
        const outcome = await this.handshake(server.sqlLoaded!, client.loaded!, server.sqlServer!.dialedAs, this.sqlJudge);
        this.checks++;
        if (!outcome.ok) {
          found.push({ step, client: client.name, server: `${server.name} (MySQL port)`, reason: describeOutcome(outcome) });
        }
      }
    }
    this.outages.push(...found);
    return found;
  }

  /**
   * Restarts the pods of a phase one at a time as the runbook's restarts do, checking after each
   * restart: the components the phase restarts (`restarting`, every one
   * by default), the two clusters' at the same time, each in the operator's order
   * ({@link rollSequence}), then the drainer, then the clients.
   * @param label what the step list says before each pod's name
   */
  public async rollingRestart(label: string, secrets: () => ReadonlyMap<string, SecretPem>, roll: RollOptions = {}, restarting?: readonly ComponentToken[]): Promise<void> {
    for (const pod of this.rollSequence(roll, restarting)) {
      this.restart(pod, secrets());
      await this.check(`${label}: restarted ${pod.name}`);
    }
  }

  /**
   * Runs one phase after its Secrets are written, in each of `rolls` and with the kubelet
   * projecting the Secrets into the pods that re-read them before the restarts and after them,
   * every time from the pods as they were before (the verdicts of handshakes already run are
   * reused, so each further order costs little). The pods end as the last order left them, with
   * the restarts of one order counted.
   * @param restarting the components the phase restarts (the plan's `rotation.restartOrder`); every one by default
   */
  public async rollingRestarts(label: string, secrets: () => ReadonlyMap<string, SecretPem>, rolls: readonly RollOptions[] = LEGAL_ROLLS,
    restarting?: readonly ComponentToken[]): Promise<void> {
    const before = new Map(this.pods.map((p) => [p, [p.loaded, p.sqlLoaded, p.volume, p.restarts] as const]));
    for (const roll of rolls) {
      for (const projection of ['before', 'after'] as const) {
        this.pods.forEach((p) => { [p.loaded, p.sqlLoaded, p.volume, p.restarts] = before.get(p)!; });
        const at = `${label} (${describeRoll(roll)}, kubelet ${projection} the restarts)`;
        if (projection === 'before') {
          await this.projectAll(at, secrets);
        }
        await this.rollingRestart(at, secrets, roll, restarting);
        await this.projectAll(at, secrets, 'reverse');
      }
    }
  }

  /**
   * The order in which the pods restart: each cluster kind's server pods of
   * the components in `restarting`, component by component in the operator's order, highest
   * ordinal first (a StatefulSet partition moving down), interleaved with the other kind's as
   * `roll` says; then the drainer's pods, highest ordinal first (`kubectl rollout restart`), and the
   * discovery server's; then the clients.
   */
  public rollSequence(roll: RollOptions = {}, restarting: readonly ComponentToken[] = RESTART_ORDER): Pod[] {
    const ofKind = (kind: ClusterKind) => {
      const order = (kind === ClusterKind.DATABASE ? roll.databaseOrder ?? OPERATOR_ROLL_ORDER[kind] : OPERATOR_ROLL_ORDER[kind]).filter((t) => restarting.includes(t));
      return this.pods.filter((p) => p.kind === kind && p.component !== undefined && order.includes(p.component))
        .sort((a, b) => order.indexOf(a.component!) - order.indexOf(b.component!) || b.ordinal! - a.ordinal!);
    };
    const rolled = interleave(ofKind(ClusterKind.DATABASE), ofKind(ClusterKind.MIGRATION), roll.interleaving ?? 'alternate');
    const rolledOut = (token: ComponentToken) => (restarting.includes(token) ? this.pods.filter((p) => p.component === token).sort((a, b) => b.ordinal! - a.ordinal!) : []);
    const rest = this.pods.filter((p) => p.component === undefined);
    return [...rolled, ...rolledOut('drainer'), ...rolledOut('discovery'), ...rest];
  }

  private async handshake(server: TlsMaterial, client: TlsMaterial, dialedAs: string | undefined, judge?: SqlJudge): Promise<HandshakeOutcome> {
    const key = `${judge ? 'sql:' : ''}${digest(server)}/${digest(client)}/${dialedAs}`;
    let outcome = this.verdicts.get(key);
    if (outcome === undefined) {
      outcome = judge ? await judge(server, client, dialedAs!) : await mutualHandshake(server, client, { name: dialedAs });
      this.handshakes++;
      this.verdicts.set(key, outcome);
    }
    return outcome;
  }
}

/**
 * How the two clusters' rolling restarts interleave. They are separate resources, each rolled by
 * its own controller at the same time, so any interleaving is legal: `alternate` (one pod of each
 * in turn, the closest to both rolling at once), `database-first` and `migration-first` (one
 * finishes before the other starts).
 */
export type Interleaving = 'alternate' | 'database-first' | 'migration-first';

/** How {@link RotationSimulator.rollingRestart} orders the restarts. */
export interface RollOptions {
  /** @default 'alternate' */
  readonly interleaving?: Interleaving;
  /** The database cluster's component order. @default OPERATOR_ROLL_ORDER.database */
  readonly databaseOrder?: readonly ComponentToken[];
}

/** The database cluster's order in later operator releases, which roll the changefeed first (5.1 or later). */
export const CHANGEFEED_FIRST: readonly ComponentToken[] = ['changefeed', ...OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].filter((t) => t !== 'changefeed')];

/**
 * The legal orders every phase is stepped through: both clusters rolling at once, and the
 * migration cluster done first while the database cluster rolls in the later releases' order.
 */
export const LEGAL_ROLLS: readonly RollOptions[] = [
  { interleaving: 'alternate' },
  { interleaving: 'migration-first', databaseOrder: CHANGEFEED_FIRST },
];

function describeRoll(roll: RollOptions): string {
  return `${roll.interleaving ?? 'alternate'}${roll.databaseOrder ? `, database order ${roll.databaseOrder.join(' ')}` : ''}`;
}

/** Two sequences merged as `how` says, each keeping its own order. */
function interleave<T>(database: readonly T[], migration: readonly T[], how: Interleaving): T[] {
  if (how === 'database-first') {
    return [...database, ...migration];
  }
  if (how === 'migration-first') {
    return [...migration, ...database];
  }
  return Array.from({ length: Math.max(database.length, migration.length) }, (_, i) => [database[i], migration[i]])
    .flat().filter((p): p is T => p !== undefined);
}

/** The outages as lines a failing test prints. */
export function formatOutages(outages: readonly Outage[], most = 10): string {
  const lines = outages.slice(0, most).map((o) => `${o.step}: ${o.client} → ${o.server}: ${o.reason}`);
  return [...lines, ...(outages.length > most ? [`… and ${outages.length - most} more`] : [])].join('\n');
}
