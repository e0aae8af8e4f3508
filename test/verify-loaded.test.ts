import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { cli } from './_cli';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { RotationKind } from '../lib/plan/rotation';
import { TlsPlan } from '../lib/plan/certificate-options';
import {
  CHECKS, CheckResult, POD_CHECKS, SPAN_CHECKS, SecretsAndPods, VerifyInputError, VerifyReport, lastWritten, loadPlans, parseSecrets, parseSecretsAndPods, verify,
} from '../lib/verify';
import { checkLoaded } from '../lib/verify/loaded';
import { KUBELET_PROJECTION_SECONDS } from '../lib/model/catalog-pods';
import { SecretsOptions, TestPki, secretObject, userTlsSecret } from './_pki';
import { writeLaidOut } from './_output';

/**
 * The time the certificates are checked at: this hour, since the chain and handshake checks are
 * OpenSSL's and judge validity at the real time. The Secrets' writes and the pods' starts below
 * are times of their own: the `loaded` check compares them with each other, never with this.
 */
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);

const STORE = 'basic-store-cluster-secret';
const COORDINATOR = 'basic-coordinator-cluster-secret';
const CLIENT = 'basic-cluster-client-secret';

/** When each Secret was created, first applied, and last written (by cert-manager, re-issuing it). */
const CREATED = '2026-11-24T09:00:00Z';
const APPLIED = '2026-11-24T09:30:00Z';
const WRITTEN = '2026-11-24T10:00:05Z';

const EXPECTED = `every container of the pods that mount the Secret started after its last write (${WRITTEN})`;
const RELIST = 'list it with kubectl get secrets,pods -n <namespace> -o json --show-managed-fields';

let pki: TestPki;
let plan: TlsPlan;
let dist: string;
beforeAll(async () => {
  pki = await TestPki.create(NOW);
  plan = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', components: ['coordinator', 'store'] }).plan();
  dist = writeLaidOut(tmpdir(), { 'demo/basic/tls-plan.json': JSON.stringify(plan, undefined, 2) });
});

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tmpdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-loaded-'));
  made.push(dir);
  return dir;
}

/**
 * The metadata times kubectl prints with --show-managed-fields: the creation, and one entry per
 * field manager, the latest write not listed last (the API server keeps no order of time).
 */
function written(secret: any, times: { created?: string; managers?: readonly string[] | null } = {}): any {
  const managers = times.managers === undefined ? [WRITTEN, APPLIED] : times.managers;
  const names = ['cert-manager-certificates-issuing', 'kubectl-client-side-apply', 'kubectl-edit'];
  return {
    ...secret,
    metadata: {
      ...secret.metadata,
      creationTimestamp: times.created ?? CREATED,
      resourceVersion: '4711',
      uid: '0b9a1f4e-6f7d-4c34-9a39-2f5f5d0d2b1c',
      ...(managers === null ? {} : {
        managedFields: managers.map((time, i) => ({
          apiVersion: 'v1', fieldsType: 'FieldsV1', manager: names[i], operation: i === 1 ? 'Apply' : 'Update', time,
          fieldsV1: { 'f:data': { '.': {}, 'f:ca.crt': {}, 'f:tls.crt': {}, 'f:tls.key': {} }, 'f:type': {} },
        })),
      }),
    },
  };
}

/** What a pod is made of. */
interface PodOptions {
  /** Secrets mounted by `secret` volumes. */
  readonly secrets?: readonly string[];
  /** Secrets among the sources of one `projected` volume. */
  readonly projected?: readonly string[];
  /** Each container's state: its start time when running, or the state object kubectl prints. */
  readonly containers?: Readonly<Record<string, string | object>>;
  readonly phase?: string;
  readonly namespace?: string;
}

/** A Pod as `kubectl get pods -o json` prints it, with the service account volume every pod gets. */
function pod(name: string, o: PodOptions): any {
  const containers = Object.entries(o.containers ?? {});
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'demo', creationTimestamp: CREATED, labels: { 'app.kubernetes.io/component': 'store' }, uid: 'c0ffee00-0000-4000-8000-000000000001' },
    spec: {
      containers: containers.map(([c]) => ({ name: c, image: 'registry.example/store:v8.5.0', volumeMounts: [{ name: 'tls', mountPath: '/var/lib/tls', readOnly: true }] })),
      volumes: [
        ...(o.secrets ?? []).map((secretName, i) => ({ name: `tls-${i}`, secret: { secretName, defaultMode: 420 } })),
        ...(o.projected ? [{ name: 'tls-projected', projected: { defaultMode: 420, sources: o.projected.map((s) => ({ secret: { name: s, items: [{ key: 'tls.crt', path: 'tls.crt' }] } })) } }] : []),
        { name: 'kube-api-access-8xk2p', projected: { defaultMode: 420, sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ] } },
      ],
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(containers.length === 0 ? {} : {
        containerStatuses: containers.map(([c, state]) => ({
          name: c, image: 'registry.example/store:v8.5.0', imageID: 'registry.example/store@sha256:0f', containerID: 'containerd://5e1d',
          ready: typeof state === 'string', restartCount: 0, started: typeof state === 'string', lastState: {},
          state: typeof state === 'string' ? { running: { startedAt: state } } : state,
        })),
      }),
    },
  };
}

/** The List `kubectl get secrets,pods -n demo -o json --show-managed-fields` prints. */
async function listOf(pods: readonly any[], options: SecretsOptions = {}, times?: Parameters<typeof written>[1]): Promise<any> {
  const secrets = await pki.secrets(plan, options);
  return { apiVersion: 'v1', kind: 'List', items: [...secrets.items.map((s) => written(s, times)), ...pods], metadata: { resourceVersion: '' } };
}

/** Reads the List back as the command does, and checks it. */
async function check(list: unknown): Promise<VerifyReport> {
  const { secrets, pods } = parseSecretsAndPods(JSON.stringify(list), 'in.json');
  return verify(loadPlans(dist), secrets, { now: NOW, pods });
}

/** The `loaded` check of one Secret, or undefined when it did not run. */
function loaded(report: VerifyReport, name: string): CheckResult | undefined {
  const secret = report.secrets.find((s) => s.name === name);
  if (!secret) {
    throw new Error(`no Secret ${name} in the report; have ${report.secrets.map((s) => s.name).join(', ')}`);
  }
  return secret.checks.find((c) => c.check === 'loaded');
}

/** Every failed check of the report, as `<secret> <check>`. */
function failures(report: VerifyReport): string[] {
  return report.secrets.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => `${s.name} ${c.check}`));
}


describe('the loaded check of a component the phase does not restart (the plan\'s rotation.reloading)', () => {
  /** The store's Secret and the pods of the list, read as the command reads them, checked at `now` as a component that re-reads its certificate. */
  async function reloadCheck(pods: readonly any[], now: Date): Promise<CheckResult> {
    const { secrets, pods: read } = parseSecretsAndPods(JSON.stringify(await listOf(pods)), 'in.json');
    return checkLoaded(secrets.find((x) => x.name === STORE)!, read, { component: 'store', now });
  }
  const after = (seconds: number) => new Date(Date.parse(WRITTEN) + seconds * 1000);
  const before = (name: string) => pod(name, { secrets: [STORE], containers: { store: '2026-11-24T09:40:00Z' } });

  test(`passes for pods started before the write once ${KUBELET_PROJECTION_SECONDS} s have gone by since it: the kubelet has written the files into them`, async () => {
    const result = await reloadCheck([before('basic-store-0'), before('basic-store-1')], after(KUBELET_PROJECTION_SECONDS));
    expect(result.ok).toBe(true);
    expect(result.found).toBe(`pods basic-store-0, basic-store-1 running ${KUBELET_PROJECTION_SECONDS} s after the write (${WRITTEN}), so the kubelet has written the new files into them, and store re-reads them at its next connection`);
  });

  test('fails sooner, naming the time from which it passes, never asking for a restart', async () => {
    const result = await reloadCheck([before('basic-store-0')], after(KUBELET_PROJECTION_SECONDS - 1));
    expect(result.ok).toBe(false);
    expect(result.found).toBe('run the check again from 2026-11-24T10:02:05Z, once the kubelet has written the files into the pods: store re-reads them at its next connection; '
      + `pod basic-store-0 started 2026-11-24T09:40:00Z, before the Secret was written at ${WRITTEN}: no restart needed`);
  });

  test('a pod that is not running fails it however long ago the write was', async () => {
    const crashing = pod('basic-store-0', { secrets: [STORE], containers: { store: { waiting: { reason: 'CrashLoopBackOff' } } } });
    const result = await reloadCheck([crashing], after(3600));
    expect(result.ok).toBe(false);
    expect(result.found).toMatch(/^pod basic-store-0 is not running: container store is /);
  });

  test('pods started after the write pass at once, as for any component', async () => {
    const result = await reloadCheck([pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } })], after(10));
    expect(result.ok).toBe(true);
  });
});

describe('the SQL server\'s Secret in a phase that reloads its MySQL port (tlsClient.reloadUser)', () => {
  /** The `loaded` check of the SQL server's Secret in a leaf renewal, its one pod started before the write, with or without a reload user. */
  async function sqlLoaded(reloadUser?: string): Promise<CheckResult | undefined> {
    const chart = Testing.chart();
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', rotations: [{ id: 'l1', kind: RotationKind.LEAF_RENEWAL }] });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v8.5.0', certificates, tlsClient: reloadUser === undefined ? {} : { reloadUser } });
    const sqlPlan = certificates.plan();
    const sqlDist = writeLaidOut(tmpdir(), { 'demo/basic/tls-plan.json': JSON.stringify(sqlPlan, undefined, 2) });
    // Any certificate set will do: the check under test reads the Secret's write time and the pod's start.
    const some = (await pki.secrets(plan)).items[0];
    const server = written({ ...some, metadata: { ...some.metadata, name: 'basic-sqlserver-server-secret' } });
    const sqlPod = pod('basic-sqlserver-0', { secrets: ['basic-sqlserver-server-secret'], containers: { sqlserver: '2026-11-24T09:40:00Z' } });
    const { secrets, pods } = parseSecretsAndPods(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [server, sqlPod] }), 'in.json');
    const report = await verify(loadPlans(sqlDist), secrets, { now: NOW, pods });
    return report.secrets.find((x) => x.name === 'basic-sqlserver-server-secret')?.checks.find((c) => c.check === 'loaded');
  }

  test('a pod started before the write passes once the kubelet has written the files, since the runbook reloads the port; without a reload user it must restart', async () => {
    expect(await sqlLoaded('tls-reloader')).toEqual(expect.objectContaining({
      ok: true, found: expect.stringContaining('sqlserver loads them on its MySQL port when the rotation runbook runs ALTER INSTANCE RELOAD TLS'),
    }));
    expect(await sqlLoaded()).toEqual(expect.objectContaining({ ok: false, found: expect.stringContaining('restart it') }));
  });
});

describe('the loaded check', () => {
  test('passes when every pod that mounts the Secret started after its last write, and runs last', async () => {
    const report = await check(await listOf([
      pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } }),
      pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:01:30Z' } }),
    ]));
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(loaded(report, STORE)).toEqual({
      check: 'loaded', ok: true, expected: EXPECTED,
      found: 'pods basic-store-0 (started 2026-11-24T10:00:09Z), basic-store-1 (started 2026-11-24T10:01:30Z) mount it, every container started after the write',
    });
    const checks = report.secrets.find((s) => s.name === STORE)!.checks.map((c) => c.check);
    expect(checks).toEqual([...CHECKS.filter((c) => c !== 'rotation' && c !== 'enablement' && c !== 'sql-ca' && c !== 'expiry'), 'loaded']);
  });

  test('a start in the same second as the write fails: which came first cannot be told', async () => {
    const report = await check(await listOf([pod('basic-store-0', { secrets: [STORE], containers: { store: WRITTEN } })]));
    expect(loaded(report, STORE)).toMatchObject({
      ok: false, found: `pod basic-store-0 started ${WRITTEN}, the second the Secret was written: which came first cannot be told, restart it`,
    });
  });

  test('fails, naming the pod and both times, when a pod started before the Secret\'s last write', async () => {
    // After the creation and the first apply, before cert-manager's write: the latest time counts.
    const report = await check(await listOf([
      pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } }),
      pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:00:01Z' } }),
    ]));
    expect(failures(report)).toEqual([`${STORE} loaded`]);
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ checked: 3, passed: 2, failed: 1 });
    expect(loaded(report, STORE)).toEqual({
      check: 'loaded', ok: false, expected: EXPECTED,
      found: `pod basic-store-1 started 2026-11-24T10:00:01Z, before the Secret was written at ${WRITTEN}: restart it`,
    });
  });

  test('a pod of several containers names the container that started before the write', async () => {
    const report = await check(await listOf([
      pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z', 'slow-log': '2026-11-24T09:59:59Z' } }),
    ]));
    expect(loaded(report, STORE)!.found).toBe(`pod basic-store-0 container slow-log started 2026-11-24T09:59:59Z, before the Secret was written at ${WRITTEN}: restart it`);
  });

  test.each([
    ['waiting', { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } }, 'Running',
      'pod basic-store-0 is not running: container store is waiting (CrashLoopBackOff)'],
    ['terminated', { terminated: { reason: 'Error', exitCode: 1, startedAt: '2026-11-24T10:00:09Z', finishedAt: '2026-11-24T10:00:12Z' } }, 'Failed',
      'pod basic-store-0 is not running: container store is terminated (Error, exit code 1)'],
    ['in no state', {}, 'Running', 'pod basic-store-0 is not running: container store is in no state'],
    ['without container statuses', undefined, 'Pending', 'pod basic-store-0 is not running: no container has started (phase Pending)'],
  ])('a pod not running fails with its state: %s', async (_what, state, phase, found) => {
    const report = await check(await listOf([pod('basic-store-0', { secrets: [STORE], phase, containers: state === undefined ? {} : { store: state } })]));
    expect(failures(report)).toEqual([`${STORE} loaded`]);
    expect(loaded(report, STORE)).toEqual({ check: 'loaded', ok: false, expected: EXPECTED, found });
  });

  test('is left out when the input holds no Pods: the report is the one without the check', async () => {
    const list = await listOf([]);
    const report = await check(list);
    expect(report.secrets.flatMap((s) => s.checks).filter((c) => c.check === 'loaded')).toEqual([]);
    expect(report.secrets.find((s) => s.name === STORE)!.checks.map((c) => c.check)).toEqual(CHECKS.filter((c) => c !== 'rotation' && c !== 'enablement' && c !== 'sql-ca' && c !== 'expiry'));
    expect(report.ok).toBe(true);
    const alone = await verify(loadPlans(dist), parseSecrets(JSON.stringify(list)), { now: NOW });
    expect(JSON.stringify(alone)).toBe(JSON.stringify(report));
  });

  test('passes, saying so, for a Secret no pod of the input mounts', async () => {
    const report = await check(await listOf([
      pod('basic-coordinator-0', { secrets: [COORDINATOR], containers: { coordinator: '2026-11-24T10:00:09Z' } }),
      // A pod of another namespace that mounts a Secret of the same name is not this Secret's.
      pod('basic-store-0', { namespace: 'staging', secrets: [STORE], containers: { store: '2026-11-24T09:00:01Z' } }),
    ]));
    expect(failures(report)).toEqual([]);
    expect(loaded(report, STORE)).toEqual({ check: 'loaded', ok: true, expected: EXPECTED, found: 'no pod in the input mounts it' });
    expect(loaded(report, CLIENT)).toEqual({ check: 'loaded', ok: true, expected: EXPECTED, found: 'no pod in the input mounts it' });
    expect(loaded(report, COORDINATOR)!.found).toBe('pod basic-coordinator-0 (started 2026-11-24T10:00:09Z) mounts it, every container started after the write');
  });

  test('a Secret among the sources of a projected volume is mounted too', async () => {
    const report = await check(await listOf([
      pod('app-7d9f', { projected: [CLIENT], containers: { app: '2026-11-24T10:00:00Z' } }),
    ]));
    expect(failures(report)).toEqual([`${CLIENT} loaded`]);
    expect(loaded(report, CLIENT)!.found).toBe(`pod app-7d9f started 2026-11-24T10:00:00Z, before the Secret was written at ${WRITTEN}: restart it`);
  });

  test('a Secret a container reads into its environment is loaded at start too', async () => {
    const reader = pod('app-env', { containers: { app: '2026-11-24T10:00:00Z' } });
    reader.spec.containers[0].envFrom = [{ secretRef: { name: CLIENT } }];
    const report = await check(await listOf([reader]));
    expect(loaded(report, CLIENT)!.found).toBe(`pod app-env started 2026-11-24T10:00:00Z, before the Secret was written at ${WRITTEN}: restart it`);
  });

  test('fails when the input does not say when the Secret was last written', async () => {
    const pods = [pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } })];
    const noManagedFields = await check(await listOf(pods, {}, { managers: null }));
    expect(loaded(noManagedFields, STORE)).toEqual({
      check: 'loaded', ok: false, expected: `every container of the pods that mount the Secret started after its last write (${CREATED})`,
      found: `the input holds no metadata.managedFields time for the Secret, so only its creation (${CREATED}) is known, not its last write: ${RELIST}`,
    });
    const secrets = (await pki.secrets(plan)).items;
    const noTimes = await check({ kind: 'List', items: [...secrets, ...pods] });
    expect(loaded(noTimes, STORE)).toEqual({
      check: 'loaded', ok: false, expected: 'every container of the pods that mount the Secret started after its last write',
      found: `the input gives no time the Secret was written (no metadata.creationTimestamp, no metadata.managedFields time): ${RELIST}`,
    });
  });

  test('field managers without a time fail it: when they last wrote the Secret cannot be told; an empty list, as no list', async () => {
    const pods = [pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } })];
    const list = await listOf(pods);
    const secret = list.items.find((i: any) => i.metadata.name === STORE);
    delete secret.metadata.managedFields[0].time;
    expect(loaded(await check(list), STORE)).toMatchObject({
      ok: false, found: `field managers of the Secret give no time (cert-manager-certificates-issuing): when they last wrote it cannot be told; list it again with kubectl get secrets,pods -n <namespace> -o json --show-managed-fields`,
    });
    expect(loaded(await check(await listOf(pods, {}, { managers: [] })), STORE)).toMatchObject({
      ok: false, found: `the input holds no metadata.managedFields time for the Secret, so only its creation (${CREATED}) is known, not its last write: ${RELIST}`,
    });
  });

  test('a container of the pod\'s spec without a status has not started, and fails it', async () => {
    const sidecar = pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } });
    sidecar.spec.containers.push({ name: 'tls-reloader', image: 'registry.example/reloader:v1' });
    expect(loaded(await check(await listOf([sidecar])), STORE)).toMatchObject({
      ok: false, found: 'pod basic-store-0 is not running: container tls-reloader is without a status: not started',
    });
  });

  test('150,000 field managers are read, the latest time taken, without exhausting the stack', async () => {
    const times = Array.from({ length: 150_000 }, (_x, i) => new Date(Date.parse(CREATED) + (i % 3600) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const [secret] = parseSecrets(JSON.stringify(written(secretObject(STORE, 'demo', {}), { created: CREATED, managers: times })));
    expect(lastWritten(secret)?.toISOString()).toBe('2026-11-24T09:59:59.000Z');
  });

  test('the last write is the latest of the creation and every field manager\'s time', () => {
    const [secret] = parseSecrets(JSON.stringify(written(secretObject(STORE, 'demo', {}), { created: CREATED, managers: [APPLIED, WRITTEN, '2026-11-24T09:45:00+02:00'] })));
    expect(lastWritten(secret)?.toISOString()).toBe('2026-11-24T10:00:05.000Z');
    const [recreated] = parseSecrets(JSON.stringify(written(secretObject(STORE, 'demo', {}), { created: '2026-11-25T00:00:00Z', managers: [] })));
    expect(lastWritten(recreated)?.toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(lastWritten(parseSecrets(JSON.stringify(secretObject(STORE, 'demo', {})))[0])).toBeUndefined();
  });
});

describe('the Pods of the input', () => {
  test('are kept apart from the Secrets, each with the Secrets it mounts and its containers\' starts', async () => {
    const list = await listOf([
      pod('basic-store-0', { secrets: [STORE, STORE], projected: [CLIENT], containers: { store: WRITTEN, sidecar: { waiting: { reason: 'ContainerCreating' } } }, phase: 'Pending' }),
    ]);
    const parsed: SecretsAndPods = parseSecretsAndPods(JSON.stringify(list), 'in.json');
    expect(parsed.secrets.map((s) => s.name)).toEqual(plan.secrets.map((s) => s.name));
    expect(parsed.pods).toEqual([{
      name: 'basic-store-0', namespace: 'demo', phase: 'Pending', labels: { 'app.kubernetes.io/component': 'store' }, secretNames: [STORE, CLIENT], source: 'in.json',
      containers: [{ name: 'store', startedAt: new Date(WRITTEN) }, { name: 'sidecar', notRunning: 'waiting (ContainerCreating)' }],
    }]);
    expect(parseSecrets(JSON.stringify(list)).map((s) => s.name)).toEqual(plan.secrets.map((s) => s.name));
  });

  const podWith = (edit: (p: any) => void) => {
    const p = pod('basic-store-0', { secrets: [STORE], projected: [CLIENT], containers: { store: WRITTEN } });
    edit(p);
    return JSON.stringify({ kind: 'List', items: [p] });
  };
  const secretWith = (edit: (s: any) => void) => {
    const s = written(secretObject(STORE, 'demo', { 'tls.key': 'never shown' }));
    edit(s);
    return JSON.stringify({ kind: 'List', items: [s] });
  };
  const TIME = 'expected an RFC 3339 time as kubectl prints it, such as 2026-11-24T10:00:05Z';
  test.each([
    ['a kind other than Secret or Pod', JSON.stringify({ kind: 'List', items: [{ kind: 'ConfigMap', metadata: { name: 'x' } }] }),
      'in.json: items[0].kind: received "ConfigMap"; expected "Secret": the list must hold only Secrets and Pods, as kubectl get secrets,pods -n <namespace> -o json prints them'],
    ['items that are not an array', JSON.stringify({ kind: 'List', items: {} }), 'in.json: items: received an object with keys none; expected an array of Secrets, and Pods if any'],
    ['a Pod without a name', podWith((p) => { delete p.metadata.name; }), 'in.json: items[0].metadata.name: received nothing; expected the Pod\'s name'],
    ['a namespace that is not a string', podWith((p) => { p.metadata.namespace = 7; }), 'in.json: Pod basic-store-0 metadata.namespace: received 7; expected a namespace name'],
    ['a spec that is not an object', podWith((p) => { p.spec = 'none'; }), 'in.json: Pod basic-store-0 spec: received "none"; expected the Pod\'s spec, an object'],
    ['a status that is not an object', podWith((p) => { p.status = []; }), 'in.json: Pod basic-store-0 status: received an array of 0; expected the Pod\'s status, an object'],
    ['a phase that is not a string', podWith((p) => { p.status.phase = 1; }), 'in.json: Pod basic-store-0 status.phase: received 1; expected a Pod phase such as "Running"'],
    ['labels that are not an object', podWith((p) => { p.metadata.labels = ['store']; }), 'in.json: Pod basic-store-0 metadata.labels: received an array of 1; expected an object of label names and values'],
    ['a label that is not a string', podWith((p) => { p.metadata.labels = { tier: 2 }; }), 'in.json: Pod basic-store-0 metadata.labels["tier"]: received 2; expected a string'],
    ['volumes that are not an array', podWith((p) => { p.spec.volumes = { tls: {} }; }), 'in.json: Pod basic-store-0 spec.volumes: received an object with keys tls; expected an array of volumes'],
    ['a volume that is not an object', podWith((p) => { p.spec.volumes[0] = 'tls'; }), 'in.json: Pod basic-store-0 spec.volumes[0]: received "tls"; expected a volume, an object'],
    ['a secret volume that is not an object', podWith((p) => { p.spec.volumes[0].secret = STORE; }),
      'in.json: Pod basic-store-0 spec.volumes[0].secret: received "basic-store-cluster-secret"; expected an object with secretName'],
    ['a secret volume without a Secret name', podWith((p) => { delete p.spec.volumes[0].secret.secretName; }),
      'in.json: Pod basic-store-0 spec.volumes[0].secret.secretName: received nothing; expected the name of the Secret the volume mounts'],
    ['a projected volume that is not an object', podWith((p) => { p.spec.volumes[1].projected = true; }),
      'in.json: Pod basic-store-0 spec.volumes[1].projected: received true; expected an object with sources'],
    ['projected sources that are not an array', podWith((p) => { p.spec.volumes[1].projected.sources = 'secret'; }),
      'in.json: Pod basic-store-0 spec.volumes[1].projected.sources: received "secret"; expected an array of projected sources'],
    ['a projected source that is not an object', podWith((p) => { p.spec.volumes[1].projected.sources[0] = 3; }),
      'in.json: Pod basic-store-0 spec.volumes[1].projected.sources[0]: received 3; expected a projected source, an object'],
    ['a projected secret that is not an object', podWith((p) => { p.spec.volumes[1].projected.sources[0].secret = CLIENT; }),
      'in.json: Pod basic-store-0 spec.volumes[1].projected.sources[0].secret: received "basic-cluster-client-secret"; expected an object with name'],
    ['a projected secret without a name', podWith((p) => { p.spec.volumes[1].projected.sources[0].secret.name = ''; }),
      'in.json: Pod basic-store-0 spec.volumes[1].projected.sources[0].secret.name: received ""; expected the name of the Secret the volume projects'],
    ['container statuses that are not an array', podWith((p) => { p.status.containerStatuses = {}; }),
      'in.json: Pod basic-store-0 status.containerStatuses: received an object with keys none; expected an array of container statuses'],
    ['a container status that is not an object', podWith((p) => { p.status.containerStatuses[0] = 'store'; }),
      'in.json: Pod basic-store-0 status.containerStatuses[0]: received "store"; expected a container status, an object'],
    ['a container status without a name', podWith((p) => { delete p.status.containerStatuses[0].name; }),
      'in.json: Pod basic-store-0 status.containerStatuses[0].name: received nothing; expected the container\'s name'],
    ['a state that is not an object', podWith((p) => { p.status.containerStatuses[0].state = 'running'; }),
      'in.json: Pod basic-store-0 status.containerStatuses[0].state: received "running"; expected the container\'s state, an object such as {"running":{"startedAt":"2026-11-24T10:00:05Z"}}'],
    ['a running state that is not an object', podWith((p) => { p.status.containerStatuses[0].state.running = true; }),
      'in.json: Pod basic-store-0 status.containerStatuses[0].state.running: received true; expected an object with startedAt'],
    ['a running state without a start', podWith((p) => { p.status.containerStatuses[0].state.running = {}; }),
      `in.json: Pod basic-store-0 status.containerStatuses[0].state.running.startedAt: received nothing; ${TIME}`],
    ['a start that is not a time', podWith((p) => { p.status.containerStatuses[0].state.running.startedAt = 'a minute ago'; }),
      `in.json: Pod basic-store-0 status.containerStatuses[0].state.running.startedAt: received "a minute ago"; ${TIME}`],
    ['a start without its time zone', podWith((p) => { p.status.containerStatuses[0].state.running.startedAt = '2026-11-24T10:00:05'; }),
      `in.json: Pod basic-store-0 status.containerStatuses[0].state.running.startedAt: received "2026-11-24T10:00:05"; ${TIME}`],
    ['a start on a day that does not exist', podWith((p) => { p.status.containerStatuses[0].state.running.startedAt = '2026-13-45T10:00:05Z'; }),
      `in.json: Pod basic-store-0 status.containerStatuses[0].state.running.startedAt: received "2026-13-45T10:00:05Z"; ${TIME}`],
    ['a Secret\'s creation that is not a time', secretWith((s) => { s.metadata.creationTimestamp = 1764000000; }),
      `in.json: Secret basic-store-cluster-secret metadata.creationTimestamp: received 1764000000; ${TIME}`],
    ['managed fields that are not an array', secretWith((s) => { s.metadata.managedFields = { time: WRITTEN }; }),
      'in.json: Secret basic-store-cluster-secret metadata.managedFields: received an object with keys time; expected an array of field managers, as kubectl --show-managed-fields prints it'],
    ['a field manager that is not an object', secretWith((s) => { s.metadata.managedFields[1] = 'kubectl'; }),
      'in.json: Secret basic-store-cluster-secret metadata.managedFields[1]: received "kubectl"; expected a field manager entry (manager, operation, time)'],
    ['a field manager\'s time that is not a time', secretWith((s) => { s.metadata.managedFields[0].time = 'yesterday'; }),
      `in.json: Secret basic-store-cluster-secret metadata.managedFields[0].time: received "yesterday"; ${TIME}`],
    // The API server's parser (Go's time.Parse, go1.26) refuses a day the month does not have, where JavaScript's Date rolls it into the next month, and each field out of its range.
    ...['2026-02-31T10:00:05Z', '2026-04-31T10:00:05Z', '2025-02-29T10:00:05Z', '2026-11-24T24:00:00Z', '2026-11-24T10:60:00Z', '2026-11-24T10:00:60Z', '2026-11-24T10:00:05+25:00', '2026-11-24T10:00:05+24:61'].map((time) => [
      `an impossible time, ${time}`, secretWith((s) => { s.metadata.creationTimestamp = time; }),
      `in.json: Secret basic-store-cluster-secret metadata.creationTimestamp: received "${time}"; ${TIME}`] as [string, string, string]),
    ['a key that is not base64, never repeated', secretWith((s) => { s.data['tls.key'] = '-----BEGIN PRIVATE KEY----- never shown'; }),
      'in.json: Secret basic-store-cluster-secret data["tls.key"]: received a value of 39 characters that is not base64 (not shown: Secret data); expected base64, as kubectl prints Secret data'],
    ['a password that is not a string, never repeated', secretWith((s) => { s.data.password = 123456; }),
      'in.json: Secret basic-store-cluster-secret data["password"]: received a value of type number; expected a string'],
    ['a spec container without a name', podWith((p) => { delete p.spec.containers[0].name; }),
      'in.json: Pod basic-store-0 spec.containers[0].name: received nothing; expected the container\'s name'],
  ])('%s is refused on one line', (_what, text, message) => {
    let error: unknown;
    try {
      parseSecretsAndPods(text, 'in.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VerifyInputError);
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toContain('never shown');
    expect((error as Error).message).not.toContain(Buffer.from('never shown').toString('base64'));
  });
});

describe('cluster-tls verify with the pods', () => {
  function writeJson(value: unknown): string {
    const file = path.join(tmpdir(), 'secrets-and-pods.json');
    fs.writeFileSync(file, JSON.stringify(value, undefined, 2));
    return file;
  }

  test('prints the loaded check under the Secret\'s row and exits 1 when a pod started before its Secret was written', async () => {
    const file = writeJson(await listOf([
      pod('basic-coordinator-0', { secrets: [COORDINATOR], containers: { coordinator: '2026-11-24T10:00:09Z' } }),
      pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } }),
      pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:00:01Z' } }),
    ]));
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', file, '--now', NOW.toISOString()]);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    const row = lines.findIndex((l) => /^basic-store-cluster-secret +demo\/basic +server: store +FAIL$/.test(l));
    expect(row).toBeGreaterThan(0);
    expect(lines[row + 1]).toBe(`  - loaded: expected ${EXPECTED}; found pod basic-store-1 started 2026-11-24T10:00:01Z, before the Secret was written at ${WRITTEN}: restart it`);
    expect(lines).toContainEqual(expect.stringMatching(/^basic-coordinator-cluster-secret +demo\/basic +server: coordinator +PASS$/));
    expect(stdout.endsWith('\n3 secrets checked: 2 passed, 1 failed\n')).toBe(true);

    const json = await cli(['verify', '--json', '--dist', dist, '--secrets', file, '--now', NOW.toISOString()]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.secrets.find((s: any) => s.name === STORE).checks.at(-1)).toEqual({
      check: 'loaded', ok: false, expected: EXPECTED,
      found: `pod basic-store-1 started 2026-11-24T10:00:01Z, before the Secret was written at ${WRITTEN}: restart it`,
    });
    expect(report.secrets.find((s: any) => s.name === COORDINATOR).checks.at(-1)).toMatchObject({ check: 'loaded', ok: true });
  });

  test('exits 0 once the pod is restarted', async () => {
    const file = writeJson(await listOf([
      pod('basic-store-0', { secrets: [STORE], containers: { store: '2026-11-24T10:00:09Z' } }),
      pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:02:00Z' } }),
    ]));
    const { code, stdout } = await cli(['verify', '--dist', dist, '--secrets', file, '--now', NOW.toISOString()]);
    expect(stdout.endsWith('\n3 secrets checked: 3 passed, 0 failed\n')).toBe(true);
    expect(code).toBe(0);
  });

  test('--secrets given twice reads both lists as one: the pods of the second are checked against the Secrets of the first', async () => {
    const list = await listOf([pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:00:01Z' } })]);
    const secrets = writeJson({ ...list, items: list.items.filter((i: any) => i.kind !== 'Pod') });
    const pods = writeJson({ ...list, items: list.items.filter((i: any) => i.kind === 'Pod') });
    const alone = await cli(['verify', '--dist', dist, '--secrets', secrets, '--now', NOW.toISOString()]);
    expect([alone.code, alone.stdout.endsWith('\n3 secrets checked: 3 passed, 0 failed\n')]).toEqual([0, true]);
    const both = await cli(['verify', '--dist', dist, '--secrets', secrets, '--secrets', pods, '--now', NOW.toISOString()]);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain(`found pod basic-store-1 started 2026-11-24T10:00:01Z, before the Secret was written at ${WRITTEN}: restart it`);
  });

  test('two lists of one namespace, or one list given twice, are refused in one line naming both: which copy is checked could not be told', async () => {
    const list = await listOf([pod('basic-store-1', { secrets: [STORE], containers: { store: '2026-11-24T10:00:11Z' } })]);
    const first = writeJson(list);
    const second = writeJson(list);
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', first, '--secrets', second, '--now', NOW.toISOString()]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toMatch(new RegExp(`^error: ${second.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Secret demo/basic-cluster-client-secret: received a second copy of it \\(the first is in ${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); expected each Secret and Pod once: give one --secrets per namespace, each listed once\n$`));
  });

  test('standard input can be given once', async () => {
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', '-', '--secrets', '-']);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe('error: --secrets: received "-" 2 times; expected standard input once, and the other lists as files or <(kubectl get secrets,pods -n <namespace> …); run cluster-tls --help for usage\n');
  });

  test('an empty list, as a failing kubectl behind <(…) leaves, is named by its source and said to be empty', async () => {
    const file = writeJson({ ...(await listOf([])) });
    const empty = path.join(path.dirname(file), 'empty.json');
    fs.writeFileSync(empty, '');
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', file, '--secrets', empty]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(`error: ${empty}: content: received ""; expected the output of kubectl get secrets -n <namespace> -o json (a List of Secrets, or one Secret); `
      + 'it is empty, as when the command that feeds it fails (kubectl may not read that namespace)\n');
  });

  test('a List with a malformed Pod exits 2 with one line', async () => {
    const bad = pod('basic-store-1', { secrets: [STORE], containers: { store: '24/11/2026 10:00' } });
    const file = writeJson(await listOf([bad]));
    const { code, stdout, stderr } = await cli(['verify', '--dist', dist, '--secrets', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: ${file}: Pod basic-store-1 status.containerStatuses[0].state.running.startedAt: received "24/11/2026 10:00"; ${
      'expected an RFC 3339 time as kubectl prints it, such as 2026-11-24T10:00:05Z'}\n`);
  });

  test('--help names every check the command can make, each with what it makes sure of; --version prints the package\'s', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    const listed = stdout.slice(stdout.indexOf('Checks, in the order they run:')).split('\n').slice(1).filter((l) => /^  \S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
    expect(listed).toEqual([...CHECKS, ...POD_CHECKS, ...SPAN_CHECKS]);
    const version = await cli(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version}\n`, stderr: '' });
  });

  test('--help says what --secrets may be and what the loaded check does', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('kubectl get secrets,pods ... --show-managed-fields; - for standard input');
    expect(stdout).toContain('the loaded check also tells what the pods have loaded');
    expect(stdout).toContain('Without pods in the input, the check is not run.');
  });
});

describe('a Secret you create', () => {
  test('gets the check too: a pod that mounts it and started before you last wrote it fails it, named; one started after passes', async () => {
    const withSink: TlsPlan = { ...plan, userSecrets: [{ name: 'basic-sink-tls', cluster: 'database' as any, usedBy: 'the changefeed\'s sink' }] };
    const sinkDist = writeLaidOut(tmpdir(), { 'demo/basic/tls-plan.json': JSON.stringify(withSink, undefined, 2) });
    const sink = written(secretObject('basic-sink-tls', 'demo', { ...await userTlsSecret() }));
    const changefeed = (started: string) => pod('basic-changefeed-0', { secrets: ['basic-sink-tls'], containers: { changefeed: started } });
    const run = async (started: string) => {
      const list = await listOf([changefeed(started)]);
      const { secrets, pods } = parseSecretsAndPods(JSON.stringify({ ...list, items: [...list.items, sink] }), 'in.json');
      return loaded(await verify(loadPlans(sinkDist), secrets, { now: NOW, pods }), 'basic-sink-tls');
    };
    const before = await run('2026-11-24T10:00:00Z');
    expect(before).toMatchObject({ ok: false, expected: EXPECTED });
    expect(before!.found).toContain('basic-changefeed-0');
    expect(await run('2026-11-24T10:05:00Z')).toMatchObject({ ok: true, expected: EXPECTED });
  });
});
