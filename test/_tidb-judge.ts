/**
 * The real SQL server as the judge of the rotation simulator's handshakes between applications and
 * the SQL server's MySQL port: one `tidb-server` (test/_tidb-server.ts), made to serve each
 * server material in turn (its `ssl-cert`, `ssl-key` and `ssl-ca` files written, then `ALTER
 * INSTANCE RELOAD TLS`), and the application's login over TLS with its own certificate and CA
 * (mysql2, verifying the name it dials), as a user that requires a certificate. A rejection by
 * either side, or a reload the server refuses, is a rejected handshake.
 */
import * as fs from 'node:fs';
import type { HandshakeOutcome, TlsMaterial } from '../lib/verify/handshake';
import type { SecretPem } from './_handshakes';
import { connectNode } from './_mariadb';
import type { SqlJudge } from './_rotation-simulator';
import { TidbServer } from './_tidb-server';

/** The user the applications log in as: any certificate the server's CA signed. */
const USER = 'any-certificate';

/** A real tidb-server judging application handshakes, started at the first one, until {@link stop}. */
export class TidbJudge {
  /** How many logins the server judged, and how many times it was made to reload its certificate. */
  public logins = 0;
  public reloads = 0;
  private db?: TidbServer;
  private serving?: string;

  /** The judge the simulator calls for each distinct (server, application, name) it meets. */
  public readonly judge: SqlJudge = async (server: TlsMaterial, client: TlsMaterial, dialedAs: string): Promise<HandshakeOutcome> => {
    if (this.db === undefined) {
      // The status port, which the judge never dials, serves the same material.
      const secret: SecretPem = { 'tls.crt': server.cert, 'tls.key': server.key, 'ca.crt': server.ca };
      this.db = await TidbServer.start(secret, secret, ['unused']);
      this.db.sql(`CREATE USER '${USER}'@'%' REQUIRE X509;`);
      this.serving = key(server);
    }
    if (key(server) !== this.serving) {
      fs.writeFileSync(this.db.files['ssl-cert'], server.cert);
      fs.writeFileSync(this.db.files['ssl-key'], server.key);
      fs.writeFileSync(this.db.files['ssl-ca'], server.ca);
      try {
        this.db.sql('ALTER INSTANCE RELOAD TLS;');
      } catch (error) {
        return { ok: false, server: { ok: false }, client: { ok: false }, failure: `the SQL server refused its own Secret: ${(error as Error).message.trim()}` };
      }
      this.serving = key(server);
      this.reloads++;
    }
    this.logins++;
    const attempt = await connectNode(this.db.port, dialedAs, USER, { 'tls.crt': client.cert, 'tls.key': client.key, 'ca.crt': client.ca });
    return attempt.ok
      ? { ok: true, server: { ok: true }, client: { ok: true } }
      : { ok: false, server: { ok: false }, client: { ok: false }, failure: `tidb-server refused the login or the handshake: ${attempt.error}` };
  };

  /** Stops the server, if it started, and removes its files. */
  public async stop(): Promise<void> {
    await this.db?.stop();
  }
}

/** What identifies a server material. */
function key(m: TlsMaterial): string {
  return `${m.cert}\0${m.key}\0${m.ca}`;
}
