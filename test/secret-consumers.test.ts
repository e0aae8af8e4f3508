/**
 * The workloads the rotation runbook restarts after the components: found in the rendered objects
 * by the Secrets their pod specs load, whoever wrote them.
 */
import { App, ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
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

  test('every workload is read at its pod spec, whatever its kind (a custom resource with a pod template too); other namespaces, other Secrets, objects with no pod and the cluster resources are left out', () => {
    const mounts = (secretName: string) => ({ volumes: [{ secret: { secretName } }] });
    const found = secretConsumers([
      workload('Deployment', 'api', mounts(SECRETS[0])),
      workload('StatefulSet', 'queue', mounts(SECRETS[1])),
      workload('DaemonSet', 'agent', mounts(SECRETS[0])),
      workload('Job', 'once', mounts(SECRETS[0])),
      workload('CronJob', 'nightly', mounts(SECRETS[0])),
      workload('Pod', 'bare', mounts(SECRETS[0])),
      workload('ReplicaSet', 'replicas', mounts(SECRETS[1])),
      workload('Rollout', 'canary', mounts(SECRETS[0])),
      workload('DatabaseCluster', 'basic', mounts(SECRETS[0])),
      workload('Deployment', 'elsewhere', mounts(SECRETS[0]), 'other'),
      workload('Deployment', 'unrelated', mounts('someone-elses')),
      { kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'demo' }, data: {} },
    ], 'demo', SECRETS);
    expect(found.map((c) => `${c.kind}/${c.name}: ${c.secrets.join(',')}`)).toEqual([
      `Deployment/api: ${SECRETS[0]}`, `StatefulSet/queue: ${SECRETS[1]}`, `DaemonSet/agent: ${SECRETS[0]}`,
      `Job/once: ${SECRETS[0]}`, `CronJob/nightly: ${SECRETS[0]}`, `Pod/bare: ${SECRETS[0]}`, `ReplicaSet/replicas: ${SECRETS[1]}`, `Rollout/canary: ${SECRETS[0]}`,
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
    const nightly = new ApiObject(chart, 'nightly', { apiVersion: 'batch/v1', ...workload('CronJob', 'nightly-report', { volumes: [{ secret: { secretName: database.clientSecretName } }] }) });
    // Tools that act as components, allowed to hold the cluster's client certificate.
    certificates.allowWorkload(api);
    certificates.allowWorkload(nightly);
    const runbook = renderApp(app).files.find((f) => f.path === 'demo/basic/rotation-runbook.md')!.content;
    const name = api.name;
    expect(runbook).toContain(`These workloads of the app load the Secrets (Deployment \`${name}\`: \`basic-cluster-client-secret\`). Restart each in turn and wait for it.`);
    expect(runbook).toContain(`kubectl rollout restart deployment/${name} -n demo\nkubectl rollout status deployment/${name} -n demo\n`);
    expect(runbook).toContain('CronJob `nightly-report` loads them too and picks them up at its next start');
  });
});

describe('a workload in another namespace than its Secret', () => {
  const build = (workloadNamespace: string, secret: (db: TlsDatabaseCluster) => string, allowed = false) => {
    const app = new App();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', tlsClient: {} });
    database.addSqlClient('orders', { namespace: 'shop' });
    const apps = new Chart(app, 'apps', { namespace: workloadNamespace });
    const api = new ApiObject(apps, 'api', { apiVersion: 'apps/v1', ...workload('Deployment', 'api', { volumes: [{ secret: { secretName: secret(database) } }] }, workloadNamespace) });
    if (allowed) {
      database.certificates.allowWorkload(api);
    }
    return app;
  };

  test('is refused in one line naming the workload, the Secret and both namespaces: a pod reads Secrets of its own namespace only', () => {
    expect(() => renderApp(build('shop', (db) => db.clientSecretName))).toThrow(
      'apps/api: Secret "basic-cluster-client-secret": received a Deployment in namespace "shop" that loads it; expected it in the namespace the library issues the Secret in (demo): '
      + 'a pod reads Secrets of its own namespace only; declare the workload there, or give it a certificate of its own in "shop" (addSqlClient with namespace "shop")');
  });

  test('is taken where the Secret is issued: an application\'s own Secret in its namespace, the cluster\'s in the cluster\'s', () => {
    expect(() => renderApp(build('shop', () => 'orders-demo-basic-sql-client'))).not.toThrow();
    expect(() => renderApp(build('demo', (db) => db.clientSecretName, true))).not.toThrow();
  });
});

describe('a workload of the app that loads the cluster\'s own certificates', () => {
  const app = () => {
    const root = new App();
    const chart = new Chart(root, 'demo', { namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', tlsClient: {} });
    return { root, chart, database };
  };
  const refusal = (workload: string, secret: string, holds: string) => `${workload}: Secret "${secret}" in namespace "demo" (${holds}, of cluster demo/basic): `
    + 'received a Deployment that loads it (spec.template.spec.volumes[0].secret.secretName); '
    + 'expected it held only by the cert-manager Certificate that writes it, the cluster\'s components (the operator\'s pods) and a tool given to allowWorkload: '
    + 'every component trusts its CA and would take the holder for one of its own; give an application a certificate of its own (TlsDatabaseCluster.addSqlClient); '
    + 'for a tool that acts as a component, call allowWorkload with it on the cluster\'s certificates (demo/db/Certificates)';
  const CLIENT = 'the database cluster\'s client certificate and key';

  test('is refused in one line naming the fix, whichever of them it loads: the client, a server; the CA\'s key even when allowed', () => {
    const picks: [(db: TlsDatabaseCluster) => string, string][] = [
      [(db) => db.clientSecretName, CLIENT], [(db) => db.serverSecretName('store'), 'the store\'s server certificate and key'],
    ];
    for (const [pick, holds] of picks) {
      const { root, chart, database } = app();
      const tool = new kplus.Deployment(chart, 'tool', { containers: [{ image: 'registry.example.com/tool:1.0.0' }] });
      tool.containers[0].mount('/etc/tls', kplus.Volume.fromSecret(chart, 'tls', kplus.Secret.fromSecretName(chart, 'ref', pick(database))));
      expect(() => renderApp(root)).toThrow(refusal('demo/tool', pick(database), holds));
    }
    const { root, chart, database } = app();
    const tool = new kplus.Deployment(chart, 'tool', { containers: [{ image: 'registry.example.com/tool:1.0.0' }] });
    tool.containers[0].mount('/etc/tls', kplus.Volume.fromSecret(chart, 'tls', kplus.Secret.fromSecretName(chart, 'ref', database.certificates.caSecretName)));
    database.certificates.allowWorkload(tool);
    expect(() => renderApp(root)).toThrow('demo/tool: Secret "basic-ca-secret" in namespace "demo" (the CA and its private key, of cluster demo/basic): '
      + 'received a Deployment that loads it (spec.template.spec.volumes[0].secret.secretName); expected it held only by the cert-manager Certificate that writes it and the CA issuer that signs with it: '
      + 'whoever holds a CA\'s key signs certificates every component trusts; no workload needs a CA\'s key: give an application a certificate of its own (TlsDatabaseCluster.addSqlClient)');
  });

  test('is taken once allowed, by the workload or a construct that holds it; an application on its own certificate needs nothing', () => {
    const { root, chart, database } = app();
    const tools = new Construct(chart, 'tools');
    const ctl = new kplus.Deployment(tools, 'ctl', { containers: [{ image: 'registry.example.com/ctl:1.0.0' }] });
    ctl.containers[0].mount('/etc/tls', kplus.Volume.fromSecret(chart, 'tls', database.clientSecret()));
    const shop = new kplus.Deployment(chart, 'shop', { containers: [{ image: 'registry.example.com/shop:1.0.0' }] });
    shop.containers[0].mount('/etc/tls', kplus.Volume.fromSecret(chart, 'shop-tls', kplus.Secret.fromSecretName(chart, 'shop-ref', database.addSqlClient('shop').secretName)));
    expect(() => renderApp(root)).toThrow(refusal('demo/tools/ctl', 'basic-cluster-client-secret', CLIENT));
    database.certificates.allowWorkload(tools);
    expect(() => renderApp(root)).not.toThrow();
    expect(() => database.certificates.allowWorkload('ctl' as any)).toThrow('demo/db/Certificates: allowWorkload.workload: received "ctl"; expected the construct of a workload of this app (a Deployment, a Job, an ApiObject)');
  });
});
