/**
 * The app, the project folder and the steps the rotation runbook suites share
 * (rotation-runbooks.test.ts, and rotation-runbooks-sql.test.ts, where the real tidb-server judges
 * the applications' handshakes): the app synthesized at a phase, its runbooks run as written on a
 * fake cluster, and what each rotation must leave.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import * as YAML from 'yaml';
import {
  BackupRestore, CertificateRotation, ClusterCertificates, DrainerRelease, IssuingMethod, ROTATION_PHASES, RotationKind, TlsDatabaseCluster, TlsMigrationCluster,
  TlsPlan, synthesize,
} from '../lib';
import { secretConsumers } from '../lib/certificates/secret-consumers';
import { databaseRunbookPath, filesFolderOf, rotationRunbookPath, tlsPlanPath } from '../lib/model/output-layout';
import { ISSUE_SCRIPT } from '../lib/scripts/cfssl-files';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { FakeCluster } from './_fake-cluster';
import { FakeKubectl, createFakeCmctl, createFakeHelm, createFakeKubectl } from './_fake-kubectl';
import { userTlsSecret } from './_pki';
import { RollOptions, RotationSimulator, SqlJudge, formatOutages } from './_rotation-simulator';
import { bash, failures, projectFolder, runRunbook, runbookEnv, shellBlocks, verifyReport } from './_runbooks';

export const NS = 'payments';
export const CLUSTER = 'ledger';
const MANIFEST = `${NS}.k8s.yaml`;
/** The Secrets the team creates itself: the backup user's password and the bucket's access keys. */
export const USER_SECRETS = ['ledger-backup-credentials', 'ledger-s3-credentials'];
/** The application of TLS for MySQL clients the database runbook's app declares, in a namespace of its own. */
export const SQL_APPLICATION = { name: 'reports', namespace: 'analytics' } as const;
/** Its Secret, in its namespace. */
export const SQL_APPLICATION_SECRET = `${SQL_APPLICATION.name}-${NS}-${CLUSTER}-sql-client`;

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
export const CURRENT_RELEASES: Releases = { database: 'v8.5.0', migration: 'v8.5.0' };

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

export function project(releases: Releases = REFERENCE_RELEASES): Project {
  const { dir, outdir, home } = projectFolder('runbook-project-');
  const kubectl = createFakeKubectl(path.join(dir, 'tools'));
  createFakeCmctl(kubectl);
  createFakeHelm(kubectl);
  const env = runbookEnv(home, { PATH: `${kubectl.dir}:${process.env.PATH}`, POLL: '0.05', TIMEOUT: '60' });
  return { dir, outdir, kubectl, env, releases };
}

/** Synthesizes the app at a phase into the project's output folder, as the user's `npm run synth` would. */
export function synth(p: Project, method: IssuingMethod, rotations: CertificateRotation[], sqlClients = false): { plan: TlsPlan; manifests: any[] } {
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
export function runClusterRunbook(p: Project, cluster: FakeCluster, runbook = rotationRunbookPath(NS, CLUSTER)): Promise<string[]> {
  return runRunbook({ ...p, namespace: NS, clusterName: CLUSTER, manifest: MANIFEST }, runbook, {
    afterApply: () => cluster.idle(),
    describe: () => formatOutages(cluster.outagesSoFar()),
  });
}

/** The verify report the runbook wrote beside the output folder, which the next synth reads. */
export const report = (p: Project) => verifyReport({ outdir: p.outdir, namespace: NS, clusterName: CLUSTER });

/** Creates the cluster: applies every object, issues the Secrets (cert-manager, or the given block), starts every pod. */
export async function created(p: Project, method: IssuingMethod, roll: RollOptions, sqlClients = false, sqlJudge?: SqlJudge): Promise<{ cluster: FakeCluster; sim: RotationSimulator; issuer?: CertManagerIssuer }> {
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
export async function rotate(p: Project, method: IssuingMethod, cluster: FakeCluster, earlier: CertificateRotation[], last: CertificateRotation, sqlClients = false,
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
export function certificates(pem: string): X509Certificate[] {
  return pem.split(/(?<=-----END CERTIFICATE-----)/).filter((b) => b.includes('BEGIN')).map((b) => new X509Certificate(b.trim()));
}

/** Every pod ended with one CA, not the one it started with, and a certificate that CA signed. */
export function expectReplaced(sim: RotationSimulator, initialCa: string): void {
  for (const pod of sim.pods) {
    const cas = certificates(pod.loaded!.ca);
    expect(cas.map((c) => c.fingerprint256)).not.toContain(certificates(initialCa)[0].fingerprint256);
    expect(cas).toHaveLength(1);
    expect(new X509Certificate(pod.loaded!.cert).verify(cas[0].publicKey)).toBe(true);
  }
}
