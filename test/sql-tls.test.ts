/**
 * The `SqlTls` construct and the `tlsClient` prop: the objects, files and plan of TLS for MySQL
 * clients, per issuing method, and every refusal. What real servers and clients make of them is in
 * sql-tls-mariadb.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Testing } from 'cdk8s';
import { BackupRestore } from '../lib/clusters/backup-restore';
import { filesFolderOf } from '../lib/model/output-layout';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { TlsDatabaseCluster, TlsDatabaseClusterProps } from '../lib/clusters/tls-database-cluster';
import { renderApp, synthesize } from '../lib/synth/synthesize';
import { VerifyReport, formatReport, loadPlans, parseSecrets, verify } from '../lib/verify';
import { CertManagerIssuer, IssuedSecret } from './_cert-manager-issuer';
import { secretObject } from './_pki';
import { expectValidAgainstCrds } from './_crds';
import { findObject, operationsOf } from './_find';

interface Built {
  readonly chart: Chart;
  readonly certs: ClusterCertificates;
  readonly database: TlsDatabaseCluster;
}

function build(method = IssuingMethod.CERT_MANAGER, props: Partial<TlsDatabaseClusterProps> = {}, clusterDomain?: string): Built {
  const chart = Testing.chart();
  const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', method, clusterDomain });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs, tlsClient: {}, ...props });
  return { chart, certs, database };
}

/** Synthesizes to a folder and returns it, for the files beside the manifests. */
function synthesized(built: Built): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sql-tls-'));
  const outdir = path.join(root, 'dist');
  synthesize(built.chart.node.root as App, { outdir, recordFile: path.join(root, 'cluster-tls.lock.json') });
  return outdir;
}

describe('with cert-manager', () => {
  const built = build(IssuingMethod.CERT_MANAGER, { tlsClient: { extraDnsNames: ['sql.example.com'], extraIpAddresses: ['10.0.0.9'] } }, 'cluster.local');
  built.database.addSqlClient('orders-api', { namespace: 'orders' });
  const objects = Testing.synth(built.chart);

  test('every object fits its CRD, unknown fields rejected', () => {
    expectValidAgainstCrds(objects);
  });

  test('the SQL CA and its key live in cert-manager\'s namespace, signed by a self-signed Issuer there', () => {
    const ca = findObject(objects, 'Certificate', 'demo-basic-sql-ca');
    expect(ca.metadata.namespace).toBe('cert-manager');
    expect(ca.spec).toMatchObject({
      secretName: 'demo-basic-sql-ca', isCA: true, commonName: 'basic-sql-ca', subject: { organizations: ['basic'] },
      duration: '87600h', renewBefore: '720h', privateKey: { rotationPolicy: 'Never' },
      issuerRef: { kind: 'Issuer', name: 'demo-basic-sql-ca-selfsigned' },
    });
    expect(findObject(objects, 'Issuer', 'demo-basic-sql-ca-selfsigned')).toMatchObject({ metadata: { namespace: 'cert-manager' }, spec: { selfSigned: {} } });
  });

  test('the ClusterIssuer is cluster-wide (no namespace) and signs with the SQL CA\'s Secret', () => {
    const issuer = findObject(objects, 'ClusterIssuer', 'demo-basic-sql-ca');
    expect(issuer.metadata.namespace).toBeUndefined();
    expect(issuer.spec).toEqual({ ca: { secretName: 'demo-basic-sql-ca' } });
  });

  test('the server\'s certificate covers the names applications dial, the extra ones, and loopback', () => {
    const server = findObject(objects, 'Certificate', 'basic-sqlserver-server-secret');
    expect(server.metadata.namespace).toBe('demo');
    expect(server.spec).toMatchObject({
      secretName: 'basic-sqlserver-server-secret', commonName: 'basic-sqlserver',
      dnsNames: ['basic-sqlserver', 'basic-sqlserver.demo', 'basic-sqlserver.demo.svc', 'basic-sqlserver.demo.svc.cluster.local', 'sql.example.com'],
      ipAddresses: ['127.0.0.1', '::1', '10.0.0.9'],
      usages: ['server auth', 'client auth'],
      issuerRef: { kind: 'ClusterIssuer', name: 'demo-basic-sql-ca', group: 'cert-manager.io' },
    });
  });

  test('the operator\'s client and each application\'s certificate are client certificates of the ClusterIssuer, each in its namespace', () => {
    expect(findObject(objects, 'Certificate', 'basic-sqlserver-client-secret')).toMatchObject({
      metadata: { namespace: 'demo' },
      spec: { commonName: 'basic-sql-operator', usages: ['client auth'], issuerRef: { kind: 'ClusterIssuer', name: 'demo-basic-sql-ca' } },
    });
    expect(findObject(objects, 'Certificate', 'orders-api-demo-basic-sql-client')).toMatchObject({
      metadata: { namespace: 'orders' },
      spec: { secretName: 'orders-api-demo-basic-sql-client', commonName: 'orders-api', usages: ['client auth'], issuerRef: { kind: 'ClusterIssuer', name: 'demo-basic-sql-ca' } },
    });
  });

  test('no certificate for MySQL clients is signed by the cluster\'s CA-type Issuer', () => {
    for (const [namespace, name] of [['demo', 'basic-sqlserver-server-secret'], ['demo', 'basic-sqlserver-client-secret'], ['orders', 'orders-api-demo-basic-sql-client']]) {
      const certificate = objects.find((o) => o.kind === 'Certificate' && o.metadata.namespace === namespace && o.metadata.name === name);
      expect([name, certificate.spec.issuerRef.kind]).toEqual([name, 'ClusterIssuer']);
    }
  });

  test('the runbook names the applications\' namespaces before issuing, waits outside the cluster\'s namespace, and checks every SQL Secret before the deploy', () => {
    const runbook = built.database.runbook.render();
    const steps = [...runbook.matchAll(/^## \d+\. (.*)$/gm)].map((m) => m[1]);
    expect(steps.slice(0, 5)).toEqual(['The cluster\'s namespace', 'The applications\' namespaces', 'Issue the certificates with cert-manager', 'Wait for the certificates for MySQL clients', 'Check the certificate Secrets']);
    expect(runbook).toContain('which must exist first: `orders`.');
    expect(runbook).toContain('kubectl wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=basic -n cert-manager --timeout=5m\n'
      + 'kubectl wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=basic -n orders --timeout=5m\n');
    expect(runbook).toMatch(/kubectl get secret [^\n]* basic-cluster-client-secret basic-sqlserver-server-secret basic-sqlserver-client-secret -n demo\nkubectl get secret orders-api-demo-basic-sql-client -n orders\n/);
    expect(runbook).toContain("CREATE USER IF NOT EXISTS 'orders-api'@'%';\nALTER USER 'orders-api'@'%' REQUIRE SUBJECT '/CN=orders-api';\n");
  });

  test('the DatabaseCluster turns the operator\'s tlsClient on', () => {
    expect(findObject(objects, 'DatabaseCluster', 'basic').spec.sqlserver.tlsClient).toEqual({ enabled: true });
  });
});

test('disableClientAuthn and skipInternalClientCA reach the DatabaseCluster and the plan', () => {
  const built = build(IssuingMethod.CERT_MANAGER, { tlsClient: { disableClientAuthn: true, skipInternalClientCA: true } });
  expect(findObject(Testing.synth(built.chart), 'DatabaseCluster', 'basic').spec.sqlserver.tlsClient)
    .toEqual({ enabled: true, disableClientAuthn: true, skipInternalClientCA: true });
  expect(built.certs.plan().sqlTls).toMatchObject({ disableClientAuthn: true, skipInternalClientCA: true });
});

test('without tlsClient, nothing of it: no tlsClient field, no SQL certificate, no plan section', () => {
  const built = build(IssuingMethod.CERT_MANAGER, { tlsClient: undefined });
  const objects = Testing.synth(built.chart);
  expect(findObject(objects, 'DatabaseCluster', 'basic').spec.sqlserver.tlsClient).toBeUndefined();
  expect(objects.filter((o) => o.kind === 'ClusterIssuer')).toEqual([]);
  expect(built.certs.plan().sqlTls).toBeUndefined();
  expect(built.database.sqlClientSecretName).toBeUndefined();
});

describe('Backup and Restore', () => {
  const ACCESS = { s3: { provider: 'aws', region: 'us-west-2', bucket: 'b', secretName: 's3-keys' }, credentialsSecretName: 'pw', user: 'backup', backup: {}, restore: {} };

  test('connect with the operator\'s client Secret when tlsClient is on', () => {
    const built = build();
    new BackupRestore(built.chart, 'br', { cluster: built.database, ...ACCESS });
    const objects = operationsOf(renderApp(built.chart.node.root as App).files);
    expectValidAgainstCrds(objects);
    expect(findObject(objects, 'Backup', 'basic-backup').spec.from.tlsClientSecretName).toBe('basic-sqlserver-client-secret');
    expect(findObject(objects, 'Restore', 'basic-restore').spec.to.tlsClientSecretName).toBe('basic-sqlserver-client-secret');
    const runbook = built.database.runbook.render();
    expect(runbook).toContain('the job connects with the client certificate of `basic-sqlserver-client-secret`, which the operator mounts.');
    expect(runbook).toContain('kubectl get secret pw s3-keys basic-sqlserver-client-secret -n demo\n');
  });

  test('name no client Secret when it is off', () => {
    const built = build(IssuingMethod.CERT_MANAGER, { tlsClient: undefined });
    new BackupRestore(built.chart, 'br', { cluster: built.database, ...ACCESS });
    const objects = operationsOf(renderApp(built.chart.node.root as App).files);
    expect(findObject(objects, 'Backup', 'basic-backup').spec.from).not.toHaveProperty('tlsClientSecretName');
    expect(findObject(objects, 'Restore', 'basic-restore').spec.to).not.toHaveProperty('tlsClientSecretName');
  });
});

describe('the plan', () => {
  test('states the SQL CA and every Secret, in order, and is valid against tls-plan.schema.json', () => {
    const built = build();
    built.database.addSqlClient('orders-api', { namespace: 'orders', commonName: 'orders.example.com' });
    const outdir = synthesized(built);
    const [loaded] = loadPlans(outdir);
    expect(loaded.plan.sqlTls).toEqual({
      ca: { name: 'demo-basic-sql-ca', secretNamespace: 'cert-manager' },
      disableClientAuthn: false,
      skipInternalClientCA: false,
      secrets: [
        {
          name: 'basic-sqlserver-server-secret', namespace: 'demo', role: 'server', commonName: 'basic-sqlserver', usages: ['server auth', 'client auth'],
          dnsNames: ['basic-sqlserver', 'basic-sqlserver.demo', 'basic-sqlserver.demo.svc'], ipAddresses: ['127.0.0.1', '::1'],
        },
        { name: 'basic-sqlserver-client-secret', namespace: 'demo', role: 'operator-client', commonName: 'basic-sql-operator', usages: ['client auth'] },
        { name: 'orders-api-demo-basic-sql-client', namespace: 'orders', role: 'application', application: 'orders-api', commonName: 'orders.example.com', usages: ['client auth'] },
      ],
    });
    // The cluster's own Secrets are unchanged: the SQL ones are not among them.
    expect(loaded.plan.secrets.map((s) => s.name)).not.toContain('basic-sqlserver-server-secret');
  });
});

describe('with cfssl', () => {
  const built = build(IssuingMethod.CFSSL);
  built.database.addSqlClient('orders-api', { namespace: 'orders' });
  const outdir = synthesized(built);
  const folder = path.join(filesFolderOf(outdir), 'demo', 'basic', 'cfssl');
  const json = (file: string) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));

  test('the requests of the SQL CA and of each certificate are in the sql folder', () => {
    expect(fs.readdirSync(path.join(folder, 'sql')).sort()).toEqual(['app-orders-api.json', 'ca-csr.json', 'operator-client.json', 'server.json']);
    expect(json('sql/ca-csr.json')).toEqual({ CN: 'basic-sql-ca', CA: { expiry: '87600h' }, key: { algo: 'rsa', size: 2048 }, names: [{ O: 'basic' }] });
    expect(json('sql/server.json')).toEqual({
      CN: 'basic-sqlserver', hosts: ['127.0.0.1', '::1', 'basic-sqlserver', 'basic-sqlserver.demo', 'basic-sqlserver.demo.svc'], key: { algo: 'rsa', size: 2048 },
    });
    expect(json('sql/app-orders-api.json')).toEqual({ CN: 'orders-api', hosts: [], key: { algo: 'rsa', size: 2048 } });
  });

  test('the issuing script writes each Secret in its namespace, with the SQL CA as ca.crt', () => {
    const script = fs.readFileSync(path.join(folder, 'issue-certificates.sh'), 'utf8');
    expect(script).toContain("secret_in 'demo' 'sql' 'basic-sqlserver-server-secret' 'server'\n");
    expect(script).toContain("secret_in 'demo' 'sql' 'basic-sqlserver-client-secret' 'operator-client'\n");
    expect(script).toContain("secret_in 'orders' 'sql' 'orders-api-demo-basic-sql-client' 'app-orders-api'\n");
    // secret_in takes the certificate, its key and ca.pem from the folder it is given.
    expect(script).toContain('  [ "$dir" = . ] || { at="$dir/$4"; ca="$dir/ca.pem"; }\n');
  });

  test('no cert-manager object', () => {
    expect(Testing.synth(built.chart).filter((o) => o.apiVersion.startsWith('cert-manager.io'))).toEqual([]);
  });
});

test('with user-provided Secrets, required-secrets.md lists each SQL Secret with its namespace, subject and names', () => {
  const built = build(IssuingMethod.USER_PROVIDED);
  built.database.addSqlClient('orders-api', { namespace: 'orders' });
  const text = fs.readFileSync(path.join(filesFolderOf(synthesized(built)), 'demo', 'basic', 'required-secrets.md'), 'utf8');
  const section = text.slice(text.indexOf('## TLS for MySQL clients'));
  expect(section).toContain('### `demo/basic-sqlserver-server-secret`');
  expect(section).toContain('- DNS `basic-sqlserver.demo.svc`');
  expect(section).toContain('### `demo/basic-sqlserver-client-secret`');
  expect(section).toContain('### `orders/orders-api-demo-basic-sql-client`\n\nThe client certificate of application `orders-api`. Subject: exactly `CN=orders-api`.');
});

describe('refusals', () => {
  test('an application before tlsClient', () => {
    const { database } = build(IssuingMethod.CERT_MANAGER, { tlsClient: undefined });
    expect(() => database.addSqlClient('orders-api')).toThrow(
      'test/db: tlsClient: received nothing; expected TLS for MySQL clients turned on (the tlsClient prop, {} for the defaults) before the client certificate of application "orders-api" is declared');
  });

  test('two applications with one Common Name, which REQUIRE SUBJECT could not tell apart', () => {
    const { database } = build();
    database.addSqlClient('orders-api', { commonName: 'shared' });
    expect(() => database.addSqlClient('billing', { commonName: 'shared' })).toThrow(
      'test/db: addSqlClient("billing").options.commonName: received "shared"; expected a Common Name no other certificate of the SQL server carries (the Secret demo/orders-api-demo-basic-sql-client has it): REQUIRE SUBJECT could not tell them apart');
    expect(() => database.addSqlClient('billing', { commonName: 'basic-sql-operator' })).toThrow(/the Secret demo\/basic-sqlserver-client-secret has it/);
  });

  test('a Common Name REQUIRE SUBJECT would not compare as written: a slash, a quote, a backslash, a space', () => {
    const { database } = build();
    for (const commonName of ['billing/O=evil', "o'brien", 'back\\slash', 'two words']) {
      expect(() => database.addSqlClient('billing', { commonName })).toThrow(
        `test/db: addSqlClient("billing").options.commonName: received ${JSON.stringify(commonName)}; expected letters, digits, ".", "-" and "_", starting with a letter or digit: REQUIRE SUBJECT compares the subject as each server writes it`);
    }
  });

  test('an application declared again with other options; the same options return it', () => {
    const { database } = build();
    const first = database.addSqlClient('orders-api', { namespace: 'orders' });
    expect(database.addSqlClient('orders-api', { namespace: 'orders' })).toBe(first);
    expect(() => database.addSqlClient('orders-api', { namespace: 'other' })).toThrow(
      'test/db: addSqlClient("orders-api"): received {"namespace":"other"}; expected the options it was first declared with, {"namespace":"orders"}');
  });

  test('an application name that is no DNS label or longer than a database user name, a namespace that is none, an unknown option', () => {
    const { database } = build();
    expect(() => database.addSqlClient('Orders_API')).toThrow(/^test\/db: addSqlClient.name: received "Orders_API"; expected /);
    const long = 'a'.repeat(33);
    expect(() => database.addSqlClient(long)).toThrow(
      `test/db: addSqlClient.name: received "${long}"; expected at most 32 characters: it is the database user the runbook ties to the certificate, and MySQL and the SQL server allow no longer user names`);
    expect(() => database.addSqlClient('orders', { namespace: 'Not A Namespace' })).toThrow(/^test\/db: addSqlClient\("orders"\).options.namespace: received "Not A Namespace"; expected /);
    expect(() => database.addSqlClient('orders', { comonName: 'x' } as any)).toThrow(
      'test/db: addSqlClient.options: received "comonName"; expected only the props namespace, commonName');
  });

  test('an application certificate while the SQL server asks for none (disableClientAuthn)', () => {
    const { database } = build(IssuingMethod.CERT_MANAGER, { tlsClient: { disableClientAuthn: true } });
    expect(() => database.addSqlClient('orders-api')).toThrow(
      'test/db: addSqlClient("orders-api"): received "orders-api"; expected no application certificate with tlsClient.disableClientAuthn: the SQL server then asks for none, and a user tied to one could never log in');
  });

  test('tlsClient options: a cert-manager namespace that is none, an unknown option, extra names that are not names, not an object', () => {
    expect(() => build(IssuingMethod.CERT_MANAGER, { tlsClient: { certManagerNamespace: 'Cert Manager' } }))
      .toThrow(/^test\/db: tlsClient.certManagerNamespace: received "Cert Manager"; expected /);
    expect(() => build(IssuingMethod.CERT_MANAGER, { tlsClient: { requireSubject: true } as any }))
      .toThrow('test/db: tlsClient: received "requireSubject"; expected only the props extraDnsNames, extraIpAddresses, disableClientAuthn, skipInternalClientCA, certManagerNamespace');
    expect(() => build(IssuingMethod.CERT_MANAGER, { tlsClient: { extraIpAddresses: ['10.0.0.300'] } }))
      .toThrow(/^test\/db: tlsClient.extraIpAddresses\[0\]: received "10.0.0.300"; expected /);
    expect(() => build(IssuingMethod.CERT_MANAGER, { tlsClient: true as any }))
      .toThrow(/^test\/db: tlsClient: received true; expected an object with extraDnsNames, /);
  });

  test('two database clusters of one set of certificates asking for different tlsClient options', () => {
    const { chart, certs } = build();
    expect(() => new TlsDatabaseCluster(chart, 'db2', { clusterName: 'basic', version: 'v4.0.5', certificates: certs, tlsClient: { disableClientAuthn: true } }))
      .toThrow('test/db2: tlsClient: received {"extraDnsNames":[],"extraIpAddresses":[],"disableClientAuthn":true,"skipInternalClientCA":false,"certManagerNamespace":"cert-manager"}; '
        + 'expected the options another cluster of these certificates gives, {"extraDnsNames":[],"extraIpAddresses":[],"disableClientAuthn":false,"skipInternalClientCA":false,"certManagerNamespace":"cert-manager"}');
  });
});

describe('cluster-tls verify', () => {
  /**
   * The deployment's plans and its Secrets as cert-manager writes them (its re-creation), made once
   * for the tests below, which only read them: issuing every key and certificate is the slow part.
   */
  let deployment: { plans: ReturnType<typeof loadPlans>; secrets: ReadonlyMap<string, IssuedSecret> };
  beforeAll(async () => {
    const built = build();
    built.database.addSqlClient('orders-api', { namespace: 'orders' });
    const objects = Testing.synth(built.chart);
    const outdir = synthesized(built);
    const issuer = await CertManagerIssuer.issueAll(objects, { distinctKeysAcrossNamespaces: true });
    deployment = { plans: loadPlans(outdir), secrets: new Map(issuer.secrets) };
  });
  /** `kubectl get secrets -o json` of some of the Secrets, by `namespace/name`. */
  function input(secrets: ReadonlyMap<string, IssuedSecret>, keep: (key: string) => boolean = () => true, replace: Record<string, IssuedSecret> = {}) {
    const items = [...secrets].filter(([key]) => keep(key)).map(([key, s]) => {
      const [namespace, name] = key.split('/');
      return secretObject(name, namespace, { ...(replace[key] ?? s) });
    });
    return parseSecrets(JSON.stringify({ kind: 'List', items }));
  }
  const sqlRows = (report: VerifyReport) => report.secrets.filter((s) => s.sqlTls !== undefined);

  test('checks every Secret of TLS for MySQL clients against the SQL CA, each passing, with mutual handshakes between the server and the clients', async () => {
    const { plans, secrets } = deployment;
    const report = await verify(plans, input(secrets));
    expect(sqlRows(report).map((s) => [`${s.namespace}/${s.name}`, s.sqlTls, s.ok])).toEqual([
      ['demo/basic-sqlserver-server-secret', 'server', true],
      ['demo/basic-sqlserver-client-secret', 'operator-client', true],
      ['orders/orders-api-demo-basic-sql-client', 'application', true],
    ]);
    const server = sqlRows(report).find((s) => s.sqlTls === 'server')!;
    expect(server.checks.map((c) => c.check)).toEqual(expect.arrayContaining(['chain', 'same-ca', 'san', 'common-name', 'sql-ca', 'handshake']));
    expect(server.checks.find((c) => c.check === 'handshake')!.found).toBe('2 handshakes, all accepted');
    expect(report.ok).toBe(true);
    expect(formatReport(report)).toMatch(/orders-api-demo-basic-sql-client +orders\/basic +mysql application +PASS/);
  });

  test('an application\'s Secret in a namespace the input does not hold is listed as not checked, not failed', async () => {
    const { plans, secrets } = deployment;
    const report = await verify(plans, input(secrets, (key) => key.startsWith('demo/')));
    expect(report.ok).toBe(true);
    expect(report.plans[0].notInInput).toEqual(['orders/orders-api-demo-basic-sql-client']);
    // Without the SQL CA's Secret in the input, the reference is the CA the Secrets it holds carry.
    const server = sqlRows(report).find((s) => s.sqlTls === 'server')!;
    expect(server.checks.find((c) => c.check === 'same-ca')!.expected).toMatch(/^ca\.crt is the SQL CA .*, as in 2 of the 2 Secrets of TLS for MySQL clients$/);
    expect(formatReport(report)).toContain('not checked, their namespaces are not in the input: orders/orders-api-demo-basic-sql-client\n');
  });

  test('a SQL server Secret signed by the cluster\'s CA fails sql-ca, and one missing from the input fails present', async () => {
    const { plans, secrets } = deployment;
    const component = secrets.get('demo/basic-sqlserver-cluster-secret')!;
    const report = await verify(plans, input(secrets, () => true, { 'demo/basic-sqlserver-server-secret': component }));
    const server = sqlRows(report).find((s) => s.sqlTls === 'server')!;
    expect(server.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(expect.arrayContaining(['same-ca', 'sql-ca', 'common-name']));
    expect(server.checks.find((c) => c.check === 'sql-ca')!.found).toBe('ca.crt is the cluster\'s CA');
    // The SQL CA's own Secret, in cert-manager's namespace, is the reference when the input holds it.
    expect(server.checks.find((c) => c.check === 'same-ca')!.expected).toMatch(/^ca\.crt is the SQL CA .*, as in the CA Secret demo-basic-sql-ca$/);
    const missing = await verify(plans, input(secrets, (key) => key !== 'demo/basic-sqlserver-client-secret'));
    expect(sqlRows(missing).find((s) => s.sqlTls === 'operator-client')!.checks).toEqual([
      { check: 'present', ok: false, expected: 'Secret basic-sqlserver-client-secret in namespace demo', found: 'no Secret of that name in the input' },
    ]);
  });
});
