/**
 * One pass over the app per synth: every object is rendered once, whatever reads it (the rules,
 * the rotation runbook's workloads, the manifests), and a cluster construct finds the certificates
 * another construct made for its cluster without walking the construct tree.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart } from 'cdk8s';
import { Construct, Node } from 'constructs';
import * as kplus from 'cdk8s-plus-27';
import { ClusterCertificates, DrainerRelease, IssuingMethod, RotationKind, TlsDatabaseCluster, TlsMigrationCluster, renderApp, synthesize } from '../lib';

/** A cluster, its certificates with a rotation runbook, a drainer, and an application Deployment that mounts a client Secret of its own. */
function fullApp(outdir?: string) {
  const app = new App({ outdir });
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certificates = new ClusterCertificates(chart, 'certs', {
    clusterName: 'basic', method: IssuingMethod.CERT_MANAGER, rotations: [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }],
  });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates, tlsClient: {} });
  new DrainerRelease(chart, 'drainer', { cluster: database, releaseName: 'binlog', chart: { version: '1.1.0' } });
  const api = new kplus.Deployment(chart, 'api', { containers: [{ image: 'registry.example.com/api:1.0.0' }] });
  const client = database.addSqlClient('api');
  api.containers[0].mount('/etc/db-tls', kplus.Volume.fromSecret(chart, 'api-tls', kplus.Secret.fromSecretName(chart, 'api-secret', client.secretName)));
  return { app, api: api.node.findChild('Resource') as ApiObject, cluster: database.resource as ApiObject };
}

/** How many times each of `objects` is rendered while `run` runs. */
function renderings(objects: readonly ApiObject[], run: () => void): number[] {
  const spy = jest.spyOn(ApiObject.prototype, 'toJson');
  try {
    run();
    return objects.map((o) => spy.mock.contexts.filter((c) => c === o).length);
  } finally {
    spy.mockRestore();
  }
}

describe('one pass over the app per synth', () => {
  test('renderApp renders a workload once, and the rotation runbook still names it', () => {
    const { app, api, cluster } = fullApp();
    let runbook = '';
    expect(renderings([api, cluster], () => {
      runbook = renderApp(app).files.find((f) => f.path === 'demo/basic/rotation-runbook.md')!.content;
    })).toEqual([1, 1]);
    expect(runbook).toContain(`kubectl rollout restart deployment/${api.name} -n demo`);
  });

  test('synthesize renders a workload and a cluster resource once, the guards\' reading ahead included', () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-one-pass-')), 'dist');
    const { app, api, cluster } = fullApp(outdir);
    expect(renderings([api, cluster], () => synthesize(app, { acknowledgeRecreation: [], acknowledgeUnverifiedPhase: [] }))).toEqual([1, 1]);
    expect(fs.readFileSync(path.join(outdir, 'demo.k8s.yaml'), 'utf8')).toContain(`name: ${api.name}`);
  });

  test('a second synth of a changed app renders it again: the facts last one synth', () => {
    const { app, api } = fullApp();
    renderApp(app);
    api.metadata.addLabel('team', 'shop');
    const manifest = renderApp(app).objects.find((o) => o.manifest.kind === 'Deployment')!.manifest;
    expect(manifest.metadata.labels.team).toBe('shop');
  });
});

describe('the certificates a cluster construct finds for its cluster', () => {
  /** The constructs every findAll of the app visits while `n` database clusters and their migration clusters, each without certificates, are added. */
  function visits(n: number): number {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const findAll = Node.prototype.findAll;
    let visited = 0;
    const spy = jest.spyOn(Node.prototype, 'findAll').mockImplementation(function (this: Node, order) {
      const found = findAll.call(this, order);
      visited += found.length;
      return found;
    });
    try {
      for (let i = 0; i < n; i++) {
        new TlsDatabaseCluster(chart, `db-${i}`, { clusterName: `cluster-${i}`, version: 'v4.0.5' });
      }
    } finally {
      spy.mockRestore();
    }
    return visited;
  }

  test('are found by namespace and name: twice the clusters visit at most twice the constructs, not four times', () => {
    const [once, twice] = [10, 20].map(visits);
    expect(twice).toBeLessThanOrEqual(2 * once + 10);
  });

  test('made by other constructs, are named as the tree orders them, whichever was made first', () => {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const [first, second] = [new Construct(chart, 'a'), new Construct(chart, 'b')];
    const db = new TlsDatabaseCluster(second, 'db', { clusterName: 'basic', version: 'v4.0.5' });
    new TlsDatabaseCluster(first, 'db', { clusterName: 'basic', version: 'v4.0.5' });
    expect(() => new TlsMigrationCluster(chart, 'migration', {
      clusterName: 'basic', version: 'v2.0.7', master: {}, worker: {}, sources: [{ sourceId: 's1', host: 'h', user: 'u', tlsSecretName: 's1-tls' }],
      target: { database: db, user: 'u', tlsSecretName: 'target-tls' }, task: { name: 't' },
    })).toThrow('demo/migration: certificates: received nothing; expected the certificates of cluster demo/basic, which demo/a/db/Certificates already makes: '
      + 'pass them as certificates, so that one set of Issuers and Secrets serves the cluster');
  });
});
