/**
 * The certificates proven the way the components judge them: real mutual-TLS handshakes on
 * loopback (`node:tls` is OpenSSL), between every server Secret and every client Secret, for every
 * name a component dials. The Secrets come from the real cfssl running the synthesized script, and
 * from a faithful re-creation of cert-manager's issuers fed the synthesized Certificates.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  ClusterCertificates, IssuingMethod, KeyRotationPolicy, TlsDatabaseCluster, renderApp, synthesize,
} from '../lib';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { buildApp } from '../main';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { createFakeKubectl } from './_fake-kubectl';
import { MatrixResult, SecretPem, formatRejections, goHandshakeMatrix, handshakeMatrix, nameVerifiable } from './_handshakes';
import { userTlsSecret } from './_pki';
import { describeWithTools } from './_programs';
import { ClientContexts, HandshakeServer, handshakesWith } from '../lib/verify/handshake';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { exhaustive } = require('./_tiers') as { exhaustive: () => boolean };

/** The rendered objects and plan of one namespace of an app. */
function namespaceOf(app: App, namespace: string, clusterName = 'basic'): { objects: any[]; plan: TlsPlan } {
  const rendered = renderApp(app);
  const planFile = rendered.files.find((f) => f.path === `${namespace}/${clusterName}/tls-plan.json`);
  if (!planFile) {
    throw new Error(`no plan for ${namespace}/${clusterName}`);
  }
  return {
    // cert-manager's objects of every namespace: the SQL CA lives in cert-manager's, its ClusterIssuer in none.
    objects: rendered.objects.map((o) => o.manifest).filter((o) => o.metadata?.namespace === namespace || o.apiVersion === 'cert-manager.io/v1'),
    plan: JSON.parse(planFile.content),
  };
}

/**
 * `issue`'s result, computed on the first call and given to every later one: the OpenSSL and the Go
 * matrices judge the same Secrets, and issuing them (the real cfssl above all) costs more than
 * either judge. The Secrets are frozen, so that no test changes what another judges.
 */
function once(issue: () => Map<string, SecretPem> | Promise<Map<string, SecretPem>>): () => Promise<ReadonlyMap<string, SecretPem>> {
  let issued: Promise<ReadonlyMap<string, SecretPem>> | undefined;
  return () => (issued ??= Promise.resolve().then(issue).then((secrets) => {
    secrets.forEach((secret) => Object.freeze(secret));
    return secrets;
  }));
}

/** The Secrets cert-manager writes for the objects, by Secret name. */
async function issueWithCertManager(objects: readonly any[]): Promise<Map<string, SecretPem>> {
  const issuer = await CertManagerIssuer.issueAll(objects);
  return new Map([...issuer.secrets].map(([key, secret]) => [key.split('/')[1], secret]));
}

/** Synthesizes the app, runs the cfssl folder's script with the real cfssl, and returns the Secrets it created. */
function issueWithCfssl(app: App, namespace: string, clusterName = 'basic'): Map<string, SecretPem> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-handshake-cfssl-'));
  try {
    synthesize(app, { outdir: path.join(root, 'dist') });
    const pki = path.join(root, 'pki');
    fs.cpSync(path.join(root, 'cluster-tls', namespace, clusterName, 'cfssl'), pki, { recursive: true });
    const kubectl = createFakeKubectl(path.join(root, 'kubectl'));
    const run = spawnSync(path.join(pki, 'issue-certificates.sh'), [], { encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
    if (run.status !== 0) {
      throw new Error(`issue-certificates.sh failed (${run.status}): ${run.stderr}`);
    }
    return new Map(kubectl.secrets().filter((s) => s.namespace === namespace).map((s) => [s.name, Object.fromEntries(
      Object.entries(s.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
    ) as SecretPem]));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The reference app's Secrets (namespace demo) as cert-manager issues them, once. */
const referenceCertManager = once(() => issueWithCertManager(namespaceOf(buildApp(), 'demo').objects));
/** The reference app's Secrets (namespace demo-cfssl) as the real cfssl issues them, once. */
const referenceCfssl = once(() => issueWithCfssl(buildApp(), 'demo-cfssl'));
/** The discovery app's Secrets as cert-manager issues them, once. */
const discoveryCertManager = once(() => issueWithCertManager(namespaceOf(discoveryApp(IssuingMethod.CERT_MANAGER), 'demo').objects));

function expectNoRejection(result: MatrixResult, plan: TlsPlan): void {
  expect(formatRejections(result.rejections)).toBe('');
  const servers = plan.secrets.filter((s) => s.role === 'server');
  // every server was dialed by every name it carries, by every Secret of the plan
  const dialed = servers.reduce((n, s) => n + (s.dnsNames ?? []).filter(nameVerifiable).length + (s.ipAddresses ?? []).length
    + ((s.dnsNames ?? []).some((d) => !nameVerifiable(d)) ? 1 : 0), 0);
  expect(result.handshakes).toBe(dialed * plan.secrets.length);
}

/** The wildcards over one label in a plan: the names no OpenSSL client can match. */
function singleLabelWildcards(plan: TlsPlan): string[] {
  return plan.secrets.flatMap((s) => s.dnsNames ?? []).filter((n) => n.startsWith('*.') && n.split('.').length === 2);
}

describe('the reference app, cert-manager (namespace demo)', () => {
  const { plan } = namespaceOf(buildApp(), 'demo');
  let secrets: ReadonlyMap<string, SecretPem>;

  beforeAll(async () => {
    secrets = await referenceCertManager();
  }, 120_000);

  test('every client and server Secret completes a mutual handshake with every server Secret, for every name', async () => {
    expect(plan.secrets.length).toBe(13); // 11 server Secrets and the 2 client Secrets
    const result = await handshakeMatrix(plan, secrets);
    expectNoRejection(result, plan);
    expect(result.chainOnly.sort()).toEqual(singleLabelWildcards(plan).sort());
  }, 120_000);
});

const describeCfssl = describeWithCfssl('the cfssl handshake tests');

/** A database cluster whose discovery server speaks mutual TLS (operator v1.6.6), its Secrets issued by `method`. */
function discoveryApp(method: IssuingMethod): App {
  const app = new App({ outdir: 'unused' });
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method });
  new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v7.5.0', operatorVersion: 'v1.6.6', enableDiscoveryMTLS: true, certificates });
  return app;
}

describe('mutual TLS for the discovery server: every component\'s Secret calls it, and it calls back with its own (OpenSSL)', () => {
  test('cert-manager: every pair, for every name of the discovery server', async () => {
    const { plan } = namespaceOf(discoveryApp(IssuingMethod.CERT_MANAGER), 'demo');
    expect(plan.secrets.filter((x) => x.component === 'discovery').map((x) => x.name)).toEqual(['basic-discovery-cluster-secret']);
    expectNoRejection(await handshakeMatrix(plan, await discoveryCertManager()), plan);
  }, 120_000);

  describeCfssl('cfssl', () => {
    test('the real cfssl: every pair, for every name of the discovery server', async () => {
      requireCfssl();
      const { plan } = namespaceOf(discoveryApp(IssuingMethod.CFSSL), 'demo');
      expectNoRejection(await handshakeMatrix(plan, issueWithCfssl(discoveryApp(IssuingMethod.CFSSL), 'demo')), plan);
    }, 180_000);
  });
});

describe('CA renewal with cert-manager', () => {
  const caCertificate = (objects: readonly any[]) => objects.find((o) => o.kind === 'Certificate' && o.spec.isCA);

  test('the CA keeps its key at renewal by default; leaves get a new one', () => {
    const { objects } = namespaceOf(buildApp(), 'demo');
    expect(caCertificate(objects).spec.privateKey.rotationPolicy).toBe('Never');
    const leaves = objects.filter((o) => o.kind === 'Certificate' && !o.spec.isCA);
    expect(new Set(leaves.map((o) => o.spec.privateKey.rotationPolicy))).toEqual(new Set(['Always']));
  });

  /**
   * Issues everything, renews the CA (a new certificate with a new serial and validity, as
   * cert-manager makes one 720h before the CA expires), then renews the store and client
   * certificates as cert-manager later would: the sqlserver keeps the Secret issued before the CA
   * renewal, the store and the client hold Secrets issued after it. The clock is not moved, since
   * OpenSSL checks validity against the real time.
   */
  async function acrossRenewal(rotation: KeyRotationPolicy): Promise<string[]> {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5',
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }),
    });
    // The library accepts only Never; the CA object is edited to show what Always would do.
    const objects = namespaceOf(app, 'demo').objects.map((o: any) => (o.kind === 'Certificate' && o.spec.isCA
      ? { ...o, spec: { ...o.spec, privateKey: { ...o.spec.privateKey, rotationPolicy: rotation } } } : o));
    const issuer = await CertManagerIssuer.issueAll(objects);
    const before = issuer.secret('demo', 'basic-sqlserver-cluster-secret');
    const renewedCa = await issuer.issue('demo/basic-ca');
    const store = await issuer.issue('demo/basic-store-cluster-secret');
    const client = await issuer.issue('demo/basic-cluster-client-secret');
    expect(store['ca.crt']).toBe(renewedCa['tls.crt']);
    expect(before['ca.crt']).not.toBe(renewedCa['tls.crt']);

    const material = (s: SecretPem) => ({ cert: s['tls.crt'], key: s['tls.key'], ca: s['ca.crt'] });
    const failures: string[] = [];
    for (const [serverName, server, clientName, peer] of [
      ['sqlserver (before)', before, 'store (after)', store],
      ['store (after)', store, 'sqlserver (before)', before],
      ['sqlserver (before)', before, 'client (after)', client],
    ] as const) {
      const listening = await HandshakeServer.start(material(server));
      try {
        const outcome = await listening.handshake(material(peer), { name: '127.0.0.1' });
        if (!outcome.ok) {
          failures.push(`${clientName} → ${serverName}: server ${outcome.server.reason ?? 'ok'}, client ${outcome.client.reason ?? 'ok'}`);
        }
      } finally {
        await listening.close();
      }
    }
    return failures;
  }

  test('with the default, certificates issued before and after the CA renewal accept each other both ways', async () => {
    expect(await acrossRenewal(KeyRotationPolicy.NEVER)).toEqual([]);
  }, 60_000);

  /**
   * The CA renewed 40 days ago with the same key; the CA certificate it replaced expired 720h after
   * that, 10 days ago. The sqlserver's Secret was issued 100 days before the renewal and is still
   * valid, but its ca.crt holds the replaced CA certificate; the store's was issued after it.
   */
  test('once the CA certificate a renewal replaced expires, a Secret still holding it in ca.crt fails every handshake, until its leaf is renewed (what ClusterTlsOutdatedCaCopy warns of)', async () => {
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const caLife = 87_600 * HOUR;
    const caRenewBefore = 720 * HOUR;
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }) });
    const issuer = await CertManagerIssuer.issueAll(namespaceOf(app, 'demo').objects, { now: new Date(Date.now() - 40 * DAY - (caLife - caRenewBefore)) });
    issuer.advance(caLife - caRenewBefore - 100 * DAY);
    const before = await issuer.issue('demo/basic-sqlserver-cluster-secret');
    issuer.advance(100 * DAY);
    await issuer.issue('demo/basic-ca');
    const store = await issuer.issue('demo/basic-store-cluster-secret');

    const material = (s: SecretPem) => ({ cert: s['tls.crt'], key: s['tls.key'], ca: s['ca.crt'] });
    const outcomes = async (sqlserver: SecretPem) => {
      const found: string[] = [];
      for (const [serverName, server, clientName, peer] of [['sqlserver', sqlserver, 'store', store], ['store', store, 'sqlserver', sqlserver]] as const) {
        const listening = await HandshakeServer.start(material(server));
        try {
          const outcome = await listening.handshake(material(peer), { name: '127.0.0.1' });
          found.push(`${clientName} → ${serverName}: ${outcome.ok ? 'ok' : `server ${outcome.server.reason ?? 'ok'}, client ${outcome.client.reason ?? 'ok'}`}`);
        } finally {
          await listening.close();
        }
      }
      return found;
    };
    // The sqlserver rejects the store as a server and as a client: the only copy of the CA it trusts has expired.
    expect(await outcomes(before)).toEqual([
      expect.stringMatching(/^store → sqlserver: server CERT_HAS_EXPIRED/),
      expect.stringMatching(/^sqlserver → store: .*client CERT_HAS_EXPIRED/),
    ]);
    issuer.advance(40 * DAY);
    expect(await outcomes(await issuer.issue('demo/basic-sqlserver-cluster-secret'))).toEqual(['store → sqlserver: ok', 'sqlserver → store: ok']);
  }, 60_000);

  test('with a new CA key at renewal, they reject each other: the outage the default avoids', async () => {
    const failures = await acrossRenewal(KeyRotationPolicy.ALWAYS);
    expect(failures).toHaveLength(3);
    expect(failures.join('\n')).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|CERT_SIGNATURE_FAILURE|UNABLE_TO_GET_ISSUER_CERT/);
  }, 60_000);
});


describeWithTools('Go\'s crypto/tls as the peer (the coordinator, sqlserver and changefeed are Go programs)', ['tls-peer'], () => {
  test('cert-manager\'s Secrets: Go accepts every pair, for every name', async () => {
    const { plan } = namespaceOf(buildApp(), 'demo');
    expectNoRejection(goHandshakeMatrix(plan, await referenceCertManager()), plan);
  }, 120_000);

  describeCfssl('cfssl', () => {
    test('the real cfssl\'s Secrets: Go accepts every pair, for every name', async () => {
      requireCfssl();
      const { plan } = namespaceOf(buildApp(), 'demo-cfssl');
      expectNoRejection(goHandshakeMatrix(plan, await referenceCfssl()), plan);
    }, 180_000);
  });

  test('mutual TLS for the discovery server: Go accepts every pair, for every name', async () => {
    const { plan } = namespaceOf(discoveryApp(IssuingMethod.CERT_MANAGER), 'demo');
    expectNoRejection(goHandshakeMatrix(plan, await discoveryCertManager()), plan);
  }, 120_000);

  test('Go rejects what it must: a client its server cannot chain to a CA it trusts, and a name the server does not hold', async () => {
    const { plan } = namespaceOf(buildApp(), 'demo');
    const secrets = await referenceCertManager();
    const server = plan.secrets.find((s) => s.role === 'server')!;
    const client = plan.secrets.find((s) => s.role === 'client')!;
    // The server trusts its own leaf instead of the CA: no client chains to it.
    const untrusting = new Map(secrets).set(server.name, { ...secrets.get(server.name)!, 'ca.crt': secrets.get(server.name)!['tls.crt'] });
    const unchained = goHandshakeMatrix({ ...plan, secrets: [server, client] }, untrusting);
    // Every handshake fails at the server: Go's client offers no certificate the server's CA list does not name.
    expect(unchained.rejections.length).toBe(unchained.handshakes);
    for (const r of unchained.rejections) {
      expect(r.reason).toMatch(/server: (tls: client didn't provide a certificate|.*certificate signed by unknown authority)/);
    }
    // Dialed by a name its certificate does not hold.
    const misnamed = goHandshakeMatrix({ ...plan, secrets: [{ ...server, dnsNames: ['not-its-name.example.com'], ipAddresses: [] }, client] }, secrets);
    expect(misnamed.rejections.map((r) => r.reason).join('\n')).toMatch(/client: .*certificate is valid for .*, not not-its-name\.example\.com/);
  }, 120_000);
});

describeCfssl('the reference app, cfssl (namespace demo-cfssl)', () => {
  test('the Secrets the real cfssl issues complete every mutual handshake, for every name', async () => {
    requireCfssl();
    const { plan } = namespaceOf(buildApp(), 'demo-cfssl');
    const secrets = await referenceCfssl();
    const result = await handshakeMatrix(plan, secrets);
    expectNoRejection(result, plan);
    expect(result.chainOnly.sort()).toEqual(singleLabelWildcards(plan).sort());
  }, 180_000);
});

/** Random but valid inputs: names, namespaces, subjects, common names, optional components. */
const label = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]([a-z0-9-]{${min - 2},${max - 2}})[a-z0-9]$`));
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,'-]{0,20}[A-Za-z0-9.]$/);
const inputs = fc.record({
  clusterName: label(2, 20),
  namespace: label(2, 30),
  commonName: fc.option(text, { nil: undefined }),
  subject: fc.record({
    organization: fc.option(text, { nil: undefined }),
    organizationalUnit: fc.option(text, { nil: undefined }),
    country: fc.option(fc.stringMatching(/^[A-Z]{2}$/), { nil: undefined }),
    state: fc.option(text, { nil: undefined }),
    locality: fc.option(text, { nil: undefined }),
  }, { requiredKeys: [] }),
  changefeed: fc.boolean(),
});

function buildRandom(method: IssuingMethod, i: typeof inputs extends fc.Arbitrary<infer T> ? T : never): App {
  const app = new App();
  const chart = new Chart(app, 'c', { namespace: i.namespace });
  const subject = Object.fromEntries(Object.entries(i.subject).filter(([, v]) => v !== undefined));
  const certificates = new ClusterCertificates(chart, 'certs', { clusterName: i.clusterName, method, commonName: i.commonName, subject });
  new TlsDatabaseCluster(chart, 'db', {
    clusterName: i.clusterName, version: 'v4.0.5', certificates, changefeed: i.changefeed ? {} : undefined,
  });
  certificates.addComponent('mig-master');
  certificates.addComponent('mig-worker');
  return app;
}

/** How many random inputs each method is tried on: fewer in the fast tier (test/_tiers.js), the same property. */
const RANDOM_RUNS = exhaustive() ? { certManager: 6, cfssl: 3 } : { certManager: 2, cfssl: 1 };

describe('random valid inputs', () => {
  test(`cert-manager: every Secret completes mutual handshakes with every server (${RANDOM_RUNS.certManager} inputs)`, async () => {
    await fc.assert(fc.asyncProperty(inputs, async (i) => {
      const { objects, plan } = namespaceOf(buildRandom(IssuingMethod.CERT_MANAGER, i), i.namespace, i.clusterName);
      const result = await handshakeMatrix(plan, await issueWithCertManager(objects), { namesPerServer: 3 });
      expect(formatRejections(result.rejections)).toBe('');
    }), { numRuns: RANDOM_RUNS.certManager });
  }, 180_000);

  describeCfssl('cfssl', () => {
    test(`the Secrets of the real cfssl complete mutual handshakes with every server (${RANDOM_RUNS.cfssl} ${RANDOM_RUNS.cfssl === 1 ? 'input' : 'inputs'})`, async () => {
      requireCfssl();
      await fc.assert(fc.asyncProperty(inputs, async (i) => {
        const { plan } = namespaceOf(buildRandom(IssuingMethod.CFSSL, i), i.namespace, i.clusterName);
        const result = await handshakeMatrix(plan, issueWithCfssl(buildRandom(IssuingMethod.CFSSL, i), i.namespace, i.clusterName), { namesPerServer: 3 });
        expect(formatRejections(result.rejections)).toBe('');
      }), { numRuns: RANDOM_RUNS.cfssl });
    }, 240_000);
  });
});

describe('one server for several clients (handshakesWith, as verify runs them)', () => {
  test('each client gets its own outcome in order, loaded once however often it dials; a client that cannot load its own fails its own, a server that cannot load its material fails every one', async () => {
    const good = await userTlsSecret();
    const material = { cert: good['tls.crt'], key: good['tls.key'], ca: good['ca.crt'] };
    // A key OpenSSL cannot read: the set cannot be loaded.
    const unreadable = { ...material, key: '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n' };
    const options = { verifyServer: false };
    const contexts: ClientContexts = new Map();
    const outcomes = await handshakesWith(material, [{ material, options }, { material: unreadable, options }, { material, options }], contexts);
    expect(outcomes.map((o) => [o.ok, o.failure === undefined])).toEqual([[true, true], [false, false], [true, true]]);
    expect(outcomes[1].failure).toMatch(/DECODER|PEM|key/i);
    expect(outcomes[1].failure).not.toContain('\n');
    expect(contexts.size).toBe(1);
    const failed = await handshakesWith(unreadable, [{ material, options }, { material, options }]);
    expect(failed.map((o) => o.ok)).toEqual([false, false]);
    expect(new Set(failed.map((o) => o.failure)).size).toBe(1);
    expect(failed[0].failure).toBe(outcomes[1].failure);
  });
});
