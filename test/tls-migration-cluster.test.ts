import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { IDatabaseEndpoint } from '../lib/clusters/endpoints';
import { PvReclaimPolicy } from '../lib/clusters/tls-cluster';
import { OutputFile } from '../lib/app/output-file';
import { renderApp } from '../lib/synth/synthesize';
import { TlsMigrationCluster, TlsMigrationClusterProps } from '../lib/clusters/tls-migration-cluster';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { expectValidAgainstCrds } from './_crds';
import { describeWithTools, tool } from './_programs';
import { findObject, namesOf } from './_find';
import { createFakeKubectl } from './_fake-kubectl';
import { shellBlocks } from './_runbooks';

/** A database cluster as the target, the way a TlsDatabaseCluster exposes itself. */
const DATABASE: IDatabaseEndpoint = { clusterName: 'basic', namespace: 'demo', sqlHost: 'basic-sqlserver.demo.svc', sqlPort: 4000 };

const BASE: TlsMigrationClusterProps = {
  clusterName: 'basic',
  version: 'v8.1.0',
  sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'source1-tls' }],
  target: { database: DATABASE, user: 'root', tlsSecretName: 'target-tls' },
  task: { name: 'basic-task' },
};

function synth(props: Partial<TlsMigrationClusterProps> = {}, setup?: (chart: Chart) => Partial<TlsMigrationClusterProps>) {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const extra = setup?.(chart) ?? {};
  const cluster = new TlsMigrationCluster(chart, 'migration', { ...BASE, ...props, ...extra });
  const rendered = renderApp(app);
  const objects = rendered.objects.map((o) => o.manifest);
  const file = (path: string): string => {
    const found = rendered.files.find((f) => f.path === path);
    if (!found) {
      throw new Error(`no file ${path}; have: ${rendered.files.map((f) => f.path).join(', ')}`);
    }
    return found.content;
  };
  return { app, cluster, objects, files: rendered.files, file, yaml: (path: string) => YAML.parse(file(path)) };
}

function make(props: Partial<TlsMigrationClusterProps>) {
  return () => new TlsMigrationCluster(new Chart(Testing.app(), 'demo', { namespace: 'demo' }), 'migration', { ...BASE, ...props });
}

describe('MigrationCluster', () => {
  const { objects } = synth();

  test('every field of the spec\'s table, with the defaults', () => {
    const mc = findObject(objects, 'MigrationCluster', 'basic');
    expect(mc.apiVersion).toBe('db.operator.io/v1alpha1');
    expect(mc.metadata).toEqual({ name: 'basic', namespace: 'demo' });
    expect(mc.spec).toEqual({
      tlsCluster: { enabled: true },
      version: 'v8.1.0',
      pvReclaimPolicy: 'Retain',
      discovery: {},
      tlsClientSecretNames: ['source1-tls', 'target-tls'],
      master: { maxFailoverCount: 0, replicas: 1, storageSize: '10Gi', config: { 'cert-allowed-cn': ['basic'] } },
      worker: { maxFailoverCount: 0, replicas: 1, storageSize: '10Gi', config: { 'cert-allowed-cn': ['basic'] } },
    });
  });

  test('member settings, reclaim policy and discovery are passed through', () => {
    const mc = findObject(synth({
      pvReclaimPolicy: PvReclaimPolicy.DELETE,
      discovery: { address: 'http://basic-coordinator.demo:2379' },
      master: { baseImage: 'registry.example.com:5000/tools/mig', maxFailoverCount: 1, replicas: 3, storageSize: '20Gi' },
      worker: { baseImage: 'registry.example.com/mig-worker', maxFailoverCount: 2, replicas: 2, storageSize: '50Gi' },
    }).objects, 'MigrationCluster', 'basic');
    expect(mc.spec.pvReclaimPolicy).toBe('Delete');
    expect(mc.spec.discovery).toEqual({ address: 'http://basic-coordinator.demo:2379' });
    expect(mc.spec.master).toMatchObject({ baseImage: 'registry.example.com:5000/tools/mig', maxFailoverCount: 1, replicas: 3, storageSize: '20Gi' });
    expect(mc.spec.worker).toMatchObject({ baseImage: 'registry.example.com/mig-worker', maxFailoverCount: 2, replicas: 2, storageSize: '50Gi' });
  });

  test('the master accepts exactly one Common Name, the certificates\'; the worker may accept more', () => {
    const { objects: withExtra, cluster } = synth({ commonName: 'tls-basic', worker: { extraAllowedCommonNames: ['partner', 'tls-basic'] } });
    const mc = findObject(withExtra, 'MigrationCluster', 'basic');
    expect(mc.spec.master.config['cert-allowed-cn']).toEqual(['tls-basic']);
    expect(mc.spec.worker.config['cert-allowed-cn']).toEqual(['tls-basic', 'partner']);
    expect(cluster.commonName).toBe('tls-basic');
    const cns = new Set(withExtra.filter((o) => o.kind === 'Certificate').map((o) => o.spec.commonName));
    expect([...cns]).toEqual(['tls-basic']);
  });

  test('tlsClientSecretNames lists each Secret once, in declaration order, target last', () => {
    const { objects: shared, cluster } = synth({
      sources: [
        { sourceId: 'east', host: 'east.example.com', user: 'u', tlsSecretName: 'shared-tls' },
        { sourceId: 'west', host: 'west.example.com', user: 'u', tlsSecretName: 'west-tls' },
        { sourceId: 'north', host: 'north.example.com', user: 'u', tlsSecretName: 'shared-tls' },
      ],
      target: { host: 'db.example.com', user: 'u', tlsSecretName: 'west-tls' },
    });
    expect(findObject(shared, 'MigrationCluster', 'basic').spec.tlsClientSecretNames).toEqual(['shared-tls', 'west-tls']);
    expect(cluster.tlsClientSecretNames).toEqual(['shared-tls', 'west-tls']);
  });

  test('the API group is the app\'s setting', () => {
    const app = new App();
    app.node.setContext('cdk8s-cluster-tls:apiGroup', 'example.org');
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    new TlsMigrationCluster(chart, 'migration', BASE);
    const mc = findObject(chart.toJson(), 'MigrationCluster', 'basic');
    expect(mc.apiVersion).toBe('example.org/v1alpha1');
    expectValidAgainstCrds([mc], { 'example.org': 'db.operator.io' });
  });

  test('every object validates against the CRDs in crds/, with defaults and with every option', () => {
    expectValidAgainstCrds(objects);
    expectValidAgainstCrds(synth({
      pvReclaimPolicy: PvReclaimPolicy.DELETE,
      discovery: { address: 'x' },
      master: { baseImage: 'a/b', maxFailoverCount: 3, replicas: 3, storageSize: '1Ti' },
      worker: { baseImage: 'a/c', maxFailoverCount: 1, replicas: 5, storageSize: '500Mi', extraAllowedCommonNames: ['other'] },
    }).objects);
  });

  test('namespace comes from the certificates, else from the chart', () => {
    expect(synth().cluster.namespace).toBe('demo');
    const { cluster } = synth({}, (chart) => ({
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'other' }),
    }));
    expect(cluster.namespace).toBe('other');
  });
});

describe('certificates', () => {
  test('by default the cluster issues its own: master and worker server certificates and the mig client certificate', () => {
    const { objects, cluster } = synth({ subject: { organization: 'acme' } });
    expect(namesOf(objects, 'Certificate')).toEqual([
      'basic-ca', 'basic-mig-client-secret', 'basic-mig-master-cluster-secret', 'basic-mig-worker-cluster-secret',
    ]);
    expect(namesOf(objects, 'Issuer')).toEqual(['basic-mig-issuer', 'basic-selfsigned-ca-issuer']);
    expect(findObject(objects, 'Certificate', 'basic-mig-master-cluster-secret').spec.subject).toEqual({ organizations: ['acme'] });
    expect(cluster.certificates.node.path).toBe('demo/migration/Certificates');
  });

  test('exposes the Secret names and the Common Name for the next construct', () => {
    const { cluster } = synth();
    expect(cluster.components.map((t) => cluster.serverSecretName(t))).toEqual(['basic-mig-master-cluster-secret', 'basic-mig-worker-cluster-secret']);
    expect(cluster.serverSecret('mig-worker').name).toBe('basic-mig-worker-cluster-secret');
    expect(cluster.clientSecret().name).toBe('basic-mig-client-secret');
    expect(() => cluster.serverSecretName('store')).toThrow('demo/migration: serverSecretName.token: received "store"; expected one of the components of a MigrationCluster: mig-master, mig-worker');
    expect(cluster.clientSecretName).toBe('basic-mig-client-secret');
    expect(cluster.commonName).toBe('basic');
  });

  test('shares certificates passed in, adding its components to them', () => {
    const { objects, cluster } = synth({}, (chart) => ({
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic', commonName: 'shared-cn', components: ['coordinator', 'mig-worker'] }),
    }));
    expect(namesOf(objects, 'Certificate')).toEqual([
      'basic-ca', 'basic-cluster-client-secret', 'basic-coordinator-cluster-secret', 'basic-mig-client-secret',
      'basic-mig-master-cluster-secret', 'basic-mig-worker-cluster-secret',
    ]);
    expect(findObject(objects, 'MigrationCluster', 'basic').spec.master.config['cert-allowed-cn']).toEqual(['shared-cn']);
    expect(cluster.certificates.node.path).toBe('demo/certs');
  });

  test('a component already added with its own options is kept as it is', () => {
    const { objects } = synth({}, (chart) => {
      const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic' });
      certs.addComponent('mig-master', { extraDnsNames: ['mig.example.com'] });
      return { certificates: certs };
    });
    expect(findObject(objects, 'Certificate', 'basic-mig-master-cluster-secret').spec.dnsNames).toContain('mig.example.com');
  });

  test('the MigrationCluster is applied after every certificate object, wherever they sit in the tree', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const earlier = new Construct(chart, 'earlier');
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic' });
    new TlsMigrationCluster(earlier, 'migration', { ...BASE, certificates: certs });
    certs.addComponent('store');
    const objects = renderApp(app).objects.map((o) => o.manifest);
    const order = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(order).toContain('Certificate/basic-store-cluster-secret');
    const cluster = order.indexOf('MigrationCluster/basic');
    for (const o of objects.filter((x) => x.kind !== 'MigrationCluster')) {
      expect(order.indexOf(`${o.kind}/${o.metadata.name}`)).toBeLessThan(cluster);
    }
  });
});

describe('source files', () => {
  test('one file per upstream, <namespace>/<cluster>/migration/<source-id>.yaml, every key of the spec\'s table in order', () => {
    const { yaml, file, cluster } = synth({
      sources: [
        { sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'source1-tls' },
        { sourceId: 'source2', host: '10.0.0.7', port: 3307, user: 'mig', tlsSecretName: 'source2-tls', relayDir: '/data/relay' },
      ],
    });
    expect(cluster.sourceFiles.map((f) => f.path)).toEqual(['demo/basic/migration/source1.yaml', 'demo/basic/migration/source2.yaml']);
    const first = yaml('demo/basic/migration/source1.yaml');
    expect(first).toEqual({
      'source-id': 'source1',
      'relay-dir': './relay_log',
      'from': {
        host: 'mysql.example.com',
        user: 'root',
        password: '',
        port: 3306,
        security: {
          'ssl-ca': '/var/lib/source-tls/source1-tls/ca.crt',
          'ssl-cert': '/var/lib/source-tls/source1-tls/tls.crt',
          'ssl-key': '/var/lib/source-tls/source1-tls/tls.key',
        },
      },
    });
    expect(Object.keys(first)).toEqual(['source-id', 'relay-dir', 'from']);
    expect(Object.keys(first.from)).toEqual(['host', 'user', 'password', 'port', 'security']);
    expect(Object.keys(first.from.security)).toEqual(['ssl-ca', 'ssl-cert', 'ssl-key']);
    expect(yaml('demo/basic/migration/source2.yaml')).toMatchObject({
      'source-id': 'source2',
      'relay-dir': '/data/relay',
      'from': { host: '10.0.0.7', port: 3307, user: 'mig', security: { 'ssl-key': '/var/lib/source-tls/source2-tls/tls.key' } },
    });
    expect(file('demo/basic/migration/source1.yaml')).toMatch(/^# Source source1 of migration cluster demo\/basic/);
  });
});

describe('task file', () => {
  test('every key of the spec\'s table in order, target given as a database cluster', () => {
    const { yaml, cluster } = synth({
      sources: [
        { sourceId: 'source1', host: 'a.example.com', user: 'root', tlsSecretName: 'a-tls' },
        { sourceId: 'source2', host: 'b.example.com', user: 'root', tlsSecretName: 'b-tls' },
      ],
    });
    expect(cluster.taskFile.path).toBe('demo/basic/migration/task.yaml');
    const task = yaml('demo/basic/migration/task.yaml');
    expect(task).toEqual({
      'name': 'basic-task',
      'task-mode': 'all',
      'is-sharding': false,
      'target-database': {
        host: 'basic-sqlserver.demo.svc',
        port: 4000,
        user: 'root',
        password: '',
        security: {
          'ssl-ca': '/var/lib/source-tls/target-tls/ca.crt',
          'ssl-cert': '/var/lib/source-tls/target-tls/tls.crt',
          'ssl-key': '/var/lib/source-tls/target-tls/tls.key',
        },
      },
      'mysql-instances': [
        { 'source-id': 'source1', 'loader-config-name': 'global' },
        { 'source-id': 'source2', 'loader-config-name': 'global' },
      ],
      'loaders': { global: { dir: './dumped_data' } },
    });
    expect(Object.keys(task)).toEqual(['name', 'task-mode', 'is-sharding', 'target-database', 'mysql-instances', 'loaders']);
    expect(Object.keys(task['target-database'])).toEqual(['host', 'port', 'user', 'password', 'security']);
  });

  test('a target given by host defaults to port 4000; task options are written as given', () => {
    const task = synth({
      target: { host: 'tidb.example.com', user: 'mig', tlsSecretName: 't-tls' },
      task: { name: 'nightly', taskMode: 'incremental', isSharding: true, loaderDir: '/data/dump' },
    }).yaml('demo/basic/migration/task.yaml');
    expect(task).toMatchObject({
      'name': 'nightly',
      'task-mode': 'incremental',
      'is-sharding': true,
      'target-database': { host: 'tidb.example.com', port: 4000, user: 'mig' },
      'loaders': { global: { dir: '/data/dump' } },
    });
    expect(synth({ target: { host: 'h', port: 4001, user: 'u', tlsSecretName: 't' } }).yaml('demo/basic/migration/task.yaml')['target-database'].port).toBe(4001);
  });
});

/**
 * A shard merge of `count` MySQL instances, every field a source takes set: four Secrets shared
 * by the shards, ports and relay folders of their own, a password on every tenth.
 */
function shards(count: number): Partial<TlsMigrationClusterProps> {
  return {
    sources: Array.from({ length: count }, (_, i) => ({
      sourceId: `shard-${String(i).padStart(3, '0')}`,
      host: `mysql-${i}.shards.example.com`,
      port: 3306 + (i % 3),
      user: 'mig',
      ...(i % 10 === 0 ? { password: `pw-${i}` } : {}),
      tlsSecretName: `shards-${i % 4}-tls`,
      relayDir: `./relay_log/shard-${i}`,
    })),
    target: { host: 'tidb.example.com', user: 'root', tlsSecretName: 'target-tls' },
    task: { name: 'merge', isSharding: true },
  };
}

describe('shard merges of 64 to 256 MySQL instances', () => {
  test.each([64, 80, 256])('%i shards synthesize: one source file each, every one in the task file', (count) => {
    const { objects, files, yaml } = synth(shards(count));
    const task = yaml('demo/basic/migration/task.yaml');
    expect(task['mysql-instances']).toHaveLength(count);
    expect(task['mysql-instances'][count - 1]).toEqual({ 'source-id': `shard-${String(count - 1).padStart(3, '0')}`, 'loader-config-name': 'global' });
    expect(files.filter((f) => /^demo\/basic\/migration\/shard-\d+\.yaml$/.test(f.path))).toHaveLength(count);
    expect(yaml('demo/basic/migration/shard-063.yaml').from).toMatchObject({ host: 'mysql-63.shards.example.com', port: 3306, user: 'mig' });
    const mc = findObject(objects, 'MigrationCluster', 'basic');
    expect(mc.spec.tlsClientSecretNames).toEqual(['shards-0-tls', 'shards-1-tls', 'shards-2-tls', 'shards-3-tls', 'target-tls']);
    expectValidAgainstCrds(objects);
  });
});

describeWithTools('the task file, read by the migration tool\'s own checks', ['dm-task-check'], () => {
  /** Writes the migration folder of a synth to a folder of its own and runs dm-task-check on the task and every source file. */
  const check = (files: readonly { path: string; content: string }[]) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-task-'));
    try {
      const migration = files.filter((f) => f.path.startsWith('demo/basic/migration/'));
      migration.forEach((f) => fs.writeFileSync(path.join(folder, path.posix.basename(f.path)), f.content));
      const sources = migration.map((f) => path.posix.basename(f.path)).filter((name) => name !== 'task.yaml');
      return spawnSync(tool('dm-task-check'), ['task.yaml', ...sources], { cwd: folder, encoding: 'utf8', timeout: 120_000 });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  };

  test('a 256-shard task and its source files pass: decoded strictly, adjusted, one subtask per source', () => {
    const run = check(synth(shards(256)).files);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sources: 256, subtasks: 256 });
  });

  test('a task file with a key the tool does not know is refused by it: the check can fail', () => {
    const files = synth(shards(2)).files.map((f) => f.path.endsWith('/task.yaml') ? { ...f, content: f.content.replace('is-sharding:', 'is-shardng:') } : f);
    const run = check(files);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/field is-shardng not found/);
  });
});

describe('files and cluster agree', () => {
  const { objects, yaml, cluster } = synth({
    sources: [
      { sourceId: 'east', host: 'east.example.com', user: 'u', tlsSecretName: 'shared-tls' },
      { sourceId: 'west', host: 'west.example.com', user: 'u', tlsSecretName: 'west-tls' },
      { sourceId: 'north', host: 'north.example.com', user: 'u', tlsSecretName: 'shared-tls' },
    ],
    target: { database: DATABASE, user: 'u', tlsSecretName: 'target-tls' },
  });
  const listed: string[] = findObject(objects, 'MigrationCluster', 'basic').spec.tlsClientSecretNames;
  const sources = cluster.sourceFiles.map((f) => YAML.parse(f.render()));
  const task = yaml('demo/basic/migration/task.yaml');

  test('every security path names a Secret listed in tlsClientSecretNames, under its mount path, with its own key', () => {
    const blocks = [...sources.map((s) => s.from.security), task['target-database'].security];
    expect(blocks).toHaveLength(4);
    for (const security of blocks) {
      const secrets = new Set<string>();
      for (const [key, file] of [['ssl-ca', 'ca.crt'], ['ssl-cert', 'tls.crt'], ['ssl-key', 'tls.key']]) {
        const match = /^\/var\/lib\/source-tls\/([^/]+)\/([^/]+)$/.exec(security[key]);
        expect(match).not.toBeNull();
        expect(match![2]).toBe(file);
        expect(listed).toContain(match![1]);
        secrets.add(match![1]);
      }
      expect(secrets.size).toBe(1);
    }
    expect([...new Set(blocks.map((b) => b['ssl-ca'].split('/')[4]))].sort()).toEqual([...listed].sort());
  });

  test('every source id the task references has a source file, and every loader it references exists', () => {
    const ids = sources.map((s) => s['source-id']);
    expect(ids).toEqual(['east', 'west', 'north']);
    for (const instance of task['mysql-instances']) {
      expect(ids).toContain(instance['source-id']);
      expect(Object.keys(task.loaders)).toContain(instance['loader-config-name']);
    }
    expect(task['mysql-instances'].map((i: any) => i['source-id'])).toEqual(ids);
  });
});

describe('passwords', () => {
  test('no password in the output unless one is passed: both are empty strings', () => {
    const { yaml, files } = synth();
    expect(yaml('demo/basic/migration/source1.yaml').from.password).toBe('');
    expect(yaml('demo/basic/migration/task.yaml')['target-database'].password).toBe('');
    for (const f of files) {
      expect(f.content).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    }
  });

  test('a password passed explicitly is written, and the runbook says so', () => {
    const { yaml, file } = synth({
      sources: [{ sourceId: 'source1', host: 'h', user: 'u', password: 's3cret', tlsSecretName: 's' }],
    });
    expect(yaml('demo/basic/migration/source1.yaml').from.password).toBe('s3cret');
    const runbook = file('demo/basic/migration-runbook.md');
    expect(runbook).toContain('The password of source `source1` (h:3306) was passed to the construct and is written in the files');
    expect(runbook).not.toContain('.from.password = strenv');
    expect(runbook).toContain(`yq -i '.["target-database"].password = strenv(MIG_PASSWORD)' "$MIG_FILES/task.yaml"`);
  });

  test('the runbook fills in each missing password in a private copy of the files', () => {
    const runbook = synth().file('demo/basic/migration-runbook.md');
    expect(runbook).toContain('MIG_FILES="$(mktemp -d)" && cp ../cluster-tls/demo/basic/migration/*.yaml "$MIG_FILES"/');
    expect(runbook).toContain(`yq -i '.from.password = strenv(MIG_PASSWORD)' "$MIG_FILES/source1.yaml"`);
    expect(runbook).toContain(`yq -i '.["target-database"].password = strenv(MIG_PASSWORD)' "$MIG_FILES/task.yaml"`);
    expect(runbook).toContain('read -rsp \'Password on source source1 (mysql.example.com:3306): \' MIG_PASSWORD && echo && export MIG_PASSWORD   # password of user "root"');
    expect(runbook).toContain('unset MIG_PASSWORD');
  });
});

describe('runbook', () => {
  const { file, cluster } = synth({
    sources: [
      { sourceId: 'east', host: 'east.example.com', user: 'u', tlsSecretName: 'shared-tls' },
      { sourceId: 'north', host: 'north.example.com', user: 'u', tlsSecretName: 'shared-tls' },
    ],
  });
  const runbook = file('demo/basic/migration-runbook.md');

  test('issues the certificates, checks their Secrets, then deploys: the Secrets exist before the cluster', () => {
    const order = ['Issue the certificates with cert-manager', 'kubectl wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=basic -n demo',
      'Check the certificate Secrets', 'Deploy the migration cluster'].map((marker) => runbook.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('with cfssl certificates, the first step runs the issuing script', () => {
    const withCfssl = synth({}, (chart) => ({
      certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: IssuingMethod.CFSSL }),
    }));
    const text = withCfssl.file('demo/basic/migration-runbook.md');
    expect(text).toContain('~/pki-demo-basic/issue-certificates.sh');
    expect(text).not.toContain('cert-manager');
  });

  test('is written to <namespace>/<cluster>/migration-runbook.md', () => {
    expect(cluster.runbook.path).toBe('demo/basic/migration-runbook.md');
    expect(cluster.node.findAll().filter(OutputFile.isOutputFile).map((f) => f.path).sort()).toEqual([
      'demo/basic/migration-runbook.md', 'demo/basic/migration/east.yaml', 'demo/basic/migration/north.yaml',
      'demo/basic/migration/task.yaml', 'demo/basic/tls-plan.json',
    ]);
  });

  test('creates each external database\'s Secret once, with the three keys, run as written from the output folder with the files in a folder of the user\'s', () => {
    const block = shellBlocks(runbook).find((b) => b.includes('kubectl create secret generic'))!;
    expect(block.split('\n').filter((l) => l.startsWith('kubectl create secret generic')).map((l) => l.split(' ')[4])).toEqual(['shared-tls', 'target-tls']);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-mig-secrets-'));
    try {
      const outdir = path.join(root, 'dist');
      const certs = path.join(root, 'db-certs');
      fs.mkdirSync(outdir);
      fs.mkdirSync(certs);
      for (const secret of ['shared-tls', 'target-tls']) {
        for (const [suffix, text] of [['client.pem', 'CERT'], ['client-key.pem', 'KEY'], ['ca.pem', 'CA']]) {
          fs.writeFileSync(path.join(certs, `${secret}-${suffix}`), `${text} of ${secret}\n`);
        }
      }
      const kubectl = createFakeKubectl(path.join(root, 'kubectl'));
      const env = { ...process.env, PATH: `${kubectl.dir}${path.delimiter}${process.env.PATH}` };
      // Without CERTS, the block stops at once, saying what to set.
      const unset = spawnSync('bash', ['--norc', '--noprofile', '-c', block], { cwd: outdir, env, encoding: 'utf8' });
      expect(unset.status).not.toBe(0);
      expect(unset.stderr).toContain('CERTS: set CERTS to the folder of the client certificate files');
      expect(kubectl.secrets()).toEqual([]);
      const ran = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', block], { cwd: outdir, env: { ...env, CERTS: certs }, encoding: 'utf8' });
      expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' });
      expect(kubectl.secrets().map((x) => [x.namespace, x.name, Object.keys(x.data).sort(), Buffer.from(x.data['tls.key'], 'base64').toString()])).toEqual([
        ['demo', 'shared-tls', ['ca.crt', 'tls.crt', 'tls.key'], 'KEY of shared-tls\n'],
        ['demo', 'target-tls', ['ca.crt', 'tls.crt', 'tls.key'], 'KEY of target-tls\n'],
      ]);
      // Nothing was written to the output folder.
      expect(fs.readdirSync(outdir)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    expect(runbook).toContain('- `shared-tls`: source `east` (east.example.com:3306) and source `north` (north.example.com:3306)');
  });

  test('applies the chart and checks the certificate Secrets', () => {
    expect(runbook).toContain('kubectl apply -f demo.k8s.yaml');
    expect(runbook).toContain('kubectl get secret basic-mig-master-cluster-secret basic-mig-worker-cluster-secret basic-mig-client-secret -n demo');
  });

  test('lists the members with migctl in the master pod, from the folder of its certificate files, with the master address', () => {
    expect(runbook).toContain("kubectl exec basic-mig-master-0 -n demo -- sh -c 'cd /var/lib/mig-master-tls && "
      + "migctl --ssl-ca=ca.crt --ssl-cert=tls.crt --ssl-key=tls.key --master-addr 127.0.0.1:8261 list-member'");
  });
});

describe('a target database of this library, without tlsSecretName', () => {
  /** The migration into a TlsDatabaseCluster "orders" of namespace `namespace`, with or without TLS for MySQL clients. */
  const into = (namespace: string, tlsClient: boolean, user = 'orders-migration', before?: (db: TlsDatabaseCluster) => void) => synth({}, (chart) => {
    const app = chart.node.root as App;
    const data = namespace === 'demo' ? chart : new Chart(app, 'data', { namespace });
    const database = new TlsDatabaseCluster(data, 'orders', { clusterName: 'orders', version: 'v8.1.0', tlsClient: tlsClient ? {} : undefined });
    before?.(database);
    return { target: { database, user } };
  });

  test('the library issues the migration its own client certificate, as addSqlClient(user) in this cluster\'s namespace, and mounts it', () => {
    for (const namespace of ['demo', 'data']) {
      const { cluster, objects, yaml, file } = into(namespace, true);
      const secret = namespace === 'demo' ? 'orders-migration-demo-orders-sql-client' : 'orders-migration-data-orders-sql-client';
      expect(cluster.tlsClientSecretNames).toEqual(['source1-tls', secret]);
      const certificate = findObject(objects, 'Certificate', secret);
      expect([certificate.metadata.namespace, certificate.spec.commonName, certificate.spec.secretName]).toEqual(['demo', 'orders-migration', secret]);
      expect(yaml('demo/basic/migration/task.yaml')['target-database'].security['ssl-cert']).toBe(`/var/lib/source-tls/${secret}/tls.crt`);
      // Nothing to hand-make: the runbook creates only the source's Secret.
      expect(file('demo/basic/migration-runbook.md').match(/^kubectl create secret generic \S+/gm)).toEqual(['kubectl create secret generic source1-tls']);
      expect(file('demo/basic/migration-runbook.md')).toContain(namespace === 'demo'
        ? `- \`${secret}\`: the target (orders-sqlserver.demo.svc:4000), issued with the target database's certificates for MySQL clients (the steps of \`cluster-tls/demo/orders/database-runbook.md\`)`
        : `- \`${secret}\`: the target (orders-sqlserver.data.svc:4000), issued with the target database's certificates for MySQL clients (the steps of \`cluster-tls/data/orders/database-runbook.md\`)`);
    }
  });

  test('the same certificate as the app\'s own addSqlClient(user): declared once', () => {
    const { cluster, objects } = into('demo', true, 'orders-migration', (db) => db.addSqlClient('orders-migration'));
    expect(cluster.tlsClientSecretNames).toEqual(['source1-tls', 'orders-migration-demo-orders-sql-client']);
    expect(findObject(objects, 'Certificate', 'orders-migration-demo-orders-sql-client').spec.commonName).toBe('orders-migration');
  });

  test('refused, with what to do, when the database takes no TLS from clients, for a user that is no application name, and for a host', () => {
    expect(() => into('demo', false)).toThrow('demo/migration: target.tlsSecretName: received nothing; expected the Secret of the client certificate for cluster orders, '
      + 'or a database whose SQL server takes TLS from clients (tlsClient: {}), so that the library issues the migration its own certificate');
    expect(() => into('demo', true, 'Migrator_1')).toThrow('demo/migration: target.user: received "Migrator_1"; expected a DNS label of at most 32 characters, '
      + 'the application the library issues the target\'s client certificate for (or give target.tlsSecretName: the Secret of a client certificate of your own)');
    expect(make({ target: { host: 'db.example.com', user: 'u' } })).toThrow(
      'demo/migration: target.tlsSecretName: received nothing; expected the Secret of the client certificate for the database at target.host (tls.crt, tls.key and ca.crt), which you create');
  });
});

describe('input errors', () => {
  test.each([
    ['basic-ca-secret', 'the CA and its private key'],
    ['basic-store-cluster-secret', 'the store\'s server certificate and key'],
    ['basic-mig-client-secret', 'the migration cluster\'s client certificate and key'],
  ])('an external database Secret is never one of the cluster\'s own: %s', (secret, holds) => {
    expect(() => synth({ sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: secret }] }))
      .toThrow(`demo/migration: sources[0].tlsSecretName: received "${secret}"; expected a Secret you create, not one the library writes (${secret} holds ${holds})`);
    expect(() => synth({ target: { database: DATABASE, user: 'root', tlsSecretName: secret } }))
      .toThrow(`demo/migration: target.tlsSecretName: received "${secret}"; expected a Secret you create, not one the library writes (${secret} holds ${holds})`);
  });

  test('an external database Secret is named as a volume may be: the operator names the pods\' volume after it', () => {
    const expected = 'a Secret name that is a DNS-1123 label (lowercase letters, digits and \'-\', at most 63 characters): '
      + 'the operator names the pod volume that mounts it after it, and Kubernetes refuses a volume name with \'.\' or of more than 63 characters';
    expect(() => synth({ sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'legacy.tls' }] }))
      .toThrow(`demo/migration: sources[0].tlsSecretName: received "legacy.tls"; expected ${expected}`);
    const long = `t${'x'.repeat(63)}`;
    expect(() => synth({ target: { database: DATABASE, user: 'root', tlsSecretName: long } }))
      .toThrow(`demo/migration: target.tlsSecretName: received "${long}"; expected ${expected}`);
  });

  test.each<[string, Partial<TlsMigrationClusterProps>, string]>([
    ['cluster name', { clusterName: 'Basic' }, 'demo/migration: clusterName: received "Basic"; expected a DNS-1123 label'],
    ['namespace', { namespace: 'Demo' }, 'demo/migration: namespace: received "Demo"; expected a DNS-1123 label'],
    ['version', { version: '8.1.0' }, 'demo/migration: version: received "8.1.0"; expected a release version of the form v<major>.<minor>.<patch>'],
    ['version below the operator\'s floor', { version: 'v1.0.7' }, 'demo/migration: version: received "v1.0.7"; expected v2.0.0 or later: the operator, which refuses an older MigrationCluster and deploys none of it, needs it'],
    ['operator version', { operatorVersion: 'v1.1.9' }, 'demo/migration: operatorVersion: received "v1.1.9"; expected v1.2.0 or later: tls between migration cluster components needs it'],
    ['reclaim policy', { pvReclaimPolicy: 'Recycle' as any }, 'demo/migration: pvReclaimPolicy: received "Recycle"; expected one of "Retain", "Delete"'],
    ['discovery', { discovery: [] as any }, 'demo/migration: discovery: received a value of type array; expected an object'],
    ['image with a tag', { master: { baseImage: 'mig:latest' } }, 'demo/migration: master.baseImage: received "mig:latest"; expected an image repository without a tag or digest'],
    ['image with a digest', { worker: { baseImage: 'mig@sha256:00' } }, 'demo/migration: worker.baseImage: received "mig@sha256:00"; expected an image repository without a tag or digest'],
    ['failover count', { master: { maxFailoverCount: -1 } }, 'demo/migration: master.maxFailoverCount: received -1; expected a whole number from 0 to 2147483647 (an int32 of the operator)'],
    ['replicas', { worker: { replicas: 0 } }, 'demo/migration: worker.replicas: received 0; expected a whole number from 1 to 2147483647 (an int32 of the operator)'],
    ['fractional replicas', { master: { replicas: 1.5 } }, 'demo/migration: master.replicas: received 1.5; expected a whole number from 1 to 2147483647 (an int32 of the operator)'],
    ['storage size', { master: { storageSize: '10 GB' } }, 'demo/migration: master.storageSize: received "10 GB"; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes'],
    ['storage size of another type', { worker: { storageSize: 10 as any } }, 'demo/migration: worker.storageSize: received 10; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes'],
    ['extra Common Name', { worker: { extraAllowedCommonNames: [''] } },
      'demo/migration: worker.extraAllowedCommonNames[0]: received ""; expected a single line of 1 to 64 printable characters, without leading or trailing spaces'],
    ['extra Common Names not a list', { worker: { extraAllowedCommonNames: 'partner' as any } },
      'demo/migration: worker.extraAllowedCommonNames: received "partner"; expected a list of Common Names'],
    ['extra Common Names on the master', { master: { extraAllowedCommonNames: ['partner'] } as any },
      'demo/migration: master.extraAllowedCommonNames: received ["partner"]; expected nothing: the master accepts exactly one Common Name, the certificates\''],
    ['no source', { sources: [] }, 'demo/migration: sources: received []; expected a list of at least one upstream database'],
    ['sources left out', { sources: undefined as any }, 'demo/migration: sources: received nothing; expected a list of at least one upstream database: [{ sourceId, host, user, tlsSecretName }, …]'],
    ['a null source', { sources: [BASE.sources[0], null as any] },
      'demo/migration: sources[1]: received null; expected an upstream database: { sourceId, host, user, tlsSecretName }'],
    ['a source that is not an object', { sources: ['mysql.example.com' as any] },
      'demo/migration: sources[0]: received "mysql.example.com"; expected an upstream database: { sourceId, host, user, tlsSecretName }'],
    ['source id', { sources: [{ sourceId: 'a/b', host: 'h', user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].sourceId: received "a/b"; expected a source id of at most 32 letters, digits, \'.\', \'_\' and \'-\', starting and ending with a letter or digit (the migration tool refuses a longer source id)'],
    ['a source id longer than the migration tool takes', { sources: [{ ...BASE.sources[0], sourceId: 'x'.repeat(33) }] },
      `demo/migration: sources[0].sourceId: received "${'x'.repeat(33)}"; expected a source id of at most 32 letters, digits, \'.\', \'_\' and \'-\', starting and ending with a letter or digit (the migration tool refuses a longer source id)`],
    ['source id of the task file', { sources: [{ sourceId: 'task', host: 'h', user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].sourceId: received "task"; expected a source id other than "task": task.yaml is the task file'],
    ['duplicate source id', {
      sources: [
        { sourceId: 'a', host: 'h', user: 'u', tlsSecretName: 's' },
        { sourceId: 'b', host: 'h', user: 'u', tlsSecretName: 's' },
        { sourceId: 'a', host: 'h2', user: 'u', tlsSecretName: 's' },
      ],
    }, 'demo/migration: sources[2].sourceId: received "a"; expected a source id not already used by sources[0]'],
    ['relay folder', { sources: [{ sourceId: 'a', host: 'h', user: 'u', tlsSecretName: 's', relayDir: '' }] },
      'demo/migration: sources[0].relayDir: received ""; expected a folder path without spaces'],
    ['source host', { sources: [{ sourceId: 'a', host: 'my host', user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].host: received "my host"; expected a host name or IP address: labels of letters, digits and \'-\' of at most 63 characters, at most 253 in all'],
    ['source host with a port', { sources: [{ sourceId: 'a', host: 'mysql.example.com:3306', user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].host: received "mysql.example.com:3306"; expected a host name or IP address, without a port (give it in the port field): labels of letters, digits and \'-\' of at most 63 characters, at most 253 in all'],
    ['source host with a label over 63 characters', { sources: [{ sourceId: 'a', host: `${'a'.repeat(64)}.example.com`, user: 'u', tlsSecretName: 's' }] },
      `demo/migration: sources[0].host: received "${'a'.repeat(64)}.example.com"; expected a host name or IP address: labels of letters, digits and '-' of at most 63 characters, at most 253 in all`],
    ['source host given as a DSN, not repeated', { sources: [{ sourceId: 'a', host: 'root:hunter2@mysql.example.com', user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].host: received a value with a user name or password in it (not repeated here); expected a URL or host without credentials: give them in the Secret the construct\'s documentation names'],
    ['source port', { sources: [{ sourceId: 'a', host: 'h', port: 70000, user: 'u', tlsSecretName: 's' }] },
      'demo/migration: sources[0].port: received 70000; expected a port from 1 to 65535'],
    ['user', { sources: [{ sourceId: 'a', host: 'h', user: undefined as any, tlsSecretName: 's' }] },
      'demo/migration: sources[0].user: received nothing; expected a user name (a string; the specification allows an empty one), such as "migrator"'],
    ['password of another type, not echoed', { sources: [{ sourceId: 'a', host: 'h', user: 'u', password: 1234 as any, tlsSecretName: 's' }] },
      'demo/migration: sources[0].password: received a value of type number; expected a string, or nothing to supply it at deploy time'],
    ['source Secret name', { sources: [{ sourceId: 'a', host: 'h', user: 'u', tlsSecretName: 'My_Secret' }] },
      'demo/migration: sources[0].tlsSecretName: received "My_Secret"; expected a Secret name that is a DNS-1123 label (lowercase letters, digits and \'-\', at most 63 characters)'],
    ['target Secret name', { target: { host: 'h', user: 'u', tlsSecretName: '' } },
      'demo/migration: target.tlsSecretName: received ""; expected a Secret name that is a DNS-1123 label (lowercase letters, digits and \'-\', at most 63 characters)'],
    ['target with host and database', { target: { host: 'h', database: DATABASE, user: 'u', tlsSecretName: 't' } },
      'demo/migration: target.host: received "h"; expected nothing when target.database is given: the host is the database\'s, basic-sqlserver.demo.svc'],
    ['target with port and database', { target: { port: 4001, database: DATABASE, user: 'u', tlsSecretName: 't' } },
      'demo/migration: target.port: received 4001; expected nothing when target.database is given: the port is the database\'s, 4000'],
    ['target with neither', { target: { user: 'u', tlsSecretName: 't' } }, 'demo/migration: target: received nothing; expected a host or a database'],
    ['target left out', { target: undefined as any }, 'demo/migration: target: received nothing; expected the downstream database: { host, user, tlsSecretName } or { database, user }'],
    ['target null', { target: null as any }, 'demo/migration: target: received null; expected the downstream database: { host, user, tlsSecretName } or { database, user }'],
    ['target database null', { target: { database: null as any, user: 'u', tlsSecretName: 't' } },
      'demo/migration: target.database: received null; expected a database cluster of this library, such as a TlsDatabaseCluster'],
    ['target port', { target: { host: 'h', port: 0, user: 'u', tlsSecretName: 't' } }, 'demo/migration: target.port: received 0; expected a port from 1 to 65535'],
    ['task left out', { task: undefined as any }, 'demo/migration: task: received nothing; expected the migration task: { name }'],
    ['task not an object', { task: 'nightly' as any }, 'demo/migration: task: received "nightly"; expected the migration task: { name }'],
    ['task name', { task: { name: '' } }, 'demo/migration: task.name: received ""; expected a task name of at most 63 letters, digits'],
    ['task mode', { task: { name: 't', taskMode: '' } }, 'demo/migration: task.taskMode: received ""; expected a task mode such as "all"'],
    ['sharding flag', { task: { name: 't', isSharding: 'yes' as any } }, 'demo/migration: task.isSharding: received "yes"; expected true or false'],
    ['loader folder', { task: { name: 't', loaderDir: 'dumped data' } }, 'demo/migration: task.loaderDir: received "dumped data"; expected a folder path without spaces'],
  ])('%s', (_name, props, message) => {
    expect(make(props)).toThrow(message);
  });

  test('a namespace is required, from the prop, the certificates or the chart', () => {
    const chart = new Chart(Testing.app(), 'nons');
    expect(() => new TlsMigrationCluster(chart, 'migration', BASE))
      .toThrow('nons/migration: namespace: received nothing; expected a namespace, from this prop or from the enclosing chart');
  });

  test('certificates of another cluster are refused', () => {
    expect(() => synth({}, (chart) => ({ certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'other' }) })))
      .toThrow('demo/migration: certificates: received "demo/other"; expected the certificates of cluster demo/basic: Secret names are derived from the cluster name');
  });

  test('commonName and subject belong on certificates passed in', () => {
    expect(() => synth({ commonName: 'x' }, (chart) => ({ certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }) })))
      .toThrow('demo/migration: commonName: received "x"; expected nothing when certificates are passed: set commonName and subject on the ClusterCertificates');
    expect(() => synth({ subject: { organization: 'o' } }, (chart) => ({ certificates: new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }) })))
      .toThrow('demo/migration: subject: received {"organization":"o"}; expected nothing when certificates are passed');
  });

  test('a password never appears in an error message, even when its whole declaration is refused', () => {
    const source = { sourceId: 'a', host: 'h', user: 'u', password: 'hunter2', tlsSecretName: 's' };
    const target = { host: 'h', user: 'u', password: 'hunter2', tlsSecretName: 't' };
    const cases: [Partial<TlsMigrationClusterProps>, string][] = [
      [{ sources: source as any }, 'demo/migration: sources: received a value of type object; expected a list of at least one upstream database: [{ sourceId, host, user, tlsSecretName }, …]'],
      [{ target: [target] as any }, 'demo/migration: target: received a value of type array; expected the downstream database: { host, user, tlsSecretName } or { database, user }'],
    ];
    for (const [props, message] of cases) {
      const error = (() => {
        try {
          make(props)();
        } catch (e) {
          return e as Error;
        }
        throw new Error('expected an error');
      })();
      expect(error.message).toBe(message);
      expect(error.message).not.toContain('hunter2');
    }
  });
});

test('each source file keeps its construct path when the sources are reordered', () => {
  const sources = [
    { sourceId: 'orders', host: 'mysql-a.example.com', user: 'root', tlsSecretName: 'a-tls' },
    { sourceId: 'billing', host: 'mysql-b.example.com', user: 'root', tlsSecretName: 'b-tls' },
  ];
  const paths = (list: typeof sources) => Object.fromEntries(synth({ sources: list }).cluster.sourceFiles.map((f) => [f.path, f.node.path]));
  expect(paths([...sources].reverse())).toEqual(paths(sources));
  expect(paths(sources)['demo/basic/migration/orders.yaml']).toBe('demo/migration/Source-orders');
});
