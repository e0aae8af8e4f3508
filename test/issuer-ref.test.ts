/**
 * Leaves from an issuer the user names (`issuerRef`): the objects, the plan and the refusals, then
 * the proof as the world judges it. An organisation's CA-type ClusterIssuer, whose CA carries the
 * organisation's subject and lives in cert-manager's namespace, is fed with the synthesized
 * Certificates to the in-test re-creation of cert-manager; the Secrets it writes complete every
 * mutual handshake (OpenSSL through node:tls, and Go's crypto/tls), and `cluster-tls verify`
 * passes them from the output folder the synth wrote. The real cert-manager issues them in
 * test/control-plane.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import { App, Chart, Testing } from 'cdk8s';
import {
  ClusterCertificates, ClusterTlsError, IssuerKind, IssuingMethod, TlsDatabaseCluster, checkManifests, formatReport, loadPlans, parseSecrets, renderApp, synthesize, verify,
} from '../lib';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { ClusterKind } from '../lib/model/catalog';
import PLAN_SCHEMA from '../lib/plan/tls-plan.schema.json';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { describeWithTools } from './_programs';
import { expectValidAgainstCrds } from './_crds';
import { SecretPem, formatRejections, goHandshakeMatrix, handshakeMatrix, nameVerifiable } from './_handshakes';
import { ORG_CA_SECRET, ORG_ISSUER, organisationIssuer } from './_org-issuer';
import { secretObject } from './_pki';

/** A database cluster whose certificates the organisation's issuer signs. */
function appWithIssuer(outdir?: string, issuerRef: ConstructorParameters<typeof ClusterCertificates>[2]['issuerRef'] = { name: ORG_ISSUER }): App {
  const app = outdir === undefined ? Testing.app() : new App({ outdir });
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef });
  new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates });
  return app;
}

function rendered(app: App): { objects: any[]; plan: TlsPlan } {
  const out = renderApp(app);
  return { objects: out.objects.map((o) => o.manifest), plan: JSON.parse(out.files.find((f) => f.path === 'demo/basic/tls-plan.json')!.content) };
}

const certificatesOf = (objects: readonly any[]) => objects.filter((o) => o.kind === 'Certificate');

describe('the objects and the plan', () => {
  const { objects, plan } = rendered(appWithIssuer());

  test('no CA, no Issuer: every Certificate names the user\'s ClusterIssuer, and fits its CRD', () => {
    expect(objects.filter((o) => ['Issuer', 'ClusterIssuer'].includes(o.kind))).toEqual([]);
    const certificates = certificatesOf(objects);
    expect(certificates.length).toBe(plan.secrets.length);
    expect(certificates.filter((c) => c.spec.isCA)).toEqual([]);
    for (const c of certificates) {
      expect([c.metadata.name, c.spec.issuerRef]).toEqual([c.metadata.name, { name: ORG_ISSUER, kind: 'ClusterIssuer', group: 'cert-manager.io' }]);
    }
    expectValidAgainstCrds(objects);
  });

  test('the plan names the issuer instead of a CA, and fits the published schema', () => {
    expect(plan.issuer).toEqual({ name: ORG_ISSUER, kind: 'ClusterIssuer', group: 'cert-manager.io' });
    expect(plan).not.toHaveProperty('ca');
    const validate = new Ajv({ strict: true }).compile(PLAN_SCHEMA);
    expect(validate(plan) ? [] : validate.errors).toEqual([]);
  });

  test('an Issuer of the cluster\'s namespace, and an external issuer of another group, are named as given', () => {
    const namespaced = certificatesOf(rendered(appWithIssuer(undefined, { name: 'team-ca', kind: IssuerKind.ISSUER })).objects);
    expect(namespaced.length).toBeGreaterThan(0);
    namespaced.forEach((c) => expect(c.spec.issuerRef).toEqual({ name: 'team-ca', kind: 'Issuer', group: 'cert-manager.io' }));
    const external = rendered(appWithIssuer(undefined, { name: 'pca', kind: 'AWSPCAClusterIssuer', group: 'awspca.cert-manager.io' }));
    certificatesOf(external.objects).forEach((c) => expect(c.spec.issuerRef).toEqual({ name: 'pca', kind: 'AWSPCAClusterIssuer', group: 'awspca.cert-manager.io' }));
    expect(external.plan.issuer).toEqual({ name: 'pca', kind: 'AWSPCAClusterIssuer', group: 'awspca.cert-manager.io' });
  });

  test('the validation plugin\'s rules pass the output: host names, Secret names and lifetimes hold without a CA of the library\'s', () => {
    expect(checkManifests(objects.map((object) => ({ manifestPath: 'demo.k8s.yaml', object })))).toEqual([]);
    // And still see a host name missing from a Certificate of the user's issuer.
    const broken = objects.map((o) => (o.kind === 'Certificate' && o.metadata.name === 'basic-store-cluster-secret'
      ? { ...o, spec: { ...o.spec, dnsNames: o.spec.dnsNames.slice(1) } } : o));
    expect(checkManifests(broken.map((object) => ({ manifestPath: 'demo.k8s.yaml', object }))).map((v) => v.name)).toEqual(['basic-store-cluster-secret']);
  });

  test('the runbook says the issuer must be ready, and applies the certificates alone', () => {
    const runbook = renderApp(appWithIssuer()).files.find((f) => f.path === 'demo/basic/database-runbook.md')!.content;
    expect(runbook).toContain(`your ClusterIssuer \`${ORG_ISSUER}\` (cert-manager.io) must be ready to sign for this cluster's host names, with the client and server usages, keeping each certificate's Common Name and writing its CA to the Secret's \`ca.crt\``);
    expect(runbook).toContain('kubectl apply -f demo.k8s.yaml -l cdk8s-cluster-tls/certificates=basic');
  });

  test('the expiry watch reads the leaves alone: the CA is the issuer\'s', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef: { name: ORG_ISSUER }, components: ['store'] });
    // A CA threshold longer than the library's default CA is held to no lifetime of the library's.
    certificates.watchExpiry({ prometheusRule: true, caThreshold: '100000h' });
    const rule = renderApp(app).objects.map((o) => o.manifest).find((o) => o.kind === 'PrometheusRule');
    const watched = new Set(rule.spec.groups[0].rules.map((r: any) => r.labels?.certificate).filter(Boolean));
    expect(watched).toEqual(new Set(['leaf']));
  });
});

describe('refusals', () => {
  const refusal = (props: Record<string, unknown>) => () => new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', issuerRef: { name: ORG_ISSUER }, ...props });

  test('with another method than cert-manager', () => {
    expect(refusal({ method: IssuingMethod.CFSSL })).toThrow(new ClusterTlsError('test/certs: issuerRef: received {"name":"org-ca"}; '
      + 'expected no issuerRef with method "cfssl": issuerRef names an issuer of cert-manager\'s, which goes with method "cert-manager"'));
  });

  test('with the props of the library\'s own CA, and with rotations', () => {
    for (const [prop, value, shown] of [['caDuration', '50000h', '"50000h"'], ['caRenewBefore', '100h', '"100h"'], ['caKeyRotationPolicy', 'Never', '"Never"'],
      ['rotations', [{ id: 'r1', kind: 'leaf-renewal' }], '[{"id":"r1","kind":"leaf-renewal"}]']] as const) {
      expect(refusal({ [prop]: value })).toThrow(new ClusterTlsError(`test/certs: ${prop}: received ${shown}; expected no ${prop} with issuerRef: `
        + 'the issuer\'s CA is yours, and so are its lifetime, its key and its rotation (cert-manager renews each certificate from the issuer before it expires)'));
    }
  });

  test('a name, kind or group Kubernetes would refuse', () => {
    const of = (issuerRef: Record<string, unknown>) => () => new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', issuerRef: issuerRef as any });
    expect(of({ name: 'Org_CA' })).toThrow(/^test\/certs: issuerRef\.name: received "Org_CA"; expected /);
    expect(of({ name: ORG_ISSUER, kind: 'Vault' })).toThrow(new ClusterTlsError('test/certs: issuerRef.kind: received "Vault"; expected "ClusterIssuer" or "Issuer", the kinds of cert-manager\'s issuers'));
    expect(of({ name: ORG_ISSUER, kind: 'vaultIssuer', group: 'example.com' })).toThrow(new ClusterTlsError('test/certs: issuerRef.kind: received "vaultIssuer"; '
      + 'expected a Kubernetes kind, such as "AWSPCAClusterIssuer": a capital letter, then letters and digits'));
    expect(of({ name: ORG_ISSUER, group: 'not a group' })).toThrow(/^test\/certs: issuerRef\.group: received "not a group"; expected /);
    expect(of({ kind: 'Issuer' })).toThrow(/^test\/certs: issuerRef\.name: received nothing; expected /);
  });

  test('with tlsClient, whose CA only the library makes', () => {
    const chart = new Chart(Testing.app(), 'demo', { namespace: 'demo' });
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', issuerRef: { name: ORG_ISSUER } });
    expect(() => new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates, tlsClient: {} }))
      .toThrow(/^demo\/db: tlsClient: received \{.*\}; expected no tlsClient while the certificates name an issuer of yours \(issuerRef, ClusterIssuer org-ca\): TLS for MySQL clients rests on a CA of the library's, which issuerRef replaces; /);
    expect(certificates.issuerName(ClusterKind.DATABASE)).toBe(ORG_ISSUER);
  });

  test('the leaves\' own validity is still checked', () => {
    expect(refusal({ duration: '100h', renewBefore: '200h' })).toThrow(new ClusterTlsError('test/certs: renewBefore: received "200h"; expected a window shorter than duration (100h)'));
    // A leaf longer than the library's default CA is the issuer's to judge.
    expect(refusal({ duration: '90000h' })).not.toThrow();
  });
});

describe('issued by an organisation\'s CA ClusterIssuer (the in-test re-creation of cert-manager)', () => {
  let work: string;
  let outdir: string;
  let plan: TlsPlan;
  let secrets: Map<string, SecretPem>;
  let orgCa: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-issuer-ref-'));
    outdir = path.join(work, 'dist');
    synthesize(appWithIssuer(outdir));
    const out = rendered(appWithIssuer());
    plan = out.plan;
    const issuer = await CertManagerIssuer.issueAll([...organisationIssuer(), ...out.objects]);
    orgCa = issuer.secret('cert-manager', ORG_CA_SECRET)['tls.crt'];
    secrets = new Map([...issuer.secrets].filter(([key]) => key.startsWith('demo/')).map(([key, secret]) => [key.split('/')[1], secret]));
  }, 120_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test('every Secret carries the organisation\'s CA in ca.crt', () => {
    expect([...secrets.keys()].sort()).toEqual(plan.secrets.map((s) => s.name).sort());
    for (const secret of secrets.values()) {
      expect(secret['ca.crt']).toBe(orgCa);
    }
  });

  test('OpenSSL (node:tls): every Secret completes a mutual handshake with every server, for every name', async () => {
    const result = await handshakeMatrix(plan, secrets);
    expect(formatRejections(result.rejections)).toBe('');
    expect(result.handshakes).toBe(dialedHandshakes(plan));
  }, 120_000);

  test('cluster-tls verify passes them, read from the output folder the synth wrote, against the CA they all carry; a Secret of another CA fails', async () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [...secrets].map(([name, s]) => secretObject(name, 'demo', { ...s })) };
    const report = await verify(loadPlans(outdir), parseSecrets(JSON.stringify(list)), {});
    expect(report.secrets.filter((s) => !s.ok).map((s) => [s.name, s.checks.filter((c) => !c.ok)])).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.plans[0].ca).toBe(`${plan.secrets.length} of the ${plan.secrets.length} Secrets of the cluster`);
    expect(formatReport(report).split('\n')[0]).toMatch(/^plan demo\/basic: \.\.\/cluster-tls\/demo\/basic\/tls-plan\.json, issued with cert-manager through ClusterIssuer org-ca, checked at /);
    // A Secret of another CA is caught: the reference is the CA the cluster's Secrets carry.
    const other = await CertManagerIssuer.issueAll(rendered(appWithLibraryCa()).objects);
    const stranger = { ...other.secret('demo', 'basic-store-cluster-secret') };
    const mixed = { ...list, items: list.items.map((item) => (item.metadata.name === 'basic-store-cluster-secret' ? secretObject('basic-store-cluster-secret', 'demo', stranger) : item)) };
    const caught = await verify(loadPlans(outdir), parseSecrets(JSON.stringify(mixed)), {});
    expect(caught.ok).toBe(false);
    expect(caught.secrets.find((s) => s.name === 'basic-store-cluster-secret')!.checks.filter((c) => !c.ok).map((c) => c.check)).toContain('same-ca');
  }, 120_000);
});

describeWithTools('Go\'s crypto/tls as the peer, with the organisation\'s issuer', ['tls-peer'], () => {
  test('Go accepts every pair, for every name', async () => {
    const { objects, plan } = rendered(appWithIssuer());
    const issuer = await CertManagerIssuer.issueAll([...organisationIssuer(), ...objects]);
    const secrets = new Map([...issuer.secrets].filter(([key]) => key.startsWith('demo/')).map(([key, secret]) => [key.split('/')[1], secret]));
    const result = goHandshakeMatrix(plan, secrets);
    expect(formatRejections(result.rejections)).toBe('');
    expect(result.handshakes).toBe(dialedHandshakes(plan));
  }, 120_000);
});

/** The same cluster with a CA of the library's, for a Secret of another CA. */
function appWithLibraryCa(): App {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }) });
  return app;
}

/** How many handshakes the matrix makes: every server, by every name it carries, dialled by every Secret. */
function dialedHandshakes(plan: TlsPlan): number {
  const servers = plan.secrets.filter((s) => s.role === 'server');
  const names = servers.reduce((n, s) => n + (s.dnsNames ?? []).filter(nameVerifiable).length + (s.ipAddresses ?? []).length
    + ((s.dnsNames ?? []).some((d) => !nameVerifiable(d)) ? 1 : 0), 0);
  return names * plan.secrets.length;
}
