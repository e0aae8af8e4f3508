/**
 * `cluster-tls verify` of a span's Secrets: the rotation check of a root replacement, which walks
 * from the leaf through its cluster's intermediate to the root in ca.crt; then over the outputs of
 * the span (several --dist, each with its own Secrets), the across check, real handshakes of each
 * Kubernetes cluster's Secrets with the others', dialed by the server's own domain; what it
 * refuses; how the command pairs each --secrets with its --dist. The live runs on real API servers
 * and cert-manager are the guide's, in test/span.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { CliIo, main } from '../bin/cluster-tls';
import { ClusterCertificates, ClusterCertificatesProps } from '../lib/certificates/cluster-certificates';
import type { TlsPlan } from '../lib/certificates/certificate-options';
import { VerifyInputError, VerifyOutput, VerifyReport, formatReport, loadPlans, parseSecrets, verify, verifyOutputs } from '../lib/verify';
import { writeLaidOut } from './_output';
import { RotationPhase } from '../lib/certificates/rotation';
import { SecretListJson, SecretsOptions, TestCa, TestPki, makeIntermediate, makeKey } from './_pki';

const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
const SPAN = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];

let pki: TestPki;
jest.setTimeout(60_000);
beforeAll(async () => {
  pki = await TestPki.create(NOW);
});

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function planOf(current: string, props: Partial<ClusterCertificatesProps> = {}, clusters = SPAN): TlsPlan {
  return new ClusterCertificates(Testing.chart(), 'certs', {
    clusterName: 'orders', namespace: 'orders', components: ['coordinator', 'store', 'sqlserver'], span: { clusters, current }, ...props,
  }).plan();
}

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

describe('the rotation check of a root replacement, through the intermediate', () => {
  /** Each root's intermediate of Kubernetes cluster east, as issue-intermediate.sh signs it. */
  let intermediates: { first: TestCa; next: TestCa };
  beforeAll(async () => {
    const made = async (signer: TestCa) => makeIntermediate({
      subject: 'OU=east, CN=orders', key: await makeKey('rsa2048'), signer, notBefore: pki.ca.certificate.notBefore, notAfter: pki.ca.certificate.notAfter,
    });
    intermediates = { first: await made(pki.ca), next: await made(pki.otherCa) };
  });

  /** East's Secrets in a phase: each leaf signed by `intermediate` and sent with it, ca.crt the roots in order. */
  const phase = async (at: RotationPhase, intermediate: TestCa, roots: TestCa[]) => {
    const plan = planOf('east', { rotations: [{ id: 'root-2', phase: at }] });
    const pem = roots.map((r) => r.pem).join('');
    const faults = Object.fromEntries(plan.secrets.map((x) => [x.name, { signer: intermediate, edit: (d: Record<string, string>) => ({ ...d, 'tls.crt': d['tls.crt'] + intermediate.pem, 'ca.crt': pem }) }]));
    const { output } = await outputOf(plan, { faults });
    const report = await verify(output.plans, output.secrets, { now: NOW });
    return report.secrets.map((x) => x.checks.find((c) => c.check === 'rotation')!);
  };

  test('each phase passes with the leaves its plan names: of the first root\'s intermediate, then of the next root\'s', async () => {
    const checks = [
      ...await phase(RotationPhase.TRUST_BOTH, intermediates.first, [pki.otherCa, pki.ca]),
      ...await phase(RotationPhase.SWITCH_LEAVES, intermediates.next, [pki.otherCa, pki.ca]),
      ...await phase(RotationPhase.DROP_OLD, intermediates.next, [pki.otherCa]),
    ];
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks).toHaveLength(planOf('east').secrets.length * 3);
  });

  test('a leaf of the next root\'s intermediate while the phase still signs with the first root fails, naming the root that signed it', async () => {
    const checks = await phase(RotationPhase.TRUST_BOTH, intermediates.next, [pki.otherCa, pki.ca]);
    expect(checks.map((c) => [c.ok, c.found])).toEqual(checks.map(() => [false, expect.stringMatching(/^tls\.crt is signed by CA certificate 1 of ca\.crt \(/)]));
  });
});

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
    expect(report.plans.map((p) => p.span)).toEqual([{ kubernetesCluster: 'east', dist: east.dist }, { kubernetesCluster: 'west', dist: west.dist }]);
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
    expect(store.expected).toBe('mutual handshakes with the Secrets of Kubernetes clusters west: each dials it by its names in east.example.com, and it dials their server Secrets by theirs, each side accepting the other');
    expect(store.found).toMatch(/^7 of 7 rejected: dialed by west's orders-cluster-client-secret: the client rejected the server certificate \(.+\); the server rejected the client certificate \(.+\);/);
  });

  test('one Secret of the other cluster that fails its own checks is no peer: the across failures are its own', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west'), { faults: { 'orders-store-cluster-secret': { signer: pki.otherCa } } });
    const report = await verifyOutputs([east.output, west.output], { now: NOW });
    const bad = report.secrets.filter((s) => !s.ok).map((s) => `${s.kubernetesCluster} ${s.name}: ${s.checks.filter((c) => !c.ok).map((c) => c.check).join(', ')}`);
    expect(bad).toEqual(['west orders-store-cluster-secret: chain, handshake, across']);
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
    expect(e).toBeInstanceOf(VerifyInputError);
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

  test('two outputs of one domain, from declarations that disagree', async () => {
    const east = await outputOf(planOf('east'));
    const west = await outputOf(planOf('west', {}, [{ name: 'west', clusterDomain: 'east.example.com' }]));
    expect(await refused([east.output, west.output])).toBe(`--dist: span: received "${west.dist}: Kubernetes cluster west in east.example.com"; `
      + `expected a domain no other output of orders/orders has (${east.dist}, Kubernetes cluster east, is in it too): synthesize every output of the span from one declaration`);
  });
});

describe('cluster-tls verify with several --dist', () => {
  async function run(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, readStdin: async () => '' };
    const code = await main(argv, io);
    return { code, stdout, stderr };
  }

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
      .toBe(`error: --dist "${east.dist}": received no --secrets after it; expected the Secrets of its Kubernetes cluster (--secrets <file|->) after each --dist; run cluster-tls --help for usage\n`);
    expect((await run(['verify', '--dist', east.dist, '--secrets', east.secrets, '--dist', `${east.dist}/`, '--secrets', west.secrets])).stderr)
      .toBe(`error: --dist: received "${east.dist}/" twice; expected each Kubernetes cluster's output folder once; run cluster-tls --help for usage\n`);
  });

  test('with one --dist, every --secrets is its own, wherever it is given', async () => {
    const { east } = await files();
    const ran = await run(['verify', '--secrets', east.secrets, '--dist', east.dist, '--now', NOW.toISOString()]);
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const n = planOf('east').secrets.length;
    expect(ran.stdout).toContain(`${n} secrets checked: ${n} passed, 0 failed`);
  });
});
