/**
 * The proof of the rotations: the reference app's deployment, stepped through every phase and
 * every single pod restart in the operator's order (in each of the legal interleavings of the two
 * clusters), with real mutual handshakes between every pair of pods that talk after each step
 * (test/_rotation-simulator.ts). The Secrets are issued for real: by the synthesized cfssl script
 * with the real cfssl, or by the user following the plan. The operator's own cert-manager
 * procedure (delete the Secrets, restart the pods) is simulated too, and must show its outage.
 * The cert-manager rotations, and every method's runbook run command by command, are in
 * test/rotation-runbooks.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { addDeployment } from '../main';
import {
  CertificateRotation, IssuingMethod, RotationKind, ROTATION_PHASES, TlsPlan, renderApp,
} from '../lib';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { createFakeKubectl, FakeKubectl, FakeState, tlsSecretsOf } from './_fake-kubectl';
import type { SecretPem } from './_handshakes';
import { CHANGEFEED_FIRST, RotationSimulator, formatOutages } from './_rotation-simulator';

const NS = 'demo';
const ID = '2026-11';
const CA_REPLACEMENT = ROTATION_PHASES[RotationKind.CA_REPLACEMENT];

/** The reference deployment in one namespace, synthesized with the given rotations. */
function render(method: IssuingMethod, rotations: CertificateRotation[]) {
  const app = new App();
  addDeployment(app, NS, method, rotations);
  const files = new Map(renderApp(app).files.map((f) => [f.path, f]));
  const manifests = YAML.parseAllDocuments(files.get(`${NS}.k8s.yaml`)!.content).map((d) => d.toJS());
  const plan: TlsPlan = JSON.parse(files.get(`${NS}/basic/tls-plan.json`)!.content);
  return { files, manifests, plan };
}

/** The Secrets of the namespace the stand-in kubectl holds, decoded. */
function secretsOf(kubectl: FakeKubectl): Map<string, SecretPem> {
  return tlsSecretsOf(kubectl, NS);
}

/** Runs a generated script with the stand-in kubectl; throws with its output when it fails. */
function run(script: string, kubectl: FakeKubectl): string {
  const result = spawnSync(script, [], { encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
  if (result.status !== 0) {
    throw new Error(`${path.basename(script)} exited ${result.status}: ${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

/** The CA certificates of a PEM bundle. */
function certificates(pem: string): X509Certificate[] {
  return pem.split(/(?<=-----END CERTIFICATE-----)/).filter((b) => b.includes('BEGIN')).map((b) => new X509Certificate(b.trim()));
}

/** Checks that every pod ended with one CA that is not `initialCa`, and a certificate it signed. */
function expectReplaced(sim: RotationSimulator, initialCa: string): void {
  for (const pod of sim.pods) {
    const cas = certificates(pod.loaded!.ca);
    expect(cas).toHaveLength(1);
    expect(cas[0].fingerprint256).not.toBe(new X509Certificate(initialCa).fingerprint256);
    expect(new X509Certificate(pod.loaded!.cert).verify(cas[0].publicKey)).toBe(true);
  }
}

describe('the rotation simulator: restart order', () => {
  test('each cluster restarts in the operator\'s order, highest ordinal first, the two clusters interleaved as asked, then the drainer and the clients', () => {
    const out = render(IssuingMethod.CFSSL, [{ id: ID }]);
    const sim = new RotationSimulator(out.plan, out.manifests);
    const clients = ['database client', 'migration client'];
    expect(sim.rollSequence({ interleaving: 'alternate' }).map((p) => p.name)).toEqual([
      'coordinator-0', 'mig-master-0', 'columnar-0', 'mig-worker-0', 'store-0', 'pump-0', 'sqlserver-0', 'changefeed-0', 'drainer-0', ...clients,
    ]);
    expect(sim.rollSequence({ interleaving: 'migration-first', databaseOrder: CHANGEFEED_FIRST }).map((p) => p.name)).toEqual([
      'mig-master-0', 'mig-worker-0', 'changefeed-0', 'coordinator-0', 'columnar-0', 'store-0', 'pump-0', 'sqlserver-0', 'drainer-0', ...clients,
    ]);
    // Three store pods roll from the highest ordinal down, as a StatefulSet partition moves.
    const three = out.manifests.map((m) => (m.kind === 'DatabaseCluster' ? { ...m, spec: { ...m.spec, store: { ...m.spec.store, replicas: 3 } } } : m));
    expect(new RotationSimulator(out.plan, three).rollSequence({ interleaving: 'database-first' }).map((p) => p.name).filter((n) => n.startsWith('store')))
      .toEqual(['store-2', 'store-1', 'store-0']);
  });
});

describeWithCfssl('the rotation simulator')('cfssl: the real script and the real cfssl, phase after phase', () => {
  let pki: string;
  let kubectl: FakeKubectl;

  beforeEach(() => {
    requireCfssl();
    pki = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-pki-'));
    kubectl = createFakeKubectl();
  });

  /** Copies the synthesized cfssl folder over the working copy (the runbook's `cp -r`), keeping what the script made. */
  function copyFolder(files: ReturnType<typeof render>['files']): string {
    for (const [p, f] of files) {
      if (p.startsWith(`${NS}/basic/cfssl/`)) {
        const into = path.join(pki, p.slice(`${NS}/basic/cfssl/`.length));
        fs.mkdirSync(path.dirname(into), { recursive: true });
        fs.writeFileSync(into, f.content, { mode: f.executable ? 0o755 : 0o644 });
      }
    }
    return path.join(pki, 'issue-certificates.sh');
  }

  /**
   * The initial generation as the real script issued it: the working copy and the stand-in's state,
   * kept once the first test has issued it. Every test starts from that generation; issuing it again
   * for each was most of the file's time.
   */
  let initialGeneration: { pki: string; state: FakeState } | undefined;

  /** Issues the initial generation (or copies it into this test's working copy and stand-in) and starts every pod. */
  async function created(): Promise<RotationSimulator> {
    const initial = render(IssuingMethod.CFSSL, []);
    if (initialGeneration === undefined) {
      run(copyFolder(initial.files), kubectl);
      initialGeneration = { pki: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-initial-')), 'pki'), state: kubectl.state() };
      fs.cpSync(pki, initialGeneration.pki, { recursive: true });
    } else {
      const { state } = initialGeneration;
      fs.cpSync(initialGeneration.pki, pki, { recursive: true });
      kubectl.update((current) => Object.assign(current, structuredClone(state)));
    }
    const sim = new RotationSimulator(initial.plan, initial.manifests);
    sim.startAll(secretsOf(kubectl));
    expect(await sim.check('created')).toEqual([]);
    return sim;
  }

  /**
   * One phase: synthesize, copy, run the script, check, then restart the pods the phase restarts
   * in order (the kubelet projecting the Secrets into the others before and after); returns the
   * components the phase restarted, with their pods' restarts.
   */
  async function phase(sim: RotationSimulator, rotations: CertificateRotation[], label: string): Promise<Record<string, number>> {
    const out = render(IssuingMethod.CFSSL, rotations);
    run(copyFolder(out.files), kubectl);
    await sim.check(`${label}: Secrets written`);
    const before = sim.restartsByComponent();
    await sim.rollingRestarts(label, () => secretsOf(kubectl), undefined, out.plan.rotation!.restartOrder);
    return sim.restartsSince(before);
  }

  /** Every component of the reference deployment, one pod each, restarted once: what a phase that changes ca.crt restarts. */
  const EVERY_COMPONENT = Object.fromEntries(['coordinator', 'columnar', 'store', 'pump', 'sqlserver', 'changefeed', 'mig-master', 'mig-worker', 'drainer'].map((c) => [c, 1]));

  /**
   * What a phase that leaves ca.crt as it was restarts in the reference deployment: all but the
   * coordinator, the pump and the drainer, whose v4.0.5 re-reads its certificate (the SQL server
   * restarts for its MySQL port).
   */
  const NOT_RELOADING = Object.fromEntries(Object.entries(EVERY_COMPONENT).filter(([c]) => !['coordinator', 'pump', 'drainer'].includes(c)));

  test('CA replacement: zero rejected handshakes through trust-both, switch-leaves and drop-old', async () => {
    const sim = await created();
    const initialCa = secretsOf(kubectl).get('basic-coordinator-cluster-secret')!['ca.crt'];
    const restarted: Record<string, Record<string, number>> = {};
    for (const p of CA_REPLACEMENT) {
      restarted[p] = await phase(sim, [{ id: ID, phase: p }], p);
    }
    // At v4.0.5 the coordinator, the pump and the drainer re-read their certificate: switch-leaves, which leaves ca.crt as it was, does not restart them.
    expect(restarted).toEqual({ 'trust-both': EVERY_COMPONENT, 'switch-leaves': NOT_RELOADING, 'drop-old': EVERY_COMPONENT });
    expect(formatOutages(sim.outages)).toBe('');
    expectReplaced(sim, initialCa);
    expect(fs.existsSync(path.join(pki, 'ca-key.pem')) && fs.existsSync(path.join(pki, ID, 'ca-key.pem'))).toBe(true);
  }, 120_000);

  test('broken as the world would break it: a reloading component kept through trust-both, or pods that never got switch-leaves\' files, reject handshakes', async () => {
    // No component re-reads its CA: a coordinator left running through trust-both still trusts the old CA alone, and rejects the leaves switch-leaves brings.
    const kept = await created();
    for (const p of CA_REPLACEMENT) {
      const out = render(IssuingMethod.CFSSL, [{ id: ID, phase: p }]);
      run(copyFolder(out.files), kubectl);
      const restarting = out.plan.rotation!.restartOrder.filter((t) => p !== 'trust-both' || t !== 'coordinator');
      await kept.rollingRestarts(p, () => secretsOf(kubectl), [{ interleaving: 'alternate' }], restarting);
    }
    expect(kept.outages.some((o) => o.step.startsWith('switch-leaves') && (o.client === 'coordinator-0' || o.server === 'coordinator-0'))).toBe(true);
    // Without the kubelet's projection (drop-old applied right after switch-leaves' write), a pod that re-reads its certificate still presents the old one.
    // A new working copy and cluster, which created() fills with the initial generation, as it did the first's.
    pki = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-pki-'));
    kubectl = createFakeKubectl();
    const unprojected = await created();
    for (const p of CA_REPLACEMENT) {
      const out = render(IssuingMethod.CFSSL, [{ id: ID, phase: p }]);
      run(copyFolder(out.files), kubectl);
      await unprojected.rollingRestart(p, () => secretsOf(kubectl), { interleaving: 'alternate' }, out.plan.rotation!.restartOrder);
    }
    const dropped = unprojected.outages.filter((o) => o.step.startsWith('drop-old'));
    expect(dropped.length).toBeGreaterThan(0);
    // Each rejection is of a certificate of the old CA, which the restarted side no longer trusts.
    expect(dropped.filter((o) => !/\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\)$/.test(o.reason))).toEqual([]);
  }, 120_000);

  test('leaf renewal, then a CA renewal with the same key: zero rejected handshakes, new leaves, the CA key kept', async () => {
    const sim = await created();
    const before = secretsOf(kubectl).get('basic-store-cluster-secret')!;
    expect(await phase(sim, [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }], 'leaf renewal')).toEqual(NOT_RELOADING);
    const renewed = secretsOf(kubectl).get('basic-store-cluster-secret')!;
    expect(renewed['tls.key']).not.toBe(before['tls.key']);
    expect(renewed['ca.crt']).toBe(before['ca.crt']);
    expect(await phase(sim, [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }, { id: 'ca-1', kind: RotationKind.CA_RENEWAL }], 'CA renewal')).toEqual(EVERY_COMPONENT);
    const after = secretsOf(kubectl).get('basic-store-cluster-secret')!;
    expect(after['ca.crt']).not.toBe(before['ca.crt']);
    expect(new X509Certificate(after['ca.crt']).publicKey.export({ format: 'der', type: 'spki' }))
      .toEqual(new X509Certificate(before['ca.crt']).publicKey.export({ format: 'der', type: 'spki' }));
    expect(formatOutages(sim.outages)).toBe('');
  }, 120_000);
});

describe('the rotation simulator: cert-manager', () => {
  /** cert-manager's Secrets written into the stand-in, as its controller writes them. */
  function write(kubectl: FakeKubectl, written: ReadonlyMap<string, SecretPem>): void {
    for (const [key, secret] of written) {
      const [namespace, name] = key.split('/');
      kubectl.writeSecret(namespace, name, { ...secret });
    }
  }

  async function created(kubectl: FakeKubectl) {
    const initial = render(IssuingMethod.CERT_MANAGER, []);
    const issuer = await CertManagerIssuer.issueAll(initial.manifests);
    write(kubectl, issuer.secrets);
    const sim = new RotationSimulator(initial.plan, initial.manifests);
    sim.startAll(secretsOf(kubectl));
    expect(await sim.check('created')).toEqual([]);
    return { issuer, sim };
  }

  test('the operator\'s documented procedure (new CA, Secrets deleted, pods restarted) shows the outage it warns about', async () => {
    const kubectl = createFakeKubectl();
    const { issuer, sim } = await created(kubectl);
    const objects = render(IssuingMethod.CERT_MANAGER, []).manifests.filter((m) => m.apiVersion === 'cert-manager.io/v1');
    for (const name of ['basic-ca-secret', ...render(IssuingMethod.CERT_MANAGER, []).plan.secrets.map((s) => s.name)]) {
      issuer.deleteSecret(NS, name);
    }
    write(kubectl, await issuer.apply(objects));
    await sim.rollingRestart('Secrets deleted', () => secretsOf(kubectl));
    expect(sim.outages.length).toBeGreaterThan(0);
    expect(sim.outages[0].step).toBe('Secrets deleted: restarted coordinator-0');
    expect(sim.outages.map((o) => o.reason).join('\n')).toMatch(/unable to verify|self.signed|certificate signature failure|UNABLE_TO_VERIFY/i);
  }, 120_000);
});
