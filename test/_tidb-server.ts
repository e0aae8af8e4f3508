/**
 * The real SQL server for the application-TLS tests: `tidb-server`, built from its Go module by
 * scripts/build-control-plane.sh, run alone on loopback with its own store (`-store unistore`).
 * Its MySQL port serves the synthesized SQL server Secret and checks client certificates against
 * the SQL CA, with TLS required of every TCP client; its status port serves the cluster's server
 * certificate and takes only peers whose Common Name its `cluster-verify-cn` lists, as the operator
 * configures it. The administrator logs in over the Unix socket, which the server counts as secure.
 *
 * @live starts the real TiDB SQL server (test/_tiers.js)
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as TOML from 'smol-toml';
import { tool } from './_control-plane';
import type { SecretPem } from './_handshakes';

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What a request to the status port ended in. */
export interface StatusAttempt {
  readonly ok: boolean;
  readonly status?: number;
  readonly error?: string;
}

/** A running tidb-server. */
export class TidbServer {
  /**
   * Starts a server: `sql` is the SQL server Secret (the MySQL port), `cluster` the server Secret of
   * the cluster's SQL server component (the status port), `verifyCn` its `cluster-verify-cn`.
   */
  public static async start(sql: SecretPem, cluster: SecretPem, verifyCn: readonly string[]): Promise<TidbServer> {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-tidb-'));
    const file = (name: string, content: string) => {
      fs.writeFileSync(path.join(work, name), content, { mode: 0o600 });
      return path.join(work, name);
    };
    const files = {
      'ssl-ca': file('sql-ca.crt', sql['ca.crt']), 'ssl-cert': file('sql-tls.crt', sql['tls.crt']), 'ssl-key': file('sql-tls.key', sql['tls.key']),
      'cluster-ssl-ca': file('cluster-ca.crt', cluster['ca.crt']), 'cluster-ssl-cert': file('cluster-tls.crt', cluster['tls.crt']),
      'cluster-ssl-key': file('cluster-tls.key', cluster['tls.key']),
    };
    file('config.toml', TOML.stringify({ security: { ...files, 'cluster-verify-cn': [...verifyCn], 'require-secure-transport': true } }));
    const [port, status] = [await freePort(), await freePort()];
    const socket = path.join(work, 'tidb.sock');
    const server = spawn(tool('tidb-server'), [
      '-store', 'unistore', '-path', '', '-host', '127.0.0.1', '-status-host', '127.0.0.1', '-P', String(port), '-status', String(status),
      '-socket', socket, '-temp-dir', path.join(work, 'tmp'), '-log-file', path.join(work, 'tidb.log'), '-log-slow-query', path.join(work, 'slow.log'),
      '-config', path.join(work, 'config.toml'),
    ], { stdio: ['pipe', 'pipe', 'pipe'], cwd: work });
    const db = new TidbServer(work, port, status, socket, server, files);
    await db.untilReady();
    return db;
  }

  private log = '';

  private constructor(
    private readonly work: string,
    /** The MySQL port on 127.0.0.1. */
    public readonly port: number,
    /** The status port on 127.0.0.1. */
    public readonly statusPort: number,
    private readonly socket: string,
    private readonly server: ChildProcess,
    /** The certificate files the server reads, by configuration key. */
    public readonly files: Readonly<Record<string, string>>,
  ) {
    server.stderr!.on('data', (d) => { this.log = (this.log + d).slice(-50_000); });
    server.stdout!.on('data', (d) => { this.log = (this.log + d).slice(-50_000); });
  }

  /** Resolves once the administrator's socket answers; rejects when the server stops first or takes a minute. */
  private async untilReady(): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      if (this.server.exitCode !== null) {
        throw new Error(`tidb-server stopped (exit ${this.server.exitCode}): ${this.log.slice(-2000)}${this.fileLog()}`);
      }
      if (fs.existsSync(this.socket) && spawnSync('mariadb', ['--no-defaults', `--socket=${this.socket}`, '--user=root', '-e', 'SELECT 1'], { encoding: 'utf8' }).status === 0) {
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`tidb-server did not start within 60 s: ${this.log.slice(-2000)}${this.fileLog()}`);
  }

  private fileLog(): string {
    return fs.readFileSync(path.join(this.work, 'tidb.log'), { encoding: 'utf8', flag: 'a+' }).slice(-2000);
  }

  /** Runs SQL as the administrator over the Unix socket; throws with the client's message when it fails. */
  public sql(statements: string): string {
    const run = spawnSync('mariadb', ['--no-defaults', `--socket=${this.socket}`, '--user=root', '--batch', '--skip-column-names'], { input: statements, encoding: 'utf8' });
    if (run.status !== 0) {
      throw new Error(`mariadb failed (${run.status}): ${run.stderr}`);
    }
    return run.stdout;
  }

  /** GET /status on the status port with a client certificate, verifying the server's name against `ca`. */
  public status(serverName: string, client: SecretPem): Promise<StatusAttempt> {
    return new Promise((resolve) => {
      const request = https.get({
        host: '127.0.0.1', port: this.statusPort, path: '/status', servername: serverName, ca: client['ca.crt'], cert: client['tls.crt'], key: client['tls.key'],
        checkServerIdentity: (_host, cert) => require('node:tls').checkServerIdentity(serverName, cert), timeout: 10_000,
      }, (response) => {
        response.resume();
        response.on('end', () => resolve({ ok: response.statusCode === 200, status: response.statusCode }));
      });
      request.on('error', (error) => resolve({ ok: false, error: error.message }));
      request.on('timeout', () => request.destroy(new Error('timed out')));
    });
  }

  /** The serial number of the certificate the status port serves on a new connection, with a client certificate. */
  public statusSerial(serverName: string, client: SecretPem): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = require('node:tls').connect({
        host: '127.0.0.1', port: this.statusPort, servername: serverName, ca: client['ca.crt'], cert: client['tls.crt'], key: client['tls.key'],
        checkServerIdentity: (_host: string, cert: any) => require('node:tls').checkServerIdentity(serverName, cert),
      }, () => {
        const serial = socket.getPeerCertificate().serialNumber;
        socket.end();
        resolve(serial);
      });
      socket.on('error', reject);
    });
  }

  /** Stops the server and removes its folder, keys included. */
  public async stop(): Promise<void> {
    if (this.server.exitCode === null) {
      const exited = new Promise((resolve) => this.server.once('exit', resolve));
      this.server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}
