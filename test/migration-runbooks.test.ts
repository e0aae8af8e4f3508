/**
 * The migration cluster's runbooks run as written (bash, from the output folder): the real cfssl
 * issues the certificates, kubectl is the stand-in, and the operator, the StatefulSets, the
 * migration itself and `migctl` in the master pod are re-created around it (test/_fake-migration.ts).
 *
 * - `migration-runbook.md` of a new cluster, whole: the external Secrets created, the cluster
 *   deployed with TLS, its members listed, the task started; every upstream event applied once.
 * - A cluster that ran without TLS, re-created with TLS through its declared phases, each phase's
 *   `recreation-runbook.md`: the task must end running from exactly where it stopped, every
 *   upstream event applied once, the workers on their kept volumes and the masters on new ones.
 *   The guard's rules on the phases' order are checked by synthesizing out of order.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import {
  ClusterCertificates, ClusterTlsError, IssuingMethod, MigrationRecreationPhase, TlsMigrationCluster, recreationRunbookPath, synthesize,
} from '../lib';
import * as names from '../lib/model/names';
import { filesFolderOf, migrationRunbookPath } from '../lib/model/output-layout';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { createFakeKubectl } from './_fake-kubectl';
import { CHECKPOINT_EVERY, FakeMigration, claimName } from './_fake-migration';
import { buildCommand, projectFolder, runRunbook, runbookEnv, shellBlocks } from './_runbooks';
import { until } from './_programs';

const NS = 'ledger';
const CLUSTER = 'orders';
const TASK = 'orders-to-ledger';
const MANIFEST = `${NS}.k8s.yaml`;
const MASTERS = 3;
const WORKERS = 2;

jest.setTimeout(300_000);

/** The app: one migration cluster, its certificates issued with cfssl, in the given phase of its re-creation (none: done). */
function buildApp(phase: MigrationRecreationPhase | undefined, outdir?: string): App {
  const app = new App({ outdir });
  const chart = new Chart(app, NS, { namespace: NS });
  const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: CLUSTER, method: IssuingMethod.CFSSL });
  new TlsMigrationCluster(chart, 'migration', {
    clusterName: CLUSTER,
    version: 'v8.5.0',
    operatorVersion: 'v1.6.6',
    certificates,
    master: { replicas: MASTERS },
    worker: { replicas: WORKERS },
    sources: [{ sourceId: 'shop', host: 'mysql.example.com', user: 'migrate', password: 'upstream-secret', tlsSecretName: 'shop-tls' }],
    target: { host: 'ledger-db.example.com', port: 4000, user: 'migrate', password: 'target-secret', tlsSecretName: 'ledger-db-tls' },
    task: { name: TASK },
    ...(phase === undefined ? {} : { recreation: { phase } }),
  });
  return app;
}

function synth(outdir: string, phase: MigrationRecreationPhase | undefined, acknowledgeRecreation: string[] = []): void {
  synthesize(buildApp(phase, outdir), { outdir, acknowledgeRecreation });
}

/** The synthesized MigrationCluster of the output folder, found by kind and name. */
function migrationClusterOf(outdir: string): any {
  return YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, MANIFEST), 'utf8')).map((d) => d.toJS())
    .find((o) => o?.kind === 'MigrationCluster' && o.metadata.name === CLUSTER);
}

/** The claims of one member kind, by name, with their uids. */
function claims(state: { pvcs?: any[] }, token: 'mig-master' | 'mig-worker'): Record<string, string> {
  return Object.fromEntries((state.pvcs ?? []).filter((c) => c.metadata.labels['app.kubernetes.io/component'] === token).map((c) => [c.metadata.name, c.metadata.uid]));
}

describeWithCfssl('migration runbooks')('migration runbooks, run as written', () => {
  beforeAll(() => {
    // `npx cluster-tls` runs the built command: build it from the sources under test.
    buildCommand();
  }, 120_000);

  test('a new cluster: migration-runbook.md whole, from the external Secrets to the task migrating', async () => {
    requireCfssl();
    const { dir, outdir, home } = projectFolder('migration-project-');
    const kubectl = createFakeKubectl(path.join(dir, 'tools'));
    const migration = new FakeMigration(kubectl, NS, CLUSTER);
    // The client certificate files of the external databases, where the runbook's CERTS says.
    const certs = path.join(dir, 'certs');
    fs.mkdirSync(certs);
    for (const secret of ['shop-tls', 'ledger-db-tls']) {
      for (const file of ['client.pem', 'client-key.pem', 'ca.pem']) {
        fs.writeFileSync(path.join(certs, `${secret}-${file}`), `${file} of ${secret}\n`);
      }
    }
    const env = runbookEnv(home, { PATH: `${kubectl.dir}:${process.env.PATH}`, FAKE_KUBECTL_EXEC: migration.execHook(dir), CERTS: certs });
    const site = { outdir, env, namespace: NS, clusterName: CLUSTER, manifest: MANIFEST };
    migration.start();
    try {
      synth(outdir, undefined);
      const outputs = await runRunbook(site, migrationRunbookPath(NS, CLUSTER), { afterApply: async () => undefined, describe: () => migration.errors.join('\n') });
      expect(outputs.join('')).toContain(`"members":[{"master":{"members":[${[0, 1, 2].map((i) => `{"name":"${names.podName(CLUSTER, 'mig-master', i)}"}`).join(',')}]}}`);
      await until(() => migration.world().applied.length >= 2 * CHECKPOINT_EVERY, () => `the task did not migrate: ${JSON.stringify(migration.world())}`);
      const state = kubectl.state();
      expect(state.secrets.filter((x) => ['shop-tls', 'ledger-db-tls'].includes(x.name)).map((x) => Buffer.from(x.data['tls.key'], 'base64').toString()).sort())
        .toEqual(['client-key.pem of ledger-db-tls\n', 'client-key.pem of shop-tls\n']);
      expect(state.pods?.map((p) => [p.metadata.name, p.tls]).sort()).toEqual([
        ...[0, 1, 2].map((i) => [names.podName(CLUSTER, 'mig-master', i), true]), ...[0, 1].map((i) => [names.podName(CLUSTER, 'mig-worker', i), true]),
      ]);
      const world = migration.world();
      expect(world.starts).toEqual([{ task: TASK, from: 0 }]);
      expect(world.applied).toEqual(Array.from({ length: world.applied.length }, (_, i) => i + 1));
    } finally {
      migration.stop();
    }
    expect(migration.errors).toEqual([]);
  });

  test('stop, then create, each runbook run as written: the task resumes exactly where it stopped, every event applied once', async () => {
    requireCfssl();
    const { dir, outdir, home } = projectFolder('recreation-project-');
    const kubectl = createFakeKubectl(path.join(dir, 'tools'));
    const migration = new FakeMigration(kubectl, NS, CLUSTER);
    const env = runbookEnv(home, { PATH: `${kubectl.dir}:${process.env.PATH}`, FAKE_KUBECTL_EXEC: migration.execHook(dir) });
    const site = { outdir, env, namespace: NS, clusterName: CLUSTER, manifest: MANIFEST };
    const cluster = { afterApply: async () => undefined, describe: () => migration.errors.join('\n') };
    // The external databases' client Secrets, which the plain-text cluster loaded already.
    kubectl.putSecret(NS, 'shop-tls', { 'tls.crt': 'c', 'tls.key': 'k', 'ca.crt': 'a' });
    kubectl.putSecret(NS, 'ledger-db-tls', { 'tls.crt': 'c', 'tls.key': 'k', 'ca.crt': 'a' });
    migration.start();
    try {
      // The cluster as it ran before: plain text, its task registered and migrating.
      synth(outdir, MigrationRecreationPhase.STOP);
      execFileSync('kubectl', ['apply', '-f', MANIFEST], { cwd: outdir, env });
      await until(() => (kubectl.state().pods ?? []).length === MASTERS + WORKERS, () => 'the plain-text members did not start');
      kubectl.update((s) => migration.seedTask(s, TASK, ['shop']));
      await until(() => migration.world().applied.length >= 3 * CHECKPOINT_EVERY + 2, () => 'the task did not migrate');
      const workerClaims = claims(kubectl.state(), 'mig-worker');
      expect(Object.keys(workerClaims)).toHaveLength(WORKERS);

      await runRunbook(site, recreationRunbookPath(NS, CLUSTER), cluster);
      const stopped = kubectl.state();
      const appliedAtStop = migration.world().applied.length;
      expect(stopped.objects?.some((o) => o.kind === 'MigrationCluster')).toBe(false);
      expect(stopped.pods).toEqual([]);
      expect(claims(stopped, 'mig-master')).toEqual({});
      expect(claims(stopped, 'mig-worker')).toEqual(workerClaims);
      // stop-task wrote the checkpoint where the task was, not where its last periodic write left it.
      expect(migration.world().checkpoints[TASK]).toBe(appliedAtStop);

      synth(outdir, MigrationRecreationPhase.CREATE);
      await runRunbook(site, recreationRunbookPath(NS, CLUSTER), cluster);
      await until(() => migration.world().applied.length >= appliedAtStop + 2 * CHECKPOINT_EVERY, () => `the task did not resume: ${JSON.stringify(migration.world().starts)}`);
      const created = kubectl.state();
      expect(created.objects?.find((o) => o.kind === 'MigrationCluster')?.spec.tlsCluster).toEqual({ enabled: true });
      expect(created.pods?.every((p) => p.tls === true)).toBe(true);
      expect(claims(created, 'mig-worker')).toEqual(workerClaims);
      expect(Object.keys(claims(created, 'mig-master')).sort()).toEqual([0, 1, 2].map((i) => claimName(names.podName(CLUSTER, 'mig-master', i))));
      const world = migration.world();
      expect(world.starts).toEqual([{ task: TASK, from: appliedAtStop }]);
      // Every upstream event applied once, in order: nothing lost, nothing replayed.
      expect(world.applied).toEqual(Array.from({ length: world.applied.length }, (_, i) => i + 1));

      // The re-creation done: the prop dropped, the cluster recorded with TLS on, the runbook gone.
      synth(outdir, undefined);
      expect(fs.existsSync(path.join(filesFolderOf(outdir), recreationRunbookPath(NS, CLUSTER)))).toBe(false);
      const record = JSON.parse(fs.readFileSync(path.join(dir, 'cluster-tls.lock.json'), 'utf8'));
      expect(record.clusters[`MigrationCluster/${NS}/${CLUSTER}`]).toEqual({ tlsClusterEnabled: true });
    } finally {
      migration.stop();
    }
    expect(migration.errors).toEqual([]);
  });
});

describe('migration re-creation: the phases', () => {
  test('stop writes the plain-text cluster and a runbook of its own; the migration runbook points at it', () => {
    const { outdir } = projectFolder('recreation-stop-');
    synth(outdir, MigrationRecreationPhase.STOP);
    expect(migrationClusterOf(outdir).spec.tlsCluster).toEqual({ enabled: false });
    const files = filesFolderOf(outdir);
    const runbook = fs.readFileSync(path.join(files, recreationRunbookPath(NS, CLUSTER)), 'utf8');
    expect(runbook).toContain('phase stop');
    expect(shellBlocks(runbook).join('\n')).toContain(`stop-task ${TASK}`);
    expect(fs.readFileSync(path.join(files, migrationRunbookPath(NS, CLUSTER)), 'utf8')).toContain('recreation-runbook.md');
  });

  test.each([
    ['create without stop', [MigrationRecreationPhase.CREATE],
      'ledger/migration: recreation.phase: received "create"; expected "stop" first (no record at'],
    ['stop after create', [MigrationRecreationPhase.STOP, MigrationRecreationPhase.CREATE, MigrationRecreationPhase.STOP],
      'ledger/migration: recreation.phase: received "stop"; expected "create" or no re-creation'],
    ['the prop dropped at stop', [MigrationRecreationPhase.STOP, undefined],
      'ledger/migration: recreation.phase: received nothing; expected "stop" or "create"'],
    ['stop on a cluster recorded with TLS on', [undefined, MigrationRecreationPhase.STOP],
      'ledger/migration: recreation.phase: received "stop"; expected no re-creation (as recorded in'],
  ] as const)('the guard refuses %s, in one line naming the override', (_, phases, message) => {
    const { outdir } = projectFolder('recreation-guard-');
    const last = phases.length - 1;
    phases.slice(0, last).forEach((p) => synth(outdir, p));
    let error: unknown;
    try {
      synth(outdir, phases[last]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ClusterTlsError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(`set CLUSTER_TLS_RECREATE=MigrationCluster/${NS}/${CLUSTER}`);
    expect((error as Error).message).not.toContain('\n');
    // Acknowledged, the same synth passes.
    synth(outdir, phases[last], [`MigrationCluster/${NS}/${CLUSTER}`]);
  });

  test('create after stop flips tlsCluster.enabled without an acknowledgement, which the record alone allows', () => {
    const { outdir } = projectFolder('recreation-flip-');
    synth(outdir, MigrationRecreationPhase.STOP);
    expect(() => synth(outdir, MigrationRecreationPhase.CREATE)).not.toThrow();
    expect(migrationClusterOf(outdir).spec.tlsCluster).toEqual({ enabled: true });
  });
});
