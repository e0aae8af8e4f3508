/**
 * The handshake matrix of a certificate plan: every server Secret serves on loopback and every
 * client Secret (and every server Secret, since components dial each other with their server
 * certificates) connects to it, once for every name a component dials it by, both sides verifying.
 *
 * The names are the plan's, with each wildcard `*.X` instantiated as a pod name `<service>-0.X`
 * (`*.basic-store-peer.demo` → `basic-store-0.basic-store-peer.demo`). A wildcard over a single
 * label (`*.basic-store-peer`) matches nothing for OpenSSL or node, which refuse wildcards over
 * fewer than two labels: a pod dialed by that short name is verified by its chain only, and the
 * matrix lists those names apart so that a test can hold them to exactly that set.
 */
import type { TlsPlan } from '../lib/plan/certificate-options';
import { HandshakeServer, TlsMaterial, describeOutcome, dialedNames, nameVerifiable } from '../lib/verify/handshake';
import { tool } from './_programs';

export { nameVerifiable };

/** A Secret's three PEM values. */
export type SecretPem = Readonly<Record<'tls.crt' | 'tls.key' | 'ca.crt', string>>;

/** One handshake that a component pair would fail. */
export interface Rejection {
  readonly server: string;
  readonly client: string;
  readonly name: string;
  readonly reason: string;
}

/** What the matrix did. */
export interface MatrixResult {
  readonly handshakes: number;
  readonly rejections: Rejection[];
  /** Names dialed with the chain verified but not the name: the wildcards over a single label. */
  readonly chainOnly: string[];
}

function material(secret: SecretPem): TlsMaterial {
  return { cert: secret['tls.crt'], key: secret['tls.key'], ca: secret['ca.crt'] };
}

/**
 * Runs every handshake of the plan over `secrets` (by Secret name). Server Secrets are dialed by
 * every name of their plan entry and by each IP address; a name list can be cut to `namesPerServer`
 * (the first and last names, then every other) to keep a property run short.
 */
export async function handshakeMatrix(plan: TlsPlan, secrets: ReadonlyMap<string, SecretPem>, options: { namesPerServer?: number } = {}): Promise<MatrixResult> {
  const get = (name: string) => {
    const s = secrets.get(name);
    if (!s) {
      throw new Error(`the plan of ${plan.namespace}/${plan.clusterName} needs Secret ${name}, which was not issued`);
    }
    return s;
  };
  const servers = plan.secrets.filter((s) => s.role === 'server');
  const clients = plan.secrets; // client Secrets, and server Secrets acting as clients
  const rejections: Rejection[] = [];
  const chainOnly = new Set<string>();
  let handshakes = 0;
  for (const server of servers) {
    const listening = await HandshakeServer.start(material(get(server.name)));
    try {
      (server.dnsNames ?? []).filter((n) => !nameVerifiable(n)).forEach((n) => chainOnly.add(n));
      let dialed = dialedNames(server);
      if (dialed.length < (server.dnsNames ?? []).length + (server.ipAddresses ?? []).length) {
        dialed.push(''); // the chain-only handshake
      }
      if (options.namesPerServer !== undefined && dialed.length > options.namesPerServer) {
        dialed = dialed.filter((_, i) => i === 0 || i === dialed.length - 1 || i % Math.ceil(dialed.length / options.namesPerServer!) === 0);
      }
      for (const client of clients) {
        const outcomes = await Promise.all(dialed.map((name) => listening.handshake(material(get(client.name)), { name: name || undefined })));
        outcomes.forEach((outcome, i) => {
          handshakes++;
          if (!outcome.ok) {
            rejections.push({ server: server.name, client: client.name, name: dialed[i] || '(chain only)', reason: describeOutcome(outcome) });
          }
        });
      }
    } finally {
      await listening.close();
    }
  }
  return { handshakes, rejections, chainOnly: [...chainOnly] };
}

/** The rejections as lines a failing test prints. */
export function formatRejections(rejections: readonly Rejection[], most = 10): string {
  const lines = rejections.slice(0, most).map((r) => `${r.client} → ${r.server} as ${r.name}: ${r.reason}`);
  return [...lines, ...(rejections.length > most ? [`… and ${rejections.length - most} more`] : [])].join('\n');
}


/**
 * The same matrix as {@link handshakeMatrix}, with Go's crypto/tls on both sides (the coordinator,
 * sqlserver and changefeed are Go programs): every handshake runs in the Go peer, whose server
 * requires and verifies the client's certificate and whose client verifies the server's name (or
 * its chain alone, for a name no certificate can hold).
 */
export function goHandshakeMatrix(plan: TlsPlan, secrets: ReadonlyMap<string, SecretPem>): MatrixResult {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const get = (name: string) => {
    const s = secrets.get(name);
    if (!s) {
      throw new Error(`the plan of ${plan.namespace}/${plan.clusterName} needs Secret ${name}, which was not issued`);
    }
    return s;
  };
  const tries: { server: string; client: string; name: string }[] = [];
  for (const server of plan.secrets.filter((s) => s.role === 'server')) {
    const dialed = dialedNames(server);
    if (dialed.length < (server.dnsNames ?? []).length + (server.ipAddresses ?? []).length) {
      dialed.push('');
    }
    for (const client of plan.secrets) {
      dialed.forEach((name) => tries.push({ server: server.name, client: client.name, name }));
    }
  }
  const input = tries.map((t) => ({
    serverCert: get(t.server)['tls.crt'], serverKey: get(t.server)['tls.key'], serverTrust: get(t.server)['ca.crt'],
    clientCert: get(t.client)['tls.crt'], clientKey: get(t.client)['tls.key'], clientTrust: get(t.client)['ca.crt'],
    serverName: t.name,
  }));
  const run = spawnSync(tool('tls-peer'), [], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    throw new Error(`the Go peer failed (${run.status}): ${run.stderr}`);
  }
  const results: { ok: boolean; serverError?: string; clientError?: string }[] = JSON.parse(run.stdout);
  const rejections = results.flatMap((r, i) => (r.ok ? [] : [{
    server: tries[i].server, client: tries[i].client, name: tries[i].name || '(chain only)',
    reason: [r.clientError && `client: ${r.clientError}`, r.serverError && `server: ${r.serverError}`].filter(Boolean).join('; '),
  }]));
  const chainOnly = plan.secrets.filter((s) => s.role === 'server').flatMap((s) => (s.dnsNames ?? []).filter((n) => !nameVerifiable(n)));
  return { handshakes: results.length, rejections, chainOnly: [...new Set(chainOnly)] };
}
