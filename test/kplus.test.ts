import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import { ClusterKind } from '../lib/spec/catalog';
import { ClusterTlsError } from '../lib/spec/errors';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { renderApp } from '../lib/synth/synthesize';

/** A database cluster in namespace `demo`, with a chart beside it for workloads. */
function setup(props: Partial<ConstructorParameters<typeof TlsDatabaseCluster>[2]> = {}) {
  const app = Testing.app();
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', ...props });
  return { app, chart, database };
}

describe('cdk8s-plus interop', () => {
  test('a cdk8s-plus workload mounts the client certificate set the cluster exposes as an ISecret', () => {
    const { app, chart, database } = setup();
    const before = renderApp(setup().app).files.map((f) => [f.path, f.content]);
    const client = new kplus.Deployment(chart, 'client', { containers: [{ image: 'registry.example.com/app:1.0.0' }] });
    client.containers[0].mount('/etc/db-tls', kplus.Volume.fromSecret(chart, 'client-tls', database.clientSecret()));
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(deployment.spec.template.spec.volumes).toEqual([{ name: 'secret-basic-cluster-client-secret', secret: { secretName: 'basic-cluster-client-secret' } }]);
    expect(deployment.spec.template.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/etc/db-tls', name: 'secret-basic-cluster-client-secret' }]);
    // Handing out the Secret writes nothing of the library's: the output is the cluster's plus the Deployment.
    const after = renderApp(app).files.map((f) => [f.path, f.content]);
    expect(after.filter(([p]) => p !== 'demo.k8s.yaml')).toEqual(before.filter(([p]) => p !== 'demo.k8s.yaml'));
  });

  test('every certificate Secret is handed out by its name, once per name', () => {
    const { database } = setup();
    expect(database.serverSecret('store').name).toBe('basic-store-cluster-secret');
    expect(database.certificates.clientSecret(ClusterKind.DATABASE)).toBe(database.clientSecret());
    expect(database.clientSecret().name).toBe(database.clientSecretName);
    expect(() => database.serverSecret('mig-master')).toThrow(ClusterTlsError);
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
  });
});
