/**
 * TLS for MySQL clients and the status port, judged by the real SQL server: `tidb-server` (TiDB
 * v7.5.0, built from its Go module) loads the synthesized SQL server Secret on its MySQL port and
 * the cluster's SQL server Secret on its status port, with the `cluster-verify-cn` the library writes
 * into the database cluster. The runbook's SQL block runs as written; each application logs in as
 * its user with its own certificate (Node's mysql2 and Go's go-sql-driver/mysql); a foreign
 * certificate is refused; a new server certificate is served once `ALTER INSTANCE RELOAD TLS` runs;
 * the status port takes the cluster's client certificate and refuses one whose Common Name it does
 * not list. Both issuing methods.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { Chart, Testing } from 'cdk8s';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { ClusterKind, component } from '../lib/model/catalog';
import { componentReload } from '../lib/plan/rotation';
import { readConfig } from '../lib/model/config-documents';
import * as names from '../lib/model/names';
import { describeWithTools, tool } from './_control-plane';
import type { SecretPem } from './_handshakes';
import { Attempt, connectNode, describeWithMariaDb, sqlBlocks } from './_mariadb';
import { CLUSTER, DIALED, NAMESPACE, issue, synthesizeAgain } from './_sql-tls-deployment';
import { createFakeKubectl } from './_fake-kubectl';
import { bash, shellBlocks } from './_runbooks';
import { RotationKind } from '../lib/plan/rotation';
import { TidbServer } from './_tidb-server';

/** The name a component dials the SQL server's status port by, which its cluster certificate carries. */
const STATUS_NAME = `${CLUSTER}-sqlserver.${NAMESPACE}.svc`;

/** A CA's certificate and key, PEM. */
interface CaPair {
  readonly cert: string;
  readonly key: string;
}

/** A certificate of `ca` for a Common Name, DNS names and IP addresses, made with OpenSSL: a Secret's three files. */
function signWith(ca: CaPair, commonName: string, dnsNames: readonly string[], work: string, ipAddresses: readonly string[] = []): SecretPem {
  const dir = fs.mkdtempSync(path.join(work, 'sign-'));
  const at = (f: string) => path.join(dir, f);
  fs.writeFileSync(at('ca.crt'), ca.cert);
  fs.writeFileSync(at('ca.key'), ca.key, { mode: 0o600 });
  const names = [...dnsNames.map((n) => `DNS:${n}`), ...ipAddresses.map((ip) => `IP:${ip}`)];
  const san = names.length > 0 ? ['-addext', `subjectAltName=${names.join(',')}`] : [];
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { encoding: 'utf8' });
    if (r.status !== 0) {
      throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
    }
  };
  run(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('tls.key'), '-out', at('tls.csr'), '-subj', `/CN=${commonName}`,
    '-addext', 'extendedKeyUsage=serverAuth,clientAuth', ...san]);
  run(['x509', '-req', '-in', at('tls.csr'), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '30', '-copy_extensions', 'copy', '-out', at('tls.crt')]);
  return { 'tls.crt': fs.readFileSync(at('tls.crt'), 'utf8'), 'tls.key': fs.readFileSync(at('tls.key'), 'utf8'), 'ca.crt': ca.cert };
}

/** A new self-signed CA, made with OpenSSL. */
function freshCa(work: string): CaPair {
  const dir = fs.mkdtempSync(path.join(work, 'ca-'));
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'ca.key'), '-out', path.join(dir, 'ca.crt'),
    '-subj', '/CN=another-ca', '-days', '30', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], { encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`openssl req failed: ${r.stderr}`);
  }
  return { cert: fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8'), key: fs.readFileSync(path.join(dir, 'ca.key'), 'utf8') };
}

/** The serial number of the certificate the MySQL port serves to a client logging in with `secret`. */
async function servedSerial(port: number, user: string, secret: SecretPem): Promise<string> {
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: DIALED, user, connectTimeout: 10_000, stream: net.connect(port, '127.0.0.1'),
    ssl: { ca: secret['ca.crt'], cert: secret['tls.crt'], key: secret['tls.key'], verifyIdentity: true },
  });
  try {
    const stream = (connection as unknown as { connection: { stream: import('node:tls').TLSSocket } }).connection.stream;
    return stream.getPeerCertificate().serialNumber;
  } finally {
    await connection.end();
  }
}

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
  return out.ok ? { ok: true, user: out.user } : { ok: false, error: `${out.error}; logged: ${run.stderr.trim()}` };
}

const CLIENTS = { node: connectNode, go: async (...args: Parameters<typeof connectGo>) => connectGo(...args) };

describeWithTools('TLS for MySQL clients and the status port, with the real SQL server', ['tidb-server', 'mysql-client'], () => describeWithMariaDb('the SQL server tests (the administrator\'s client is MariaDB\'s)')('tidb-server', () => {
  describe.each([IssuingMethod.CERT_MANAGER, IssuingMethod.CFSSL])('issued with %s', (method) => {
    let root: string;
    let secrets: Map<string, SecretPem>;
    let pki: string | undefined;
    let runbook: string;
    let verifyCn: string[];
    let db: TidbServer;
    const secret = (namespace: string, name: string) => {
      const found = secrets.get(`${namespace}/${name}`);
      if (!found) {
        throw new Error(`no Secret ${namespace}/${name} was written; written: ${[...secrets.keys()].join(', ')}`);
      }
      return found;
    };
    const orders = () => secret('orders', names.sqlApplicationSecretName(NAMESPACE, CLUSTER, 'orders-api'));
    const billing = () => secret('billing', names.sqlApplicationSecretName(NAMESPACE, CLUSTER, 'billing'));
    /** The CA that signed the cluster's certificates, and the SQL CA, with their keys, as the method keeps them. */
    const caPair = (sql: boolean): CaPair => {
      if (pki !== undefined) {
        const dir = sql ? path.join(pki, 'sql') : pki;
        return { cert: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'), key: fs.readFileSync(path.join(dir, 'ca-key.pem'), 'utf8') };
      }
      const ca = sql ? secret('cert-manager', names.sqlCaName(NAMESPACE, CLUSTER)) : secret(NAMESPACE, names.caSecretName(CLUSTER));
      return { cert: ca['tls.crt'], key: ca['tls.key'] };
    };

    beforeAll(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-tls-tidb-${method}-`));
      const issued = await issue(method, root);
      secrets = issued.secrets;
      pki = issued.pki;
      runbook = fs.readFileSync(path.join(issued.folder, 'database-runbook.md'), 'utf8');
      // The list the library writes into the database cluster, as the operator hands it to the SQL server.
      const manifest = YAML.parseAllDocuments(fs.readFileSync(path.join(root, 'dist', `${NAMESPACE}.k8s.yaml`), 'utf8')).map((d) => d.toJS())
        .find((o) => o?.kind === 'DatabaseCluster');
      verifyCn = (readConfig(component('sqlserver'), manifest.spec.sqlserver.config) as any).security['cluster-verify-cn'];
      db = await TidbServer.start(secret(NAMESPACE, names.sqlServerSecretName(CLUSTER)), secret(NAMESPACE, names.serverSecretName(CLUSTER, 'sqlserver')), verifyCn);
      for (const block of sqlBlocks(runbook)) {
        db.sql(block);
      }
      db.sql("CREATE USER 'any-certificate'@'%' REQUIRE X509;");
    }, 300_000);

    afterAll(async () => {
      await db?.stop();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('the database cluster lists the certificates\' Common Name in cluster-verify-cn', () => {
      expect(verifyCn).toEqual([CLUSTER]);
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

    test.each(Object.keys(CLIENTS))('%s: a certificate of the cluster\'s own CA is refused: the server trusts the SQL CA only', async (client) => {
      const connect = CLIENTS[client as keyof typeof CLIENTS];
      // Positive control: the same user takes any certificate the SQL CA signed.
      expect(await connect(db.port, DIALED, 'any-certificate', orders())).toEqual({ ok: true, user: 'any-certificate@%' });
      const component = secret(NAMESPACE, names.clientSecretName(CLUSTER, ClusterKind.DATABASE));
      const attempt = await connect(db.port, DIALED, 'any-certificate', { ...component, 'ca.crt': orders()['ca.crt'] });
      expect(attempt.ok).toBe(false);
      expect(attempt.error).toMatch(/certificate|tls|ssl|reset|closed|Access denied/i);
    });

    test('a new server certificate is served once ALTER INSTANCE RELOAD TLS runs, and not before', async () => {
      const before = await servedSerial(db.port, 'orders-api', orders());
      const renewed = signWith(caPair(true), names.sqlServerSecretName(CLUSTER), [DIALED], root);
      fs.writeFileSync(db.files['ssl-cert'], renewed['tls.crt']);
      fs.writeFileSync(db.files['ssl-key'], renewed['tls.key']);
      const serial = new X509Certificate(renewed['tls.crt']).serialNumber;
      expect(serial).not.toBe(before);
      expect(await servedSerial(db.port, 'orders-api', orders())).toBe(before);
      db.sql('ALTER INSTANCE RELOAD TLS;');
      expect(await servedSerial(db.port, 'orders-api', orders())).toBe(serial);
      expect(await connectNode(db.port, DIALED, 'billing', billing())).toEqual({ ok: true, user: 'billing@%' });
    });

    test('the status port takes the cluster\'s client certificate and refuses a Common Name cluster-verify-cn does not list', async () => {
      const client = secret(NAMESPACE, names.clientSecretName(CLUSTER, ClusterKind.DATABASE));
      expect(await db.status(STATUS_NAME, client)).toEqual({ ok: true, status: 200 });
      const intruder = signWith(caPair(false), 'intruder', [], root);
      const refused = await db.status(STATUS_NAME, intruder);
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatch(/bad certificate|certificate|socket hang up|ECONNRESET/i);
      // A certificate of the SQL CA, whatever its name, is no cluster certificate.
      const application = await db.status(STATUS_NAME, { ...orders(), 'ca.crt': client['ca.crt'] });
      expect(application.ok).toBe(false);
    });

    test('the catalog\'s reload facts for this release hold: the status port serves a renewed certificate from its next connection with no restart, and keeps its CA until a restart', async () => {
      // The row under test: the SQL server's cluster side re-reads its certificate at v7.5.0; and, below, no component re-reads its CA (CA_RELOAD).
      expect(componentReload('sqlserver', 'v7.5.0', { sqlPort: false }).reloadsLeaf).toBe(true);
      const client = secret(NAMESPACE, names.clientSecretName(CLUSTER, ClusterKind.DATABASE));
      const before = await db.statusSerial(STATUS_NAME, client);
      const renewed = signWith(caPair(false), CLUSTER, [STATUS_NAME], root);
      fs.writeFileSync(db.files['cluster-ssl-cert'], renewed['tls.crt']);
      fs.writeFileSync(db.files['cluster-ssl-key'], renewed['tls.key']);
      const serial = new X509Certificate(renewed['tls.crt']).serialNumber;
      expect(serial).not.toBe(before);
      expect(await db.statusSerial(STATUS_NAME, client)).toBe(serial);
      // A new CA in cluster-ssl-ca: the server still takes the client its loaded CA signed, and refuses one of the new CA.
      const newCa = freshCa(root);
      const ofNewCa = signWith(newCa, CLUSTER, [], root);
      fs.writeFileSync(db.files['cluster-ssl-ca'], newCa.cert);
      expect(await db.status(STATUS_NAME, client)).toEqual({ ok: true, status: 200 });
      expect((await db.status(STATUS_NAME, { ...ofNewCa, 'ca.crt': client['ca.crt'] })).ok).toBe(false);
    });

    test('why root is never tied to a certificate: the runbook\'s statements for an application, run for root, lock out the administrator\'s every password login; the library refuses root', () => {
      const app = Testing.app();
      const database = new TlsDatabaseCluster(new Chart(app, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v8.5.0', tlsClient: {} });
      expect(() => database.addSqlClient('root')).toThrow('demo/db: addSqlClient.name: received "root"; expected a database user of its own, not "root" or "mysql"');
      const statements = sqlBlocks(runbook).join('').split('\n').filter((line) => line.includes('\'orders-api\'@')).join('\n');
      expect(statements).toMatch(/REQUIRE SUBJECT/);
      expect(db.sql('SELECT CURRENT_USER();').trim()).toBe('root@%');
      db.sql(`${statements.replaceAll('\'orders-api\'@', '\'root\'@')}\n`);
      expect(() => db.sql('SELECT 1;')).toThrow(/Access denied for user 'root'/);
    });
  });
}));

/** The user the rotation runbook reloads the MySQL port as (`tlsClient.reloadUser`). */
const RELOADER = 'tls-reloader';

describeWithTools('the rotation runbook\'s reload of the MySQL port, run as written against the real SQL server', ['tidb-server'], () => describeWithMariaDb('the reload block (its client is MariaDB\'s mysql)')('reload block', () => {
  test.each([IssuingMethod.CERT_MANAGER, IssuingMethod.CFSSL])('%s: a leaf renewal\'s block has each pod load the renewed certificate once the kubelet writes it, as the user the database runbook ties and grants; a connection made before keeps working', async (method) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-tls-reload-${method}-`));
    let db: TidbServer | undefined;
    let before: import('mysql2/promise').Connection | undefined;
    let projection: NodeJS.Timeout | undefined;
    try {
      const deployment = { version: 'v7.5.0', reloadUser: RELOADER };
      const issued = await issue(method, root, deployment);
      const secret = (namespace: string, name: string) => issued.secrets.get(`${namespace}/${name}`)!;
      const server = secret(NAMESPACE, names.sqlServerSecretName(CLUSTER));
      const reloader = secret(NAMESPACE, names.sqlApplicationSecretName(NAMESPACE, CLUSTER, RELOADER));
      const orders = secret('orders', names.sqlApplicationSecretName(NAMESPACE, CLUSTER, 'orders-api'));
      db = await TidbServer.start(server, secret(NAMESPACE, names.serverSecretName(CLUSTER, 'sqlserver')), [CLUSTER]);
      // The database runbook's statements, as written: the reload user tied to its certificate, and granted what the statement needs.
      const statements = sqlBlocks(fs.readFileSync(path.join(issued.folder, 'database-runbook.md'), 'utf8'));
      expect(statements.join('')).toContain(`GRANT SUPER ON *.* TO '${RELOADER}'@'%';`);
      for (const block of statements) {
        db.sql(block);
      }
      // An application connected before the renewal.
      const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
      before = await mysql.createConnection({
        host: DIALED, user: 'orders-api', stream: net.connect(db.port, '127.0.0.1'),
        ssl: { ca: orders['ca.crt'], cert: orders['tls.crt'], key: orders['tls.key'], verifyIdentity: true },
      });
      const servedBefore = await servedSerial(db.port, 'orders-api', orders);

      // The leaf renewal declared: its runbook's reload block.
      const folder = synthesizeAgain(root, method, { ...deployment, rotations: [{ id: 'r1', kind: RotationKind.LEAF_RENEWAL }] });
      const block = shellBlocks(fs.readFileSync(path.join(folder, 'rotation-runbook.md'), 'utf8')).find((b) => b.includes('ALTER INSTANCE RELOAD TLS'));
      expect(block).toBeDefined();
      // The renewed server certificate, of the same SQL CA, in the Secret; the kubelet writes it into the pod a few seconds later.
      const sqlCa = issued.pki !== undefined
        ? { cert: fs.readFileSync(path.join(issued.pki, 'sql', 'ca.pem'), 'utf8'), key: fs.readFileSync(path.join(issued.pki, 'sql', 'ca-key.pem'), 'utf8') }
        : { cert: secret('cert-manager', names.sqlCaName(NAMESPACE, CLUSTER))['tls.crt'], key: secret('cert-manager', names.sqlCaName(NAMESPACE, CLUSTER))['tls.key'] };
      const renewed = signWith(sqlCa, names.serviceName(CLUSTER, 'sqlserver'), names.sqlServerHostNames(CLUSTER, NAMESPACE), root, ['127.0.0.1']);
      const kubectl = createFakeKubectl(path.join(root, 'cluster'));
      kubectl.putSecret(NAMESPACE, names.sqlServerSecretName(CLUSTER), renewed);
      kubectl.putSecret(NAMESPACE, names.sqlApplicationSecretName(NAMESPACE, CLUSTER, RELOADER), reloader);
      kubectl.update((state) => {
        state.pods = [{ metadata: { name: `${CLUSTER}-sqlserver-0`, namespace: NAMESPACE, labels: { 'app.kubernetes.io/instance': CLUSTER, 'app.kubernetes.io/component': 'sqlserver' } } }];
      });
      const files = db.files;
      projection = setTimeout(() => {
        fs.writeFileSync(files['ssl-cert'], renewed['tls.crt']);
        fs.writeFileSync(files['ssl-key'], renewed['tls.key']);
      }, 3000);
      const output = await bash(block!, path.join(root, 'dist'), {
        ...process.env, PATH: `${kubectl.dir}:${process.env.PATH}`, FAKE_KUBECTL_PORTS: JSON.stringify({ [`${NAMESPACE}/${CLUSTER}-sqlserver-0:4000`]: `127.0.0.1:${db.port}` }),
      });

      const serial = new X509Certificate(renewed['tls.crt']).serialNumber;
      expect(serial).not.toBe(servedBefore);
      expect(await servedSerial(db.port, 'orders-api', orders)).toBe(serial);
      expect(output).not.toContain('does not present');
      // The connection made before the reload still works.
      const [rows] = await before.query('SELECT CURRENT_USER() AS user');
      expect(rows).toEqual([{ user: 'orders-api@%' }]);
    } finally {
      clearTimeout(projection);
      await before?.end().catch(() => undefined);
      await db?.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);
}));
