/**
 * `cluster-tls verify` over the outputs of a span (several --dist, each with its own Secrets,
 * lib/verify/across.ts): the across check, real handshakes of each Kubernetes cluster's Secrets
 * with the others', dialed by the server's names in its own domain, each failure counted against
 * the side it is of; what it refuses; how the command pairs each --secrets with its --dist. The
 * live run on real API servers and cert-manager is the guide's, in test/span.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { cli } from './_cli';
import { exitCode } from '../bin/cluster-tls';
import { X509Certificate } from 'node:crypto';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { ClusterCertificatesProps } from '../lib/certificates/cluster-certificates-props';
import type { KubernetesClusterSpec } from '../lib/model/span';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { ClusterTlsError } from '../lib/model/errors';
import { VerifyOutput, VerifyReport, formatReport, loadPlans, parseSecrets, verify, verifyOutputs } from '../lib/verify';
import { writeLaidOut } from './_output';
import { SecretListJson, SecretsOptions, TestPki, secretObject } from './_pki';

const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const SPAN = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];

let pki: TestPki;
jest.setTimeout(60_000);
beforeAll(async () => {
  pki = await TestPki.create(NOW);
});

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function planOf(current: string, props: Partial<ClusterCertificatesProps> = {}, clusters: KubernetesClusterSpec[] = SPAN, namespace = 'orders'): TlsPlan {
  return new ClusterCertificates(Testing.chart(), 'certs', {
    clusterName: 'orders', namespace, components: ['coordinator', 'store', 'sqlserver'], span: { clusters, current }, ...props,
  }).plan();
}

/** The span with a third Kubernetes cluster, and each of the three in a namespace of its own. */
const THREE: KubernetesClusterSpec[] = [...SPAN, { name: 'north', clusterDomain: 'north.example.com' }];
const SITES: KubernetesClusterSpec[] = THREE.map((c) => ({ ...c, namespace: `orders-${c.name}` }));

/** A Kubernetes cluster's output folder holding its plan, and the Secrets that cluster holds, as the command reads them. */
async function outputOf(plan: TlsPlan, options: SecretsOptions = {}): Promise<{ dist: string; list: SecretListJson; output: VerifyOutput }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-across-'));
  made.push(root);
  const dist = writeLaidOut(root, { [`${plan.namespace}/${plan.clusterName}/tls-plan.json`]: JSON.stringify(plan, undefined, 2) });
  const list = await pki.secrets(plan, options);
  return { dist, list, output: { dist, plans: loadPlans(dist), secrets: parseSecrets(JSON.stringify(list)) } };
}

/** Every Secret signed by another root, and trusting it alone: a cluster whose certificates agree among themselves and with no other cluster. */
function otherRoot(plan: TlsPlan): SecretsOptions {
  return { faults: Object.fromEntries(plan.secrets.map((s) => [s.name, { signer: pki.otherCa, caCrt: pki.otherCa }])) };
}

function failedChecks(report: VerifyReport): string[] {
  return report.secrets.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => `${s.kubernetesCluster} ${s.name}: ${c.check}`));
}

describe('the across check', () => {
  test('the Secrets of two Kubernetes clusters under one root accept each other, every one by the server\'s names in its own domain', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'));
    const report = await verifyOutputs([east.output, west.output], { now: NOW });
    expect(failedChecks(report)).toEqual([]);
    expect(report.ok).toBe(true);
    const plan = planOf('east');
    const servers = plan.secrets.filter((s) => s.role === 'server').length;
    // Each server dialed by each of the other cluster's Secrets; each Secret dialing each of the other cluster's servers.
    for (const s of report.secrets) {
      const across = s.checks.find((c) => c.check === 'across')!;
      const count = (s.role === 'server' ? plan.secrets.length : 0) + servers;
      expect([s.kubernetesCluster, s.name, across.ok, across.found]).toEqual([s.kubernetesCluster, s.name, true, `${count} handshakes, all accepted`]);
    }
    expect(report.secrets.map((s) => s.kubernetesCluster)).toEqual([...plan.secrets.map(() => 'east'), ...plan.secrets.map(() => 'west')]);
    expect(report.plans.map((p) => p.output)).toEqual([{ kubernetesCluster: 'east', dist: east.dist }, { kubernetesCluster: 'west', dist: west.dist }]);
    const text = formatReport(report);
    expect(text).toContain(`plan orders/orders of Kubernetes cluster west (--dist ${west.dist}):`);
    expect(text).toMatch(/orders-store-cluster-secret +orders\/orders in west +server: store +PASS/);
  });

  test('a cluster under another root passes its own checks, and the across check of every Secret of both fails', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'), otherRoot(planOf('west')));
    for (const { output } of [east, west]) {
      expect((await verify(output.plans, output.secrets, { now: NOW })).ok).toBe(true);
    }
    const report = await verifyOutputs([east.output, west.output], { now: NOW });
    expect(failedChecks(report)).toEqual(report.secrets.map((s) => `${s.kubernetesCluster} ${s.name}: across`));
    const store = report.secrets.find((s) => s.kubernetesCluster === 'east' && s.name === 'orders-store-cluster-secret')!.checks.find((c) => c.check === 'across')!;
    expect(store.expected).toBe('mutual handshakes with the Secrets of Kubernetes cluster west: each dials it by its names in east.example.com, and it dials their server Secrets, each side accepting the other');
    expect(store.found).toMatch(/^7 of 7 rejected: dialed by west's orders-cluster-client-secret: the client rejected the server certificate \(.+\); the server rejected the client certificate \(.+\) /);
    // Both roots are named as each side's ca.crt, with what to do.
    const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256.slice(0, 23);
    expect(store.found).toContain(`(east's ca.crt is CN=basic (SHA-256 ${fingerprint(pki.ca.pem)}…), west's ca.crt is CN=basic (SHA-256 ${fingerprint(pki.otherCa.pem)}…): `
      + 'sign every Kubernetes cluster\'s intermediate with the span\'s one root, issue-intermediate.sh with the same ROOT_CA)');
  });

  test('one Secret of the other cluster that fails its own checks is no peer: the across failures are its own', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'), { faults: { 'orders-store-cluster-secret': { signer: pki.otherCa } } });
    const report = await verifyOutputs([east.output, west.output], { now: NOW });
    const bad = report.secrets.filter((s) => !s.ok).map((s) => `${s.kubernetesCluster} ${s.name}: ${s.checks.filter((c) => !c.ok).map((c) => c.check).join(', ')}`);
    expect(bad).toEqual(['west orders-store-cluster-secret: chain, handshake, across']);
  });

  test('a server without its names in its own domain fails its san and across checks, and the other cluster\'s Secrets that dial it do not', async () => {
    const west = planOf('west');
    const store = west.secrets.find((x) => x.name === 'orders-store-cluster-secret')!;
    const faults = { [store.name]: { dnsNames: store.dnsNames!.filter((n) => !n.endsWith('.west.example.com')) } };
    const report = await verifyOutputs([(await outputOf(planOf('east'))).output, (await outputOf(west, { faults })).output], { now: NOW });
    expect(failedChecks(report)).toEqual(['san', 'handshake', 'across'].map((c) => `west orders-store-cluster-secret: ${c}`));
    const across = report.secrets.find((x) => x.kubernetesCluster === 'west' && x.name === store.name)!.checks.find((c) => c.check === 'across')!;
    expect(across.found).toMatch(/^4 of 7 rejected: dialed by east's orders-cluster-client-secret: the client rejected the server certificate \(ERR_TLS_CERT_ALTNAME_INVALID for orders-store\.orders\.svc\.west\.example\.com\)/);
  });

  test('the Secrets of TLS for MySQL clients, in the cluster\'s namespace and in an application\'s, are listed with their Kubernetes cluster and not checked across', async () => {
    const plan = (current: string) => {
      const chart = Testing.chart();
      const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'orders', namespace: 'orders', span: { clusters: SPAN, current } });
      const database = new TlsDatabaseCluster(chart, 'db', {
        clusterName: 'orders', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates, tlsClient: {},
        coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
      });
      database.addSqlClient('orders-api', { namespace: 'apps' });
      return certificates.plan();
    };
    const outputs = [];
    for (const current of ['east', 'west']) {
      const { output, list } = await outputOf(plan(current));
      // Something of the application's namespace in the input, so that its Secret is looked for there.
      outputs.push({ ...output, secrets: parseSecrets(JSON.stringify({ ...list, items: [...list.items, secretObject('other', 'apps', { x: 'y' }, 'Opaque')] })) });
    }
    const report = await verifyOutputs(outputs, { now: NOW });
    const sql = report.secrets.filter((x) => x.sqlTls !== undefined);
    expect(sql.map((x) => `${x.kubernetesCluster} ${x.namespace}/${x.name}`)).toEqual(['east', 'west'].flatMap((k) => [
      `${k} orders/orders-sqlserver-server-secret`, `${k} orders/orders-sqlserver-client-secret`, `${k} apps/orders-api-orders-orders-sql-client`]));
    expect(sql.flatMap((x) => x.checks.map((c) => c.check))).not.toContain('across');
    expect(report.secrets.filter((x) => x.sqlTls === undefined).every((x) => x.checks.some((c) => c.check === 'across' && c.ok))).toBe(true);
  });

  test('the outputs of a span whose Kubernetes clusters each use a namespace of their own are one database cluster, checked across', async () => {
    const outputs = await Promise.all(SITES.map(async (c) => (await outputOf(planOf(c.name, {}, SITES, c.namespace))).output));
    const report = await verifyOutputs(outputs, { now: NOW });
    expect(failedChecks(report)).toEqual([]);
    expect([report.ok, report.unchecked]).toEqual([true, undefined]);
    expect([...new Set(report.secrets.map((s) => `${s.namespace} in ${s.kubernetesCluster}`))]).toEqual(['orders-east in east', 'orders-west in west', 'orders-north in north']);
    expect(report.secrets.every((s) => s.checks.some((c) => c.check === 'across' && c.ok && /^\d+ handshakes, all accepted$/.test(c.found)))).toBe(true);
  });

  test('the outputs of two of a span\'s three Kubernetes clusters: both checked, each against the other, and the third named as not checked, in the report and its summary line', async () => {
    const east = await outputOf(planOf('east', {}, THREE));
    const west = await outputOf(planOf('west', {}, THREE));
    const report = await verifyOutputs([east.output, west.output], { now: NOW });
    expect(failedChecks(report)).toEqual([]);
    expect(report.secrets.every((s) => s.ok)).toBe(true);
    expect(report.ok).toBe(false);
    expect(report.unchecked).toEqual([{ namespace: 'orders', clusterName: 'orders', kubernetesCluster: 'north', clusterDomain: 'north.example.com' }]);
    const text = formatReport(report).split('\n');
    expect(text).toContain('not checked: orders/orders in Kubernetes cluster north (north.example.com), of the span, whose output no --dist gives: give it too, followed by --secrets with the Secrets read there');
    const n = planOf('east').secrets.length * 2;
    expect(text.at(-2)).toBe(`${n} secrets checked: ${n} passed, 0 failed; not checked: orders/orders in north (no --dist)`);
  });

  test('one output is verify alone: no across check, no Kubernetes cluster in the report', async () => {
    const east = await outputOf(planOf('east'));
    const report = await verifyOutputs([east.output], { now: NOW });
    expect(report).toEqual(await verify(east.output.plans, east.output.secrets, { now: NOW }));
    expect(report.secrets.flatMap((s) => s.checks.map((c) => c.check))).not.toContain('across');
  });
});

describe('what it refuses, before any handshake', () => {
  const refused = async (outputs: VerifyOutput[]) => {
    const e = await verifyOutputs(outputs, { now: NOW }).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(ClusterTlsError);
    return (e as Error).message;
  };

  test('an output whose database cluster spans no Kubernetes clusters', async () => {
    const east = await outputOf(planOf('east'));
    const single = await outputOf(new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'orders', namespace: 'orders', components: ['coordinator', 'store', 'sqlserver'] }).plan());
    expect(await refused([east.output, single.output])).toBe(`--dist: plan: received "${single.dist}: orders/orders, which spans no Kubernetes clusters"; expected with several --dist, `
      + 'the outputs of one database cluster across Kubernetes clusters (span), one per Kubernetes cluster; check any other output with a --dist of its own');
  });

  test('two outputs of one Kubernetes cluster', async () => {
    const east = await outputOf(planOf('east'));
    const again = await outputOf(planOf('east'));
    expect(await refused([east.output, again.output])).toBe(`--dist: folder: received "${again.dist}"; expected the output of a Kubernetes cluster no other --dist is for: `
      + `${east.dist} is Kubernetes cluster east's output of orders/orders too`);
  });

  test('no output at all', async () => {
    expect(await refused([])).toBe('--dist: outputs: received "none"; expected at least one synthesized output folder');
  });

  test('a database cluster that one output alone holds: it would be checked across nothing', async () => {
    const east = await outputOf(planOf('east'));
    const other = await outputOf(new ClusterCertificates(Testing.chart(), 'certs', {
      clusterName: 'billing', namespace: 'orders', components: ['coordinator', 'store', 'sqlserver'], span: { clusters: SPAN, current: 'west' },
    }).plan());
    expect(await refused([east.output, other.output])).toBe(`--dist: plan: received "${east.dist}: orders/orders, which no other --dist holds"; expected a database cluster of the outputs `
      + 'of two Kubernetes clusters or more: give the output of each Kubernetes cluster it spans, or check this output with a --dist of its own');
  });

  test('a refusal of one output\'s input names the output', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'));
    const elsewhere = { ...west.output, secrets: west.output.secrets.map((x) => ({ ...x, namespace: 'default' })) };
    expect(await refused([east.output, elsewhere])).toBe(`--dist "${west.dist}": --dist: plans: received ["orders/orders"]; expected a plan for the namespace of the Secrets ("default"); choose one with --namespace and --cluster`);
  });

  test('two outputs from declarations that disagree (west\'s own domain another), one line naming both and what to do', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west', {}, [{ name: 'west', clusterDomain: 'east.example.com' }]));
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: orders/orders across west"; `
      + `expected the Kubernetes clusters east, west, as ${east.dist} declares it: synthesize every output of the span from one declaration`);
  });

  test.each([
    ['east in another domain', (c: KubernetesClusterSpec) => (c.name === 'east' ? { ...c, clusterDomain: 'east.other.example.com' } : c), 'with east in east.other.example.com', 'east in east.example.com'],
    ['north in another namespace', (c: KubernetesClusterSpec) => (c.name === 'north' ? { ...c, namespace: 'orders-north' } : c), 'with north in namespace orders-north', 'north in namespace orders'],
  ])('two outputs whose declarations differ in a field (%s): the first that differs is named', async (_what, change, received, expected) => {
    const east = await outputOf(planOf('east', {}, THREE));
    const west = await outputOf(planOf('west', {}, THREE.map(change)));
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: orders/orders ${received}"; `
      + `expected ${expected}, as ${east.dist} declares it: synthesize every output of the span from one declaration`);
  });

  test('outputs in namespaces of their own that their declarations do not give: one line naming the namespaces to declare', async () => {
    const east = await outputOf(planOf('east', {}, SPAN, 'orders-east'));
    const west = await outputOf(planOf('west', {}, SPAN, 'orders-west'));
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: orders-west/orders, Kubernetes cluster west's output in namespace orders-west"; `
      + `expected the namespace ${east.dist} declares for west, orders-east: declare each Kubernetes cluster's namespace in span.clusters, the same in every app of the span, `
      + 'and synthesize again: east "orders-east", west "orders-west"');
  });

  test('an output whose declaration puts another output\'s Kubernetes cluster in another namespace than that output is in', async () => {
    const sites = SITES.slice(0, 2);
    const east = await outputOf(planOf('east', {}, sites, 'orders-east'));
    const west = await outputOf(planOf('west', {}, [{ ...sites[0], namespace: 'orders' }, sites[1]], 'orders-west'));
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: orders-west/orders, which declares east in namespace orders"; `
      + `expected the namespace ${east.dist}, east's output, is in, orders-east: declare each Kubernetes cluster's namespace in span.clusters, the same in every app of the span, `
      + 'and synthesize again: east "orders-east", west "orders-west"');
  });

  test.each([
    ['puts it in another namespace', (c: any) => ({ ...c, namespace: 'elsewhere' }), 'gives namespace elsewhere and domain west.example.com'],
    ['puts it in another domain', (c: any) => ({ ...c, clusterDomain: 'elsewhere.example.com' }), 'gives namespace orders and domain elsewhere.example.com'],
    ['does not name it', (c: any) => ({ ...c, name: 'north' }), 'does not name it'],
  ])('a plan whose span %s, its own Kubernetes cluster', async (_what, change, says) => {
    const plan = planOf('west');
    const east = await outputOf(planOf('east'));
    const west = await outputOf({ ...plan, span: { ...plan.span!, clusters: [plan.span!.clusters[0], change(plan.span!.clusters[1])] } });
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: orders/orders, Kubernetes cluster west's output"; `
      + `expected a plan whose span.clusters gives west namespace orders and domain west.example.com, as the library writes it (this one ${says}): synthesize again`);
  });
});

describe('cluster-tls verify with several --dist', () => {
  const run = (argv: string[]) => cli(argv);


  async function files() {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'));
    const secrets = (o: { dist: string; list: SecretListJson }) => {
      const file = path.join(path.dirname(o.dist), 'secrets.json');
      fs.writeFileSync(file, JSON.stringify(o.list));
      return file;
    };
    return { east: { dist: east.dist, secrets: secrets(east) }, west: { dist: west.dist, secrets: secrets(west) } };
  }

  test('each --secrets is the output\'s before it: both checked, each against its own cluster and across', async () => {
    const { east, west } = await files();
    const ran = await run(['verify', '--dist', east.dist, '--secrets', east.secrets, '--dist', west.dist, '--secrets', west.secrets, '--now', NOW.toISOString()]);
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const n = planOf('east').secrets.length * 2;
    expect(ran.stdout).toContain(`${n} secrets checked: ${n} passed, 0 failed`);
    // Given the wrong way round, each cluster's Secrets are checked against the other's plan: their names are of the other domain.
    const swapped = await run(['verify', '--dist', east.dist, '--secrets', west.secrets, '--dist', west.dist, '--secrets', east.secrets, '--now', NOW.toISOString()]);
    expect(swapped.code).toBe(1);
    expect(swapped.stdout).toMatch(/ - san: expected/);
  });

  test('refuses --secrets before any --dist, a --dist without its --secrets, and one --dist twice, in one line each', async () => {
    const { east, west } = await files();
    expect(await run(['verify', '--secrets', east.secrets, '--dist', east.dist, '--dist', west.dist, '--secrets', west.secrets])).toEqual({
      code: 2, stdout: '',
      stderr: `error: --secrets: received "${east.secrets}" before any --dist; expected, with several --dist, each output's --secrets after its own --dist; run cluster-tls --help for usage\n`,
    });
    expect((await run(['verify', '--dist', east.dist, '--dist', west.dist, '--secrets', west.secrets])).stderr)
      .toBe(`error: --dist: received "${east.dist}" with no --secrets after it; expected the Secrets of its Kubernetes cluster (--secrets <file|->) after each --dist; run cluster-tls --help for usage\n`);
    expect((await run(['verify', '--dist', east.dist, '--secrets', east.secrets, '--dist', `${east.dist}/`, '--secrets', west.secrets])).stderr)
      .toBe(`error: --dist: received "${east.dist}/", the folder of --dist "${east.dist}" before it; expected each Kubernetes cluster's output folder once; run cluster-tls --help for usage\n`);
  });

  test('an input one output cannot read is refused in one line naming that output', async () => {
    const { east, west } = await files();
    fs.writeFileSync(west.secrets, 'NAME   TYPE');
    const ran = await run(['verify', '--dist', east.dist, '--secrets', east.secrets, '--dist', west.dist, '--secrets', west.secrets]);
    expect([ran.code, ran.stdout]).toEqual([2, '']);
    expect(ran.stderr).toMatch(new RegExp(`^error: --dist "${west.dist}": ${west.secrets}: content: received "NAME   TYPE"; expected JSON: .+\n$`));
  });

  test('the outputs of two of a span\'s three Kubernetes clusters: exit code 3, the third named in the summary line; with --json, ok false and the cluster in unchecked', async () => {
    const outputs = [];
    for (const current of ['east', 'west']) {
      const o = await outputOf(planOf(current, {}, THREE));
      const file = path.join(path.dirname(o.dist), 'secrets.json');
      fs.writeFileSync(file, JSON.stringify(o.list));
      outputs.push('--dist', o.dist, '--secrets', file);
    }
    const ran = await run(['verify', ...outputs, '--now', NOW.toISOString()]);
    const n = planOf('east').secrets.length * 2;
    expect([ran.code, ran.stderr, ran.stdout.trim().split('\n').pop()]).toEqual([3, '', `${n} secrets checked: ${n} passed, 0 failed; not checked: orders/orders in north (no --dist)`]);
    const json = await run(['verify', ...outputs, '--now', NOW.toISOString(), '--json']);
    expect([json.code, JSON.parse(json.stdout).ok, JSON.parse(json.stdout).unchecked.map((u: any) => u.kubernetesCluster)]).toEqual([3, false, ['north']]);
    expect(json.stderr.trim().split('\n').pop()).toBe(`${n} secrets checked: ${n} passed, 0 failed; not checked: orders/orders in north (no --dist)`);
    // The usage names the exit code.
    expect((await run(['--help'])).stdout).toContain('With several --dist, 3 every check passed, but a Kubernetes cluster of a span was not checked:\nno --dist gave its output.');
  });

  test('the exit code is read from the report: 3 only while clusters of the span are unchecked and no Secret failed; a report not ok for any other reason is 1', async () => {
    const { output } = await outputOf(planOf('east', {}, THREE));
    const passed = await verifyOutputs([output], { now: NOW });
    const failed = await verifyOutputs([{ ...output, secrets: output.secrets.slice(1) }], { now: NOW });
    const north = { namespace: 'orders', clusterName: 'orders', kubernetesCluster: 'north', clusterDomain: 'north.example.com' };
    expect([passed.ok, failed.ok]).toEqual([true, false]);
    expect([
      exitCode(passed),
      exitCode(failed),
      exitCode({ ...failed, unchecked: [north] }),
      exitCode({ ...passed, ok: false, unchecked: [north] }),
      // A report that fails for a reason that is not a Secret's (none today): a failure, never a check left incomplete.
      exitCode({ ...passed, ok: false }),
      exitCode({ ...passed, ok: false, unchecked: [] }),
    ]).toEqual([0, 1, 1, 3, 1, 1]);
  });

  test('with one --dist, every --secrets is its own, wherever it is given', async () => {
    const { east } = await files();
    const ran = await run(['verify', '--secrets', east.secrets, '--dist', east.dist, '--now', NOW.toISOString()]);
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const n = planOf('east').secrets.length;
    expect(ran.stdout).toContain(`${n} secrets checked: ${n} passed, 0 failed`);
  });
});
