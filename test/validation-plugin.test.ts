/**
 * The library's rules on manifests it did not write, as a cdk8s validation plugin: first on the
 * reference output and hand-broken copies of it (each rule caught where it is broken, nothing
 * reported on the output as written), then under the real `cdk8s synth` of an app whose
 * `cdk8s.yaml` lists the plugin and whose manifests are written by hand.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Chart, Testing } from 'cdk8s';
import * as TOML from 'smol-toml';
import * as YAML from 'yaml';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { renderApp } from '../lib/synth/synthesize';
import { ManifestObject, ManifestRule, checkManifests } from '../lib/validation/rules';
import { readManifests } from '../lib/validation/plugin';

const ROOT = path.join(__dirname, '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const REFERENCE = path.join(ROOT, 'dist', 'demo.k8s.yaml');

/** The reference manifest's objects, with one of them changed by `edit`. */
function broken(edit: (objects: any[]) => void): ManifestObject[] {
  const objects = readManifests([REFERENCE]).map((o) => structuredClone(o.object));
  edit(objects);
  return objects.map((object) => ({ manifestPath: 'demo.k8s.yaml', object }));
}

const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

describe('the rules, on the reference output and on hand-broken copies', () => {
  test('the reference output breaks none, in any of its manifests', () => {
    const manifests = fs.readdirSync(path.join(ROOT, 'dist'), { recursive: true }).map(String).filter((f) => f.endsWith('.k8s.yaml'));
    expect(manifests.length).toBeGreaterThan(1);
    expect(checkManifests(readManifests(manifests.map((f) => path.join(ROOT, 'dist', f))))).toEqual([]);
  });

  test('two clusters whose names share a prefix, in one namespace, break none', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'shop', { namespace: 'shop' });
    new TlsDatabaseCluster(chart, 'basic', { clusterName: 'basic', version: 'v4.0.5' });
    new TlsDatabaseCluster(chart, 'basic-eu', { clusterName: 'basic-eu', version: 'v4.0.5' });
    const objects = renderApp(app).objects.map((o) => ({ manifestPath: o.file, object: o.manifest }));
    expect(objects.filter((o) => o.object.kind === 'Certificate').length).toBeGreaterThan(10);
    expect(checkManifests(objects)).toEqual([]);
  });

  test('manifests without namespaces (applied with kubectl apply -n) break none: no namespace is guessed', () => {
    expect(checkManifests(broken((objects) => objects.forEach((o) => delete o.metadata.namespace)))).toEqual([]);
  });

  test('the importer\'s, the lightning\'s and the SQL server\'s certificates, which the cluster resource does not list, are held to their host names too', () => {
    for (const [secret, name, what] of [
      ['basic-importer-cluster-secret', 'basic-importer.demo.svc', 'the importer'],
      ['basic-lightning-cluster-secret', 'basic-lightning.demo', 'the lightning'],
      ['basic-sqlserver-server-secret', 'basic-sqlserver.demo.svc', 'the SQL server, for MySQL clients,'],
    ]) {
      const violations = checkManifests(broken((objects) => {
        const certificate = find(objects, 'Certificate', secret);
        certificate.spec.dnsNames = certificate.spec.dnsNames.filter((n: string) => n !== name);
      }));
      expect(violations.map((v) => [v.rule, v.name, v.message])).toEqual([[ManifestRule.SERVER_HOST_NAMES, secret,
        `lacks "${name}"; expected every host name of ${what} of cluster "basic": a peer dialing a missing one refuses the handshake`]]);
    }
  });

  test('a Secret of tlsClientSecretNames that cannot name a pod volume, or listed twice', () => {
    const violations = checkManifests(broken((objects) => {
      find(objects, 'MigrationCluster', 'basic').spec.tlsClientSecretNames.push('legacy.tls');
      const sinks = find(objects, 'DatabaseCluster', 'basic').spec.changefeed.tlsClientSecretNames;
      sinks.push(sinks[0]);
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field, v.message]).sort()).toEqual([
      [ManifestRule.CLIENT_SECRET_NAMES, 'MigrationCluster demo/basic', 'spec.tlsClientSecretNames[2]',
        'received "legacy.tls"; expected a Secret name that is a DNS-1123 label (lowercase letters, digits and \'-\', at most 63 characters): '
        + 'the operator names the pod volume that mounts it after it, and Kubernetes refuses the pods otherwise'],
      [ManifestRule.CLIENT_SECRET_NAMES, 'DatabaseCluster demo/basic', 'spec.changefeed.tlsClientSecretNames[1]',
        'received "basic-sink-tls" a second time; expected each Secret once: two volumes of one name make Kubernetes refuse the pods'],
    ].sort());
  });

  test('a server certificate without a host name its peers dial', () => {
    const violations = checkManifests(broken((objects) => {
      const store = find(objects, 'Certificate', 'basic-store-cluster-secret');
      store.spec.dnsNames = store.spec.dnsNames.filter((n: string) => n !== 'basic-store-peer.demo.svc');
    }));
    expect(violations).toEqual([{
      rule: ManifestRule.SERVER_HOST_NAMES, resource: 'Certificate demo/basic-store-cluster-secret', name: 'basic-store-cluster-secret', manifestPath: 'demo.k8s.yaml', field: 'spec.dnsNames',
      message: 'lacks "basic-store-peer.demo.svc"; expected every host name of the store of cluster "basic": a peer dialing a missing one refuses the handshake',
      fix: 'add the missing names to spec.dnsNames',
    }]);
  });

  test('a server certificate a rotation stages, without a host name its peers dial', () => {
    const violations = checkManifests(broken((objects) => {
      const staged = structuredClone(find(objects, 'Certificate', 'basic-store-cluster-secret'));
      staged.metadata.name = 'basic-store-cluster-secret-leaves-1';
      staged.spec.secretName = 'basic-store-cluster-secret-leaves-1';
      staged.spec.dnsNames = ['basic-store'];
      objects.push(staged);
    }));
    expect(violations.map((v) => [v.rule, v.resource])).toEqual([[ManifestRule.SERVER_HOST_NAMES, 'Certificate demo/basic-store-cluster-secret-leaves-1']]);
  });

  test('an allowed Common Name list without the certificates\' Common Name, and a single-value list of two', () => {
    const violations = checkManifests(broken((objects) => {
      const cluster = find(objects, 'DatabaseCluster', 'basic');
      // The coordinator's and the store's configurations are TOML documents; the pump's a map.
      const edited = (document: string, list: string[]) => TOML.stringify({ ...TOML.parse(document), security: { 'cert-allowed-cn': list } });
      cluster.spec.store.config = edited(cluster.spec.store.config, ['someone-else']);
      cluster.spec.coordinator.config = edited(cluster.spec.coordinator.config, ['basic', 'other']);
      cluster.spec.pump.config.security['cert-allowed-cn'] = 'basic';
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field, v.message])).toEqual([
      [ManifestRule.ALLOWED_COMMON_NAMES, 'DatabaseCluster demo/basic', 'spec.coordinator.config.security.cert-allowed-cn', 'received ["basic","other"]; expected exactly one Common Name: the coordinator accepts only one'],
      [ManifestRule.ALLOWED_COMMON_NAMES, 'DatabaseCluster demo/basic', 'spec.store.config.security.cert-allowed-cn',
        'received ["someone-else"]; expected a list that holds "basic", the Common Name of the cluster\'s certificates (the client Certificate\'s spec.commonName): the store refuses every other peer'],
      [ManifestRule.ALLOWED_COMMON_NAMES, 'DatabaseCluster demo/basic', 'spec.pump.config.security.cert-allowed-cn', 'received "basic"; expected a list of Common Names'],
    ]);
  });

  test('a certificate Secret under a name the operator does not load', () => {
    const violations = checkManifests(broken((objects) => {
      find(objects, 'Certificate', 'basic-store-cluster-secret').spec.secretName = 'basic-stor-cluster-secret';
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field])).toEqual([
      [ManifestRule.OPERATOR_SECRET_NAMES, 'DatabaseCluster demo/basic', 'spec.store'],
      [ManifestRule.OPERATOR_SECRET_NAMES, 'Certificate demo/basic-store-cluster-secret', 'spec.secretName'],
    ]);
    expect(violations.map((v) => [v.message, v.fix])).toEqual([
      ['no Certificate writes "basic-store-cluster-secret", the Secret the operator loads the store\'s server certificate from', 'set spec.secretName of that Certificate to "basic-store-cluster-secret"'],
      ['received "basic-stor-cluster-secret"; expected the server Secret of a component of cluster "basic", such as basic-coordinator-cluster-secret, basic-store-cluster-secret, basic-sqlserver-cluster-secret, basic-pump-cluster-secret, basic-changefeed-cluster-secret, basic-columnar-cluster-secret',
        'set spec.secretName to the name the operator loads for that component'],
    ]);
  });

  test('lifetimes cert-manager refuses, and a leaf that outlives its CA', () => {
    const violations = checkManifests(broken((objects) => {
      const store = find(objects, 'Certificate', 'basic-store-cluster-secret');
      store.spec.renewBefore = '9000h';
      find(objects, 'Certificate', 'basic-pump-cluster-secret').spec.duration = '87600h';
      find(objects, 'Certificate', 'basic-sqlserver-cluster-secret').spec.renewBefore = '1m';
      find(objects, 'Certificate', 'basic-coordinator-cluster-secret').spec.duration = '30m';
      // A leaf of the SQL CA, through its ClusterIssuer.
      find(objects, 'Certificate', 'basic-sqlserver-server-secret').spec.duration = '100000h';
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field, v.message])).toEqual([
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-coordinator-cluster-secret', 'spec.duration', 'received "30m"; expected at least 1h, the webhook\'s minimum'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-coordinator-cluster-secret', 'spec.renewBefore', 'received "360h"; expected less than spec.duration (30m), or cert-manager renews it without end'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-store-cluster-secret', 'spec.renewBefore', 'received "9000h"; expected less than spec.duration (8760h), or cert-manager renews it without end'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-sqlserver-cluster-secret', 'spec.renewBefore', 'received "1m"; expected at least 5m, the webhook\'s minimum'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-pump-cluster-secret', 'spec.duration',
        'received "87600h"; expected less than the duration of its CA (87600h, Certificate demo/basic-ca): a leaf that outlives its CA is rejected once the CA expires'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-sqlserver-server-secret', 'spec.duration',
        'received "100000h"; expected less than the duration of its CA (87600h, Certificate cert-manager/demo-basic-sql-ca): a leaf that outlives its CA is rejected once the CA expires'],
    ]);
  });
});

test('a file that is not YAML is refused with one line naming it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-plugin-read-'));
  try {
    const file = path.join(dir, 'broken.k8s.yaml');
    fs.writeFileSync(file, 'kind: Secret\nmetadata: {name: [unclosed\n');
    expect(() => readManifests([file])).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: received a file that is not YAML \\(.+\\); expected Kubernetes manifests$`));
    fs.writeFileSync(file, '');
    expect(readManifests([file])).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('under the real cdk8s synth', () => {
  let app: string;

  beforeAll(() => {
    app = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-plugin-'));
    // An app whose manifests are written by hand: it copies manifest.yaml into the CLI's output.
    fs.writeFileSync(path.join(app, 'write-manifests.js'), [
      "const fs = require('node:fs');",
      "const path = require('node:path');",
      'fs.mkdirSync(process.env.CDK8S_OUTDIR, { recursive: true });',
      "fs.copyFileSync('manifest.yaml', path.join(process.env.CDK8S_OUTDIR, 'app.k8s.yaml'));",
    ].join('\n'));
    fs.writeFileSync(path.join(app, 'cdk8s.yaml'), YAML.stringify({
      language: 'typescript',
      app: 'node write-manifests.js',
      validations: [{ package: ROOT, version: PACKAGE.version, class: 'ClusterTlsValidation' }],
    }));
  });

  afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

  function synth(manifest: string) {
    fs.writeFileSync(path.join(app, 'manifest.yaml'), manifest);
    return spawnSync(path.join(ROOT, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  }

  test('passes the reference output', () => {
    const run = synth(fs.readFileSync(REFERENCE, 'utf8'));
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('Validations ended succesfully');
  }, 120_000);

  test('fails the synth on a hand-broken manifest, reporting the rule, the object and the field', () => {
    const run = synth(fs.readFileSync(REFERENCE, 'utf8').replace('    - basic-store-peer.demo.svc\n', ''));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Validation failed');
    for (const text of [ManifestRule.SERVER_HOST_NAMES, 'Certificate demo/basic-store-cluster-secret', 'spec.dnsNames', 'basic-store-peer.demo.svc']) {
      expect(run.stdout).toContain(text);
    }
  }, 120_000);
});
