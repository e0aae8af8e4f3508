import * as fs from 'node:fs';
import * as path from 'node:path';
import { crdErrors, crdKinds } from './_crds';

describe('the CRD validator used by every test', () => {
  test('knows the cert-manager kinds, the operator\'s five kinds and prometheus-operator\'s PrometheusRule', () => {
    expect(crdKinds().sort()).toEqual([
      'cert-manager.io/v1/Certificate', 'cert-manager.io/v1/ClusterIssuer', 'cert-manager.io/v1/Issuer',
      'db.operator.io/v1alpha1/Backup', 'db.operator.io/v1alpha1/DatabaseCluster', 'db.operator.io/v1alpha1/DatabaseMonitor',
      'db.operator.io/v1alpha1/MigrationCluster', 'db.operator.io/v1alpha1/Restore',
      'monitoring.coreos.com/v1/PrometheusRule',
    ]);
  });

  test('reads Go\'s (?i) flag in a pattern as the API server does: prometheus-operator\'s enumerations take any case', () => {
    const rule = (strategy: string) => ({
      apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'r' },
      spec: { groups: [{ name: 'g', partial_response_strategy: strategy, rules: [{ alert: 'A', expr: 'up == 0' }] }] },
    });
    expect(crdErrors(rule('WARN'))).toEqual([]);
    expect(crdErrors(rule('fail'))).toEqual(['PrometheusRule/r/spec/groups/0/partial_response_strategy must match pattern "^(?i)(abort|warn)?$"']);
  });

  test('rejects an unknown field, as strict field validation does', () => {
    expect(crdErrors({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'x' }, spec: { secretName: 'x', issuerRef: { name: 'i' }, bogus: 1 } }))
      .toEqual(['Certificate/x/spec must NOT have additional properties (bogus)']);
  });

  test('rejects a wrong type and a missing required field', () => {
    expect(crdErrors({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'x' }, spec: { secretName: 3 } }))
      .toEqual(["Certificate/x/spec must have required property 'issuerRef'", 'Certificate/x/spec/secretName must be string']);
  });

  test('keeps open config maps open', () => {
    const cluster = {
      apiVersion: 'db.operator.io/v1alpha1', kind: 'DatabaseCluster', metadata: { name: 'x' },
      spec: { version: 'v4.0.5', coordinator: { replicas: 1, config: { anything: 1, security: { more: true } } }, store: { replicas: 1 }, sqlserver: { replicas: 1 } },
    };
    expect(crdErrors(cluster)).toEqual([]);
  });

  test('maps a custom API group back to the CRD files', () => {
    const image = { baseImage: 'img', version: 'v1' };
    const monitor = {
      apiVersion: 'acme.io/v1alpha1', kind: 'DatabaseMonitor', metadata: { name: 'm' },
      spec: { clusters: [{ name: 'basic' }], prometheus: image, initializer: image, reloader: image },
    };
    expect(() => crdErrors(monitor)).toThrow('no CRD in crds/ for acme.io/v1alpha1/DatabaseMonitor');
    expect(crdErrors(monitor, { 'acme.io': 'db.operator.io' })).toEqual([]);
  });

  test('cdk8s.yaml imports the cert-manager and prometheus-operator CRDs the library uses as classes, and none of the operator\'s', () => {
    const config = fs.readFileSync(path.join(__dirname, '..', 'cdk8s.yaml'), 'utf8');
    const imported = (dir: string) => fs.readdirSync(path.join(__dirname, '..', 'crds', dir)).filter((file) => config.includes(`crds/${dir}/${file}`));
    expect(imported('cert-manager')).toEqual(fs.readdirSync(path.join(__dirname, '..', 'crds', 'cert-manager')));
    expect(imported('prometheus-operator')).toEqual(['monitoring.coreos.com_prometheusrules.yaml']);
    expect(imported('operator')).toEqual([]);
    const modules = fs.readdirSync(path.join(__dirname, '..', 'imports')).sort();
    expect(modules).toEqual(['certificates-cert-manager.io.ts', 'clusterissuers-cert-manager.io.ts', 'issuers-cert-manager.io.ts', 'prometheusrules-monitoring.coreos.com.ts']);
  });
});
