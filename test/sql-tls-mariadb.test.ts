/**
 * TLS for MySQL clients, proven where it is judged: a real MySQL-protocol server (MariaDB, with
 * OpenSSL) loads the synthesized SQL server Secret and requires TLS; real client libraries that
 * applications use (Node's mysql2, and Go's go-sql-driver/mysql through the built mysql-client)
 * connect with each application's Secret, verifying the server's name against the trust bundle.
 * The database users are created by the runbook's SQL block, run as written. Both issuing methods:
 * cert-manager (its faithful re-creation, ClusterIssuer included) and cfssl (the real cfssl, through
 * the synthesized script).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IssuingMethod } from '../lib/plan/certificate-options';
import * as names from '../lib/model/names';
import { ClusterKind } from '../lib/model/catalog';
import { describeWithTools, tool } from './_control-plane';
import type { SecretPem } from './_handshakes';
import { CLUSTER, DIALED, NAMESPACE, NOT_ON_CERTIFICATE, issue } from './_sql-tls-deployment';
import { Attempt, MariaDb, connectNode, describeWithMariaDb, sqlBlocks } from './_mariadb';
import { docBlocks } from './_readme';

/** Go: go-sql-driver/mysql, with a tls.Config of the trust bundle, the certificate and the server's name. */
function connectGo(port: number, serverName: string, user: string, secret: SecretPem): Attempt {
  const run = spawnSync(tool('mysql-client'), [], {
    input: JSON.stringify({ addr: `127.0.0.1:${port}`, serverName, user, ca: secret['ca.crt'], cert: secret['tls.crt'], key: secret['tls.key'] }),
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(`mysql-client failed (${run.status}): ${run.stderr}`);
  }
  const out = JSON.parse(run.stdout);
  // The driver reports a connection it lost as "invalid connection" and logs the cause (the TLS alert) to stderr.
  return out.ok ? { ok: true, user: out.user } : { ok: false, error: `${out.error}; logged: ${run.stderr.trim()}` };
}

const CLIENTS = { node: connectNode, go: async (...args: Parameters<typeof connectGo>) => connectGo(...args) };

describeWithTools('TLS for MySQL clients with a real MySQL-protocol server', ['mysql-client'], () => describeWithMariaDb('the MySQL-protocol server tests')('MariaDB', () => {
  describe.each([IssuingMethod.CERT_MANAGER, IssuingMethod.CFSSL])('issued with %s', (method) => {
    let root: string;
    let secrets: Map<string, SecretPem>;
    let runbook: string;
    let db: MariaDb;
    let pki: string | undefined;
    let kubectlCommand: string | undefined;
    const secret = (namespace: string, name: string) => {
      const found = secrets.get(`${namespace}/${name}`);
      if (!found) {
        throw new Error(`no Secret ${namespace}/${name} was written; written: ${[...secrets.keys()].join(', ')}`);
      }
      return found;
    };
    const orders = () => secret('orders', names.sqlApplicationSecretName(NAMESPACE, CLUSTER, 'orders-api'));
    const billing = () => secret('billing', names.sqlApplicationSecretName(NAMESPACE, CLUSTER, 'billing'));

    beforeAll(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-tls-sql-${method}-`));
      const issued = await issue(method, root);
      secrets = issued.secrets;
      pki = issued.pki;
      kubectlCommand = issued.kubectl;
      runbook = fs.readFileSync(path.join(issued.folder, 'database-runbook.md'), 'utf8');
      db = await MariaDb.start(secret(NAMESPACE, names.sqlServerSecretName(CLUSTER)));
      // The runbook's statements, as written, then a user any certificate the server accepts may log in as.
      for (const block of sqlBlocks(runbook)) {
        db.sql(block);
      }
      db.sql("CREATE USER 'any-certificate'@'%' REQUIRE X509;");
    }, 300_000);

    afterAll(async () => {
      await db?.stop();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('the statement of docs/how-to/application-tls.md is the runbook\'s for the same application', () => {
      const readme = docBlocks().filter((b) => b.lang === 'sql');
      expect(readme.map((b) => b.text)).toEqual(["CREATE USER IF NOT EXISTS 'orders-api'@'%';\nALTER USER 'orders-api'@'%' REQUIRE SUBJECT '/CN=orders-api';\n"]);
      expect(sqlBlocks(runbook)[0]).toContain(readme[0].text);
    });

    test('the runbook ties each application\'s user to its subject, and the server holds exactly that', () => {
      expect(sqlBlocks(runbook)).toEqual([
        "CREATE USER IF NOT EXISTS 'orders-api'@'%';\nALTER USER 'orders-api'@'%' REQUIRE SUBJECT '/CN=orders-api';\n"
        + "CREATE USER IF NOT EXISTS 'billing'@'%';\nALTER USER 'billing'@'%' REQUIRE SUBJECT '/CN=billing.example.com';\n",
      ]);
      expect(db.sql("SELECT user, x509_subject FROM mysql.user WHERE ssl_type = 'SPECIFIED' ORDER BY user;")).toBe(
        'billing\t/CN=billing.example.com\norders-api\t/CN=orders-api\n');
    });

    test.each(Object.keys(CLIENTS))('%s: each application logs in as its user with its own certificate, verifying the name it dials', async (client) => {
      const connect = CLIENTS[client as keyof typeof CLIENTS];
      expect(await connect(db.port, DIALED, 'orders-api', orders())).toEqual({ ok: true, user: 'orders-api@%' });
      expect(await connect(db.port, DIALED, 'billing', billing())).toEqual({ ok: true, user: 'billing@%' });
    });

    test.each(Object.keys(CLIENTS))('%s: another application\'s certificate is refused by REQUIRE SUBJECT', async (client) => {
      const connect = CLIENTS[client as keyof typeof CLIENTS];
      const attempt = await connect(db.port, DIALED, 'orders-api', billing());
      expect(attempt.ok).toBe(false);
      expect(attempt.error).toMatch(/Access denied for user 'orders-api'/);
    });

    test.each(Object.keys(CLIENTS))('%s: a certificate of the cluster\'s own CA is refused by the server, which trusts the SQL CA only', async (client) => {
      const connect = CLIENTS[client as keyof typeof CLIENTS];
      // Positive control: the same user takes any certificate the SQL CA signed.
      expect(await connect(db.port, DIALED, 'any-certificate', orders())).toEqual({ ok: true, user: 'any-certificate@%' });
      // The cluster's client certificate, with the SQL CA as the client's trust bundle to reach the server.
      const component = secret(NAMESPACE, names.clientSecretName(CLUSTER, ClusterKind.DATABASE));
      const attempt = await connect(db.port, DIALED, 'any-certificate', { ...component, 'ca.crt': orders()['ca.crt'] });
      expect(attempt.ok).toBe(false);
      // The server's alert (48, unknown CA). In TLS 1.3 the Go client has finished its handshake when
      // the server judges its certificate, so it reads the alert or, when it writes first, finds the
      // connection the server closed; the control above differs from this only in the certificate.
      expect(attempt.error).toMatch(client === 'node' ? /alert unknown ca/ : /remote error: tls: unknown certificate authority|connection reset by peer/);
    });

    test.each(Object.keys(CLIENTS))('%s: a name the server\'s certificate does not carry is refused by the client', async (client) => {
      const connect = CLIENTS[client as keyof typeof CLIENTS];
      const attempt = await connect(db.port, NOT_ON_CERTIFICATE, 'orders-api', orders());
      expect(attempt.ok).toBe(false);
      expect(attempt.error).toMatch(client === 'node' ? /Hostname\/IP does not match certificate's altnames/ : /x509: certificate is valid for .*, not basic-sqlserver\.elsewhere\.svc/);
    });

    // cfssl only: cert-manager keeps its CA itself.
    const cfsslOnly = method === IssuingMethod.CFSSL ? test : () => undefined;
    cfsslOnly('cfssl: without the SQL CA in sql/, the script refuses to make another one while a certificate or a Secret it signed is there', () => {
      const run = () => spawnSync(path.join(pki!, 'issue-certificates.sh'), [], { encoding: 'utf8', env: { ...process.env, KUBECTL: kubectlCommand! } });
      const sql = path.join(pki!, 'sql');
      fs.renameSync(path.join(sql, 'ca.pem'), path.join(root, 'sql-ca.pem'));
      fs.renameSync(path.join(sql, 'ca-key.pem'), path.join(root, 'sql-ca-key.pem'));
      expect(run()).toMatchObject({ status: 1, stderr: 'issue-certificates.sh: found sql/server.pem but not the SQL CA that signed it; restore sql/ca.pem and sql/ca-key.pem\n' });
      fs.renameSync(sql, path.join(root, 'sql-folder'));
      fs.mkdirSync(sql);
      expect(run()).toMatchObject({ status: 1, stderr: 'issue-certificates.sh: Secret demo/basic-sqlserver-server-secret exists but the SQL CA that signed it is not in sql/; run the script from the folder that holds sql/ca.pem and sql/ca-key.pem\n' });
      expect(fs.readdirSync(sql)).toEqual([]);
      // A Secret in an application's namespace counts too: the check looks in each Secret's own namespace.
      const deleted = spawnSync(kubectlCommand!, ['delete', 'secret', 'basic-sqlserver-server-secret', 'basic-sqlserver-client-secret', '-n', NAMESPACE], { encoding: 'utf8' });
      expect(deleted.status).toBe(0);
      expect(run()).toMatchObject({ status: 1, stderr: 'issue-certificates.sh: Secret orders/orders-api-demo-basic-sql-client exists but the SQL CA that signed it is not in sql/; run the script from the folder that holds sql/ca.pem and sql/ca-key.pem\n' });
      fs.rmSync(sql, { recursive: true });
      fs.renameSync(path.join(root, 'sql-folder'), sql);
      fs.renameSync(path.join(root, 'sql-ca.pem'), path.join(sql, 'ca.pem'));
      fs.renameSync(path.join(root, 'sql-ca-key.pem'), path.join(sql, 'ca-key.pem'));
      // With the SQL CA back, the script writes the two deleted Secrets again and keeps the rest.
      const again = run();
      expect(again.status).toBe(0);
      expect(again.stdout).toContain('kept Secret orders/orders-api-demo-basic-sql-client: it exists');
    });

    test('the SQL CA is not the cluster\'s: the two Secrets\' ca.crt differ, and the applications\' is the server\'s', () => {
      const server = secret(NAMESPACE, names.sqlServerSecretName(CLUSTER));
      const component = secret(NAMESPACE, names.clientSecretName(CLUSTER, ClusterKind.DATABASE));
      expect(server['ca.crt']).not.toBe(component['ca.crt']);
      expect(orders()['ca.crt']).toBe(server['ca.crt']);
      expect(secret(NAMESPACE, names.sqlOperatorClientSecretName(CLUSTER))['ca.crt']).toBe(server['ca.crt']);
    });
  });
}));
