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
import * as YAML from 'yaml';
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
  test('the reference output breaks none', () => {
    expect(checkManifests(readManifests([REFERENCE]))).toEqual([]);
  });

  test('a server certificate without a host name its peers dial', () => {
    const violations = checkManifests(broken((objects) => {
      const store = find(objects, 'Certificate', 'basic-store-cluster-secret');
      store.spec.dnsNames = store.spec.dnsNames.filter((n: string) => n !== 'basic-store-peer.demo.svc');
    }));
    expect(violations).toEqual([{
      rule: ManifestRule.SERVER_HOST_NAMES, resource: 'Certificate demo/basic-store-cluster-secret', manifestPath: 'demo.k8s.yaml', field: 'spec.dnsNames',
      message: 'lacks "basic-store-peer.demo.svc"; expected every host name of the store of cluster "basic": a peer dialing a missing one refuses the handshake',
    }]);
  });

  test('an allowed Common Name list without the certificates\' Common Name, and a single-value list of two', () => {
    const violations = checkManifests(broken((objects) => {
      const cluster = find(objects, 'DatabaseCluster', 'basic');
      cluster.spec.store.config.security['cert-allowed-cn'] = ['someone-else'];
      cluster.spec.coordinator.config.security['cert-allowed-cn'] = ['basic', 'other'];
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field, v.message])).toEqual([
      [ManifestRule.ALLOWED_COMMON_NAMES, 'DatabaseCluster demo/basic', 'spec.coordinator.config.security.cert-allowed-cn', 'received ["basic","other"]; expected exactly one Common Name: the coordinator accepts only one'],
      [ManifestRule.ALLOWED_COMMON_NAMES, 'DatabaseCluster demo/basic', 'spec.store.config.security.cert-allowed-cn',
        'received ["someone-else"]; expected a list that holds "basic", the Common Name of the cluster\'s certificates (the client Certificate\'s spec.commonName): the store refuses every other peer'],
    ]);
  });

  test('a certificate Secret under a name the operator does not load', () => {
    const violations = checkManifests(broken((objects) => {
      find(objects, 'Certificate', 'basic-store-cluster-secret').spec.secretName = 'basic-stor-cluster-secret';
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field])).toEqual([
      [ManifestRule.OPERATOR_SECRET_NAMES, 'DatabaseCluster demo/basic', 'spec.tlsCluster.enabled'],
      [ManifestRule.OPERATOR_SECRET_NAMES, 'Certificate demo/basic-store-cluster-secret', 'spec.secretName'],
    ]);
    expect(violations[0].message).toBe('no Certificate writes "basic-store-cluster-secret", the Secret the operator loads the store\'s server certificate from: name the Certificate\'s spec.secretName so');
  });

  test('lifetimes cert-manager refuses, and a leaf that outlives its CA', () => {
    const violations = checkManifests(broken((objects) => {
      const store = find(objects, 'Certificate', 'basic-store-cluster-secret');
      store.spec.renewBefore = '9000h';
      find(objects, 'Certificate', 'basic-pump-cluster-secret').spec.duration = '87600h';
      find(objects, 'Certificate', 'basic-sqlserver-cluster-secret').spec.renewBefore = '1m';
    }));
    expect(violations.map((v) => [v.rule, v.resource, v.field, v.message])).toEqual([
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-store-cluster-secret', 'spec.renewBefore', 'received "9000h"; expected a window shorter than spec.duration (8760h)'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-sqlserver-cluster-secret', 'spec.renewBefore', 'received "1m"; expected at least 5m: cert-manager\'s webhook refuses less'],
      [ManifestRule.LIFETIMES, 'Certificate demo/basic-pump-cluster-secret', 'spec.duration',
        'received "87600h"; expected a validity shorter than its CA\'s (87600h, Certificate basic-ca), so that no certificate outlives the CA that signs it'],
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
