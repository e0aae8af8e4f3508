import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { BackupRestore, BackupRestoreProps } from '../lib/clusters/backup-restore';
import { API_GROUP_CONTEXT } from '../lib/model/settings';
import { renderApp } from '../lib/synth/synthesize';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { expectValidAgainstCrds } from './_crds';
import { findObject, namesOf, operationsOf } from './_find';

const S3 = { provider: 'aws', region: 'us-west-2', bucket: 'db-backups', secretName: 's3-keys' };
/** What every BackupRestore needs besides the cluster and the operations. */
const ACCESS = { s3: S3, credentialsSecretName: 'backup-password', user: 'backup' };

/** Synthesizes a cluster with a BackupRestore, whose construct sits in a scope declared before the cluster. */
function synth(props: Partial<BackupRestoreProps> = {}) {
  const chart = Testing.chart();
  const early = new Construct(chart, 'early');
  const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
  const br = new BackupRestore(early, 'br', { cluster, ...ACCESS, ...props });
  const objects = Testing.synth(chart);
  const { files } = renderApp(chart.node.root as App);
  return { cluster, br, objects, files, operations: operationsOf(files), runbook: cluster.runbook.render() };
}

describe('Backup', () => {
  const { objects, operations, files, br } = synth({ backup: {} });
  const backup = findObject(operations, 'Backup', 'basic-backup');

  test('named ${cluster_name}-backup, in the cluster\'s namespace, in the operator\'s API group', () => {
    expect(backup.apiVersion).toBe('db.operator.io/v1alpha1');
    expect(backup.metadata).toEqual({ name: 'basic-backup', namespace: 'demo' });
    expect(br.backupName).toBe('basic-backup');
    expect(br.backupFile).toBe('demo/basic/operations/basic-backup.yaml');
    expect(br.restoreName).toBeUndefined();
    expect(br.restoreFile).toBeUndefined();
  });

  test('every field of the spec\'s table, with its defaults', () => {
    expect(backup.spec).toEqual({
      backupType: 'full',
      br: { cluster: 'basic', clusterNamespace: 'demo', sendCredToStore: true },
      from: { host: 'basic-sqlserver.demo.svc', secretName: 'backup-password', port: 4000, user: 'backup' },
      s3: { provider: 'aws', region: 'us-west-2', secretName: 's3-keys', bucket: 'db-backups', prefix: 'demo/basic' },
    });
  });

  test('no Restore, and no importer or lightning certificate, without a restore', () => {
    expect(namesOf(operations, 'Restore')).toEqual([]);
    expect(namesOf(objects, 'Certificate')).not.toContain('basic-importer-cluster-secret');
    expect(namesOf(objects, 'Certificate')).not.toContain('basic-lightning-cluster-secret');
    expect(br.restoreSecretNames).toEqual([]);
  });

  test('validates against the CRDs in crds/', () => {
    expectValidAgainstCrds([...objects, ...operations]);
  });

  test('is a one-off operation, never a manifest: alone in its file of the files folder, in the cluster\'s chart too', () => {
    expect(namesOf(objects, 'Backup')).toEqual([]);
    expect(files.filter((f) => f.path.includes('basic-backup')).map((f) => f.path)).toEqual(['demo/basic/operations/basic-backup.yaml']);
    expect(operations).toHaveLength(1);
  });
});

describe('Restore', () => {
  const { objects, operations, br } = synth({ restore: {} });
  const restore = findObject(operations, 'Restore', 'basic-restore');

  test('every field of the spec\'s table, with `to` for the endpoint', () => {
    expect(restore.apiVersion).toBe('db.operator.io/v1alpha1');
    expect(restore.metadata).toEqual({ name: 'basic-restore', namespace: 'demo' });
    expect(restore.spec).toEqual({
      backupType: 'full',
      br: { cluster: 'basic', clusterNamespace: 'demo', sendCredToStore: true },
      to: { host: 'basic-sqlserver.demo.svc', secretName: 'backup-password', port: 4000, user: 'backup' },
      s3: { provider: 'aws', region: 'us-west-2', secretName: 's3-keys', bucket: 'db-backups', prefix: 'demo/basic' },
    });
    expect(br.restoreName).toBe('basic-restore');
    expect(br.restoreFile).toBe('demo/basic/operations/basic-restore.yaml');
    expect(namesOf(operations, 'Backup')).toEqual([]);
  });

  test('adds the importer and lightning server certificates with their host names', () => {
    const importer = findObject(objects, 'Certificate', 'basic-importer-cluster-secret');
    expect(importer.spec.dnsNames).toEqual([
      'basic-importer', 'basic-importer.demo', 'basic-importer.demo.svc',
      '*.basic-importer', '*.basic-importer.demo', '*.basic-importer.demo.svc',
    ]);
    const lightning = findObject(objects, 'Certificate', 'basic-lightning-cluster-secret');
    expect(lightning.spec.dnsNames).toEqual(['basic-lightning', 'basic-lightning.demo', 'basic-lightning.demo.svc']);
    for (const cert of [importer, lightning]) {
      expect(cert.spec).toMatchObject({
        commonName: 'basic',
        usages: ['server auth', 'client auth'],
        ipAddresses: ['127.0.0.1', '::1'],
        issuerRef: { name: 'basic-db-issuer', kind: 'Issuer', group: 'cert-manager.io' },
      });
    }
    expect(br.restoreSecretNames).toEqual(['basic-importer-cluster-secret', 'basic-lightning-cluster-secret']);
  });

  test('without lightning, no importer or lightning certificate', () => {
    const { objects: without, operations: withoutOps, br: noLightning } = synth({ restore: { useLightning: false } });
    expect(namesOf(without, 'Certificate')).not.toContain('basic-importer-cluster-secret');
    expect(namesOf(without, 'Certificate')).not.toContain('basic-lightning-cluster-secret');
    expect(noLightning.restoreSecretNames).toEqual([]);
    expect(findObject(withoutOps, 'Restore', 'basic-restore').spec.to.host).toBe('basic-sqlserver.demo.svc');
  });

  test('validates against the CRDs in crds/, with the certificates; no manifest holds it', () => {
    expectValidAgainstCrds([...objects, ...operations]);
    expect(namesOf(objects, 'Restore')).toEqual([]);
  });
});

describe('settings', () => {
  test('user, backup type, sendCredToStore, prefix and endpoint reach both objects; each can override type and prefix', () => {
    const { operations: objects } = synth({
      backup: { prefix: 'nightly/2024-06-01' },
      restore: { backupType: 'db', prefix: 'nightly/2024-05-31' },
      s3: { ...S3, provider: 'ceph', prefix: 'basic', endpoint: 'https://s3.example.com' },
      user: 'backup_operator',
      backupType: 'table',
      sendCredToStore: false,
    });
    const backup = findObject(objects, 'Backup', 'basic-backup');
    const restore = findObject(objects, 'Restore', 'basic-restore');
    expect(backup.spec).toEqual({
      backupType: 'table',
      br: { cluster: 'basic', clusterNamespace: 'demo', sendCredToStore: false },
      from: { host: 'basic-sqlserver.demo.svc', secretName: 'backup-password', port: 4000, user: 'backup_operator' },
      s3: { provider: 'ceph', region: 'us-west-2', secretName: 's3-keys', bucket: 'db-backups', prefix: 'nightly/2024-06-01', endpoint: 'https://s3.example.com' },
    });
    expect(restore.spec.backupType).toBe('db');
    expect(restore.spec.s3.prefix).toBe('nightly/2024-05-31');
    expect(restore.spec.to.user).toBe('backup_operator');
    expect(restore.spec.br.sendCredToStore).toBe(false);
    expectValidAgainstCrds(objects);
  });

  test('an http:// endpoint is accepted only with allowInsecureEndpoint, which stays out of the spec', () => {
    const { operations: objects } = synth({ backup: {}, restore: {}, s3: { ...S3, provider: 'minio', endpoint: 'http://minio.storage.svc:9000', allowInsecureEndpoint: true } });
    for (const [kind, name] of [['Backup', 'basic-backup'], ['Restore', 'basic-restore']]) {
      expect(findObject(objects, kind, name).spec.s3).toEqual({
        provider: 'minio', region: 'us-west-2', secretName: 's3-keys', bucket: 'db-backups', prefix: 'demo/basic', endpoint: 'http://minio.storage.svc:9000',
      });
    }
    expectValidAgainstCrds(objects);
  });

  test('the user is the one given, in the runbook too', () => {
    const { operations, runbook } = synth({ backup: {}, user: 'br_operator' });
    expect(findObject(operations, 'Backup', 'basic-backup').spec.from.user).toBe('br_operator');
    expect(runbook).toContain('connects to `basic-sqlserver.demo.svc:4000` as `br_operator`');
  });

  test('the API group is a setting', () => {
    const app = new App();
    app.node.setContext(API_GROUP_CONTEXT, 'acme.io');
    const chart = new Chart(app, 'c', { namespace: 'demo' });
    const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5' });
    const br = new BackupRestore(chart, 'br', { cluster, backup: {}, ...ACCESS });
    expect(findObject(operationsOf(renderApp(app).files), 'Backup', 'basic-backup').apiVersion).toBe('acme.io/v1alpha1');
    expect(cluster.runbook.render()).toContain('kubectl get backups.acme.io basic-backup -n demo');
    expect(br.namespace).toBe('demo');
  });

  test('no password anywhere in the output', () => {
    const { objects, files } = synth({ backup: {}, restore: {} });
    expect(JSON.stringify(objects)).not.toMatch(/password"?:/i);
    expect(files.filter((f) => f.path.includes('/operations/')).map((f) => f.content).join('')).not.toMatch(/password"?:/i);
    expect(namesOf(objects, 'Secret')).toEqual([]);
  });
});

describe('runbook (section C step 5)', () => {
  test('in the cluster\'s chart: applying the manifests never started it; kubectl create starts it from its file, then how to check it', () => {
    const { runbook } = synth({ backup: {} });
    expect(runbook).toMatch(/^## \d+\. Back up cluster basic$/m);
    expect(runbook).toContain('The Backup is a one-off operation, not a manifest: applying the manifests or a GitOps sync never starts it. '
      + 'Once the cluster is running, `kubectl create` starts it from `cluster-tls/demo/basic/operations/basic-backup.yaml`');
    expect(runbook).toContain('kubectl get secret backup-password s3-keys -n demo\n'
      + 'kubectl create -f ../cluster-tls/demo/basic/operations/basic-backup.yaml\n'
      + 'kubectl get backups.db.operator.io basic-backup -n demo\n'
      + 'kubectl describe backups.db.operator.io basic-backup -n demo');
  });

  test('in a chart of its own: no manifest for it (an empty chart writes none of its objects), and the restore checks the importer and lightning Secrets', () => {
    const app = new App();
    const db = new Chart(app, 'db', { namespace: 'demo' });
    const cluster = new TlsDatabaseCluster(db, 'basic', { clusterName: 'basic', version: 'v4.0.5' });
    const restores = new Chart(app, 'restore', { namespace: 'demo' });
    new BackupRestore(restores, 'restore', { cluster, restore: {}, ...ACCESS });
    const rendered = renderApp(app);
    expect(rendered.objects.filter((o) => o.manifest.kind === 'Restore')).toEqual([]);
    expect(rendered.files.map((f) => f.path)).toContain('demo/basic/operations/basic-restore.yaml');
    const runbook = rendered.files.find((f) => f.path === 'demo/basic/database-runbook.md')!.content;
    expect(runbook).toMatch(/^## \d+\. Restore cluster basic from the backup$/m);
    expect(runbook).toContain('kubectl get secret backup-password s3-keys basic-importer-cluster-secret basic-lightning-cluster-secret -n demo\n'
      + 'kubectl create -f ../cluster-tls/demo/basic/operations/basic-restore.yaml\n'
      + 'kubectl get restores.db.operator.io basic-restore -n demo');
    expect(runbook).toContain('reads the backup at `s3://db-backups/demo/basic`');
  });

  test('a Backup and a Restore of one construct are two files, each created by its own step', () => {
    const { runbook, br } = synth({ backup: {}, restore: {} });
    expect([br.backupFile, br.restoreFile]).toEqual(['demo/basic/operations/basic-backup.yaml', 'demo/basic/operations/basic-restore.yaml']);
    expect(runbook.match(/^kubectl create -f .*$/gm)).toEqual([
      'kubectl create -f ../cluster-tls/demo/basic/operations/basic-backup.yaml',
      'kubectl create -f ../cluster-tls/demo/basic/operations/basic-restore.yaml',
    ]);
  });
});

describe('input errors', () => {
  test('a backup, a restore or both', () => {
    expect(() => synth()).toThrow('test/early/br: backup, restore: received nothing; expected a backup, a restore or both (for example backup: {})');
  });

  test('the bucket', () => {
    expect(() => synth({ backup: {}, s3: undefined as any })).toThrow('test/early/br: s3: received nothing; expected the bucket: { provider, region, bucket, secretName }');
    expect(() => synth({ backup: {}, s3: { ...S3, provider: '' } })).toThrow('test/early/br: s3.provider: received ""; expected a storage provider name such as "aws" or "ceph"');
    expect(() => synth({ backup: {}, s3: { ...S3, region: 'us west' } })).toThrow('test/early/br: s3.region: received "us west"; expected a region such as "us-west-2"');
    expect(() => synth({ backup: {}, s3: { ...S3, bucket: 's3://db-backups' } })).toThrow('test/early/br: s3.bucket: received "s3://db-backups"; expected a bucket name');
    expect(() => synth({ backup: {}, s3: { ...S3, secretName: 'S3 keys' } })).toThrow('test/early/br: s3.secretName: received "S3 keys"; expected a DNS-1123 subdomain');
    expect(() => synth({ backup: {}, s3: { ...S3, endpoint: 's3.example.com' } })).toThrow('test/early/br: s3.endpoint: received "s3.example.com"; expected the storage service\'s URL, such as "https://s3.example.com"');
  });

  test('an endpoint with credentials in it is refused without repeating them', () => {
    for (const endpoint of ['https://AKIA:s3cr3t@s3.example.com', 'https://user@s3.example.com:9000/path', 'http://a:b@minio.storage.svc']) {
      const run = () => synth({ backup: {}, s3: { ...S3, endpoint } });
      expect(run).toThrow('test/early/br: s3.endpoint: received a value with a user name or password in it (not repeated here); expected a URL or host without credentials: give them in the Secret the construct\'s documentation names');
      expect(() => run()).not.toThrow(/s3cr3t|AKIA|user@|a:b/);
    }
  });

  test('an http:// endpoint needs allowInsecureEndpoint', () => {
    const message = 'test/early/br: s3.endpoint: received "http://minio.storage.svc:9000"; expected an https:// URL, since the backup and the storage access keys travel over it; '
      + 'set s3.allowInsecureEndpoint to true to accept http://';
    expect(() => synth({ backup: {}, s3: { ...S3, endpoint: 'http://minio.storage.svc:9000' } })).toThrow(message);
    expect(() => synth({ backup: {}, s3: { ...S3, endpoint: 'http://minio.storage.svc:9000', allowInsecureEndpoint: false } })).toThrow(message);
    expect(() => synth({ backup: {}, s3: { ...S3, endpoint: 'http://minio.storage.svc:9000', allowInsecureEndpoint: 'yes' as any } }))
      .toThrow('test/early/br: s3.allowInsecureEndpoint: received "yes"; expected true or false');
  });

  test('prefixes', () => {
    expect(() => synth({ backup: {}, s3: { ...S3, prefix: '/basic' } })).toThrow('test/early/br: s3.prefix: received "/basic"; expected a key prefix without spaces or quotes that does not start with \'/\'');
    expect(() => synth({ backup: {}, s3: { ...S3, prefix: 'basic/' } })).toThrow('test/early/br: s3.prefix: received "basic/"; expected a key prefix that does not end with \'/\'');
    expect(() => synth({ restore: { prefix: 'old backup' } })).toThrow('test/early/br: restore.prefix: received "old backup"; expected a key prefix');
  });

  test('the user is required: there is no safe default', () => {
    expect(() => synth({ backup: {}, user: undefined as any }))
      .toThrow('test/early/br: user: received nothing; expected a database user name without spaces or quotes: a dedicated account with only the privileges backup and restore need, such as "backup"');
  });

  test('credentials Secret, user, backup type, sendCredToStore and options', () => {
    expect(() => synth({ backup: {}, credentialsSecretName: '' })).toThrow('test/early/br: credentialsSecretName: received ""; expected a DNS-1123 subdomain');
    expect(() => synth({ backup: {}, user: 'back up' }))
      .toThrow('test/early/br: user: received "back up"; expected a database user name without spaces or quotes: a dedicated account with only the privileges backup and restore need');
    expect(() => synth({ backup: {}, backupType: 'Full' })).toThrow('test/early/br: backupType: received "Full"; expected a backup type such as "full"');
    expect(() => synth({ backup: { backupType: '' } })).toThrow('test/early/br: backup.backupType: received ""; expected a backup type such as "full"');
    expect(() => synth({ backup: {}, sendCredToStore: 'yes' as any })).toThrow('test/early/br: sendCredToStore: received "yes"; expected true or false');
    expect(() => synth({ backup: true as any })).toThrow('test/early/br: backup: received true; expected an object of options, {} for the defaults');
  });

  test('a second Backup of the same cluster is one file too many, refused at synth; a Restore beside it is not', () => {
    const chart = Testing.chart();
    const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
    const props = { cluster, backup: {}, ...ACCESS };
    new BackupRestore(chart, 'one', props);
    new BackupRestore(chart, 'three', { cluster, restore: {}, ...ACCESS });
    expect(() => renderApp(chart.node.root as App)).not.toThrow();
    new BackupRestore(chart, 'two', props);
    expect(() => renderApp(chart.node.root as App)).toThrow(
      'test/two/Backup: path: received "demo/basic/operations/basic-backup.yaml"; expected a file nothing else writes (test/one/Backup writes it too)');
  });
});
