/**
 * Every rotation runbook run as written: an app that is not the reference one (other names, more
 * replicas, a drainer, and cdk8s-plus workloads mounting the client Secrets), synthesized at every
 * phase of each rotation kind and method, and every command block of each phase's
 * `rotation-runbook.md` run with bash (`-euo pipefail`: any command that fails fails the test)
 * from the folder the block names. kubectl and cmctl are stand-ins that refuse what the real ones
 * refuse (test/_fake-kubectl.ts), cfssl is the real one, `npx cluster-tls` is this package's
 * command, and the cluster's controllers (cert-manager, the operator, the StatefulSet and
 * Deployment controllers) run concurrently (test/_fake-cluster.ts), every pod restart going
 * through the rotation simulator's real handshakes. The synth of each next phase reads the verify
 * report the runbook wrote, from where it wrote it. The database runbook's blocks run the same way
 * on the running cluster, with a stand-in helm. With TLS for MySQL clients, the real tidb-server
 * judges every handshake between the application and the SQL server's MySQL port
 * (rotation-runbooks-sql.test.ts, which shares this file's helpers, test/_rotation-runbooks.ts).
 * Each rotation's restarts are counted per component: with current releases a leaf renewal restarts none.
 *
 * @live it runs every rotation runbook of every method as written, several hundred CPU-seconds:
 * the longest suite of `npm test`; it needs none of the built programs, so CI runs it while they build
 */
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CertificateRotation, IssuingMethod, ROTATION_PHASES, RotationKind, TlsPlan } from '../lib';
import { databaseRunbookPath, filesFolderOf, tlsPlanPath } from '../lib/model/output-layout';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { FakeKubectl } from './_fake-kubectl';
import { TestCa, TestKey, issueLeaf, makeCa, makeKey } from './_pki';
import {
  CLUSTER, CURRENT_RELEASES, NS, SQL_APPLICATION, SQL_APPLICATION_SECRET, USER_SECRETS, created, expectReplaced, project, report, rotate, runClusterRunbook, synth,
} from './_rotation-runbooks';
import { CHANGEFEED_FIRST, formatOutages } from './_rotation-simulator';
import { buildCommand, failures } from './_runbooks';

beforeAll(() => {
  // `npx cluster-tls` runs the built command: build it from the sources under test.
  buildCommand();
}, 120_000);

describe('rotation runbooks run as written: cert-manager', () => {
  test('CA replacement, both clusters rolling at once: zero rejected handshakes, every pod on the new CA, the next phase waiting for each report', async () => {
    const p = project();
    const { cluster, sim } = await created(p, IssuingMethod.CERT_MANAGER, { interleaving: 'alternate' });
    const initialCa = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    await rotate(p, IssuingMethod.CERT_MANAGER, cluster, [], { id: '2026-12' });
    expect(formatOutages(sim.outages)).toBe('');
    expectReplaced(sim, initialCa);
    expect(sim.handshakes).toBeGreaterThan(0);
  }, 300_000);

  test('leaf renewal: cert-manager renews the leaves by name and the script waits for it; the CA Secret is untouched', async () => {
    const p = project();
    const { cluster, sim } = await created(p, IssuingMethod.CERT_MANAGER, { interleaving: 'migration-first', databaseOrder: CHANGEFEED_FIRST });
    // A Certificate declared again over a Secret it matches (after a CA replacement's last phase)
    // becomes Ready without issuing: it has no revision yet, and the renewal must still wait for one.
    p.kubectl.update((s) => s.objects!.filter((o) => o.kind === 'Certificate' && !o.spec.isCA && o.metadata.name.endsWith('-secret'))
      .slice(0, 3).forEach((c) => { delete c.status.revision; }));
    // The Secrets the user created are not the library's to renew: they stay as they were.
    const yours: string[] = (JSON.parse(fs.readFileSync(path.join(filesFolderOf(p.outdir), tlsPlanPath(NS, CLUSTER)), 'utf8')).userSecrets ?? []).map((s: any) => s.name);
    const before = new Map([...cluster.secrets()].filter(([name]) => name !== `${CLUSTER}-ca-secret` && !yours.includes(name)));
    const yoursBefore = [...cluster.secrets()].filter(([name]) => yours.includes(name));
    expect(yoursBefore.map(([name]) => name)).toEqual(['ledger-legacy-tls', 'ledger-target-tls']);
    const caSecret = () => p.kubectl.secrets().find((s) => s.name === `${CLUSTER}-ca-secret`)!;
    const caBefore = caSecret();
    const restarts = await rotate(p, IssuingMethod.CERT_MANAGER, cluster, [], { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }, false, sim);
    expect(restarts).toEqual({ renew: REFERENCE_LEAF_RESTARTS });
    expect(formatOutages(sim.outages)).toBe('');
    expect(caSecret()).toEqual(caBefore);
    const after = cluster.secrets();
    for (const [name, secret] of before) {
      expect([name, after.get(name)!['tls.key'] !== secret['tls.key']]).toEqual([name, true]);
      expect(after.get(name)!['ca.crt']).toBe(secret['ca.crt']);
    }
    expect(yoursBefore.map(([name]) => [name, after.get(name)])).toEqual(yoursBefore);
    const renewed = p.kubectl.calls().filter((c) => c[0] === '__mark-issuing').flatMap((c) => c.slice(1).filter((a) => !a.startsWith('-')));
    expect(renewed.sort()).toEqual([...before.keys()].sort());
    // Every pod restarted after its Secret was renewed, or re-reads it: what it presents is what the Secret holds.
    sim.pods.forEach((pod) => expect([pod.name, sim.presented(pod).key]).toEqual([pod.name, after.get(pod.secretName)!['tls.key']]));
  }, 300_000);
});

/** Every component pod of the app, each restarted once: what a phase that changes ca.crt restarts. */
const EVERY_POD = { 'coordinator': 3, 'columnar': 1, 'store': 3, 'pump': 1, 'sqlserver': 2, 'changefeed': 2, 'mig-master': 3, 'mig-worker': 2, 'drainer': 1 };

/** What a leaf renewal restarts at the reference releases: the components whose v4.0.5 (or the migration's v2.0.7) does not re-read its certificate. */
const REFERENCE_LEAF_RESTARTS = { 'columnar': 1, 'store': 3, 'changefeed': 2, 'mig-master': 3, 'mig-worker': 2 };

describe('rotation runbooks run as written: restarts only where a component cannot take the certificate while it runs', () => {
  test('cert-manager, current releases: a leaf renewal restarts no component pod, every pod presents its new certificate, zero rejected handshakes', async () => {
    const p = project(CURRENT_RELEASES);
    const { cluster, sim } = await created(p, IssuingMethod.CERT_MANAGER, { interleaving: 'alternate' });
    const restarts = await rotate(p, IssuingMethod.CERT_MANAGER, cluster, [], { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }, false, sim);
    expect(restarts).toEqual({ renew: {} });
    expect(formatOutages(sim.outages)).toBe('');
    const after = cluster.secrets();
    sim.pods.forEach((pod) => expect([pod.name, sim.presented(pod).cert]).toEqual([pod.name, after.get(pod.secretName)!['tls.crt']]));
  }, 300_000);

  test('user-provided, current releases: a leaf renewal restarts no component pod, zero rejected handshakes', async () => {
    const p = project(CURRENT_RELEASES);
    const pki = new UserPki();
    await pki.write(synth(p, IssuingMethod.USER_PROVIDED, []).plan, p.kubectl);
    const { cluster, sim } = await created(p, IssuingMethod.USER_PROVIDED, { interleaving: 'database-first' });
    const leaves: CertificateRotation = { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL };
    let restarts: Record<string, number>;
    try {
      await pki.write(synth(p, IssuingMethod.USER_PROVIDED, [leaves]).plan, p.kubectl);
      const before = sim.restartsByComponent();
      await runClusterRunbook(p, cluster);
      restarts = sim.restartsSince(before);
      expect(failures(report(p))).toEqual([]);
    } finally {
      await cluster.stop();
    }
    expect(restarts).toEqual({});
    expect(formatOutages(sim.outages)).toBe('');
  }, 300_000);
});

describe('rotation runbooks run as written: the discovery server with mutual TLS', () => {
  test('cert-manager, current releases: a CA replacement restarts the discovery server in every phase, which loads its certificate once, and nothing else in switch-leaves', async () => {
    const p = project({ ...CURRENT_RELEASES, discoveryMTLS: true });
    const { cluster, sim } = await created(p, IssuingMethod.CERT_MANAGER, { interleaving: 'alternate' });
    expect(sim.pods.filter((pod) => pod.component === 'discovery').map((pod) => pod.name)).toEqual(['discovery-0']);
    const initialCa = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    const restarts = await rotate(p, IssuingMethod.CERT_MANAGER, cluster, [], { id: '2026-12' }, false, sim);
    expect(restarts).toEqual({ 'trust-both': { ...EVERY_POD, discovery: 1 }, 'switch-leaves': { discovery: 1 }, 'drop-old': { ...EVERY_POD, discovery: 1 } });
    expect(formatOutages(sim.outages)).toBe('');
    expectReplaced(sim, initialCa);
  }, 300_000);
});

describeWithCfssl('rotation runbooks run as written')('rotation runbooks run as written: cfssl, current releases', () => {
  beforeEach(() => requireCfssl());

  test('CA replacement: switch-leaves restarts nothing, the two phases that change ca.crt restart every pod, zero rejected handshakes', async () => {
    const p = project(CURRENT_RELEASES);
    const { cluster, sim } = await created(p, IssuingMethod.CFSSL, { interleaving: 'alternate' });
    const initialCa = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    const restarts = await rotate(p, IssuingMethod.CFSSL, cluster, [], { id: '2026-12' }, false, sim);
    expect(restarts).toEqual({ 'trust-both': EVERY_POD, 'switch-leaves': {}, 'drop-old': EVERY_POD });
    expect(formatOutages(sim.outages)).toBe('');
    expectReplaced(sim, initialCa);
  }, 300_000);
});

describeWithCfssl('rotation runbooks run as written')('rotation runbooks run as written: cfssl', () => {
  beforeEach(() => requireCfssl());

  test('CA replacement, the migration cluster first and the changefeed first: zero rejected handshakes, every pod on the new CA', async () => {
    const p = project();
    const { cluster, sim } = await created(p, IssuingMethod.CFSSL, { interleaving: 'migration-first', databaseOrder: CHANGEFEED_FIRST });
    const initialCa = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    const restarts = await rotate(p, IssuingMethod.CFSSL, cluster, [], { id: '2026-12' }, false, sim);
    // At the reference releases, switch-leaves restarts only the components that do not re-read their certificate.
    expect(restarts).toEqual({ 'trust-both': EVERY_POD, 'switch-leaves': REFERENCE_LEAF_RESTARTS, 'drop-old': EVERY_POD });
    expect(formatOutages(sim.outages)).toBe('');
    expectReplaced(sim, initialCa);
  }, 300_000);

  test('leaf renewal, then CA renewal: zero rejected handshakes, new keys, the CA key kept', async () => {
    const p = project();
    const { cluster, sim } = await created(p, IssuingMethod.CFSSL, { interleaving: 'alternate' });
    const before = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!;
    const leaves = { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL };
    synth(p, IssuingMethod.CFSSL, [leaves]);
    await runClusterRunbook(p, cluster);
    const renewed = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!;
    expect(renewed['tls.key']).not.toBe(before['tls.key']);
    await rotate(p, IssuingMethod.CFSSL, cluster, [leaves], { id: 'ca-1', kind: RotationKind.CA_RENEWAL });
    const after = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!;
    expect(after['ca.crt']).not.toBe(before['ca.crt']);
    expect(new X509Certificate(after['ca.crt']).publicKey.export({ format: 'der', type: 'spki' }))
      .toEqual(new X509Certificate(before['ca.crt']).publicKey.export({ format: 'der', type: 'spki' }));
    expect(formatOutages(sim.outages)).toBe('');
  }, 300_000);
});

/**
 * The user's own PKI, making each Secret exactly as `tls-plan.json` says for the phase: each
 * generation's leaves signed by the CA the plan names, `ca.crt` the CAs it lists. A CA renewal's
 * CA keeps the key and subject of the CA it renews.
 */
class UserPki {
  private readonly cas = new Map<string, TestCa>();
  private readonly keys = new Map<string, TestKey>();
  private readonly leaves = new Map<string, { cert: string; key: string }>();
  /** The generation whose CA a leaf renewal's generation shares. */
  private readonly sameCa = new Map<string, string>();
  private readonly now = new Date();

  private caGeneration(generation: string): string {
    return this.sameCa.has(generation) ? this.caGeneration(this.sameCa.get(generation)!) : generation;
  }

  /** Writes every Secret of the plan as the user does, with kubectl apply (the stand-in's write). */
  public async write(plan: TlsPlan, kubectl: FakeKubectl): Promise<void> {
    const r = plan.rotation;
    if (r?.kind === RotationKind.LEAF_RENEWAL) {
      // A leaf renewal's generation has the CA of the generation before it.
      this.sameCa.set(r.id, r.previous);
    }
    const content = r ?? { caCertificates: ['initial'], leafGeneration: 'initial', signedBy: 'initial' };
    for (const s of plan.secrets) {
      const at = `${content.leafGeneration}/${s.name}`;
      if (!this.leaves.has(at)) {
        const key = await makeKey('ec256');
        const cert = await issueLeaf({
          commonName: plan.commonName, organization: plan.organization, dnsNames: s.dnsNames, ipAddresses: s.ipAddresses, usages: s.usages,
          notBefore: new Date(this.now.getTime() - 60_000), notAfter: new Date(this.now.getTime() + 300 * 86_400_000), key, signer: await this.ca(content.signedBy, r),
        });
        this.leaves.set(at, { cert, key: key.pem });
      }
      const caPem = (await Promise.all(content.caCertificates.map((g) => this.ca(g, r)))).map((c) => c.pem).join('\n');
      kubectl.writeSecret(NS, s.name, { 'tls.crt': this.leaves.get(at)!.cert, 'tls.key': this.leaves.get(at)!.key, 'ca.crt': caPem });
    }
  }

  private async ca(generation: string, rotation: TlsPlan['rotation']): Promise<TestCa> {
    if (this.sameCa.has(generation)) {
      return this.ca(this.sameCa.get(generation)!, rotation);
    }
    if (!this.cas.has(generation)) {
      const renewal = rotation?.kind === RotationKind.CA_RENEWAL && generation === rotation.id;
      const key = renewal ? this.keys.get(this.caGeneration(rotation.previous))! : await makeKey('ec256');
      this.keys.set(generation, key);
      this.cas.set(generation, await makeCa({
        commonName: `${CLUSTER}-ca`, organization: 'Payments', key,
        notBefore: new Date(this.now.getTime() - 60_000), notAfter: new Date(this.now.getTime() + 3000 * 86_400_000),
      }));
    }
    return this.cas.get(generation)!;
  }
}

describe('rotation runbooks run as written: Secrets the user provides', () => {
  test('CA replacement, then a leaf renewal, then a CA renewal: the user writes what tls-plan.json says, the runbook does the rest, zero rejected handshakes', async () => {
    const p = project();
    const pki = new UserPki();
    await pki.write(synth(p, IssuingMethod.USER_PROVIDED, []).plan, p.kubectl);
    const { cluster, sim } = await created(p, IssuingMethod.USER_PROVIDED, { interleaving: 'database-first' });
    const initialCa = cluster.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    const rotations: CertificateRotation[] = [
      { id: '2026-12' }, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }, { id: 'ca-1', kind: RotationKind.CA_RENEWAL },
    ];
    try {
      for (const [i, last] of rotations.entries()) {
        for (const phase of ROTATION_PHASES[last.kind ?? RotationKind.CA_REPLACEMENT]) {
          const { plan } = synth(p, IssuingMethod.USER_PROVIDED, [...rotations.slice(0, i), { ...last, phase }]);
          // The runbook's first step is the user's: write every Secret as the plan of the phase says.
          await pki.write(plan, p.kubectl);
          await runClusterRunbook(p, cluster);
          expect(failures(report(p))).toEqual([]);
        }
        if (i === 0) {
          expectReplaced(sim, initialCa);
        }
      }
    } finally {
      await cluster.stop();
    }
    expect(cluster.errors).toEqual([]);
    expect(formatOutages(sim.outages)).toBe('');
    expect(sim.handshakes).toBeGreaterThan(0);
  }, 300_000);
});

describe('the database runbook runs as written', () => {
  /** Every block of database-runbook.md, from the folder it names, on a running cluster: each step again, as a user re-running it would. */
  async function runDatabaseRunbook(method: IssuingMethod): Promise<void> {
    const p = project();
    const { cluster, sim } = await created(p, method, { interleaving: 'alternate' }, true);
    // The Secrets the runbook says are the team's to create, before the backup and the restore.
    USER_SECRETS.forEach((name) => p.kubectl.putSecret(NS, name, { value: 'created by the team' }));
    try {
      await runClusterRunbook(p, cluster, databaseRunbookPath(NS, CLUSTER));
    } finally {
      await cluster.stop();
    }
    expect(cluster.errors).toEqual([]);
    expect(formatOutages(sim.outages)).toBe('');
    // The client tools ran in the first coordinator and store pods, from the mounted client certificate folder.
    const execs = p.kubectl.calls().filter((c) => c[0] === 'exec').map((c) => `${c[1]}: ${c[c.length - 1]}`);
    expect(execs).toEqual([
      expect.stringMatching(/^ledger-coordinator-0: cd \/var\/lib\/cluster-client-tls && coordctl /),
      expect.stringMatching(/^ledger-store-0: cd \/var\/lib\/cluster-client-tls && storectl /),
    ]);
    // The runbook made the cluster's namespace first and, for TLS for MySQL clients, the application's
    // (twice, as a user re-running it would: unchanged the second time).
    expect(p.kubectl.state().namespaces).toEqual([NS, SQL_APPLICATION.namespace]);
    // Its checks found its Secrets in the cluster's namespace and the application's.
    const gets = p.kubectl.calls().filter((c) => c[0] === 'get' && c[1] === 'secret').map((c) => c.join(' '));
    const application = SQL_APPLICATION_SECRET;
    expect(gets).toContain(`get secret ${application} -n ${SQL_APPLICATION.namespace}`);
    expect(gets.some((g) => g.includes(`${CLUSTER}-sqlserver-server-secret ${CLUSTER}-sqlserver-client-secret -n ${NS}`))).toBe(true);
    if (method === IssuingMethod.CERT_MANAGER) {
      const waits = p.kubectl.calls().filter((c) => c[0] === 'wait').map((c) => c.join(' '));
      for (const namespace of ['cert-manager', SQL_APPLICATION.namespace]) {
        expect(waits).toContain(`wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=${CLUSTER} -n ${namespace} --timeout=5m`);
      }
    }
  }

  test('cert-manager: every command, from the output folder', async () => {
    await runDatabaseRunbook(IssuingMethod.CERT_MANAGER);
  }, 300_000);

  describeWithCfssl('the database runbook with cfssl')('cfssl', () => {
    test('every command, from the output folder, the issuing script run again keeping what it made', async () => {
      requireCfssl();
      await runDatabaseRunbook(IssuingMethod.CFSSL);
    }, 300_000);
  });
});
