import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderApp, synthesize } from '../lib';
import { buildApp } from '../main';
import { expectValidAgainstCrds } from './_crds';
import { findObject, namesOf, operationsOf } from './_find';

const DIST = path.join(__dirname, '..', 'dist');
const rendered = renderApp(buildApp());
const objects = rendered.objects.map((o) => o.manifest);

function committedFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('reference app', () => {
  test('every synthesized object validates against crds/', () => {
    expect(objects.length).toBeGreaterThan(0);
    expectValidAgainstCrds(objects);
  });

  test('namespace demo holds the certificates of database cluster basic and migration cluster basic', () => {
    const demo = objects.filter((o) => o.metadata.namespace === 'demo');
    expect(namesOf(demo, 'Issuer')).toEqual(['basic-db-issuer', 'basic-mig-issuer', 'basic-selfsigned-ca-issuer']);
    for (const token of ['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning', 'mig-master', 'mig-worker']) {
      expect(findObject(demo, 'Certificate', `basic-${token}-cluster-secret`).spec.usages).toEqual(['server auth', 'client auth']);
    }
    expect(findObject(demo, 'Certificate', 'basic-cluster-client-secret').spec.usages).toEqual(['client auth']);
    expect(findObject(demo, 'Certificate', 'basic-mig-client-secret').spec.usages).toEqual(['client auth']);
  });

  test('the database cluster basic runs every operator component, with its monitor', () => {
    const demo = objects.filter((o) => o.metadata.namespace === 'demo');
    const cluster = findObject(demo, 'DatabaseCluster', 'basic');
    expect(cluster.metadata.namespace).toBe('demo');
    expect(Object.keys(cluster.spec).filter((k) => typeof cluster.spec[k] === 'object' && 'replicas' in cluster.spec[k]).sort())
      .toEqual(['changefeed', 'columnar', 'coordinator', 'pump', 'sqlserver', 'store']);
    expect(findObject(demo, 'DatabaseMonitor', 'basic-monitor').spec.clusters).toEqual([{ name: 'basic' }]);
  });

  test('the migration cluster basic reaches its source through its own Secret, and its target with its client certificate for MySQL clients', () => {
    const cluster = findObject(objects.filter((o) => o.metadata.namespace === 'demo'), 'MigrationCluster', 'basic');
    expect(cluster.spec.tlsClientSecretNames).toEqual(['basic-source1-tls', 'basic-migration-demo-basic-sql-client']);
    const files = rendered.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['demo/basic/migration/source1.yaml', 'demo/basic/migration/task.yaml', 'demo/basic/migration-runbook.md']));
  });

  test('namespace demo-cfssl holds the same deployment with cfssl: no cert-manager object, the cfssl folder instead', () => {
    const cfssl = objects.filter((o) => o.metadata.namespace === 'demo-cfssl');
    expect(cfssl.filter((o) => o.apiVersion.startsWith('cert-manager.io/'))).toEqual([]);
    expect(namesOf(cfssl, 'DatabaseCluster')).toEqual(['basic']);
    expect(namesOf(cfssl, 'MigrationCluster')).toEqual(['basic']);
    const files = rendered.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['demo-cfssl/basic/cfssl/issue-certificates.sh', 'demo-cfssl/basic/cfssl/ca-csr.json', 'demo-cfssl/basic/cfssl/client.json']));
    expect(rendered.files.find((f) => f.path === 'demo-cfssl/basic/cfssl/issue-certificates.sh')?.executable).toBe(true);
  });

  test('the drainer has its certificate, values and install step; backup and restore have files of their own', () => {
    const demo = objects.filter((o) => o.metadata.namespace === 'demo');
    expect(findObject(demo, 'Certificate', 'basic-drainer-cluster-secret').spec.dnsNames)
      .toEqual(['*.basic-binlog-drainer', '*.basic-binlog-drainer.demo', '*.basic-binlog-drainer.demo.svc']);
    const values = rendered.files.find((f) => f.path === 'demo/basic/drainer-binlog-values.yaml');
    expect(values?.content).toContain('certAllowedCN:\n    - basic\n');
    // One-off operations: in the files folder, never in a manifest that applying dist/ would start.
    expect(rendered.objects.filter((o) => ['Backup', 'Restore'].includes(o.manifest.kind))).toEqual([]);
    expect(operationsOf(rendered.files).map((o) => `${o.metadata.namespace}/${o.kind}/${o.metadata.name}`).sort())
      .toEqual(['demo-cfssl/Backup/basic-backup', 'demo-cfssl/Restore/basic-restore', 'demo/Backup/basic-backup', 'demo/Restore/basic-restore']);
    for (const token of ['importer', 'lightning']) {
      expect(namesOf(demo, 'Certificate')).toContain(`basic-${token}-cluster-secret`);
    }
  });

  test('no private key or password is written to dist/', () => {
    for (const file of rendered.files) {
      expect(file.content).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
      expect(file.content).not.toMatch(/^kind: Secret$/m);
    }
  });

  test('the committed dist/ and its record are exactly what main.ts synthesizes', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-main-'));
    synthesize(buildApp(), { outdir: path.join(parent, 'dist'), acknowledgeRecreation: [] });
    const synthesized = committedFiles(path.join(parent, 'dist'));
    expect(committedFiles(DIST)).toEqual(synthesized);
    for (const file of synthesized) {
      expect({ path: file, content: fs.readFileSync(path.join(DIST, file), 'utf8') })
        .toEqual({ path: file, content: fs.readFileSync(path.join(parent, 'dist', file), 'utf8') });
    }
    expect(fs.readFileSync(path.join(DIST, '..', 'cluster-tls.lock.json'), 'utf8')).toBe(fs.readFileSync(path.join(parent, 'cluster-tls.lock.json'), 'utf8'));
  });
});
