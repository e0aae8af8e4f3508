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
import { addDeployment } from '../main';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools, tool } from './_control-plane';
import { LiveCluster } from './_live-cluster';
import { RotationSimulator, formatOutages } from './_rotation-simulator';
import { ProjectFolder, bash, failures, projectFolder, runbookEnv, shellBlocks } from './_runbooks';

const ROOT = path.resolve(__dirname, '..');
const CLUSTER = 'basic';

let plane: ControlPlane | undefined;

/** A project folder whose commands reach the real API server: kubectl and cmctl read its kubeconfig. */
interface Project extends ProjectFolder {
  readonly namespace: string;
  readonly env: NodeJS.ProcessEnv;
}

function project(namespace: string): Project {
  const folder = projectFolder(`${namespace}-`, plane!.work);
  const bin = path.join(folder.dir, 'tools');
  fs.mkdirSync(bin);
  fs.symlinkSync(tool('cmctl'), path.join(bin, 'cmctl'));
  const env = runbookEnv(folder.home, { PATH: `${bin}:${process.env.PATH}`, KUBECONFIG: plane!.kubeconfig, POLL: '0.2', TIMEOUT: '120' });
  return { ...folder, namespace, env };
}

/** Synthesizes the reference deployment in the project's namespace at the given rotations, as the user's `npm run synth` would. */
function synth(p: Project, rotations: CertificateRotation[], acknowledgeUnverifiedPhase: string[] = []): { plan: TlsPlan; manifests: any[] } {
  const app = new App();
  addDeployment(app, p.namespace, IssuingMethod.CERT_MANAGER, rotations);
  synthesize(app, { outdir: p.outdir, acknowledgeRecreation: [], acknowledgeUnverifiedPhase });
  return {
    plan: JSON.parse(fs.readFileSync(path.join(p.outdir, p.namespace, CLUSTER, 'tls-plan.json'), 'utf8')),
    manifests: YAML.parseAllDocuments(fs.readFileSync(path.join(p.outdir, `${p.namespace}.k8s.yaml`), 'utf8')).map((d) => d.toJS()),
  };
}

/** The blocks of one of the cluster's runbooks, each checked to say it runs from the output folder. */
function blocksOf(p: Project, runbook: string): string[] {
  const blocks = shellBlocks(fs.readFileSync(path.join(p.outdir, p.namespace, CLUSTER, runbook), 'utf8'));
  blocks.forEach((b) => expect(b.split('\n')[0]).toBe(`# run in the output folder (the one that holds ${p.namespace}.k8s.yaml)`));
  return blocks;
}

/** The verify report the runbook wrote beside the output folder. */
function report(p: Project): any {
  return JSON.parse(fs.readFileSync(path.join(p.dir, `cluster-tls-verify.${p.namespace}.${CLUSTER}.json`), 'utf8'));
}

/**
 * Creates the cluster as the database runbook says (its cert-manager block, then the deploy
 * block, as written), then the pods, each with its Secret as the real cert-manager issued it.
 */
async function created(namespace: string): Promise<{ p: Project; live: LiveCluster }> {
  const p = project(namespace);
  const { plan, manifests } = synth(p, []);
  expect(plane!.kubectl(['create', 'namespace', namespace]).status).toBe(0);
  const blocks = blocksOf(p, 'database-runbook.md');
  const [issue, deploy] = [blocks.find((b) => b.includes('kubectl wait --for=condition=Ready certificate')), blocks.find((b) => b.endsWith(`kubectl apply -f ${namespace}.k8s.yaml\n`))];
  await bash(issue!, p.outdir, p.env);
  await bash(deploy!, p.outdir, p.env);
  const live = new LiveCluster(plane!, new RotationSimulator(plan, manifests), { namespace, clusterName: CLUSTER, drainer: `${CLUSTER}-binlog-drainer` });
  await live.start();
  expect(await live.sim.check('created')).toEqual([]);
  return { p, live };
}

/**
 * Runs every block of the phase's rotation runbook as written, in order. The node-less cluster's
 * part: after the block that applies the cluster resources, the operator's restarts; before the
 * check, the restart of the team's own workloads, which the runbook asks of the user in words.
 */
async function runRotationRunbook(p: Project, live: LiveCluster): Promise<void> {
  for (const block of blocksOf(p, 'rotation-runbook.md')) {
    if (block.includes('cluster-tls verify')) {
      await live.restartClients();
    }
    try {
      await bash(block, p.outdir, p.env);
    } catch (e) {
      // Say what failed: the checks of the report, the outages, and where cert-manager is.
      const file = path.join(p.dir, `cluster-tls-verify.${p.namespace}.${CLUSTER}.json`);
      const certificates = plane!.kubectl(['get', 'certificates,certificaterequests', '-n', p.namespace, '-o', 'wide']).stdout;
      throw new Error([(e as Error).message, ...(fs.existsSync(file) ? failures(JSON.parse(fs.readFileSync(file, 'utf8'))) : []), formatOutages(live.sim.outages), certificates].join('\n'));
    }
    if (block.trimEnd().endsWith(`kubectl apply -f ${p.namespace}.k8s.yaml`)) {
      expect((await live.operatorRoll()).length).toBeGreaterThan(0);
    }
  }
}

/** The CA certificates of a PEM bundle, by fingerprint. */
const fingerprints = (pem: string) => pem.split(/(?<=-----END CERTIFICATE-----)/).filter((b) => b.includes('BEGIN')).map((b) => new X509Certificate(b.trim()).fingerprint256);

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
    const secretsBefore = live.secrets();
    const initialCa = secretsBefore.get(`${CLUSTER}-store-cluster-secret`)!['ca.crt'];
    const replacement: CertificateRotation = { id: '2026-11' };
    try {
      for (const phase of ROTATION_PHASES[RotationKind.CA_REPLACEMENT]) {
        synth(p, [{ ...replacement, phase }]);
        await runRotationRunbook(p, live);
        expect({ phase, failures: failures(report(p)) }).toEqual({ phase, failures: [] });
      }
      // Every pod ended on the new CA alone, with a certificate it signed.
      for (const pod of live.sim.pods) {
        expect([pod.name, fingerprints(pod.loaded!.ca)]).toEqual([pod.name, [expect.not.stringMatching(fingerprints(initialCa)[0])]]);
      }
      const replaced = live.secrets();
      const renewal: CertificateRotation = { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL };
      synth(p, [{ ...replacement, phase: RotationPhase.DROP_OLD }, renewal]);
      await runRotationRunbook(p, live);
      expect(failures(report(p))).toEqual([]);
      const renewed = live.secrets();
      for (const [name, secret] of replaced) {
        if (name === `${CLUSTER}-ca-2026-11-secret`) {
          expect(renewed.get(name)).toEqual(secret);
        } else if (renewed.has(name)) {
          expect([name, renewed.get(name)!['tls.key'] !== secret['tls.key'], renewed.get(name)!['ca.crt'] === secret['ca.crt']]).toEqual([name, true, true]);
        }
      }
      // Every pod restarted after its Secret was renewed: what it loaded is what the Secret holds now.
      live.sim.pods.forEach((pod) => expect([pod.name, pod.loaded!.key]).toEqual([pod.name, renewed.get(pod.secretName)!['tls.key']]));
    } finally {
      await live.stop();
    }
    expect(live.errors).toEqual([]);
    expect(formatOutages(live.sim.outages)).toBe('');
    expect(live.sim.handshakes).toBeGreaterThan(0);
  });

  test('out of order, the same procedure fails: leaves switched before the pods of trust-both restarted are rejected by the pods that did not', async () => {
    const { p, live } = await created('early');
    const replacement: CertificateRotation = { id: '2026-11' };
    try {
      synth(p, [{ ...replacement, phase: RotationPhase.TRUST_BOTH }]);
      // Only the first block: the Secrets are written, no pod restarts, no check.
      await bash(blocksOf(p, 'rotation-runbook.md')[0], p.outdir, p.env);
      // The next phase's synth refuses without the check's report; the user overrides it.
      expect(() => synth(p, [{ ...replacement, phase: RotationPhase.SWITCH_LEAVES }])).toThrow(/report/);
      synth(p, [{ ...replacement, phase: RotationPhase.SWITCH_LEAVES }], [`${p.namespace}/${CLUSTER}`]);
      const [write, restart] = blocksOf(p, 'rotation-runbook.md');
      await bash(write, p.outdir, p.env);
      await bash(restart, p.outdir, p.env);
      await live.operatorRoll();
    } finally {
      await live.stop();
    }
    expect(live.errors).toEqual([]);
    expect(live.sim.outages.length).toBeGreaterThan(0);
    // Each rejection is a peer that does not trust the new CA: a pod that never loaded the bundle.
    expect(live.sim.outages.filter((o) => !/\((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/.test(o.reason))).toEqual([]);
  });
});
