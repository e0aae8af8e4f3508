import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as kplus from 'cdk8s-plus-27';
import * as kplus34 from 'cdk8s-plus-34';
import * as YAML from 'yaml';
import { ClusterKind } from '../lib/model/catalog';
import { ClusterTlsError } from '../lib/model/errors';
import { BackupRestore } from '../lib/clusters/backup-restore';
import { DrainerRelease } from '../lib/clusters/drainer-release';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { TlsMigrationCluster } from '../lib/clusters/tls-migration-cluster';
import { renderApp } from '../lib/synth/synthesize';
import { operationsOf } from './_find';

/** A database cluster in namespace `demo`, with a chart beside it for workloads. */
function setup(props: Partial<ConstructorParameters<typeof TlsDatabaseCluster>[2]> = {}, app = Testing.app()) {
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', ...props });
  return { app, chart, database };
}

describe('cdk8s-plus interop', () => {
  test('a cdk8s-plus workload mounts the client certificate set the cluster exposes as an ISecret', () => {
    const { app, chart, database } = setup();
    const before = renderApp(setup().app);
    const client = new kplus.Deployment(chart, 'client', { containers: [{ image: 'registry.example.com/app:1.0.0' }] });
    client.containers[0].mount('/etc/db-tls', kplus.Volume.fromSecret(chart, 'client-tls', database.clientSecret()));
    // A tool that acts as a component: allowed to hold the cluster's client certificate.
    database.certificates.allowWorkload(client);
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(deployment.spec.template.spec.volumes).toEqual([{ name: 'secret-basic-cluster-client-secret', secret: { secretName: 'basic-cluster-client-secret' } }]);
    expect(deployment.spec.template.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/etc/db-tls', name: 'secret-basic-cluster-client-secret' }]);
    // Handing out the Secret writes nothing of the library's: the output is the cluster's plus the Deployment.
    const after = renderApp(app);
    expect(after.objects.map((o) => o.manifest).filter((m) => m.kind !== 'Deployment')).toEqual(before.objects.map((o) => o.manifest));
    expect(after.files.filter((f) => f.path !== 'demo.k8s.yaml')).toEqual(before.files.filter((f) => f.path !== 'demo.k8s.yaml'));
  });

  test('every certificate Secret is handed out by its name, once per name', () => {
    const { database } = setup();
    expect(database.serverSecret('store').name).toBe('basic-store-cluster-secret');
    expect(database.certificates.clientSecret(ClusterKind.DATABASE)).toBe(database.clientSecret());
    expect(database.clientSecret().name).toBe(database.clientSecretName);
    expect(() => database.serverSecret('mig-master')).toThrow(ClusterTlsError);
    // Even when the certificates are shared with the migration cluster, which has a mig-master.
    const shared = setup();
    new TlsMigrationCluster(shared.chart, 'migration', {
      clusterName: 'basic', version: 'v2.0.7', certificates: shared.database.certificates, task: { name: 'basic-task' },
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: 'source1-tls' }],
      target: { database: shared.database, user: 'root', tlsSecretName: 'target-tls' },
    });
    expect(() => shared.database.serverSecretName('mig-master'))
      .toThrow('demo/db: serverSecretName.token: received "mig-master"; expected one of the components of a DatabaseCluster: coordinator, store, sqlserver, pump, drainer, changefeed, columnar, importer, lightning');
  });

  test('a prop that names a Secret takes a cdk8s-plus ISecret', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const sink = kplus.Secret.fromSecretName(chart, 'sink', 'kafka-tls');
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', changefeed: { sinkTlsSecretNames: [sink, 'other-tls'] } });
    expect(database.sinkTlsSecretNames).toEqual(['kafka-tls', 'other-tls']);
    const cluster = Testing.synth(chart).find((o) => o.kind === 'DatabaseCluster');
    expect(cluster.spec.changefeed.tlsClientSecretNames).toEqual(['kafka-tls', 'other-tls']);
    expect(() => setup({ changefeed: { sinkTlsSecretNames: [42 as any] } }))
      .toThrow('demo/db: changefeed.sinkTlsSecretNames[0]: received 42; expected a Secret name or a cdk8s-plus ISecret');
    expect(() => setup({ changefeed: { sinkTlsSecretNames: 'kafka-tls' as any } }))
      .toThrow('demo/db: changefeed.sinkTlsSecretNames: received "kafka-tls"; expected a list of Secret names or cdk8s-plus ISecrets');
    // A cdk8s-plus object that is not a Secret, though it has a name, is refused.
    const other = Testing.chart();
    const configMap = new kplus.ConfigMap(other, 'settings', { metadata: { name: 'kafka-tls' } });
    expect(() => setup({ changefeed: { sinkTlsSecretNames: [configMap as any] } }))
      .toThrow('demo/db: changefeed.sinkTlsSecretNames[0]: received a value of type object; expected a Secret name or a cdk8s-plus ISecret');
    expect(database.sinkTlsFiles(sink).ca).toBe('/var/lib/sink-tls/kafka-tls/ca.crt');
  });

  test('the drainer, backup and restore, and migration props that name a Secret take an ISecret, and write its name', () => {
    const { chart, database } = setup();
    const secret = (name: string) => kplus.Secret.fromSecretName(chart, `ref-${name}`, name);
    const drainer = new DrainerRelease(chart, 'drainer', {
      cluster: database, releaseName: 'binlog', chart: { version: '1.1.0' },
      downstreamTls: { secretName: secret('downstream-tls'), checkpointSecretName: secret('checkpoint-tls') },
    });
    new BackupRestore(chart, 'backup', {
      cluster: database, backup: {}, user: 'backup', credentialsSecretName: secret('backup-password'),
      s3: { provider: 'aws', region: 'us-west-2', bucket: 'db-backups', secretName: secret('s3-keys') },
    });
    new TlsMigrationCluster(chart, 'migration', {
      clusterName: 'basic', version: 'v2.0.7', certificates: database.certificates, task: { name: 'basic-task' },
      sources: [{ sourceId: 'source1', host: 'mysql.example.com', user: 'root', tlsSecretName: secret('source1-tls') }],
      target: { database, user: 'root', tlsSecretName: secret('target-tls') },
    });
    expect(drainer.serverSecret().name).toBe('basic-drainer-cluster-secret');
    const objects = Testing.synth(chart);
    const backup = operationsOf(renderApp(chart.node.root as App).files).find((o) => o.kind === 'Backup');
    expect([backup.spec.from.secretName, backup.spec.s3.secretName]).toEqual(['backup-password', 's3-keys']);
    expect(objects.find((o) => o.kind === 'MigrationCluster').spec.tlsClientSecretNames).toEqual(['source1-tls', 'target-tls']);
    const values = YAML.parse(renderApp(chart.node.root as App).files.find((f) => f.path === 'demo/basic/drainer-binlog-values.yaml')!.content);
    expect(values.tlsSyncer).toEqual({ tlsClientSecretName: 'downstream-tls', checkpoint: { tlsClientSecretName: 'checkpoint-tls' } });
  });

  test('an app on another cdk8s-plus major passes its own ISecrets, and gets the cluster\'s Secrets as ISecrets of its package', () => {
    const { chart, database } = setup();
    // Taken: a Secret of cdk8s-plus-34, imported or declared.
    const other = setup({ changefeed: { sinkTlsSecretNames: [kplus34.Secret.fromSecretName(Testing.chart(), 'sink', 'kafka-tls')] } });
    expect(other.database.sinkTlsSecretNames).toEqual(['kafka-tls']);
    const app = Testing.app();
    const declared = new kplus34.Secret(new Chart(app, 'secrets', { namespace: 'demo' }), 'declared', { metadata: { name: 'declared-tls' } });
    expect(setup({ changefeed: { sinkTlsSecretNames: [declared] } }, app).database.sinkTlsSecretNames).toEqual(['declared-tls']);
    // A cdk8s-plus-34 object that is not a Secret is refused, as one of cdk8s-plus-27 is.
    const configMap = new kplus34.ConfigMap(Testing.chart(), 'settings', { metadata: { name: 'kafka-tls' } });
    expect(() => setup({ changefeed: { sinkTlsSecretNames: [configMap as any] } }))
      .toThrow('demo/db: changefeed.sinkTlsSecretNames[0]: received a value of type object; expected a Secret name or a cdk8s-plus ISecret');

    // Given out: an ISecret of cdk8s-plus-34, which that package's workloads mount.
    const secret = database.clientSecret(kplus34);
    expect(secret).toBeInstanceOf(Construct);
    const classOf = (plus: typeof kplus | typeof kplus34) => plus.Secret.fromSecretName(Testing.chart(), 'probe', 'probe').constructor;
    expect(secret.constructor).toBe(classOf(kplus34));
    expect(database.clientSecret().constructor).toBe(classOf(kplus));
    expect(classOf(kplus)).not.toBe(classOf(kplus34));
    expect(secret.name).toBe('basic-cluster-client-secret');
    expect(database.clientSecret(kplus34)).toBe(secret);
    expect(database.serverSecret('store', kplus34).name).toBe('basic-store-cluster-secret');
    // Beside the default package's, without a clash of construct ids.
    expect(database.clientSecret()).not.toBe(secret);
    expect(database.clientSecret().name).toBe(secret.name);
    const client = new kplus34.Deployment(chart, 'client', { containers: [{ image: 'registry.example.com/app:1.0.0' }] });
    client.containers[0].mount('/etc/db-tls', kplus34.Volume.fromSecret(chart, 'client-tls', secret));
    database.certificates.allowWorkload(client);
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(deployment.spec.template.spec.volumes).toEqual([{ name: 'secret-basic-cluster-client-secret', secret: { secretName: 'basic-cluster-client-secret' } }]);
  });
});
