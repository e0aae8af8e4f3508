/// <reference types="node" preserve="true" />
/**
 * Real mutual-TLS handshakes on loopback, the way the components judge each other's certificates:
 * `node:tls` is OpenSSL, so a certificate set accepted here is accepted by every OpenSSL-based
 * component, and one rejected here fails there with the same reason.
 *
 * A server loads one certificate set; a client connects with another. Both sides verify the peer
 * against their own `ca.crt` (the server asks for a client certificate), and the client checks the
 * server certificate's identity against the name it dials with `tls.checkServerIdentity`. Each side
 * records OpenSSL's verdict instead of hanging up, so one handshake reports both verdicts.
 */
import { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { oneLine } from './text';

/** The three parts of a certificate set, in PEM, as a Secret holds them. */
export interface TlsMaterial {
  /** `tls.crt`: the certificate, optionally followed by intermediates. */
  readonly cert: string;
  /** `tls.key`: its private key. */
  readonly key: string;
  /** `ca.crt`: the CA certificates this side trusts. */
  readonly ca: string;
}

/** What one side of a handshake thought of the other. */
export interface Verdict {
  /** Whether the peer's certificate verified (and, for the client, matched the name). */
  readonly ok: boolean;
  /** OpenSSL's or node's reason, when it did not: `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, … */
  readonly reason?: string;
}

/** The outcome of one mutual handshake. */
export interface HandshakeOutcome {
  /** Whether the handshake completed and both sides accepted the peer. */
  readonly ok: boolean;
  /** The server's verdict on the client certificate. */
  readonly server: Verdict;
  /** The client's verdict on the server certificate. */
  readonly client: Verdict;
  /** Why the connection itself failed (a bad key, no common cipher, …), when it did. */
  readonly failure?: string;
}

/** How the client side of a handshake behaves. */
export interface ClientOptions {
  /**
   * The name the client dials: a DNS name (sent as SNI) or an IP address. The server certificate
   * must carry it.
   * @default - the server's identity is not checked, only its chain
   */
  readonly name?: string;
  /**
   * More names the server certificate must carry, checked with `tls.checkServerIdentity` on the
   * certificate this handshake received, as a client dialing each of them would check it.
   * @default - none
   */
  readonly alsoNames?: readonly string[];
  /**
   * Whether the client judges the server certificate at all. Off when the "server" only presents
   * a client certificate so that the server side can judge it.
   * @default true
   */
  readonly verifyServer?: boolean;
}

/** The first name the certificate does not carry, as node's error with the name added. */
function checkNames(names: readonly string[], cert: tls.PeerCertificate): Error | undefined {
  for (const name of names) {
    const error = tls.checkServerIdentity(name, cert) as (Error & { code?: string }) | undefined;
    if (error) {
      return Object.assign(new Error(error.message), { code: `${error.code ?? 'ERR_TLS_CERT_ALTNAME_INVALID'} for ${name}` });
    }
  }
  return undefined;
}

/**
 * Whether OpenSSL and node can match a certificate name at all: they refuse a wildcard over a
 * single label (`*.basic-store-peer`), so a client dialing a pod by that short name can verify
 * the chain but not the name.
 */
export function nameVerifiable(hostName: string): boolean {
  return !hostName.startsWith('*.') || hostName.split('.').length > 2;
}

/**
 * The name a client dials for a certificate name: the name itself, or for a wildcard `*.X` the
 * first pod's name `<service>-0.X` (`*.basic-store-peer.demo` → `basic-store-0.basic-store-peer.demo`).
 */
export function dialedName(hostName: string): string {
  if (!hostName.startsWith('*.')) {
    return hostName;
  }
  const base = hostName.slice(2);
  return `${base.split('.')[0].replace(/-peer$/, '')}-0.${base}`;
}

/**
 * The names a client can dial a server certificate by and verify: its DNS names (wildcards as
 * their first pod's name, those over a single label left out) and its IP addresses.
 */
export function dialedNames(certificate: { readonly dnsNames?: readonly string[]; readonly ipAddresses?: readonly string[] }): string[] {
  return [...(certificate.dnsNames ?? []).filter(nameVerifiable).map(dialedName), ...(certificate.ipAddresses ?? [])];
}

/**
 * Clients' certificate sets as OpenSSL has loaded them, by their PEM: a verification dials each
 * server Secret with each client Secret of its plan, and loading the key, the certificate and the
 * CAs was a third of its time. Made for one verification and dropped with it, so that no key
 * outlives the run that was given it.
 */
export type ClientContexts = Map<string, tls.SecureContext>;

/**
 * A client's certificate set, loaded once per set of contexts.
 * @throws when node cannot load the material
 */
function clientContext(material: TlsMaterial, contexts: ClientContexts): tls.SecureContext {
  const key = `${material.cert}\0${material.key}\0${material.ca}`;
  let context = contexts.get(key);
  if (context === undefined) {
    context = tls.createSecureContext({ cert: material.cert, key: material.key, ca: material.ca });
    contexts.set(key, context);
  }
  return context;
}

/** How long one handshake may take before it counts as failed. */
const TIMEOUT_MS = 10_000;

/** The server's verdict travels to the client as the first line it writes. */
function encodeVerdict(socket: tls.TLSSocket): string {
  const reason = socket.authorizationError;
  const verdict: Verdict = socket.authorized ? { ok: true } : { ok: false, reason: typeof reason === 'string' ? reason : reason?.message ?? 'no client certificate' };
  return `${JSON.stringify(verdict)}\n`;
}

/** A loopback TLS server holding one certificate set, ready for any number of client handshakes. */
export class HandshakeServer {
  /**
   * Starts a server on 127.0.0.1 with a free port.
   * @throws when node cannot load the material (a key that does not match its certificate, a PEM that does not parse)
   */
  public static async start(material: TlsMaterial): Promise<HandshakeServer> {
    const server = tls.createServer({
      cert: material.cert, key: material.key, ca: material.ca, requestCert: true, rejectUnauthorized: false,
    }, (socket) => {
      // A client that hangs up early is reported on the client's side.
      socket.on('error', () => undefined);
      socket.end(encodeVerdict(socket));
    });
    // A client that gives up mid-handshake is reported on the client's side.
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new HandshakeServer(server);
  }

  private constructor(private readonly server: tls.Server) {}

  /** The port the server listens on. */
  public get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * Runs one mutual handshake with a client holding `material`, loaded into `contexts` unless it
   * is there already (by default, loaded for this handshake alone).
   */
  public handshake(material: TlsMaterial, options: ClientOptions = {}, contexts: ClientContexts = new Map()): Promise<HandshakeOutcome> {
    const verifyServer = options.verifyServer ?? true;
    const name = options.name;
    const dnsName = name !== undefined && !name.includes(':') && !/^\d+\.\d+\.\d+\.\d+$/.test(name) ? name : undefined;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: HandshakeOutcome) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          resolve(outcome);
        }
      };
      const failed = (failure: string) => finish(failedOutcome(failure));
      const socket = tls.connect({
        host: '127.0.0.1',
        port: this.port,
        servername: dnsName,
        secureContext: clientContext(material, contexts),
        rejectUnauthorized: false,
        checkServerIdentity: (_host, cert) => (verifyServer ? checkNames([...(name === undefined ? [] : [name]), ...(options.alsoNames ?? [])], cert) : undefined),
      });
      const timer = setTimeout(() => failed(`no answer within ${TIMEOUT_MS} ms`), TIMEOUT_MS);
      let clientVerdict: Verdict = { ok: true };
      let received = '';
      socket.once('secureConnect', () => {
        if (verifyServer && !socket.authorized) {
          const reason = socket.authorizationError;
          clientVerdict = { ok: false, reason: typeof reason === 'string' ? reason : reason?.message };
        }
      });
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
        const end = received.indexOf('\n');
        if (end >= 0) {
          let server: Verdict;
          try {
            server = JSON.parse(received.slice(0, end)) as Verdict;
          } catch {
            failed('the server answered something other than its verdict');
            return;
          }
          finish({ ok: server.ok && clientVerdict.ok, server, client: clientVerdict });
        }
      });
      socket.once('error', (e: Error & { code?: string }) => failed(e.code ? `${e.code}: ${e.message}` : e.message));
      socket.once('close', () => failed('the server closed the connection without a verdict'));
    });
  }

  /** Stops the server. */
  public close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * One mutual handshake between two certificate sets, on a server started for it.
 * @throws when node cannot load the server's material
 */
export async function mutualHandshake(server: TlsMaterial, client: TlsMaterial, options: ClientOptions = {}): Promise<HandshakeOutcome> {
  const listening = await HandshakeServer.start(server);
  try {
    return await listening.handshake(client, options);
  } finally {
    await listening.close();
  }
}

/**
 * Mutual handshakes of one server with several clients, on a server started once for them, the
 * clients loaded into `contexts` (see {@link ClientContexts}): each client's outcome, in order. A
 * server that cannot load its material fails every handshake, a client that cannot load its own
 * fails its own, each for that reason.
 */
export async function handshakesWith(server: TlsMaterial, clients: ReadonlyArray<{ readonly material: TlsMaterial; readonly options?: ClientOptions }>,
  contexts: ClientContexts = new Map()): Promise<HandshakeOutcome[]> {
  let listening: HandshakeServer;
  try {
    listening = await HandshakeServer.start(server);
  } catch (e) {
    return clients.map(() => failedOutcome(oneLine((e as Error).message)));
  }
  try {
    const outcomes: HandshakeOutcome[] = [];
    for (const client of clients) {
      outcomes.push(await listening.handshake(client.material, client.options, contexts).catch((e: Error) => failedOutcome(oneLine(e.message))));
    }
    return outcomes;
  } finally {
    await listening.close();
  }
}

/** The outcome of a handshake that did not happen, or broke off, for this reason: a failure of both sides. */
export function failedOutcome(failure: string): HandshakeOutcome {
  return { ok: false, failure, server: { ok: false, reason: failure }, client: { ok: false, reason: failure } };
}

/** A one-line account of a failed handshake: who rejected whom, and why. */
export function describeOutcome(outcome: HandshakeOutcome): string {
  if (outcome.ok) {
    return 'both sides accepted the peer';
  }
  if (outcome.failure !== undefined) {
    return `the handshake failed: ${outcome.failure}`;
  }
  return [
    outcome.client.ok ? '' : `the client rejected the server certificate (${outcome.client.reason})`,
    outcome.server.ok ? '' : `the server rejected the client certificate (${outcome.server.reason})`,
  ].filter(Boolean).join('; ');
}
