/**
 * Rotations proven on a real Kubernetes API server with the real cert-manager (the programs of
 * test/control-plane.test.ts, a control plane of this file's own): the reference app is created,
 * then taken through every phase of a CA replacement and then a leaf renewal with cert-manager.
 * Every command block of each phase's rotation runbook runs as written (bash, from the output
 * folder) with the real kubectl and the real cmctl against the real API server while the real
 * controllers act; what the node-less API server lacks (pods, the operator's restarts, the
 * drainer's StatefulSet controller) is test/_live-cluster.ts, every pod loading its Secret as the
 * API server holds it at that moment into the rotation simulator, whose real handshakes must all
 * pass. A phase made out of order is watched to fail the same way.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { CertificateRotation, IssuingMethod, ROTATION_PHASES, RotationKind, RotationPhase, TlsPlan, synthesize } from '../lib';
import type { ComponentToken } from '../lib/model/catalog';
import { databaseRunbookPath, rotationRunbookPath, rotationScriptPath, tlsPlanPath, filesFolderOf, fromOutputFolder } from '../lib/model/output-layout';
import { secretObject, userTlsSecret } from './_pki';
import { addDeployment } from '../main';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools, tool } from './_control-plane';
import { LiveCluster } from './_live-cluster';
import { LEGAL_ROLLS, RotationSimulator, formatOutages } from './_rotation-simulator';
import { ProjectFolder, RunbookSite, bash, failures, projectFolder, runRunbook, runbookEnv, shellBlocks, verifyReport } from './_runbooks';

const ROOT = path.resolve(__dirname, '..');
const CLUSTER = 'basic';

let plane: ControlPlane | undefined;

/** A project folder whose commands reach the real API server: the release's kubectl and cmctl read its kubeconfig. */
interface Project extends ProjectFolder, RunbookSite {}

function project(namespace: string): Project {
  const folder = projectFolder(`${namespace}-`, plane!.work);
  const bin = path.join(folder.dir, 'tools');
  fs.mkdirSync(bin);
  // The release's kubectl and cmctl come first on the commands' PATH, as a user's own do.
  for (const name of ['kubectl', 'cmctl'] as const) {
    fs.symlinkSync(tool(name), path.join(bin, name));
  }
  const env = runbookEnv(folder.home, { PATH: `${bin}:${process.env.PATH}`, KUBECONFIG: plane!.kubeconfig, POLL: '0.2', TIMEOUT: '120' });
  return { ...folder, namespace, env, clusterName: CLUSTER, manifest: `${namespace}.k8s.yaml` };
}

/** Synthesizes the reference deployment in the project's namespace at the given rotations, as the user's `npm run synth` would. */
function synth(p: Project, rotations: CertificateRotation[], acknowledgeUnverifiedPhase: string[] = []): { plan: TlsPlan; manifests: any[] } {
  const app = new App();
  addDeployment(app, p.namespace, IssuingMethod.CERT_MANAGER, rotations);
  synthesize(app, { outdir: p.outdir, acknowledgeRecreation: [], acknowledgeUnverifiedPhase });
  return {
    plan: JSON.parse(fs.readFileSync(path.join(filesFolderOf(p.outdir), tlsPlanPath(p.namespace, CLUSTER)), 'utf8')),
    manifests: YAML.parseAllDocuments(fs.readFileSync(path.join(p.outdir, p.manifest), 'utf8')).map((d) => d.toJS()),
  };
}

/** The `sh` blocks of the cluster's database runbook or rotation runbook. */
const blocksOf = (p: Project, runbook: string) => shellBlocks(fs.readFileSync(path.join(filesFolderOf(p.outdir), runbook), 'utf8'));

/** The one block of a runbook whose commands include `command`. */
function blockWith(p: Project, runbook: string, command: string): string {
  const found = blocksOf(p, runbook).filter((b) => b.split('\n').includes(command));
  expect(found).toHaveLength(1);
  return found[0];
}

/**
 * Creates the cluster as the database runbook says (its cert-manager block, then the deploy
 * block, as written), then the pods, each with its Secret as the real cert-manager issued it.
 */
async function created(namespace: string): Promise<{ p: Project; live: LiveCluster }> {
  const p = project(namespace);
  const { plan, manifests } = synth(p, []);
  expect(plane!.kubectl(['create', 'namespace', namespace]).status).toBe(0);
  // The Secrets the user creates (the changefeed's sink's, the migration source's), before the cluster.
  for (const secret of plan.userSecrets ?? []) {
    expect(plane!.kubectl(['create', '-f', '-'], JSON.stringify(secretObject(secret.name, namespace, { ...await userTlsSecret() }))).status).toBe(0);
  }
  const runbook = databaseRunbookPath(namespace, CLUSTER);
  await bash(blockWith(p, runbook, `kubectl wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=${CLUSTER} -n ${namespace} --timeout=5m`), p.outdir, p.env);
  await bash(blockWith(p, runbook, `kubectl apply -f ${p.manifest}`), p.outdir, p.env);
  const live = new LiveCluster(plane!, new RotationSimulator(plan, manifests), { namespace, clusterName: CLUSTER, drainer: `${CLUSTER}-binlog-drainer` });
  try {
    await live.start();
    expect(await live.sim.check('created')).toEqual([]);
  } catch (e) {
    await live.stop();
    throw e;
  }
  return { p, live };
}

/**
 * Runs every block of the phase's rotation runbook as written (test/_runbooks.ts). The node-less
 * cluster's part: after the block that applies the cluster resources, the operator's restarts;
 * before the check, the restart of the team's own workloads, which the runbook asks of the user in
 * words.
 */
async function runRotationRunbook(p: Project, live: LiveCluster): Promise<void> {
  await runRunbook(p, rotationRunbookPath(p.namespace, CLUSTER), {
    beforeBlock: async (block) => {
      if (block.includes('cluster-tls verify')) {
        await live.restartClients();
        // The check passes for a component the phase does not restart once the kubelets have had time to write the files into its pods.
        await live.kubeletSync();
      }
    },
    afterApply: async () => { expect(await live.operatorRoll()).not.toEqual([]); },
    describe: () => [formatOutages(live.sim.outages), plane!.kubectl(['get', 'certificates,certificaterequests', '-n', p.namespace, '-o', 'wide']).stdout].join('\n'),
  });
}

/** The CA certificates of a PEM bundle. */
const certificatesOf = (pem: string) => pem.split(/(?<=-----END CERTIFICATE-----)/).filter((b) => b.includes('BEGIN')).map((b) => new X509Certificate(b.trim()));

/**
 * The revision of every Certificate of the namespace, by name (0 when it has none), read once no Certificate is
 * issuing. cert-manager writes the Secret first and the Certificate's revision after it, and readiness follows the
 * Secret: a Certificate can be Ready on its new Secret while its revision still counts the issue before.
 */
async function revisions(namespace: string): Promise<Map<string, number>> {
  for (let attempt = 0; ; attempt++) {
    const items = JSON.parse(plane!.kubectl(['get', 'certificates', '-n', namespace, '-o', 'json']).stdout).items as any[];
    const issuing = items.filter((c) => (c.status?.conditions ?? []).some((k: any) => k.type === 'Issuing' && k.status === 'True'));
    if (issuing.length === 0) return new Map(items.map((c) => [c.metadata.name, c.status?.revision ?? 0]));
    if (attempt >= 120) throw new Error(`Certificates still issuing after 60 s: ${issuing.map((c) => c.metadata.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// For the whole file: an API server and cert-manager on a loaded 2-core machine are slow.
jest.setTimeout(600_000);

describeWithTools('rotations on a real API server with the real cert-manager', [...CONTROL_PLANE_TOOLS, 'cmctl'], () => {

  beforeAll(async () => {
    // `npx cluster-tls` runs the built command: build it from the sources under test, or fail here.
    expect(spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'synth.js'), '--build-only'], { cwd: ROOT }).status).toBe(0);
    plane = await ControlPlane.start();
    await plane.startCertManager();
  }, 180_000);

  afterAll(async () => {
    await plane?.stop();
  }, 60_000);

  test('a CA replacement, then a leaf renewal: every block run as written with the real kubectl and cmctl, zero rejected handshakes, verify passing at every phase', async () => {
    const { p, live } = await created('demo');
    const initialCa = certificatesOf(live.secrets().get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'])[0];
    const initialSqlCa = certificatesOf(live.secrets().get(`${CLUSTER}-sqlserver-server-secret`)!['ca.crt'])[0];
    const replacement: CertificateRotation = { id: '2026-11' };
    // The check passed for the phase, and compared every Secret a pod mounts with that pod's start.
    const checked = (phase: string) => {
      const report = verifyReport(p);
      expect({ phase: report.plans[0].rotation.phase, failures: failures(report) }).toEqual({ phase, failures: [] });
      const unseen = live.sim.pods.filter((pod) => !report.secrets.find((x: any) => x.name === pod.secretName)?.checks
        .some((c: any) => c.check === 'loaded' && c.ok && c.found.includes(live.podName(pod))));
      expect(unseen.map((pod) => pod.name)).toEqual([]);
    };
    try {
      for (const phase of ROTATION_PHASES[RotationKind.CA_REPLACEMENT]) {
        synth(p, [{ ...replacement, phase }]);
        await runRotationRunbook(p, live);
        checked(phase);
      }
      // Every pod ended trusting the new CA alone, with a certificate that CA signed.
      for (const pod of live.sim.pods) {
        const cas = certificatesOf(pod.loaded!.ca);
        expect([pod.name, cas.length, cas[0].fingerprint256 !== initialCa.fingerprint256, new X509Certificate(pod.loaded!.cert).verify(cas[0].publicKey)])
          .toEqual([pod.name, 1, true, true]);
      }
      const replaced = live.secrets();
      // TLS for MySQL clients moved with them: each Secret on the new SQL CA alone, which cert-manager made in its namespace.
      const sqlCaSecret = `${p.namespace}-${CLUSTER}-sql-ca-2026-11`;
      for (const name of [`${CLUSTER}-sqlserver-server-secret`, `${CLUSTER}-sqlserver-client-secret`, `basic-migration-${p.namespace}-${CLUSTER}-sql-client`]) {
        const cas = certificatesOf(replaced.get(name)!['ca.crt']);
        expect([name, cas.length, cas[0].fingerprint256 !== initialSqlCa.fingerprint256, cas[0].fingerprint256 !== initialCa.fingerprint256,
          new X509Certificate(replaced.get(name)!['tls.crt']).verify(cas[0].publicKey)]).toEqual([name, 1, true, true, true]);
      }
      const before = await revisions(p.namespace);
      const sqlCaRevision = (await revisions('cert-manager')).get(sqlCaSecret);
      expect(sqlCaRevision).toBeGreaterThan(0);
      const { plan: renewal } = synth(p, [{ ...replacement, phase: RotationPhase.DROP_OLD }, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }]);
      // A leaf renewal renews the certificates for MySQL clients too, each from the SQL CA it had.
      const sql = new Set((renewal.sqlTls?.secrets ?? []).map((s) => s.name));
      expect(sql.size).toBe(3);
      const sqlCa = renewal.sqlTls!.ca;
      await runRotationRunbook(p, live);
      checked(RotationPhase.RENEW);
      const renewed = live.secrets();
      const after = await revisions(p.namespace);
      expect([...renewed.keys()].sort()).toEqual([...replaced.keys()].sort());
      const caSecret = `${CLUSTER}-ca-2026-11-secret`;
      expect(renewed.get(caSecret)).toEqual(replaced.get(caSecret));
      // The Secrets the user created are not the library's to renew: they stay as they were.
      const yours = (renewal.userSecrets ?? []).map((s) => s.name);
      expect(yours).toEqual(['basic-sink-tls', 'basic-source1-tls']);
      expect(yours.map((name) => [name, renewed.get(name)])).toEqual(yours.map((name) => [name, replaced.get(name)]));
      for (const [name, secret] of [...replaced].filter(([n]) => n !== caSecret && !yours.includes(n))) {
        // cmctl renew had cert-manager issue each leaf exactly once more, the cluster's and those for MySQL clients: a new key, the same CA.
        expect([name, renewed.get(name)!['tls.key'] !== secret['tls.key'], renewed.get(name)!['ca.crt'] === secret['ca.crt'], after.get(name)! - before.get(name)!])
          .toEqual([name, true, true, 1]);
      }
      expect([...sql].filter((name) => !replaced.has(name))).toEqual([]);
      expect(after.get(`${CLUSTER}-ca-2026-11`)).toBe(before.get(`${CLUSTER}-ca-2026-11`));
      // No CA Certificate was renewed: the SQL CA in cert-manager's namespace kept its revision.
      expect((await revisions(sqlCa.secretNamespace!)).get(sqlCaSecret)).toBe(sqlCaRevision);
      // Every pod restarted after its Secret was renewed, or re-reads it: what it presents is what the Secret holds now.
      live.sim.pods.forEach((pod) => expect([pod.name, live.sim.presented(pod).key]).toEqual([pod.name, renewed.get(pod.secretName)!['tls.key']]));
    } finally {
      await live.stop();
    }
    expect(live.errors).toEqual([]);
    expect(formatOutages(live.sim.outages)).toBe('');
    expect(live.sim.handshakes).toBeGreaterThan(0);
  });

  test('out of order, the same procedure fails: leaves switched before the pods of trust-both restarted are rejected by the pods that did not restart', async () => {
    const { p, live } = await created('early');
    const replacement: CertificateRotation = { id: '2026-11' };
    const runbook = rotationRunbookPath(p.namespace, CLUSTER);
    const key = `${p.namespace}/${CLUSTER}`;
    let restarting: readonly ComponentToken[] = [];
    try {
      synth(p, [{ ...replacement, phase: RotationPhase.TRUST_BOTH }]);
      // Only the block that writes the Secrets: no pod restarts, no check.
      await bash(blockWith(p, runbook, fromOutputFolder(rotationScriptPath(p.namespace, CLUSTER))), p.outdir, p.env);
      // The next phase's synth refuses without the check's report; the user overrides it.
      expect(() => synth(p, [{ ...replacement, phase: RotationPhase.SWITCH_LEAVES }])).toThrow(
        `certificates ${key}: rotations: received 2026-11 at "switch-leaves"; expected 2026-11 at "trust-both" until cluster-tls verify shows every Secret of the cluster in it and every pod restarted since: no report at`);
      synth(p, [{ ...replacement, phase: RotationPhase.SWITCH_LEAVES }], [key]);
      await bash(blockWith(p, runbook, fromOutputFolder(rotationScriptPath(p.namespace, CLUSTER))), p.outdir, p.env);
      await bash(blockWith(p, runbook, `kubectl apply -f ${p.manifest}`), p.outdir, p.env);
      // The components whose annotation differs from what the server held: trust-both's were never applied.
      restarting = await live.operatorRoll() as ComponentToken[];
      expect(restarting).not.toEqual([]);
    } finally {
      await live.stop();
    }
    expect(live.errors).toEqual([]);
    expect(live.sim.outages.length).toBeGreaterThan(0);
    // Each rejection is by a pod the roll had not reached yet (it trusts the initial CA alone) of
    // one it had (it presents a certificate of the new CA), for want of the new CA.
    const misplaced = live.sim.outages.filter((o) => {
      const [, pod, interleaving] = /^operator restarted (\S+) \((\S+)\)$/.exec(o.step)!;
      const sequence = live.sim.rollSequence(LEGAL_ROLLS.find((r) => (r.interleaving ?? 'alternate') === interleaving), restarting).map((x) => x.name);
      const restarted = sequence.slice(0, sequence.indexOf(pod) + 1);
      const [rejecting, rejected] = /the client rejected/.test(o.reason) ? [o.client, o.server] : [o.server, o.client];
      return restarted.includes(rejecting) || !restarted.includes(rejected) || !/\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/.test(o.reason);
    });
    expect(formatOutages(misplaced)).toBe('');
  });
});
