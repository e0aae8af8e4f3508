/**
 * The workloads the rotation runbook restarts after the components: found in the rendered objects
 * by the Secrets their pod specs load, whoever wrote them.
 */
import { App, ApiObject, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-27';
import { ClusterCertificates, IssuingMethod, RotationKind, TlsDatabaseCluster, renderApp } from '../lib';
import { ROLLING_KINDS, secretConsumers } from '../lib/certificates/secret-consumers';
import { secretsOfPodSpec } from '../lib/model/pod-secrets';

const SECRETS = ['basic-cluster-client-secret', 'basic-store-cluster-secret'];

function workload(kind: string, name: string, podSpec: any, namespace = 'demo'): any {
  const template = { spec: podSpec };
  const spec = kind === 'Pod' ? podSpec : kind === 'CronJob' ? { jobTemplate: { spec: { template } } } : { template };
  return { kind, metadata: { name, namespace }, spec };
}

describe('secretConsumers', () => {
  test('a pod spec loads a Secret through a volume, a projected volume, an env value or envFrom, in containers and init containers', () => {
    expect([...secretsOfPodSpec({
      volumes: [{ secret: { secretName: 'a' } }, { projected: { sources: [{ secret: { name: 'b' } }, { configMap: { name: 'not-a-secret' } }] } }],
      containers: [{ env: [{ valueFrom: { secretKeyRef: { name: 'c', key: 'k' } } }, { value: 'plain' }] }],
      initContainers: [{ envFrom: [{ secretRef: { name: 'd' } }, { configMapRef: { name: 'e' } }] }],
    })].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...secretsOfPodSpec(undefined)]).toEqual([]);
  });

  test('every workload kind is read at its own pod spec; other namespaces, other Secrets and other kinds are left out', () => {
    const mounts = (secretName: string) => ({ volumes: [{ secret: { secretName } }] });
    const found = secretConsumers([
      workload('Deployment', 'api', mounts(SECRETS[0])),
      workload('StatefulSet', 'queue', mounts(SECRETS[1])),
      workload('DaemonSet', 'agent', mounts(SECRETS[0])),
      workload('Job', 'once', mounts(SECRETS[0])),
      workload('CronJob', 'nightly', mounts(SECRETS[0])),
      workload('Pod', 'bare', mounts(SECRETS[0])),
      workload('Deployment', 'elsewhere', mounts(SECRETS[0]), 'other'),
      workload('Deployment', 'unrelated', mounts('someone-elses')),
      { kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'demo' }, data: {} },
    ], 'demo', SECRETS);
    expect(found.map((c) => `${c.kind}/${c.name}: ${c.secrets.join(',')}`)).toEqual([
      `Deployment/api: ${SECRETS[0]}`, `StatefulSet/queue: ${SECRETS[1]}`, `DaemonSet/agent: ${SECRETS[0]}`,
      `Job/once: ${SECRETS[0]}`, `CronJob/nightly: ${SECRETS[0]}`, `Pod/bare: ${SECRETS[0]}`,
    ]);
    expect(found.filter((c) => ROLLING_KINDS.has(c.kind)).map((c) => c.name)).toEqual(['api', 'queue', 'agent']);
  });

  test('the rotation runbook restarts a cdk8s-plus Deployment that mounts clientSecret(), by name, and says the others pick the Secret up at their next start', () => {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certificates = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: IssuingMethod.CFSSL, rotations: [{ id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL }] });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates });
    const api = new kplus.Deployment(chart, 'api', { containers: [{ image: 'registry.example.com/api:1.0.0' }] });
    api.containers[0].mount('/etc/db-tls', kplus.Volume.fromSecret(chart, 'api-tls', database.clientSecret()));
    new ApiObject(chart, 'nightly', { apiVersion: 'batch/v1', ...workload('CronJob', 'nightly-report', { volumes: [{ secret: { secretName: database.clientSecretName } }] }) });
    const runbook = renderApp(app).files.find((f) => f.path === 'demo/basic/rotation-runbook.md')!.content;
    const name = api.name;
    expect(runbook).toContain(`These workloads of the app load the Secrets (Deployment \`${name}\`: \`basic-cluster-client-secret\`). Restart each in turn and wait for it.`);
    expect(runbook).toContain(`kubectl rollout restart deployment/${name} -n demo\nkubectl rollout status deployment/${name} -n demo\n`);
    expect(runbook).toContain('CronJob `nightly-report` loads them too and picks them up at its next start');
  });
});

describe('a workload in another namespace than its Secret', () => {
  const build = (workloadNamespace: string, secret: (db: TlsDatabaseCluster) => string) => {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', tlsClient: {} });
    database.addSqlClient('orders', { namespace: 'shop' });
    const apps = new Chart(app, 'apps', { namespace: workloadNamespace });
    new ApiObject(apps, 'api', { apiVersion: 'apps/v1', ...workload('Deployment', 'api', { volumes: [{ secret: { secretName: secret(database) } }] }, workloadNamespace) });
    return app;
  };

  test('is refused in one line naming the workload, the Secret and both namespaces: a pod reads Secrets of its own namespace only', () => {
    expect(() => renderApp(build('shop', (db) => db.clientSecretName))).toThrow(
      'apps/api: Secret "basic-cluster-client-secret": received a Deployment in namespace "shop" that loads it; expected it in the namespace the library issues the Secret in (demo): '
      + 'a pod reads Secrets of its own namespace only; declare the workload there, or give it a certificate of its own in "shop" (addSqlClient with namespace "shop")');
  });

  test('is taken where the Secret is issued: an application\'s own Secret in its namespace, the cluster\'s in the cluster\'s', () => {
    expect(() => renderApp(build('shop', () => 'orders-demo-basic-sql-client'))).not.toThrow();
    expect(() => renderApp(build('demo', (db) => db.clientSecretName))).not.toThrow();
  });
});
