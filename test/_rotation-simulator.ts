/**
 * A rotation simulator: every pod of every component a plan declares (replicas read from the
 * synthesized cluster resources), each holding the `tls.crt`, `tls.key` and `ca.crt` it loaded at
 * its last start, and the pairs of pods that talk. After every step (Secrets written, one pod
 * restarted) it runs real mutual handshakes between every pair (`node:tls`, that is OpenSSL, each
 * side verifying the other against what it loaded), and records every rejection as an outage with
 * the step, the pair and OpenSSL's reason.
 *
 * Pairs: within each cluster kind, every server pod dials every other server pod (components dial
 * each other with their server certificates), and the client of each client Secret (the monitor,
 * the tools) dials every server pod. Pods of the two kinds do not talk: the migration cluster
 * reaches the database with a Secret outside this CA. A handshake's verdict depends only on the
 * two sides' material and the name dialed, so each distinct triple is shaken once per simulation
 * and its verdict reused.
 */
import { createHash } from 'node:crypto';
import { ClusterKind, COMPONENTS, ComponentToken } from '../lib/spec/catalog';
import type { TlsPlan, TlsPlanSecret } from '../lib/certificates/certificate-options';
import { RESTART_ORDER } from '../lib/certificates/rotation';
import { HandshakeOutcome, TlsMaterial, describeOutcome, dialedNames, mutualHandshake } from '../lib/verify/handshake';
import type { SecretPem } from './_handshakes';

/** A pod and what it loaded at its last start. */
export interface Pod {
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
}

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

  constructor(plan: TlsPlan, manifests: readonly any[]) {
    const order = plan.rotation?.restartOrder ?? RESTART_ORDER;
    const servers = plan.secrets.filter((s): s is TlsPlanSecret & { component: ComponentToken } => s.role === 'server' && s.component !== undefined)
      .filter((s) => order.includes(s.component))
      .sort((a, b) => order.indexOf(a.component) - order.indexOf(b.component));
    this.pods = [
      ...servers.flatMap((s) => Array.from({ length: replicasOf(s.component, manifests, s.cluster) }, (_, i) => ({
        name: `${s.component}-${i}`, kind: s.cluster, component: s.component, secretName: s.name, dialedAs: dialedNames(s)[0],
      }))),
      ...plan.secrets.filter((s) => s.role === 'client').map((s) => ({ name: `${s.cluster} client`, kind: s.cluster, secretName: s.name })),
    ];
  }

  /** Starts (or restarts) one pod with its Secret as it is now. */
  public restart(pod: Pod, secrets: ReadonlyMap<string, SecretPem>): void {
    const secret = secrets.get(pod.secretName);
    if (!secret) {
      throw new Error(`pod ${pod.name} cannot start: Secret ${pod.secretName} does not exist`);
    }
    pod.loaded = materialOf(secret);
  }

  /** Starts every pod. */
  public startAll(secrets: ReadonlyMap<string, SecretPem>): void {
    this.pods.forEach((p) => this.restart(p, secrets));
  }

  /** Runs every pair's handshake and records each rejection under `step`; returns the rejections of this step. */
  public async check(step: string): Promise<Outage[]> {
    const found: Outage[] = [];
    for (const server of this.pods.filter((p) => p.component !== undefined)) {
      for (const client of this.pods.filter((p) => p.kind === server.kind && p !== server)) {
        const outcome = await this.handshake(server, client);
        this.checks++;
        if (!outcome.ok) {
          found.push({ step, client: client.name, server: server.name, reason: describeOutcome(outcome) });
        }
      }
    }
    this.outages.push(...found);
    return found;
  }

  /**
   * Restarts every pod one at a time in restart order, checking after each restart.
   * @param label what the step list says before each pod's name
   */
  public async rollingRestart(label: string, secrets: () => ReadonlyMap<string, SecretPem>): Promise<void> {
    for (const pod of this.pods) {
      this.restart(pod, secrets());
      await this.check(`${label}: restarted ${pod.name}`);
    }
  }

  private async handshake(server: Pod, client: Pod): Promise<HandshakeOutcome> {
    const key = `${digest(server.loaded!)}/${digest(client.loaded!)}/${server.dialedAs}`;
    let outcome = this.verdicts.get(key);
    if (outcome === undefined) {
      outcome = await mutualHandshake(server.loaded!, client.loaded!, { name: server.dialedAs });
      this.handshakes++;
      this.verdicts.set(key, outcome);
    }
    return outcome;
  }
}

/** The outages as lines a failing test prints. */
export function formatOutages(outages: readonly Outage[], most = 10): string {
  const lines = outages.slice(0, most).map((o) => `${o.step}: ${o.client} → ${o.server}: ${o.reason}`);
  return [...lines, ...(outages.length > most ? [`… and ${outages.length - most} more`] : [])].join('\n');
}
