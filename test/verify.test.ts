import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Testing } from 'cdk8s';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { docBlocks } from './_readme';
import { cli } from './_cli';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { ClusterCertificatesProps } from '../lib/certificates/cluster-certificates-props';
import { IssuingMethod, TLS_PLAN_VERSION, TlsPlan } from '../lib/plan/certificate-options';
import { synthesize } from '../lib/synth/synthesize';
import { outputFile, writeLaidOut } from './_output';
import { filesFolderOf } from '../lib/model/output-layout';
import {
  CHECKS, CheckResult, VerifyInputError, VerifyReport, formatReport, loadPlans, parseSecrets, verify, verifySecret,
} from '../lib/verify';
import { dnsNameCovered, normalizeIp, parseSubjectAltName } from '../lib/verify/x509';
import { MAX_LINE } from '../lib/verify/text';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { createFakeKubectl } from './_fake-kubectl';
import { SecretListJson, SecretsOptions, TestCa, TestPki, issueLeaf, makeIntermediate, makeKey, secretObject } from './_pki';
import { RotationPhase } from '../lib/plan/rotation';

/**
 * The time the certificates are checked at: this hour, since the chain and handshake checks are
 * OpenSSL's and judge validity at the real time.
 */
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
/** `NOW` moved by some hours, as the report prints times. */
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const HOUR = 3_600_000;
const COMPONENTS = ['coordinator', 'store', 'sqlserver', 'pump', 'mig-master', 'mig-worker'] as const;

let pki: TestPki;
// For the whole file: each case signs and checks real certificates, and real handshakes between them;
// on a loaded 2-core machine one took longer than jest's default 5 s.
jest.setTimeout(60_000);
beforeAll(async () => {
  pki = await TestPki.create(NOW);
});

function planOf(props: Partial<ClusterCertificatesProps> = {}, setup?: (c: ClusterCertificates) => void): TlsPlan {
  const certs = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', components: [...COMPONENTS], ...props });
  setup?.(certs);
  return certs.plan();
}

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tmpdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-verify-'));
  made.push(dir);
  return dir;
}

/** An output folder holding the plan and other files, by path. */
function distOf(plan: TlsPlan, files: Record<string, string> = {}): string {
  return writeLaidOut(tmpdir(), { [`${plan.namespace}/${plan.clusterName}/tls-plan.json`]: JSON.stringify(plan, undefined, 2), ...files });
}

async function check(plan: TlsPlan, options: SecretsOptions = {}, files: Record<string, string> = {}): Promise<VerifyReport> {
  const secrets = await pki.secrets(plan, options);
  return verify(loadPlans(distOf(plan, files)), parseSecrets(JSON.stringify(secrets)), { now: NOW });
}

/** The failed checks of one Secret. */
function failed(report: VerifyReport, name: string): CheckResult[] {
  const secret = report.secrets.find((s) => s.name === name);
  if (!secret) {
    throw new Error(`no Secret ${name} in the report; have ${report.secrets.map((s) => s.name).join(', ')}`);
  }
  return secret.checks.filter((c) => !c.ok);
}

/** Expects exactly the named checks to fail, on that Secret alone, and returns them by name. */
function expectOnly(report: VerifyReport, name: string, checks: string[]): Record<string, CheckResult> {
  const bad = failed(report, name);
  expect(bad.map((c) => c.check)).toEqual(checks);
  expect(report.secrets.filter((s) => !s.ok).map((s) => s.name)).toEqual([name]);
  expect(report.ok).toBe(false);
  return Object.fromEntries(bad.map((c) => [c.check, c]));
}


/** The SHA-256 fingerprint prefix the messages show. */
function fingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256.slice(0, 23);
}

function writeJson(value: unknown): string {
  const file = path.join(tmpdir(), 'secrets.json');
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

const STORE = 'basic-store-cluster-secret';
/** What --min-days accepts, as its refusal says. */
const MIN_DAYS = 'a whole number of days from 0 to 3652425 (10,000 years: no certificate is valid past 9999-12-31), such as 21';
const CLIENT = 'basic-cluster-client-secret';
/** What the keys check asks of a Secret you create. */
const USER_KEYS = 'at least the keys tls.crt, tls.key, ca.crt (any other is left alone), each of which parses: PEM certificates in tls.crt and ca.crt, one PEM private key in tls.key';

describe('a good set of Secrets', () => {
  test('passes every check, one row per Secret the plan requires', async () => {
    const plan = planOf();
    const report = await check(plan);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ checked: 8, passed: 8, failed: 0 });
    expect(report.secrets.map((s) => s.name)).toEqual(plan.secrets.map((s) => s.name));
    expect(report.secrets.find((s) => s.name === STORE)!.checks.map((c) => c.check)).toEqual(CHECKS.filter((c) => c !== 'rotation' && c !== 'enablement' && c !== 'sql-ca' && c !== 'expiry'));
    expect(report.secrets.find((s) => s.name === CLIENT)!.checks.map((c) => c.check)).toEqual(CHECKS.filter((c) => c !== 'san' && c !== 'rotation' && c !== 'enablement' && c !== 'sql-ca' && c !== 'expiry'));
  });

  test('keys as cfssl writes them (PKCS#1, SEC1) in Opaque Secrets, and ECDSA P-256 leaves under an RSA 2048 plan', async () => {
    const plan = planOf();
    const faults = Object.fromEntries(plan.secrets.map((s) => [s.name, { key: pki.keys.ecKey }]));
    const report = await check(plan, { cfssl: true, faults });
    expect(report.ok).toBe(true);
    expect(report.secrets[0].checks.find((c) => c.check === 'key-strength')!.found).toBe('tls.crt ECDSA 256 bits (128-bit security), ca.crt RSA 2048 bits (112-bit security)');
  });

  test('the drainer and the cluster-domain names are required too', async () => {
    const plan = planOf({ clusterDomain: 'cluster.local' }, (c) => c.addComponent('drainer', { releaseName: 'binlog' }));
    expect((await check(plan)).ok).toBe(true);
    const short = plan.secrets.find((s) => s.component === 'drainer')!.dnsNames!.filter((n) => !n.endsWith('.cluster.local'));
    const report = await check(plan, { faults: { 'basic-drainer-cluster-secret': { dnsNames: short } } });
    expect(expectOnly(report, 'basic-drainer-cluster-secret', ['san', 'handshake']).san.expected).toBe('SANs covering *.basic-binlog-drainer.demo.svc.cluster.local');
  });

  test('a tls.crt that carries the chain (the certificate, then the CA) passes', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { edit: (d) => ({ ...d, 'tls.crt': `${d['tls.crt'].trimEnd()}\n${pki.ca.pem}` }) } } });
    expect(report.secrets.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => `${s.name} ${c.check}: ${c.found}`))).toEqual([]);
  });

  test('the CA Secret, when listed, is the CA every Secret must carry', async () => {
    const report = await check(planOf(), { caSecret: true });
    expect(report.ok).toBe(true);
    expect(report.plans[0].ca).toBe('the CA Secret basic-ca-secret');
  });

  test('the plan\'s method is shown, whichever method wrote the plan', async () => {
    const plan = { ...planOf(), method: IssuingMethod.CFSSL };
    const report = await check(plan);
    expect(report.plans[0].method).toBe('cfssl');
  });
});

describe('each fault is caught by name', () => {
  test('a missing Secret', async () => {
    const report = await check(planOf(), { omit: [STORE] });
    expect(expectOnly(report, STORE, ['present']).present).toEqual({
      check: 'present', ok: false, expected: 'Secret basic-store-cluster-secret in namespace demo', found: 'no Secret of that name in the input',
    });
  });

  test('a missing key, and a key too many', async () => {
    const missing = await check(planOf(), { faults: { [STORE]: { edit: ({ 'ca.crt': _ca, ...rest }) => rest } } });
    expect(expectOnly(missing, STORE, ['keys']).keys.found).toBe('keys tls.crt, tls.key; missing ca.crt');
    const extra = await check(planOf(), { faults: { [STORE]: { edit: (d) => ({ ...d, 'tls.pem': d['tls.crt'] }) } } });
    expect(expectOnly(extra, STORE, ['keys']).keys).toMatchObject({
      expected: 'exactly the keys tls.crt, tls.key, ca.crt', found: 'keys ca.crt, tls.crt, tls.key, tls.pem; unexpected tls.pem',
    });
  });

  test.each([true, false])('a certificate signed by another CA of the same name (naming its key: %s)', async (authorityKeyId) => {
    const report = await check(planOf(), { faults: { [STORE]: { signer: pki.otherCa, authorityKeyId } } });
    expect(expectOnly(report, STORE, ['chain', 'handshake']).chain.found).toBe(authorityKeyId
      ? 'rejected as a server: UNABLE_TO_VERIFY_LEAF_SIGNATURE; as a client: UNABLE_TO_VERIFY_LEAF_SIGNATURE: tls.crt names the issuer CN=basic, but its signature does not verify with the key of ca.crt (a different CA of the same name)'
      : 'rejected as a server: CERT_SIGNATURE_FAILURE; as a client: CERT_SIGNATURE_FAILURE: tls.crt names the issuer CN=basic, but its signature does not verify with the key of ca.crt (a different CA of the same name)');
  });

  test('a ca.crt that is not a CA certificate', async () => {
    const notCa = await pki.makeCa({ isCa: false });
    const report = await check(planOf(), { faults: { [STORE]: { signer: notCa, caCrt: notCa } } });
    const bad = failed(report, STORE);
    expect(bad.map((c) => c.check)).toEqual(['chain', 'same-ca', 'handshake']);
    expect(bad[0].found).toMatch(/^rejected as a server: INVALID_PURPOSE; as a client: INVALID_PURPOSE: ca\.crt holds no CA certificate, CN=basic \(SHA-256 [0-9A-F:]+…\) is not a CA$/);
  });

  test('a Secret that carries another CA than the rest of the cluster', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { signer: pki.otherCa, caCrt: pki.otherCa } } });
    const sameCa = expectOnly(report, STORE, ['same-ca', 'handshake'])['same-ca'];
    expect(sameCa.expected).toMatch(/^ca\.crt is the cluster's CA CN=basic \(SHA-256 .*\), as in 7 of the 8 Secrets of the cluster$/);
    expect(sameCa.found).toBe(`ca.crt is CN=basic (SHA-256 ${fingerprint(pki.otherCa.pem)}…)`);
  });

  test('a key that does not match the certificate', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { tlsKey: pki.keys.otherKey } } });
    expect(expectOnly(report, STORE, ['chain', 'key-match', 'handshake'])['key-match'].found)
      .toBe('a key that does not belong to tls.crt (tls.key: RSA 2048 bits (112-bit security); tls.crt: RSA 2048 bits (112-bit security))');
  });

  test('a missing peer wildcard name', async () => {
    const plan = planOf();
    const names = plan.secrets.find((s) => s.name === STORE)!.dnsNames!.filter((n) => n !== '*.basic-store-peer.demo.svc');
    const report = await check(plan, { faults: { [STORE]: { dnsNames: [...names, '*.demo.svc'] } } });
    const san = expectOnly(report, STORE, ['san', 'handshake']).san;
    expect(san.expected).toBe('SANs covering *.basic-store-peer.demo.svc');
    expect(san.found).toMatch(/^no SAN covers it; the certificate has basic-store, .*, \*\.demo\.svc, 127\.0\.0\.1, 0:0:0:0:0:0:0:1$/);
  });

  test('a missing IP address', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { ipAddresses: ['127.0.0.1'] } } });
    expect(expectOnly(report, STORE, ['san', 'handshake']).san.expected).toBe('SANs covering ::1');
  });

  test('a certificate that carries its CA\'s subject, which OpenSSL takes for self-signed', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { subject: 'CN=basic' } } });
    const bad = expectOnly(report, STORE, ['subject', 'chain', 'handshake']);
    expect(bad.subject).toMatchObject({
      expected: 'a subject other than its CA\'s (CN=basic)',
      found: 'tls.crt carries its CA\'s subject CN=basic: OpenSSL takes it for self-signed and rejects every handshake; re-issue the certificates from the current synth output, whose certificates carry a subject other than the CA\'s',
    });
    expect(bad.chain.found).toBe('rejected as a server: DEPTH_ZERO_SELF_SIGNED_CERT; as a client: DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(bad.handshake.found).toBe('7 of 7 rejected: with basic-cluster-client-secret: the client rejected the server certificate (DEPTH_ZERO_SELF_SIGNED_CERT); '
      + 'with basic-mig-client-secret: the client rejected the server certificate (DEPTH_ZERO_SELF_SIGNED_CERT); …');
  });

  test('a client certificate with its CA\'s subject fails its handshakes with the servers', async () => {
    const report = await check(planOf(), { faults: { [CLIENT]: { subject: 'CN=basic' } } });
    const bad = expectOnly(report, CLIENT, ['subject', 'chain', 'handshake']);
    expect(bad.handshake.found).toMatch(/^6 of 6 rejected: with basic-coordinator-cluster-secret: the server rejected the client certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
  });

  test('a server certificate without client auth', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { usages: ['server auth'] } } });
    expect(expectOnly(report, STORE, ['chain', 'usage']).usage).toMatchObject({
      expected: 'extended key usages server auth, client auth (server certificate)', found: 'extended key usages server auth',
    });
  });

  test('a client certificate that is also a server certificate', async () => {
    const report = await check(planOf(), { faults: { [CLIENT]: { usages: ['server auth', 'client auth'] } } });
    expect(expectOnly(report, CLIENT, ['usage']).usage).toMatchObject({
      expected: 'extended key usages client auth (client certificate)', found: 'extended key usages server auth, client auth',
    });
  });

  test('a certificate without extended key usages', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { usages: null } } });
    expect(expectOnly(report, STORE, ['usage']).usage.found).toBe('no extended key usage extension');
  });

  test('a Common Name other than the plan\'s', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { commonName: 'intruder' } } });
    expect(expectOnly(report, STORE, ['common-name'])['common-name']).toMatchObject({
      expected: 'CN "basic" (the plan\'s)', found: 'CN "intruder": not the plan\'s',
    });
  });

  test('an expired certificate', async () => {
    const notBefore = new Date(NOW.getTime() - 9000 * HOUR);
    const report = await check(planOf(), { faults: { [STORE]: { notBefore, notAfter: new Date(notBefore.getTime() + 8760 * HOUR) } } });
    expect(expectOnly(report, STORE, ['chain', 'validity', 'handshake']).validity).toMatchObject({
      expected: `tls.crt and ca.crt valid at ${at(0)}`, found: `tls.crt expired ${at(-240)}`,
    });
  });

  test('a certificate not valid yet', async () => {
    // Hours ahead, so that the real clock, which OpenSSL reads, cannot reach it during the test.
    const report = await check(planOf(), { faults: { [STORE]: { notBefore: new Date(NOW.getTime() + 3 * HOUR) } } });
    expect(expectOnly(report, STORE, ['chain', 'validity', 'handshake']).validity.found).toBe(`tls.crt not valid before ${at(3)}`);
  });

  test('an expired CA', async () => {
    const old = await pki.makeCa({ notBefore: new Date(NOW.getTime() - 1000 * HOUR), notAfter: new Date(NOW.getTime() - HOUR) });
    const report = await check(planOf(), { faults: { [STORE]: { signer: old, caCrt: old, notAfter: new Date(NOW.getTime() - 2 * HOUR) } } });
    const bad = Object.fromEntries(failed(report, STORE).map((c) => [c.check, c]));
    expect(Object.keys(bad)).toEqual(['chain', 'same-ca', 'validity', 'handshake']);
    expect(bad.validity.found).toBe(`tls.crt expired ${at(-2)}; ca.crt expired ${at(-1)}`);
  });

  test('a certificate inside its renewal window', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { notAfter: new Date(NOW.getTime() + 100 * HOUR) } } });
    expect(expectOnly(report, STORE, ['renewal']).renewal).toMatchObject({
      expected: 'more than 360h left on tls.crt and more than 720h on ca.crt',
      found: `tls.crt expires ${at(100)}, 100h away, inside its 360h renewal window`,
    });
  });

  test('a certificate that outlives its CA', async () => {
    const caEnd = pki.ca.certificate.notAfter;
    const report = await check(planOf(), { faults: { [STORE]: { notAfter: new Date(caEnd.getTime() + 24 * HOUR) } } });
    expect(expectOnly(report, STORE, ['ca-lifetime'])['ca-lifetime']).toMatchObject({
      expected: `tls.crt to expire no later than ca.crt (${at(87600 - 48)})`, found: `tls.crt expires ${at(87600 - 24)}`,
    });
  });

  test('a key weaker than the plan\'s', async () => {
    const report = await check(planOf(), { faults: { [STORE]: { key: pki.keys.weakKey } } });
    expect(expectOnly(report, STORE, ['key-strength'])['key-strength']).toMatchObject({
      expected: 'keys at least as strong as the plan\'s RSA 2048 bits (112-bit security)',
      found: 'tls.crt RSA 1024 bits (80-bit security), ca.crt RSA 2048 bits (112-bit security)',
    });
  });

  test('across algorithms the security strength counts: a P-256 leaf meets RSA 3072, an RSA 2048 CA does not', async () => {
    const report = await check(planOf({ privateKey: { size: 3072 } }), { faults: { [STORE]: { key: pki.keys.ecKey } } });
    expect(failed(report, STORE)).toEqual([{
      check: 'key-strength', ok: false, expected: 'keys at least as strong as the plan\'s RSA 3072 bits (128-bit security)',
      found: 'tls.crt ECDSA 256 bits (128-bit security), ca.crt RSA 2048 bits (112-bit security)',
    }]);
  });
});

describe('allowed Common Names from the cluster manifests', () => {
  const databaseCluster = (allowed: Record<string, string[]>, group = 'db.operator.io') => ({
    apiVersion: `${group}/v1alpha1`,
    kind: 'DatabaseCluster',
    metadata: { name: 'basic', namespace: 'demo' },
    spec: {
      tlsCluster: { enabled: true },
      coordinator: { config: { security: { 'cert-allowed-cn': allowed.coordinator } } },
      store: { config: { security: { 'cert-allowed-cn': allowed.store } } },
      sqlserver: { config: { security: { 'cluster-verify-cn': allowed.sqlserver } } },
    },
  });
  const yaml = (...docs: unknown[]) => docs.map((d) => JSON.stringify(d)).join('\n---\n');

  test('are read at the catalog\'s path of each component, in any API group', async () => {
    const files = { 'demo.k8s.yaml': yaml(databaseCluster({ coordinator: ['basic'], store: ['basic', 'extra'], sqlserver: ['basic'] }, 'example.org')) };
    const plans = loadPlans(distOf(planOf(), files));
    expect(plans[0].allowedCommonNames.map((a) => [a.component, a.key, a.names, a.source])).toEqual([
      ['coordinator', 'cert-allowed-cn', ['basic'], 'demo.k8s.yaml DatabaseCluster spec.coordinator.config.security.cert-allowed-cn'],
      ['store', 'cert-allowed-cn', ['basic', 'extra'], 'demo.k8s.yaml DatabaseCluster spec.store.config.security.cert-allowed-cn'],
      ['sqlserver', 'cluster-verify-cn', ['basic'], 'demo.k8s.yaml DatabaseCluster spec.sqlserver.config.security.cluster-verify-cn'],
    ]);
    expect((await check(planOf(), {}, files)).ok).toBe(true);
  });

  test('are read from manifests of the file extension the output\'s marker records', () => {
    const cluster = yaml(databaseCluster({ coordinator: ['basic'], store: ['basic'], sqlserver: ['basic'] }));
    const marker = JSON.stringify({ writtenBy: 'cdk8s-cluster-tls', about: '', outputFileExtension: '.yaml' });
    const components = (files: Record<string, string>) => loadPlans(distOf(planOf(), files))[0].allowedCommonNames.map((a) => a.component);
    expect(components({ '.cluster-tls-output': marker, 'demo.yaml': cluster })).toEqual(['coordinator', 'store', 'sqlserver']);
    expect(components({ 'demo.yaml': cluster })).toEqual([]);
  });

  test('columnar\'s two lists are read from their documents', async () => {
    const cluster = databaseCluster({ coordinator: ['basic'], store: ['basic'], sqlserver: ['basic'] });
    const withColumnar = { ...cluster, spec: { ...cluster.spec, columnar: { config: {
      config: { security: { cert_allowed_cn: ['basic'] } }, proxy: { security: { 'cert-allowed-cn': ['proxy-only'] } },
    } } } };
    const plan = planOf({}, (c) => c.addComponent('columnar'));
    const files = { 'demo.k8s.yaml': yaml(withColumnar) };
    expect(loadPlans(distOf(plan, files))[0].allowedCommonNames.filter((a) => a.component === 'columnar').map((a) => [a.key, a.names, a.source])).toEqual([
      ['cert_allowed_cn', ['basic'], 'demo.k8s.yaml DatabaseCluster spec.columnar.config.config.security.cert_allowed_cn'],
      ['cert-allowed-cn', ['proxy-only'], 'demo.k8s.yaml DatabaseCluster spec.columnar.config.proxy.security.cert-allowed-cn'],
    ]);
    const cn = failed(await check(plan, {}, files), STORE).find((c) => c.check === 'common-name')!;
    expect(cn.found).toBe('CN "basic": not in columnar cert-allowed-cn ["proxy-only"] (demo.k8s.yaml DatabaseCluster spec.columnar.config.proxy.security.cert-allowed-cn)');
  });

  test('a Common Name outside a component\'s list fails, naming the list', async () => {
    const files = { 'demo.k8s.yaml': yaml(databaseCluster({ coordinator: ['basic'], store: ['basic', 'extra'], sqlserver: ['basic'] })) };
    const plan = planOf({ commonName: 'extra' });
    const report = await check(plan, {}, files);
    const cn = failed(report, STORE).find((c) => c.check === 'common-name')!;
    expect(cn.expected).toBe('CN "extra" (the plan\'s), in the allowed list of coordinator cert-allowed-cn, store cert-allowed-cn, sqlserver cluster-verify-cn');
    expect(cn.found).toBe('CN "extra": not in coordinator cert-allowed-cn ["basic"] (demo.k8s.yaml DatabaseCluster spec.coordinator.config.security.cert-allowed-cn); '
      + 'not in sqlserver cluster-verify-cn ["basic"] (demo.k8s.yaml DatabaseCluster spec.sqlserver.config.security.cluster-verify-cn)');
    // The migration cluster's Secrets are not checked against the database cluster's lists.
    expect(failed(report, 'basic-mig-master-cluster-secret')).toEqual([]);
  });

  test('the migration cluster\'s lists sit under spec.master and spec.worker', async () => {
    const migration = {
      apiVersion: 'db.operator.io/v1alpha1', kind: 'MigrationCluster', metadata: { name: 'basic', namespace: 'demo' },
      spec: { master: { config: { 'cert-allowed-cn': ['basic'] } }, worker: { config: { 'cert-allowed-cn': ['other'] } } },
    };
    const report = await check(planOf(), {}, { 'demo.k8s.yaml': yaml(migration) });
    expect(report.plans[0].allowedCommonNames.map((a) => a.component)).toEqual(['mig-master', 'mig-worker']);
    expect(failed(report, 'basic-mig-client-secret')[0].found).toBe('CN "basic": not in mig-worker cert-allowed-cn ["other"] (demo.k8s.yaml MigrationCluster spec.worker.config.cert-allowed-cn)');
    expect(failed(report, CLIENT)).toEqual([]);
  });

  test('the drainer\'s list comes from its chart values', async () => {
    const plan = planOf({}, (c) => c.addComponent('drainer', { releaseName: 'binlog' }));
    const report = await check(plan, {}, { 'demo/basic/drainer-binlog-values.yaml': 'tlsCluster:\n  enabled: true\n  certAllowedCN:\n    - someone-else\n' });
    expect(report.plans[0].allowedCommonNames).toEqual([{
      component: 'drainer', cluster: 'database', key: 'certAllowedCN', names: ['someone-else'], source: '../cluster-tls/demo/basic/drainer-binlog-values.yaml tlsCluster.certAllowedCN',
    }]);
    expect(failed(report, STORE).map((c) => c.check)).toEqual(['common-name']);
    expect(formatReport(report).split('\n')[1]).toBe('allowed Common Names: the lists of drainer in ../cluster-tls/demo/basic/drainer-binlog-values.yaml');
  });

  test('another cluster\'s resource is not read', async () => {
    const other = { ...databaseCluster({ coordinator: ['nobody'] }), metadata: { name: 'other', namespace: 'demo' } };
    const report = await check(planOf(), {}, { 'demo.k8s.yaml': yaml(other) });
    expect(report.plans[0].allowedCommonNames).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('host-name and address matching, as TLS clients do it', () => {
  test.each([
    ['basic-store.demo', ['basic-store.demo'], true],
    ['Basic-Store.demo.', ['basic-store.demo'], true],
    ['basic-store-0.basic-store-peer', ['*.basic-store-peer'], true],
    ['a.b.basic-store-peer', ['*.basic-store-peer'], false],
    ['basic-store-peer', ['*.basic-store-peer'], false],
    ['*.basic-store-peer', ['*.basic-store-peer'], true],
    ['*.basic-store-peer', ['*.*.basic-store-peer'], false],
    ['*.basic-store-peer.demo', ['*.demo'], false],
    ['basic-store.demo.svc', ['*.demo.svc'], true],
    ['basic-store.demo', ['b*.demo'], false],
  ])('%s is covered by %j: %s', (name, sans, covered) => {
    expect(dnsNameCovered(name, sans)).toBe(covered);
  });

  test('IP addresses are compared in one spelling', () => {
    expect(normalizeIp('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(normalizeIp('0:0:0:0:0:0:0:1')).toBe('0:0:0:0:0:0:0:1');
    expect(normalizeIp('FE80::0001:2')).toBe('fe80:0:0:0:0:0:1:2');
    expect(normalizeIp('::ffff:10.0.0.5')).toBe('10.0.0.5');
    expect(normalizeIp('10.0.0.5')).toBe('10.0.0.5');
  });

  test('node\'s subjectAltName text is split, quoted values included', () => {
    expect(parseSubjectAltName('DNS:a, DNS:"b, c", IP Address:0:0:0:0:0:0:0:1, URI:spiffe://x')).toEqual({
      dns: ['a', 'b, c'], ip: ['0:0:0:0:0:0:0:1'], other: ['URI:spiffe://x'],
    });
    expect(parseSubjectAltName(undefined)).toEqual({ dns: [], ip: [], other: [] });
  });
});

describe('bad input gets a clear message', () => {
  test.each([
    ['not JSON', 'kind: List', 'secrets.json: content: received "kind: List"; expected JSON: the output of kubectl get secrets -n <namespace> -o json (a List of Secrets, or one Secret); the JSON parser said:'],
    ['not Secrets', '{"kind":"Pod"}', 'secrets.json: kind: received "Pod"; expected "List" or "Secret"'],
    ['a list with something else', '{"kind":"List","items":[{"kind":"ConfigMap","metadata":{"name":"x"}}]}', 'secrets.json: items[0].kind: received "ConfigMap"; expected "Secret": the list must hold only Secrets'],
    ['a Secret without a name', '{"kind":"List","items":[{"kind":"Secret","metadata":{}}]}', 'secrets.json: items[0].metadata.name: received nothing; expected the Secret\'s name'],
    ['base64 that does not decode', '{"kind":"Secret","metadata":{"name":"s"},"data":{"tls.crt":"not base64!"}}', 'secrets.json: Secret s data["tls.crt"]: received a value of 11 characters that is not base64 (not shown: Secret data); expected base64, as kubectl prints Secret data'],
  ])('%s', (_what, text, message) => {
    expect(() => parseSecrets(text, 'secrets.json')).toThrow(VerifyInputError);
    expect(() => parseSecrets(text, 'secrets.json')).toThrow(message);
  });

  test('a single Secret, and stringData, are read too', () => {
    const [secret] = parseSecrets(JSON.stringify({ kind: 'Secret', metadata: { name: 's' }, data: { a: 'aGk=' }, stringData: { b: 'there' } }));
    expect(secret.name).toBe('s');
    expect(secret.namespace).toBeUndefined();
    expect(Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, v.toString()]))).toEqual({ a: 'hi', b: 'there' });
  });

  test('a PEM that does not parse names the Secret and the key', async () => {
    const plan = planOf();
    const garbage = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
    const list = await pki.secrets(plan, { faults: { [STORE]: { edit: (d) => ({ ...d, 'tls.crt': garbage }) } } });
    const run = () => verify(loadPlans(distOf(plan)), parseSecrets(JSON.stringify(list), 'in.json'), { now: NOW });
    await expect(run()).rejects.toThrow(/^in\.json: Secret basic-store-cluster-secret tls\.crt: received "a PEM certificate \(block 1\) that does not parse"; expected a DER X\.509 certificate inside the PEM block; the parser said: /);
  });

  test('a key or certificate that is not PEM at all', async () => {
    const plan = planOf();
    const noKey = await pki.secrets(plan, { faults: { [STORE]: { edit: (d) => ({ ...d, 'tls.key': 'secret' }) } } });
    await expect(verify(loadPlans(distOf(plan)), parseSecrets(JSON.stringify(noKey), 'in.json'), { now: NOW })).rejects
      .toThrow('in.json: Secret basic-store-cluster-secret tls.key: received "0 PEM private keys"; expected exactly one "-----BEGIN … PRIVATE KEY-----" block');
    const noCa = await pki.secrets(plan, { faults: { [STORE]: { edit: (d) => ({ ...d, 'ca.crt': '' }) } } });
    await expect(verify(loadPlans(distOf(plan)), parseSecrets(JSON.stringify(noCa), 'in.json'), { now: NOW })).rejects
      .toThrow('in.json: Secret basic-store-cluster-secret ca.crt: received "no PEM certificate"; expected one or more "-----BEGIN CERTIFICATE-----" blocks');
  });

  test('the files folder given as --dist, or a files folder of another output folder beside it, is refused: its manifests are not the plans\'', () => {
    const dist = distOf(planOf());
    const files = filesFolderOf(dist);
    fs.writeFileSync(path.join(files, '.cluster-tls-output'), JSON.stringify({ writtenBy: 'cdk8s-cluster-tls', about: '', outputFileExtension: '.k8s.yaml', files: [], outputFolder: 'dist' }));
    expect(() => loadPlans(files)).toThrow(new VerifyInputError('--dist', 'folder', files, `the output folder that holds the manifests, such as ${dist}, not the files folder beside it`));
    expect(loadPlans(dist)).toHaveLength(1);
    const other = path.join(path.dirname(dist), 'other');
    fs.mkdirSync(other);
    expect(() => loadPlans(other)).toThrow(new VerifyInputError('--dist', 'folder', other,
      `an output folder whose files folder is its own; ${files} holds the plans of the output folder dist: pass that one, or synthesize this one again`));
    // A file of the files folder with a manifest's extension is not read as a manifest of the output.
    fs.writeFileSync(path.join(files, 'notes.k8s.yaml'), 'kind: DatabaseCluster\nmetadata: { name: basic, namespace: demo }\nspec: { tlsCluster: { enabled: true }, coordinator: { config: { security: { cert-allowed-cn: [someone-else] } } } }\n');
    expect(loadPlans(dist)[0].allowedCommonNames).toEqual([]);
  });

  test('a folder below --dist that cannot be read, and a folder of more entries than any output, are refused in one line naming the fix', () => {
    const dist = distOf(planOf());
    const files = filesFolderOf(dist);
    // A user who may not list one folder of the files folder: where the tests run as root, which no
    // mode stops, the unprivileged user nobody, in a process of its own.
    const closed = [];
    for (let dir = path.dirname(dist); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mode = fs.statSync(dir).mode & 0o777;
      if ((mode & 0o005) !== 0o005) {
        closed.push({ dir, mode });
        fs.chmodSync(dir, mode | 0o005);
      }
    }
    fs.chmodSync(path.join(files, 'demo'), 0o000);
    const node = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath];
    const script = `try { require(${JSON.stringify(path.join(__dirname, '..', 'build', 'lib', 'verify'))}).loadPlans(process.argv[1]); } catch (e) { console.error(e.message); process.exit(2); }`;
    const denied = spawnSync(node[0], [...node.slice(1), '-e', script, dist], { encoding: 'utf8' });
    fs.chmodSync(path.join(files, 'demo'), 0o755);
    closed.forEach(({ dir, mode }) => fs.chmodSync(dir, mode));
    expect({ status: denied.status, stderr: denied.stderr }).toEqual({ status: 2,
      stderr: `--dist: folder: received "${files}"; expected a synthesized output folder verify can read (EACCES at demo): give --dist the folder synth wrote\n` });
    // More entries than any output holds: refused once counted, before any is read.
    const crowd = path.join(dist, 'crowd');
    fs.mkdirSync(crowd);
    for (let i = 0; i <= 100_000; i++) {
      fs.writeFileSync(path.join(crowd, `${i}.txt`), '');
    }
    expect(() => loadPlans(dist)).toThrow(new VerifyInputError('--dist', 'folder', dist,
      'a synthesized output folder, which holds far fewer than 100,000 entries: give --dist the folder synth wrote'));
    fs.rmSync(crowd, { recursive: true });
    expect(loadPlans(dist)).toHaveLength(1);
  });

  test('an output folder without a plan, and a malformed plan', () => {
    const empty = tmpdir();
    expect(() => loadPlans(path.join(empty, 'nope'))).toThrow(`--dist: folder: received "${path.join(empty, 'nope')}"; expected the folder of the synthesized output, such as dist`);
    expect(() => loadPlans(empty)).toThrow(`--dist: folder: received "${empty}"; expected a synthesized output folder with at least one ../cluster-tls/<namespace>/<cluster>/tls-plan.json beside it`);
    const plan = planOf();
    const bad = { ...plan, secrets: [{ ...plan.secrets[0], role: 'peer' }] };
    expect(() => loadPlans(distOf(bad as unknown as TlsPlan))).toThrow(
      '../cluster-tls/demo/basic/tls-plan.json: secrets[0].role: received "peer"; expected "server" (a component\'s server certificate) or "client" (a cluster kind\'s shared client certificate)');
  });

  test('a plan is read against the published schema, one line per refusal naming the field and what the schema expects', () => {
    const plan = planOf();
    const refusal = (edit: (p: any) => unknown) => {
      const copy = JSON.parse(JSON.stringify(plan));
      const edited = edit(copy) ?? copy;
      try {
        loadPlans(distOf(edited as TlsPlan));
      } catch (e) {
        expect(e).toBeInstanceOf(VerifyInputError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    const file = '../cluster-tls/demo/basic/tls-plan.json';
    expect(refusal(() => undefined)).toBe('accepted');
    expect(refusal((p) => { delete p.method; })).toBe(`${file}: method: received nothing; expected the issuing method: "cert-manager", "cfssl" or "user-provided"`);
    expect(refusal((p) => { p.method = 'vault'; })).toBe(`${file}: method: received "vault"; expected the issuing method: "cert-manager", "cfssl" or "user-provided"`);
    expect(refusal((p) => { p.ca.duration = '10 years'; })).toBe(`${file}: ca.duration: received "10 years"; expected a positive duration in Go's notation, such as "8760h" or "1h30m"`);
    expect(refusal((p) => { p.renewBefore = '0h'; })).toBe(`${file}: renewBefore: received "0h"; expected a positive duration in Go's notation, such as "8760h" or "1h30m"`);
    expect(refusal((p) => { p.privateKey.size = 2048.5; })).toBe(`${file}: privateKey.size: received 2048.5; expected a key size in bits, a positive integer`);
    expect(refusal((p) => { p.secrets[2].dnsNames[1] = 7; })).toBe(`${file}: secrets[2].dnsNames[1]: received 7; expected a non-empty string`);
    expect(refusal((p) => { p.secrets[1].component = 'proxy'; })).toMatch(new RegExp(`^${file}: secrets\\[1\\]\\.component: received "proxy"; expected the component the server certificate serves, one of "mig-master", `));
    expect(refusal((p) => { p.ca.keyUsages = ['cert sign']; })).toBe(`${file}: ca.keyUsages: received an array of 1; expected no such field in a version-${TLS_PLAN_VERSION} plan (tls-plan.schema.json lists the fields)`);
    // Either the library's CA signs, or an issuer of the user's: a plan says which, once.
    expect(refusal((p) => { delete p.ca; })).toBe(`${file}: ca: received nothing; expected the library's CA, present unless an issuer of the user's signs the certificates (issuer): `
      + '{ "secretName", "duration", "renewBefore", "privateKey" }');
    expect(refusal((p) => { p.issuer = { name: 'org-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' }; })).toBe(`${file}: issuer: received an object with keys name, kind, group; `
      + 'expected no issuer beside ca: either the library\'s CA signs the certificates, or an issuer of the user\'s');
    expect(refusal((p) => { delete p.ca; p.issuer = { name: 'org-ca', kind: 'ClusterIssuer' }; })).toBe(`${file}: issuer.group: received nothing; expected the issuer's API group, such as "cert-manager.io"`);
    expect(refusal((p) => { delete p.secrets[0].name; })).toBe(`${file}: secrets[0].name: received nothing; expected the Secret's name, a non-empty string`);
    expect(refusal(() => [plan])).toMatch(/\/tls-plan\.json: content: received an array of 1; expected a certificate plan object$/);
  });

  test('a plan of another version is refused before anything else is read', () => {
    const plan = planOf();
    const expected = `expected ${TLS_PLAN_VERSION}, the plan version this cluster-tls reads; run the cluster-tls of the cdk8s-cluster-tls version that synthesized the plan, or synthesize again`;
    expect(() => loadPlans(distOf({ ...plan, version: 2, secrets: 'renamed' } as unknown as TlsPlan)))
      .toThrow(`../cluster-tls/demo/basic/tls-plan.json: version: received 2; ${expected}`);
    const { version: _version, ...unversioned } = plan;
    expect(() => loadPlans(distOf(unversioned as TlsPlan))).toThrow(`../cluster-tls/demo/basic/tls-plan.json: version: received nothing; ${expected}`);
  });

  test('Secrets of a namespace without a plan', async () => {
    const plan = planOf();
    const list = await pki.secrets(plan);
    const moved = { ...list, items: list.items.map((i) => ({ ...i, metadata: { ...i.metadata, namespace: 'prod' } })) };
    await expect(verify(loadPlans(distOf(plan)), parseSecrets(JSON.stringify(moved)), { now: NOW })).rejects
      .toThrow('--dist: plans: received ["demo/basic"]; expected a plan for the namespace of the Secrets ("prod"); choose one with --namespace and --cluster');
  });

  test('verifySecret alone: a Secret without the keys runs no certificate check', async () => {
    const plan = planOf();
    const [secret] = parseSecrets(JSON.stringify(secretObject(STORE, 'demo', { 'tls.crt': 'x' })));
    expect((await verifySecret(plan.secrets.find((s) => s.name === STORE)!, plan, secret, { now: NOW })).map((c) => [c.check, c.ok]))
      .toEqual([['present', true], ['keys', false]]);
  });
});

describe('the cluster-tls command', () => {
  let plan: TlsPlan;
  let dist: string;
  let good: SecretListJson;
  beforeAll(async () => {
    plan = planOf();
    dist = distOf(plan);
    good = await pki.secrets(plan);
  });

  test('prints one row per Secret and a summary, and exits 0 when everything passes', async () => {
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', writeJson(good), '--now', NOW.toISOString()]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`plan demo/basic: ../cluster-tls/demo/basic/tls-plan.json, issued with cert-manager, checked at ${at(0)}`);
    expect(lines[1]).toBe('allowed Common Names: no list in the output; the Common Name must be the plan\'s');
    expect(lines).toContain('SECRET                            CLUSTER     CERTIFICATE          RESULT');
    expect(lines).toContain('basic-store-cluster-secret        demo/basic  server: store        PASS');
    expect(lines).toContain('basic-cluster-client-secret       demo/basic  client: database     PASS');
    expect(stdout.endsWith('\n8 secrets checked: 8 passed, 0 failed\n')).toBe(true);
  });

  test('every line it prints is bounded, with a count of what it left out, for a plan of 300,000 host names', async () => {
    // The Secrets are those of the plan as it was; the plan then names 300,000 more host names for the store.
    const many = structuredClone(plan);
    const store = many.secrets.find((x) => x.name === STORE)!;
    (store as { dnsNames: string[] }).dnsNames = [...store.dnsNames!, ...Array.from({ length: 300_000 }, (_x, i) => `host-${i}.basic-store.demo.svc`)];
    const { code, stdout } = await cli(['verify', '--dist', distOf(many), '--secrets', writeJson(good), '--now', NOW.toISOString()]);
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(MAX_LINE + 40);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}- san: expected SANs covering host-0\.basic-store\.demo\.svc, .*host-19\.basic-store\.demo\.svc and 299,980 more names; found no SAN covers them; the certificate has .*$/));
    const json = await cli(['verify', '--json', '--dist', distOf(many), '--secrets', writeJson(good), '--now', NOW.toISOString()]);
    expect(Math.max(...json.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(MAX_LINE);
  }, 60_000);

  test('spells out every failed check under the Secret\'s row and exits 1', async () => {
    const bad = await pki.secrets(plan, { faults: { [STORE]: { usages: ['server auth'], tlsKey: pki.keys.otherKey } } });
    const { code, stdout } = await cli(['verify', '--dist', dist, '--secrets', writeJson(bad), '--now', NOW.toISOString()]);
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    const row = lines.indexOf('basic-store-cluster-secret        demo/basic  server: store        FAIL');
    expect(row).toBeGreaterThan(0);
    expect(lines[row + 1]).toMatch(/^  - chain: expected tls.crt accepted by OpenSSL against ca.crt \(as a server and as a client\); found OpenSSL cannot load tls.crt with tls.key: .*key values mismatch$/);
    expect(lines[row + 2]).toBe('  - key-match: expected tls.key is the private key of tls.crt; found a key that does not belong to tls.crt (tls.key: RSA 2048 bits (112-bit security); tls.crt: RSA 2048 bits (112-bit security))');
    expect(lines[row + 3]).toBe('  - usage: expected extended key usages server auth, client auth (server certificate); found extended key usages server auth');
    expect(lines[row + 4]).toMatch(/^  - handshake: expected mutual handshakes with the Secrets that dial it, .*; found 7 of 7 rejected: with basic-cluster-client-secret: the handshake failed: .*key values mismatch/);
    expect(stdout.endsWith('\n8 secrets checked: 7 passed, 1 failed\n')).toBe(true);
  });

  test('--json prints the report for machines', async () => {
    const bad = await pki.secrets(plan, { omit: [CLIENT] });
    const { code, stdout } = await cli(['verify', '--json', '--dist', dist, '--secrets', writeJson(bad), '--now', NOW.toISOString()]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ ok: false, now: at(0), summary: { checked: 8, passed: 7, failed: 1 } });
    expect(report.secrets.find((s: any) => s.name === CLIENT)).toEqual({
      name: CLIENT, namespace: 'demo', clusterName: 'basic', cluster: 'database', role: 'client', ok: false,
      checks: [{ check: 'present', ok: false, expected: 'Secret basic-cluster-client-secret in namespace demo', found: 'no Secret of that name in the input' }],
    });
  });

  test('- reads the Secrets from standard input', async () => {
    const { code } = await cli(['verify', '--dist', dist, '--secrets', '-', '--now', NOW.toISOString()], JSON.stringify(good));
    expect(code).toBe(0);
  });

  test('--now checks a future date: a year on, every certificate is inside its renewal window', async () => {
    const { code, stdout } = await cli(['verify', '--dist', dist, '--secrets', writeJson(good), '--now', at(8592)]);
    expect(code).toBe(1);
    expect(stdout).toContain(`  - renewal: expected more than 360h left on tls.crt and more than 720h on ca.crt; found tls.crt expires ${at(8736)}, 144h away, inside its 360h renewal window`);
    expect(stdout.endsWith('\n8 secrets checked: 0 passed, 8 failed\n')).toBe(true);
  });

  test('--min-days fails every certificate that expires within the days given, CAs included, and passes the same Secrets with fewer days', async () => {
    // The leaves of the test PKI are valid 8760h from a day before NOW: they expire in 8736h, 364 days.
    const within = await cli(['verify', '--dist', dist, '--secrets', writeJson(good), '--now', NOW.toISOString(), '--min-days', '365']);
    expect(within.code).toBe(1);
    expect(within.stdout).toContain(`  - expiry: expected tls.crt and every CA certificate in ca.crt valid until at least ${at(365 * 24)} (365 days); found tls.crt expires ${at(8736)}, in 364 days`);
    const beyond = await cli(['verify', '--dist', dist, '--secrets', writeJson(good), '--now', NOW.toISOString(), '--min-days', '364']);
    expect(beyond.code).toBe(0);
    const json = await cli(['verify', '--json', '--dist', dist, '--secrets', writeJson(good), '--now', NOW.toISOString(), '--min-days', '364']);
    expect(JSON.parse(json.stdout).secrets[0].checks.find((c: any) => c.check === 'expiry')).toMatchObject({ ok: true, found: expect.stringMatching(/^the first to expire, tls\.crt, expires /) });
    // Ten years on, the CA itself is within the days given.
    const ca = await cli(['verify', '--json', '--dist', dist, '--secrets', writeJson(good), '--now', NOW.toISOString(), '--min-days', '3700']);
    expect(JSON.parse(ca.stdout).secrets[0].checks.find((c: any) => c.check === 'expiry').found).toMatch(/; ca\.crt expires .*, in \d+ days$/);
  });

  test('--help, -h, help, help verify and verify --help print the help; -v the version', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage:\n {2}cluster-tls verify --dist <folder> --secrets <file\|->/);
    expect(stdout).toContain('Exit codes: 0 every check passed, 1 a check failed, 2 bad input or usage.');
    for (const argv of [['-h'], ['help'], ['help', 'verify'], ['verify', '--help'], ['verify', '-h']]) {
      expect({ argv, run: await cli(argv) }).toEqual({ argv, run: { code: 0, stdout, stderr: '' } });
    }
    expect(await cli(['-v'])).toEqual(await cli(['--version']));
  });

  test.each([
    [[], 'error: a command is required: verify; run cluster-tls --help for usage\n'],
    [['check'], 'error: unknown command "check"; the command is verify; run cluster-tls --help for usage\n'],
    [['verify'], 'error: verify needs --dist <folder> and --secrets <file|->; run cluster-tls --help for usage\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--colour'], 'error: "--colour": received an option the command does not take; expected one of --dist, --secrets, --json, --now, --min-days, --namespace, --cluster, --help (-h), --version (-v); run cluster-tls --help for usage\n'],
    [['verify', '--dist', 'x', '--secrets'], 'error: "--secrets": received nothing; expected a value after it (to give one that starts with a dash, write --secrets=<value>); run cluster-tls --help for usage\n'],
    [['verify', '--dist', 'x', '--secrets', '--json'], 'error: "--secrets": received nothing; expected a value after it (to give one that starts with a dash, write --secrets=<value>); run cluster-tls --help for usage\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--json=yes'], 'error: "--json": received a value; expected none: it is a flag; run cluster-tls --help for usage\n'],
    [['help', 'me'], 'error: unknown command "help me"; the command is verify; run cluster-tls --help for usage\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--now', 'soon'], 'error: --now: date: received "soon"; expected an ISO 8601 date or time, such as 2030-01-01 or 2030-01-01T12:00:00Z\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--now', '2030-02-31'], 'error: --now: date: received "2030-02-31"; expected an ISO 8601 date or time, such as 2030-01-01 or 2030-01-01T12:00:00Z\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--now', '2030-04-31T12:00:00Z'], 'error: --now: date: received "2030-04-31T12:00:00Z"; expected an ISO 8601 date or time, such as 2030-01-01 or 2030-01-01T12:00:00Z\n'],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '3 weeks'], `error: --min-days: days: received "3 weeks"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days=-1'], `error: --min-days: days: received "-1"; expected ${MIN_DAYS}\n`],
    // Past what a date holds (now + 200,000,000 days is no time at all): refused as out of range, never "Invalid time value".
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '200000000'], `error: --min-days: days: received "200000000"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '3652426'], `error: --min-days: days: received "3652426"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '99999999999999999999'], `error: --min-days: days: received "99999999999999999999"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '1.5'], `error: --min-days: days: received "1.5"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', '+21'], `error: --min-days: days: received "+21"; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', 'x', '--secrets', 'y', '--min-days', ''], `error: --min-days: days: received ""; expected ${MIN_DAYS}\n`],
    [['verify', '--dist', '/nonexistent/dist', '--secrets', 'y'], 'error: --dist: folder: received "/nonexistent/dist"; expected the folder of the synthesized output, such as dist (run npm run synth first)\n'],
  ])('usage mistake %j exits 2 with one line', async (argv, message) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(message);
  });

  test('bad Secrets input exits 2 with one line and no stack trace', async () => {
    const missing = path.join(tmpdir(), 'missing.json');
    const notFound = await cli(['verify', '--dist', dist, '--secrets', missing]);
    expect(notFound.code).toBe(2);
    expect(notFound.stderr).toBe(`error: --secrets: file: received "${missing}"; expected a readable file (ENOENT); save kubectl get secrets -n <namespace> -o json to it, or pass - for standard input\n`);
    const notJson = await cli(['verify', '--dist', dist, '--secrets', '-'], 'NAME TYPE DATA AGE\n');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^error: standard input: content: received "NAME TYPE DATA AGE"; expected JSON: .*\n$/);
    expect(notJson.stderr).not.toMatch(/\n\s+at /);
  });
});

describeWithCfssl('the cfssl verify test')('the Secrets the cfssl method issues', () => {
  test('pass, and a spoiled one is rejected by name', async () => {
    requireCfssl();
    const outdir = path.join(tmpdir(), 'dist');
    const app = new App({ outdir });
    new ClusterCertificates(new Chart(app, 'demo', { namespace: 'demo' }), 'certs', {
      clusterName: 'basic', method: IssuingMethod.CFSSL, components: ['coordinator', 'store', 'pump', 'mig-master'],
    });
    synthesize(app);
    const kubectl = createFakeKubectl(path.join(tmpdir(), 'kubectl'));
    // Run from a copy, as the runbook says: the script refuses to make keys inside the synth output.
    const pki = path.join(tmpdir(), 'pki');
    fs.cpSync(outputFile(outdir, 'demo/basic/cfssl'), pki, { recursive: true });
    execFileSync('bash', [path.join(pki, 'issue-certificates.sh')], { env: { ...process.env, KUBECTL: kubectl.command }, stdio: 'pipe' });
    const secrets = writeJson(kubectl.secretList('demo'));

    const { code, stdout } = await cli(['verify', '--dist', outdir, '--secrets', secrets]);
    expect(stdout).toContain('issued with cfssl');
    expect(stdout.endsWith('\n6 secrets checked: 6 passed, 0 failed\n')).toBe(true);
    expect(code).toBe(0);

    const list = kubectl.secretList('demo');
    const store = list.items.find((i) => i.metadata.name === STORE)!;
    const client = list.items.find((i) => i.metadata.name === 'basic-mig-client-secret')!;
    const spoiled = { ...list, items: list.items.map((i) => (i === store ? { ...store, data: { ...store.data, 'tls.key': client.data['tls.key'] } } : i)) };
    const rejected = await cli(['verify', '--dist', outdir, '--secrets', writeJson(spoiled)]);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toMatch(/\nbasic-store-cluster-secret +demo\/basic +server: store +FAIL\n {2}- chain: .*key values mismatch\n {2}- key-match: /);
  }, 120_000);
});

test('the table lists failures under their row', () => {
  const report: VerifyReport = {
    ok: false, now: at(0), summary: { checked: 1, passed: 0, failed: 1 },
    plans: [{ file: '../cluster-tls/demo/basic/tls-plan.json', namespace: 'demo', clusterName: 'basic', method: 'cfssl', allowedCommonNames: [] }],
    secrets: [{
      name: 'x', namespace: 'demo', clusterName: 'basic', cluster: 'database', role: 'server', component: 'store', ok: false,
      checks: [{ check: 'present', ok: false, expected: 'a', found: 'b' }],
    }],
  };
  expect(formatReport(report)).toBe([
    `plan demo/basic: ../cluster-tls/demo/basic/tls-plan.json, issued with cfssl, checked at ${at(0)}`,
    'allowed Common Names: no list in the output; the Common Name must be the plan\'s',
    '',
    'SECRET  CLUSTER     CERTIFICATE    RESULT',
    'x       demo/basic  server: store  FAIL',
    '  - present: expected a; found b',
    '',
    '1 secret checked: 0 passed, 1 failed',
    '',
  ].join('\n'));
});

describe('the rotation check of a span\'s root replacement, through the intermediate', () => {
  /** One database cluster across two Kubernetes clusters, this plan east's. */
  const SPAN_PROPS = { span: { clusters: [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }], current: 'east' } };
  /** Each root's intermediate of Kubernetes cluster east, as issue-intermediate.sh signs it. */
  let intermediates: { first: TestCa; next: TestCa };
  beforeAll(async () => {
    const made = async (signer: TestCa) => makeIntermediate({
      subject: 'OU=east, CN=basic', key: await makeKey('rsa2048'), signer, notBefore: pki.ca.certificate.notBefore, notAfter: pki.ca.certificate.notAfter,
    });
    intermediates = { first: await made(pki.ca), next: await made(pki.otherCa) };
  });

  /** East's Secrets in a phase: each leaf signed by `intermediate` and sent with it, ca.crt the roots in order. */
  const phase = async (at: RotationPhase, intermediate: TestCa, roots: TestCa[]) => {
    const plan = planOf({ ...SPAN_PROPS, rotations: [{ id: 'root-2', phase: at }] });
    const pem = roots.map((r) => r.pem).join('');
    const faults = Object.fromEntries(plan.secrets.map((x) => [x.name, { signer: intermediate, edit: (d: Record<string, string>) => ({ ...d, 'tls.crt': d['tls.crt'] + intermediate.pem, 'ca.crt': pem }) }]));
    const report = await check(plan, { faults });
    return report.secrets.map((x) => x.checks.find((c) => c.check === 'rotation')!);
  };

  test('each phase passes with the leaves its plan names: of the first root\'s intermediate, then of the next root\'s', async () => {
    const checks = [
      ...await phase(RotationPhase.TRUST_BOTH, intermediates.first, [pki.otherCa, pki.ca]),
      ...await phase(RotationPhase.SWITCH_LEAVES, intermediates.next, [pki.otherCa, pki.ca]),
      ...await phase(RotationPhase.DROP_OLD, intermediates.next, [pki.otherCa]),
    ];
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks).toHaveLength(planOf(SPAN_PROPS).secrets.length * 3);
  });

  test('a leaf of the next root\'s intermediate while the phase still signs with the first root fails, naming the root that signed it', async () => {
    const checks = await phase(RotationPhase.TRUST_BOTH, intermediates.next, [pki.otherCa, pki.ca]);
    expect(checks.map((c) => [c.ok, c.found])).toEqual(checks.map(() => [false, expect.stringMatching(/^tls\.crt is signed by CA certificate 1 of ca\.crt \(/)]));
  });
});

describe('the Secrets you create that a cluster loads', () => {
  const ROOT = path.join(__dirname, '..');

  /**
   * README.md's app ("Use it in your app"), synthesized by a Node.js process of its own in a new
   * folder, as a user runs it, the package resolved to this build; returns the folder.
   */
  function synthesizeReadmeApp(): string {
    const block = docBlocks().find((b) => b.doc === 'README.md' && b.section === 'Use it in your app' && b.file === 'main.ts');
    if (block === undefined) {
      throw new Error('README.md has no main.ts in "Use it in your app"');
    }
    const js = ts.transpileModule(block.text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText
      .replace(/require\("cdk8s-cluster-tls"\)/g, `require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))})`);
    const app = tmpdir();
    fs.writeFileSync(path.join(app, 'main.js'), js);
    const synth = spawnSync(process.execPath, ['main.js'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') } });
    expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: '' });
    return app;
  }

  /** Runs the built command, as `npx cluster-tls` runs it, in the app's folder. */
  function clusterTls(app: string, args: readonly string[]) {
    return spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'cluster-tls.js'), ...args], { cwd: app, encoding: 'utf8' });
  }

  test('README\'s example: verify fails while the migration source\'s Secret is missing, naming it, its namespace and what loads it; passes once it exists', async () => {
    const app = synthesizeReadmeApp();
    // Every Secret cert-manager writes for the manifests, and kubectl get secrets -n shop -o json of them.
    const objects = fs.readdirSync(path.join(app, 'dist')).filter((f) => f.endsWith('.k8s.yaml'))
      .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(app, 'dist', f), 'utf8')).map((d) => d.toJS()));
    const issuer = await CertManagerIssuer.issueAll(objects);
    const shop = [...issuer.secrets].filter(([key]) => key.startsWith('shop/'))
      .map(([key, data]) => secretObject(key.split('/')[1], 'shop', { ...data }));
    expect(shop.map((s) => s.metadata.name)).not.toContain('orders-legacy-tls');
    fs.writeFileSync(path.join(app, 'secrets.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: shop }));

    const missing = clusterTls(app, ['verify', '--dist', 'dist', '--secrets', 'secrets.json']);
    expect({ status: missing.status, stderr: missing.stderr }).toEqual({ status: 1, stderr: '' });
    expect(missing.stdout).toMatch(/^orders-legacy-tls +shop\/orders +yours: migration source legacy +FAIL$/m);
    expect(missing.stdout).toContain('  - present: expected Secret orders-legacy-tls in namespace shop, a Secret you create for migration source legacy; found no Secret of that name in the input\n');
    expect(missing.stdout).toMatch(/\n\d+ secrets checked: \d+ passed, 1 failed; missing Secrets you create: orders-legacy-tls in namespace shop \(for migration source legacy\)\n$/);
    const json = clusterTls(app, ['verify', '--dist', 'dist', '--secrets', 'secrets.json', '--json']);
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.secrets.find((s: any) => s.name === 'orders-legacy-tls')).toMatchObject({
      namespace: 'shop', clusterName: 'orders', cluster: 'migration', role: 'user', usedBy: 'migration source legacy', ok: false,
      checks: [{ check: 'present', ok: false }],
    });
    expect(report.summary.missingUserSecrets).toEqual([{ name: 'orders-legacy-tls', namespace: 'shop', usedBy: 'migration source legacy' }]);

    // The upstream database's client certificate, from a CA of its own: the library knows neither.
    const upstreamCa = await pki.makeCa({ commonName: 'mysql-upstream-ca' });
    const cert = await issueLeaf({
      commonName: 'migrator', usages: ['client auth'], notBefore: pki.leafNotBefore, notAfter: new Date(NOW.getTime() + 400 * 24 * HOUR),
      key: pki.keys.otherKey, signer: upstreamCa,
    });
    const legacy = secretObject('orders-legacy-tls', 'shop', { 'tls.crt': cert, 'tls.key': pki.keys.otherKey.pem, 'ca.crt': upstreamCa.pem });
    fs.writeFileSync(path.join(app, 'secrets.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...shop, legacy] }));
    const present = clusterTls(app, ['verify', '--dist', 'dist', '--secrets', 'secrets.json']);
    expect({ status: present.status, stderr: present.stderr }).toEqual({ status: 0, stderr: '' });
    expect(present.stdout).toMatch(/^orders-legacy-tls +shop\/orders +yours: migration source legacy +PASS$/m);
  }, 120_000);
});

describe('the checks of a Secret you create', () => {
  const SINK = 'basic-sink-tls';
  const plan: TlsPlan = { ...planOf(), userSecrets: [{ name: SINK, cluster: 'database' as any, usedBy: 'the changefeed\'s sink' }] };

  /** The sink's Secret, from a CA the library does not know, valid `days` from a day before NOW; edited as given. */
  async function sinkSecret(days = 400, edit: (d: Record<string, string>) => Record<string, string> = (d) => d): Promise<any> {
    const sinkCa = await pki.makeCa({ commonName: 'sink-ca' });
    const cert = await issueLeaf({
      commonName: 'changefeed', usages: ['client auth'], notBefore: pki.leafNotBefore, notAfter: new Date(pki.leafNotBefore.getTime() + days * 24 * HOUR),
      key: pki.keys.otherKey, signer: sinkCa,
    });
    return secretObject(SINK, 'demo', edit({ 'tls.crt': cert, 'tls.key': pki.keys.otherKey.pem, 'ca.crt': sinkCa.pem }));
  }

  async function checkWith(sink: any | undefined, minDays?: number): Promise<VerifyReport> {
    const secrets = await pki.secrets(plan);
    const items = sink === undefined ? secrets.items : [...secrets.items, sink];
    return verify(loadPlans(distOf(plan)), parseSecrets(JSON.stringify({ ...secrets, items })), { now: NOW, minDays });
  }

  test('passes with the checks that need nothing of the plan, and says which it did not run and why', async () => {
    const report = await checkWith(await sinkSecret());
    expect(report.ok).toBe(true);
    const sink = report.secrets.find((s) => s.name === SINK)!;
    expect(sink).toMatchObject({ namespace: 'demo', clusterName: 'basic', cluster: 'database', role: 'user', usedBy: 'the changefeed\'s sink', ok: true });
    expect(sink.checks.map((c) => c.check)).toEqual(['present', 'keys', 'key-match', 'validity']);
    expect(sink.notChecked).toEqual(['subject', 'chain', 'same-ca', 'san', 'usage', 'common-name', 'renewal', 'ca-lifetime', 'key-strength', 'handshake']);
    expect(report.summary).toEqual({ checked: 9, passed: 9, failed: 0 });
    // Its CA is not the cluster's, nor is its Common Name: neither counts against it or against the cluster's Secrets.
    expect(report.secrets.every((s) => s.ok)).toBe(true);
    const text = formatReport(report);
    expect(text).toMatch(/^basic-sink-tls +demo\/basic +yours: the changefeed's sink +PASS$/m);
    expect(text).toContain('Secrets you create: basic-sink-tls, checked for present, keys, key-match, validity, expiry with --min-days and loaded with pods alone; '
      + 'not for subject, chain, same-ca, san, usage, common-name, renewal, ca-lifetime, key-strength, handshake: '
      + 'the library issues none of them and knows neither their CA nor their Common Name, host names, usages or key\n');
  });

  test('missing: fails the run, and the summary names it with what loads it', async () => {
    const report = await checkWith(undefined);
    expect(report.ok).toBe(false);
    expect(expectOnly(report, SINK, ['present']).present).toEqual({
      check: 'present', ok: false, expected: 'Secret basic-sink-tls in namespace demo, a Secret you create for the changefeed\'s sink', found: 'no Secret of that name in the input',
    });
    expect(report.summary).toEqual({ checked: 9, passed: 8, failed: 1, missingUserSecrets: [{ name: SINK, namespace: 'demo', usedBy: 'the changefeed\'s sink' }] });
    expect(formatReport(report).endsWith('\n9 secrets checked: 8 passed, 1 failed; missing Secrets you create: basic-sink-tls in namespace demo (for the changefeed\'s sink)\n')).toBe(true);
  });

  test('without ca.crt (as kubectl create secret tls makes it), with a key of another certificate, expired, or expiring within --min-days: each fails its check', async () => {
    const withoutCa = await checkWith(await sinkSecret(400, ({ 'ca.crt': _ca, ...d }) => d));
    expect(expectOnly(withoutCa, SINK, ['keys']).keys.found).toBe('keys tls.crt, tls.key; missing ca.crt');
    const otherKey = await checkWith(await sinkSecret(400, (d) => ({ ...d, 'tls.key': pki.keys.leafKey.pem })));
    expect(expectOnly(otherKey, SINK, ['key-match'])['key-match'].found).toMatch(/^a key that does not belong to tls\.crt /);
    const expired = await checkWith(await sinkSecret(0.5));
    expect(expectOnly(expired, SINK, ['validity'])['validity'].found).toMatch(/^tls\.crt expired /);
    const soon = await checkWith(await sinkSecret(30), 60);
    expect(expectOnly(soon, SINK, ['expiry'])['expiry'].found).toMatch(/^tls\.crt expires .*, in 29 days$/);
    expect((await checkWith(await sinkSecret(30), 20)).ok).toBe(true);
  });

  test('with keys beside the three, as cert-manager writes a sink\'s Secret with additionalOutputFormats: passes, the keys check asking for at least the three', async () => {
    const report = await checkWith(await sinkSecret(400, (d) => ({ ...d, 'tls-combined.pem': `${d['tls.key']}${d['tls.crt']}`, 'key.der': 'DER' })));
    expect(report.ok).toBe(true);
    expect(report.secrets.find((s) => s.name === SINK)!.checks.find((c) => c.check === 'keys')).toEqual({
      check: 'keys', ok: true, expected: USER_KEYS, found: 'keys ca.crt, key.der, tls-combined.pem, tls.crt, tls.key',
    });
    const withoutCa = await checkWith(await sinkSecret(400, ({ 'ca.crt': _ca, ...d }) => ({ ...d, 'key.der': 'DER' })));
    expect(expectOnly(withoutCa, SINK, ['keys']).keys).toEqual({ check: 'keys', ok: false, expected: USER_KEYS, found: 'keys key.der, tls.crt, tls.key; missing ca.crt' });
  });

  test('a certificate or key of it that does not parse fails its keys check, naming the key and never its content, and the command exits 1', async () => {
    const body = (pem: string) => pem.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
    const good = await sinkSecret();
    const key = Buffer.from(good.data['tls.key'], 'base64').toString('utf8');
    // A key cut short: a PEM block whose body is the first lines of the real key's.
    const cut = `-----BEGIN PRIVATE KEY-----\n${body(key).slice(0, 3).join('\n')}\n-----END PRIVATE KEY-----\n`;
    const garbage = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'tls.crt': 'not a certificate' }, /^keys ca\.crt, tls\.crt, tls\.key; tls\.crt holds no PEM certificate \(expected one or more "-----BEGIN CERTIFICATE-----" blocks\)$/],
      [{ 'ca.crt': garbage }, /^keys ca\.crt, tls\.crt, tls\.key; ca\.crt holds a PEM certificate \(block 1\) that does not parse \(expected a DER X\.509 certificate inside the PEM block; the parser said: .+\)$/],
      [{ 'tls.key': 'secret' }, /^keys ca\.crt, tls\.crt, tls\.key; tls\.key holds 0 PEM private keys \(expected exactly one "-----BEGIN … PRIVATE KEY-----" block\)$/],
      [{ 'tls.key': cut, 'tls.crt': '' }, /^keys ca\.crt, tls\.crt, tls\.key; tls\.crt holds no PEM certificate \(.+\); tls\.key holds a PEM private key that does not parse \(expected an unencrypted private key; the parser said: .+\)$/],
    ];
    for (const [edit, found] of cases) {
      const sink = await sinkSecret(400, (d) => ({ ...d, ...edit }));
      const report = await checkWith(sink);
      const keys = expectOnly(report, SINK, ['keys']).keys;
      expect({ edit: Object.keys(edit), keys }).toEqual({ edit: Object.keys(edit), keys: { check: 'keys', ok: false, expected: USER_KEYS, found: expect.stringMatching(found) } });
      // Neither a line of its key nor of its certificate in the report.
      const material = Object.values(sink.data as Record<string, string>).flatMap((b64) => body(Buffer.from(b64, 'base64').toString('utf8'))).filter((l) => l.length > 20);
      const text = `${formatReport(report)}${JSON.stringify(report)}`;
      expect(material.filter((l) => text.includes(l))).toEqual([]);
    }
    // The command: a failed row, exit 1, nothing on standard error.
    const secrets = await pki.secrets(plan);
    const file = writeJson({ ...secrets, items: [...secrets.items, await sinkSecret(400, (d) => ({ ...d, 'tls.key': cut }))] });
    const ran = await cli(['verify', '--dist', distOf(plan), '--secrets', file, '--now', NOW.toISOString()]);
    expect([ran.code, ran.stderr]).toEqual([1, '']);
    expect(ran.stdout).toMatch(/^basic-sink-tls +demo\/basic +yours: the changefeed's sink +FAIL\n {2}- keys: expected at least the keys .*; found keys ca\.crt, tls\.crt, tls\.key; tls\.key holds a PEM private key that does not parse /m);
  });
});

test('with Secrets you provide (user-provided), a missing Secret of the plan fails the run, and the summary names it with what loads it', async () => {
  const report = await check({ ...planOf(), method: IssuingMethod.USER_PROVIDED }, { omit: [STORE] });
  expect(expectOnly(report, STORE, ['present']).present.found).toBe('no Secret of that name in the input');
  expect(report.summary.missingUserSecrets).toEqual([{ name: STORE, namespace: 'demo', usedBy: 'the store' }]);
  expect(formatReport(report)).toMatch(/\n8 secrets checked: 7 passed, 1 failed; missing Secrets you create: basic-store-cluster-secret in namespace demo \(for the store\)\n$/);
  // With the other methods a missing Secret of the plan is the issuing step's to write: it fails, unnamed on the summary line.
  expect((await check(planOf(), { omit: [STORE] })).summary).toEqual({ checked: 8, passed: 7, failed: 1 });
});

test('verify() refuses minDays outside its range, as --min-days does', async () => {
  const plan = planOf();
  const secrets = parseSecrets(JSON.stringify(await pki.secrets(plan)));
  for (const minDays of [-1, 1.5, 3_652_426, 2e8, Number.NaN, Number.POSITIVE_INFINITY]) {
    await expect(verify(loadPlans(distOf(plan)), secrets, { now: NOW, minDays })).rejects.toThrow(`--min-days: days: received ${minDays}; expected ${MIN_DAYS}`);
  }
});
