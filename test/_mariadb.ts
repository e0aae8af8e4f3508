/**
 * A real MySQL-protocol server for the application-TLS tests: MariaDB (Debian package
 * mariadb-server), OpenSSL inside, started on loopback with a fresh data folder and the certificate
 * files of a synthesized server Secret, and stopped by the test. TLS is required of every TCP
 * client (`require_secure_transport`); the administrator logs in over the Unix socket only.
 *
 * Tests using it are skipped, with the reason printed, only where MariaDB is missing outside CI;
 * under CI (CI=true) they run and fail with a clear message instead.
 *
 * @live starts a real MariaDB (test/_tiers.js)
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SecretPem } from './_handshakes';

const PROGRAMS = ['mariadbd', 'mariadb-install-db', 'mariadb'];

/** Whether MariaDB's server, its installer and its client are on PATH (Debian puts mariadbd in /usr/sbin). */
export const hasMariaDb = PROGRAMS.every((p) => spawnSync('sh', ['-c', `command -v ${p} || [ -x /usr/sbin/${p} ]`]).status === 0);

/** `describe` when MariaDB is there or under CI, else `describe.skip` after printing why. */
export function describeWithMariaDb(what: string): jest.Describe {
  if (!hasMariaDb && process.env.CI !== 'true') {
    // eslint-disable-next-line no-console
    console.log(`skipping ${what}: mariadbd, mariadb-install-db or mariadb not found (install the Debian package mariadb-server; under CI=true the test runs and fails instead)`);
    return describe.skip;
  }
  return describe;
}

/** `test` when MariaDB is there or under CI, else `test.skip` after printing why. */
export function mariaDbTest(name: string, fn: () => Promise<void>, timeout?: number): void {
  if (!hasMariaDb && process.env.CI !== 'true') {
    // eslint-disable-next-line no-console
    console.log(`skipping "${name}": MariaDB not found (install the Debian package mariadb-server; under CI=true the test runs and fails instead)`);
    test.skip(name, fn, timeout);
    return;
  }
  test(name, fn, timeout);
}

/** The SQL blocks of a runbook, as written. */
export function sqlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** What a client library reports of one connection attempt. */
export interface Attempt {
  readonly ok: boolean;
  /** `CURRENT_USER()`, when connected. */
  readonly user?: string;
  readonly error?: string;
}

/** Node: mysql2 as an application configures it: the trust bundle, its certificate, and the server's name verified. */
export async function connectNode(port: number, serverName: string, user: string, secret: SecretPem): Promise<Attempt> {
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  try {
    const connection = await mysql.createConnection({
      host: serverName, user, connectTimeout: 10_000,
      // The application's DNS resolves the name to the server; here, loopback.
      stream: net.connect(port, '127.0.0.1'),
      ssl: { ca: secret['ca.crt'], cert: secret['tls.crt'], key: secret['tls.key'], verifyIdentity: true },
    });
    try {
      const [rows] = await connection.query('SELECT CURRENT_USER() AS user');
      return { ok: true, user: (rows as { user: string }[])[0].user };
    } finally {
      await connection.end();
    }
  } catch (error) {
    return { ok: false, error: String((error as Error).message) };
  }
}

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

/** A running MariaDB server. */
export class MariaDb {
  /**
   * Starts a server with the three files of `secret` as its TLS certificate, key and the CA it
   * checks client certificates against; resolves once it accepts connections.
   */
  public static async start(secret: SecretPem): Promise<MariaDb> {
    if (!hasMariaDb) {
      throw new Error('CI=true but MariaDB is not installed: install the Debian package mariadb-server (.ci/run does)');
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-mariadb-'));
    const file = (name: string, content: string) => {
      fs.writeFileSync(path.join(work, name), content, { mode: 0o600 });
      return path.join(work, name);
    };
    const data = path.join(work, 'data');
    const env = { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` };
    const install = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=socket', '--skip-test-db'],
      { encoding: 'utf8', env });
    if (install.status !== 0) {
      throw new Error(`mariadb-install-db failed (${install.status}): ${install.stderr.slice(-2000)}`);
    }
    const port = await freePort();
    const socket = path.join(work, 'mysqld.sock');
    const server = spawn('mariadbd', [
      '--no-defaults', `--datadir=${data}`, '--user=root', `--socket=${socket}`, `--pid-file=${path.join(work, 'mysqld.pid')}`,
      '--bind-address=127.0.0.1', `--port=${port}`, '--skip-name-resolve', '--skip-log-bin', '--innodb-buffer-pool-size=16M',
      `--ssl-cert=${file('tls.crt', secret['tls.crt'])}`, `--ssl-key=${file('tls.key', secret['tls.key'])}`, `--ssl-ca=${file('ca.crt', secret['ca.crt'])}`,
      '--require-secure-transport=ON',
    ], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const db = new MariaDb(work, port, socket, server, env);
    await db.untilReady();
    return db;
  }

  private log = '';

  private constructor(
    private readonly work: string,
    /** The TCP port on 127.0.0.1. */
    public readonly port: number,
    private readonly socket: string,
    private readonly server: ChildProcess,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    server.stderr!.on('data', (d) => { this.log = (this.log + d).slice(-50_000); });
    server.stdout!.on('data', () => {});
  }

  private untilReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mariadbd did not start within 60 s: ${this.log.slice(-2000)}`)), 60_000);
      const check = () => {
        if (this.log.includes('ready for connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      this.server.stderr!.on('data', check);
      this.server.on('exit', (code) => { clearTimeout(timer); reject(new Error(`mariadbd stopped (exit ${code}): ${this.log.slice(-2000)}`)); });
    });
  }

  /** Runs SQL as the administrator over the Unix socket; throws with the client's message when it fails. */
  public sql(statements: string): string {
    const run = spawnSync('mariadb', ['--no-defaults', `--socket=${this.socket}`, '--user=root', '--batch', '--skip-column-names'],
      { input: statements, encoding: 'utf8', env: this.env });
    if (run.status !== 0) {
      throw new Error(`mariadb failed (${run.status}): ${run.stderr}`);
    }
    return run.stdout;
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
