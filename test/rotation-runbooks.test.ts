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
 * (test/_tidb-judge.ts). Each rotation's restarts are counted per component: with current
 * releases a leaf renewal restarts none.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import * as YAML from 'yaml';
import {
  BackupRestore, CertificateRotation, ClusterCertificates, DrainerRelease, IssuingMethod, RotationKind, RotationPhase, ROTATION_PHASES, TlsDatabaseCluster, TlsMigrationCluster,
  TlsPlan, synthesize,
} from '../lib';
import { secretConsumers } from '../lib/certificates/secret-consumers';
import { databaseRunbookPath, rotationRunbookPath, tlsPlanPath, verifyReportFromOutputFolder, filesFolderOf } from '../lib/model/output-layout';
import { ISSUE_SCRIPT } from '../lib/scripts/cfssl-files';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { FakeCluster } from './_fake-cluster';
import { FakeKubectl, createFakeCmctl, createFakeHelm, createFakeKubectl } from './_fake-kubectl';
import { TestCa, TestKey, issueLeaf, makeCa, makeKey, userTlsSecret } from './_pki';
import { bash, failures, projectFolder, runRunbook, runbookEnv, shellBlocks, verifyReport } from './_runbooks';
import { CHANGEFEED_FIRST, RollOptions, RotationSimulator, SqlJudge, formatOutages } from './_rotation-simulator';
import { TidbJudge } from './_tidb-judge';
import { missingTools } from './_control-plane';
import { hasMariaDb } from './_mariadb';

const ROOT = path.join(__dirname, '..');
const NS = 'payments';
const CLUSTER = 'ledger';
const MANIFEST = `${NS}.k8s.yaml`;
/** The Secrets the team creates itself: the backup user's password and the bucket's access keys. */
const USER_SECRETS = ['ledger-backup-credentials', 'ledger-s3-credentials'];
/** The application of TLS for MySQL clients the database runbook's app declares, in a namespace of its own. */
const SQL_APPLICATION = { name: 'reports', namespace: 'analytics' } as const;
/** Its Secret, in its namespace. */
const SQL_APPLICATION_SECRET = `${SQL_APPLICATION.name}-${NS}-${CLUSTER}-sql-client`;

/**
 * Whether the real tidb-server judges the handshakes between applications and the SQL server (its
 * administrator client is MariaDB's): where it is built, as CI builds it; elsewhere OpenSSL through
 * `node:tls` does, and the tests' names say so.
 */
const REAL_SQL_SERVER = missingTools(['tidb-server']).length === 0 && hasMariaDb;

/** The releases the clusters declare: the specification's examples, or current ones. */
interface Releases {
  readonly database: string;
  readonly migration: string;
  /** With the operator v1.6.6 and mutual TLS for the discovery server (`enableDiscoveryMTLS`). @default false */
  readonly discoveryMTLS?: boolean;
}

/** The specification's example releases, which predate most components' reloading. */
const REFERENCE_RELEASES: Releases = { database: 'v4.0.5', migration: 'v2.0.7' };

/** Current releases, at which every component re-reads its certificate (the migration members from v8.2.0). */
const CURRENT_RELEASES: Releases = { database: 'v8.5.0', migration: 'v8.5.0' };

/**
 * The app: a database cluster with several replicas of most components, a migration cluster, a
 * drainer, and two workloads of the team's own that mount the client Secrets; with `sqlClients`,
 * TLS for MySQL clients too, and an application of its own namespace.
 */
function buildApp(method: IssuingMethod, rotations: CertificateRotation[], sqlClients = false, releases: Releases = REFERENCE_RELEASES): App {
  const app = new App();
  const chart = new Chart(app, NS, { namespace: NS });
  const certificates = new ClusterCertificates(chart, 'certs', { clusterName: CLUSTER, method, rotations, subject: { organization: 'Payments' } });
  const image = (name: string) => ({ baseImage: `registry.example.com/db/${name}` });
  const database = new TlsDatabaseCluster(chart, 'db', {
    clusterName: CLUSTER, version: releases.database, operatorVersion: releases.discoveryMTLS ? 'v1.6.6' : 'v1.2.0', certificates,
    enableDiscoveryMTLS: releases.discoveryMTLS,
    coordinator: { ...image('coordinator'), replicas: 3 }, store: { ...image('store'), replicas: 3 }, sqlserver: { ...image('sqlserver'), replicas: 2 },
    pump: image('pump'), changefeed: { ...image('changefeed'), replicas: 2 }, columnar: image('columnar'),
    tlsClient: sqlClients ? {} : undefined,
  });
  if (sqlClients) {
    // The application's own Deployment, in its namespace, mounting its Secret.
    const client = database.addSqlClient(SQL_APPLICATION.name, { namespace: SQL_APPLICATION.namespace });
    const workload = new kplus.Deployment(chart, SQL_APPLICATION.name, {
      metadata: { namespace: SQL_APPLICATION.namespace }, containers: [{ image: `registry.example.com/${SQL_APPLICATION.name}:1.0.0` }],
    });
    workload.containers[0].mount('/etc/mysql-tls', kplus.Volume.fromSecret(chart, `${SQL_APPLICATION.name}-tls`,
      kplus.Secret.fromSecretName(chart, `${SQL_APPLICATION.name}-secret`, client.secretName)));
  }
  const migration = new TlsMigrationCluster(chart, 'mig', {
    clusterName: CLUSTER, version: releases.migration, operatorVersion: releases.discoveryMTLS ? 'v1.6.6' : 'v1.2.0', certificates,
    master: { ...image('migration'), replicas: 3 }, worker: { ...image('migration'), replicas: 2 },
    sources: [{ sourceId: 'legacy', host: 'mysql.payments.example.com', port: 3306, user: 'copier', tlsSecretName: 'ledger-legacy-tls' }],
    target: { database, user: 'copier', tlsSecretName: 'ledger-target-tls' }, task: { name: 'ledger-copy' },
  });
  new DrainerRelease(chart, 'drainer', { cluster: database, releaseName: 'binlog', chart: { repository: 'https://charts.example.com/stable', version: '1.1.5' } });
  for (const [id, secret] of [['reporting', database.clientSecret()], ['copy-tools', migration.clientSecret()]] as const) {
    const workload = new kplus.Deployment(chart, id, { containers: [{ image: `registry.example.com/${id}:1.0.0` }] });
    workload.containers[0].mount('/etc/db-tls', kplus.Volume.fromSecret(chart, `${id}-tls`, secret));
    // Tools that act as components: allowed to hold the cluster's client certificates.
    certificates.allowWorkload(workload);
  }
  // A backup and a restore: one-off operations, in files of their own that the runbook creates.
  for (const [file, operation] of [['backup', { backup: {} }], ['restore', { restore: {} }]] as const) {
    new BackupRestore(chart, file, {
      cluster: database, ...operation, user: 'backup', credentialsSecretName: USER_SECRETS[0],
      s3: { provider: 'aws', region: 'eu-west-1', bucket: 'ledger-backups', secretName: USER_SECRETS[1] },
    });
  }
  return app;
}

/** A project folder as a user has it: the output folder in it, and `npx cluster-tls` resolving to this package. */
interface Project {
  readonly dir: string;
  readonly outdir: string;
  readonly kubectl: FakeKubectl;
  readonly env: NodeJS.ProcessEnv;
  /** The releases the app declares. */
  readonly releases: Releases;
}

function project(releases: Releases = REFERENCE_RELEASES): Project {
  const { dir, outdir, home } = projectFolder('runbook-project-');
  const kubectl = createFakeKubectl(path.join(dir, 'tools'));
  createFakeCmctl(kubectl);
  createFakeHelm(kubectl);
  const env = runbookEnv(home, { PATH: `${kubectl.dir}:${process.env.PATH}`, POLL: '0.05', TIMEOUT: '60' });
  return { dir, outdir, kubectl, env, releases };
}

/** Synthesizes the app at a phase into the project's output folder, as the user's `npm run synth` would. */
function synth(p: Project, method: IssuingMethod, rotations: CertificateRotation[], sqlClients = false): { plan: TlsPlan; manifests: any[] } {
  synthesize(buildApp(method, rotations, sqlClients, p.releases), { outdir: p.outdir, acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [] });
  return {
    plan: JSON.parse(fs.readFileSync(path.join(filesFolderOf(p.outdir), tlsPlanPath(NS, CLUSTER)), 'utf8')),
    manifests: YAML.parseAllDocuments(fs.readFileSync(path.join(p.outdir, MANIFEST), 'utf8')).map((d) => d.toJS()),
  };
}

/**
 * Runs every block of a runbook of the cluster as written (test/_runbooks.ts). After the block that
 * applies the manifests, waits as the runbook says until every pod has restarted (the cluster
 * settles); nowhere else.
 */
function runClusterRunbook(p: Project, cluster: FakeCluster, runbook = rotationRunbookPath(NS, CLUSTER)): Promise<string[]> {
  return runRunbook({ ...p, namespace: NS, clusterName: CLUSTER, manifest: MANIFEST }, runbook, {
    afterApply: () => cluster.idle(),
    describe: () => formatOutages(cluster.outagesSoFar()),
  });
}

/** The verify report the runbook wrote beside the output folder, which the next synth reads. */
const report = (p: Project) => verifyReport({ outdir: p.outdir, namespace: NS, clusterName: CLUSTER });

/** Creates the cluster: applies every object, issues the Secrets (cert-manager, or the given block), starts every pod. */
async function created(p: Project, method: IssuingMethod, roll: RollOptions, sqlClients = false, sqlJudge?: SqlJudge): Promise<{ cluster: FakeCluster; sim: RotationSimulator; issuer?: CertManagerIssuer }> {
  const { plan, manifests } = synth(p, method, [], sqlClients);
  const issuer = method === IssuingMethod.CERT_MANAGER ? await CertManagerIssuer.issueAll([]) : undefined;
  if (method === IssuingMethod.CFSSL) {
    // The database runbook's blocks up to its issuing block (the applications' namespaces first), as written.
    const runbook = fs.readFileSync(path.join(filesFolderOf(p.outdir), databaseRunbookPath(NS, CLUSTER)), 'utf8');
    const blocks = shellBlocks(runbook);
    for (const block of blocks.slice(0, blocks.findIndex((b) => b.includes(ISSUE_SCRIPT)) + 1)) {
      await bash(block, p.outdir, p.env);
    }
  }
  execFileSync('kubectl', ['apply', '-f', MANIFEST], { cwd: p.outdir, env: p.env });
  // The Secrets the user creates for the migration's source and target, before the cluster starts.
  for (const secret of plan.userSecrets ?? []) {
    p.kubectl.writeSecret(NS, secret.name, { ...await userTlsSecret() });
  }
  const sim = new RotationSimulator(plan, manifests, { sqlClients, sqlJudge });
  const consumers = secretConsumers(manifests, NS, plan.secrets.map((s) => s.name));
  const clients = new Map(consumers.flatMap((c) => c.secrets.map((s) => [s, c.name] as const)));
  const applications = manifests.filter((m) => m.kind === 'Deployment' && m.metadata.namespace === SQL_APPLICATION.namespace)
    .map((m) => ({ namespace: SQL_APPLICATION.namespace, deployment: m.metadata.name, secretName: SQL_APPLICATION_SECRET }));
  const cluster = new FakeCluster(p.kubectl, sim, { namespace: NS, clusterName: CLUSTER, issuer, roll, clients, drainer: `${CLUSTER}-binlog-drainer`, applications });
  await cluster.issueAll();
  cluster.start();
  const rejected = await sim.check('created');
  if (rejected.length > 0) {
    // Stopped first, so that a failing test does not leave the controllers running.
    await cluster.stop();
  }
  expect(rejected).toEqual([]);
  return { cluster, sim, issuer };
}

/** Every phase of `rotations`' last entry, each synthesized and its runbook run; the cluster stopped at the end. */
async function rotate(p: Project, method: IssuingMethod, cluster: FakeCluster, earlier: CertificateRotation[], last: CertificateRotation, sqlClients = false,
  sim?: RotationSimulator): Promise<Record<string, Record<string, number>>> {
  const restarts: Record<string, Record<string, number>> = {};
  try {
    for (const phase of ROTATION_PHASES[last.kind ?? RotationKind.CA_REPLACEMENT]) {
      synth(p, method, [...earlier, { ...last, phase }], sqlClients);
      const before = sim?.restartsByComponent() ?? {};
      await runClusterRunbook(p, cluster);
      restarts[phase] = sim === undefined ? {} : sim.restartsSince(before);
      const r = report(p);
      expect(failures(r)).toEqual([]);
      expect(r.secrets.every((s: any) => s.checks.some((c: any) => c.check === 'loaded' && c.ok))).toBe(true);
    }
  } finally {
    await cluster.stop();
  }
  expect(cluster.errors).toEqual([]);
  expectNoKeyInAnnotations(p);
  return restarts;
}



/** No Secret was written with a client-side apply, which would keep a copy of its private key in an annotation. */
function expectNoKeyInAnnotations(p: Project): void {
  expect(p.kubectl.secrets().filter((s) => s.lastApplied !== undefined).map((s) => s.name)).toEqual([]);
}

/** The CA certificates of a PEM bundle. */
function certificates(pem: string): X509Certificate[] {
  return pem.split(/(?<=-----END CERTIFICATE-----)/).filter((b) => b.includes('BEGIN')).map((b) => new X509Certificate(b.trim()));
}

/** Every pod ended with one CA, not the one it started with, and a certificate that CA signed. */
function expectReplaced(sim: RotationSimulator, initialCa: string): void {
  for (const pod of sim.pods) {
    const cas = certificates(pod.loaded!.ca);
    expect(cas.map((c) => c.fingerprint256)).not.toContain(certificates(initialCa)[0].fingerprint256);
    expect(cas).toHaveLength(1);
    expect(new X509Certificate(pod.loaded!.cert).verify(cas[0].publicKey)).toBe(true);
  }
}

beforeAll(() => {
  // `npx cluster-tls` runs the built command: build it from the sources under test.
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], { cwd: ROOT });
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

/**
 * A rotation with TLS for MySQL clients, run as written: the SQL Secrets of both namespaces move
 * with the cluster's (a leaf renewal from the SQL CA they had, a CA replacement to a new SQL CA),
 * the application's Deployment is restarted by the runbook onto what its Secret holds, every
 * handshake between the application and the sqlserver pods passes at every step, and the
 * application's Secret is in the report the next synth reads; without it there, the next rotation
 * is refused.
 */
async function rotationWithSqlClients(method: IssuingMethod, rotation: CertificateRotation): Promise<void> {
  if (!REAL_SQL_SERVER && process.env.CI === 'true') {
    throw new Error('CI=true but tidb-server is not built or MariaDB\'s client is missing (scripts/build-control-plane.sh and the Debian package mariadb-server; .ci/run installs both)');
  }
  const judge = REAL_SQL_SERVER ? new TidbJudge() : undefined;
  try {
    await rotationJudged(method, rotation, judge);
  } finally {
    await judge?.stop();
  }
  if (judge) {
    // The real SQL server judged the application's logins, serving each of the SQL server's certificates in turn.
    expect(judge.logins).toBeGreaterThan(0);
    expect(judge.reloads).toBeGreaterThan(0);
  }
}

async function rotationJudged(method: IssuingMethod, rotation: CertificateRotation, judge: TidbJudge | undefined): Promise<void> {
  const p = project();
  const { cluster, sim } = await created(p, method, { interleaving: 'alternate' }, true, judge?.judge);
  const inCluster = [`${CLUSTER}-sqlserver-server-secret`, `${CLUSTER}-sqlserver-client-secret`];
  const sqlSecrets = () => new Map([...cluster.secrets()].filter(([name]) => [...inCluster, SQL_APPLICATION_SECRET].includes(name)));
  const before = sqlSecrets();
  expect([...before.keys()].sort()).toEqual([...inCluster, SQL_APPLICATION_SECRET].sort());
  const application = sim.pods.find((pod) => pod.application !== undefined)!;
  expect(application.loaded!.key).toBe(before.get(SQL_APPLICATION_SECRET)!['tls.key']);
  const sqlCaSecrets = () => p.kubectl.secrets().filter((s) => s.namespace === 'cert-manager');
  const sqlCaBefore = sqlCaSecrets();
  await rotate(p, method, cluster, [], rotation, true);
  expect(formatOutages(sim.outages)).toBe('');
  expect(sim.pods.filter((pod) => pod.sqlServer !== undefined)).toHaveLength(2);
  const after = sqlSecrets();
  const initialSqlCa = certificates(before.get(inCluster[0])!['ca.crt'])[0];
  const kind = rotation.kind ?? RotationKind.CA_REPLACEMENT;
  const spki = (c: X509Certificate) => c.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  for (const [name, secret] of before) {
    const cas = certificates(after.get(name)!['ca.crt']);
    // A new key but for a CA renewal; the same SQL CA after a leaf renewal, a new certificate of it (with its key) after a CA
    // renewal, a new one alone after a CA replacement; that CA signed the certificate.
    expect([name, after.get(name)!['tls.key'] !== secret['tls.key'], cas.length, cas[0].fingerprint256 !== initialSqlCa.fingerprint256,
      spki(cas[0]) === spki(initialSqlCa), new X509Certificate(after.get(name)!['tls.crt']).verify(cas[0].publicKey)])
      .toEqual([name, kind !== RotationKind.CA_RENEWAL, 1, kind !== RotationKind.LEAF_RENEWAL, kind !== RotationKind.CA_REPLACEMENT, true]);
  }
  if (rotation.kind === RotationKind.LEAF_RENEWAL) {
    expect(sqlCaSecrets()).toEqual(sqlCaBefore);
  }
  // The runbook restarted the application, which loaded what its Secret holds now.
  const deployment = p.kubectl.calls().filter((c) => c[0] === 'rollout' && c[1] === 'restart' && c.includes(SQL_APPLICATION.namespace)).map((c) => c[2]);
  expect(deployment.length).toBeGreaterThan(0);
  expect(application.loaded!.key).toBe(after.get(SQL_APPLICATION_SECRET)!['tls.key']);
  // The report shows the application's Secret, in its namespace, loaded by its pod after the last write.
  const shown = report(p).secrets.find((x: any) => x.namespace === SQL_APPLICATION.namespace && x.name === SQL_APPLICATION_SECRET);
  expect(shown.checks.filter((c: any) => ['rotation', 'loaded', 'handshake'].includes(c.check)).map((c: any) => [c.check, c.ok]))
    .toEqual([['rotation', true], ['handshake', true], ['loaded', true]]);
  // A report of the cluster's namespace alone does not show it: the next rotation is refused.
  await bash(`kubectl get secrets,pods -n ${NS} -o json --show-managed-fields | npx cluster-tls verify --dist . --namespace ${NS} --cluster ${CLUSTER} --secrets - --json `
    + `> ${verifyReportFromOutputFolder(NS, CLUSTER)}`, p.outdir, p.env);
  expect(() => synth(p, method, [rotation, { id: 'leaves-2', kind: RotationKind.LEAF_RENEWAL }], true))
    .toThrow(`does not show Secret ${SQL_APPLICATION.namespace}/${SQL_APPLICATION_SECRET} there: it is not in the report`);
}

describe(`TLS for MySQL clients rotates with the cluster, run as written, ${REAL_SQL_SERVER ? 'the real tidb-server' : 'OpenSSL (no tidb-server built here)'} judging the applications' handshakes`, () => {
  test('cert-manager, leaf renewal: cmctl renew in each namespace, the SQL CA untouched, the application restarted', async () => {
    await rotationWithSqlClients(IssuingMethod.CERT_MANAGER, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL });
  }, 300_000);

  test('cert-manager, CA replacement: a new SQL CA in cert-manager\'s namespace, zero rejected handshakes between the application and the SQL server', async () => {
    await rotationWithSqlClients(IssuingMethod.CERT_MANAGER, { id: '2026-12' });
  }, 300_000);

  describeWithCfssl('TLS for MySQL clients rotating with cfssl')('cfssl', () => {
    test('leaf renewal: the script issues them in sql/<id>/ from the SQL CA and writes each Secret in its namespace', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL });
    }, 300_000);

    test('CA replacement: a new SQL CA in sql/<id>/, zero rejected handshakes between the application and the SQL server', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: '2026-12' });
    }, 300_000);

    test('turned on after a CA replacement, while its last phase is declared: the script makes the SQL CA of that generation, and every Secret holds it alone', async () => {
      requireCfssl();
      const p = project();
      const { cluster } = await created(p, IssuingMethod.CFSSL, { interleaving: 'alternate' });
      const rotations = [{ id: '2026-12' }];
      await rotate(p, IssuingMethod.CFSSL, cluster, [], rotations[0]);
      synth(p, IssuingMethod.CFSSL, [{ ...rotations[0], phase: RotationPhase.DROP_OLD }], true);
      // The runbook's first block, as written: copy the folder, run the script.
      const runbook = fs.readFileSync(path.join(filesFolderOf(p.outdir), rotationRunbookPath(NS, CLUSTER)), 'utf8');
      await bash(shellBlocks(runbook)[0], p.outdir, p.env);
      const copy = path.join(p.dir, 'home', `pki-${NS}-${CLUSTER}`);
      const sqlCa = new X509Certificate(fs.readFileSync(path.join(copy, 'sql', '2026-12', 'ca.pem')));
      for (const [namespace, name] of [[NS, `${CLUSTER}-sqlserver-server-secret`], [NS, `${CLUSTER}-sqlserver-client-secret`], [SQL_APPLICATION.namespace, SQL_APPLICATION_SECRET]]) {
        const secret = p.kubectl.secrets().find((x) => x.namespace === namespace && x.name === name)!;
        const cas = certificates(Buffer.from(secret.data['ca.crt'], 'base64').toString());
        const cert = new X509Certificate(Buffer.from(secret.data['tls.crt'], 'base64').toString());
        expect([name, cas.length, cas[0].fingerprint256 === sqlCa.fingerprint256, cert.verify(sqlCa.publicKey)]).toEqual([name, 1, true, true]);
      }
    }, 300_000);

    test('CA renewal: the SQL CA renewed with its key in sql/<id>/, the leaves kept', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: 'ca-1', kind: RotationKind.CA_RENEWAL });
    }, 300_000);
  });
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
    const application = `${SQL_APPLICATION.name}-${NS}-${CLUSTER}-sql-client`;
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
