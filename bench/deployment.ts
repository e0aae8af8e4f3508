/**
 * One complete deployment of the library, as a platform with one chart per tenant declares it:
 * the benchmark synthesizes N of them, and the equivalence test checks them against stock cdk8s.
 */
import { App, Chart } from 'cdk8s';
import { BackupRestore } from '../lib/backup-restore';
import { ClusterCertificates } from '../lib/cluster-certificates';
import { DrainerRelease } from '../lib/drainer-release';
import { TlsDatabaseCluster } from '../lib/tls-database-cluster';
import { TlsMigrationCluster } from '../lib/tls-migration-cluster';

/** The namespace (and chart id) of tenant `i`. */
export function tenantNamespace(i: number): string {
  return `tenant-${i}`;
}

/** The cluster name every tenant uses; tenants differ by namespace. */
export const TENANT_CLUSTER = 'main';

/**
 * Adds tenant `i` to `app`, laid out as the reference app (main.ts) lays out a namespace: a chart
 * with the certificates (cert-manager), the database cluster with changefeed and columnar, its
 * monitor, the migration cluster (one source, the database as target) and the drainer release;
 * and the backup and the restore in charts of their own.
 */
export function addDeployment(app: App, i: number): Chart {
  const namespace = tenantNamespace(i);
  const chart = new Chart(app, namespace, { namespace });
  const certs = new ClusterCertificates(chart, 'certificates', {
    clusterName: TENANT_CLUSTER,
    subject: { organization: 'platform', organizationalUnit: 'databases', country: 'US', state: 'California', locality: 'San Francisco' },
  });
  const database = new TlsDatabaseCluster(chart, 'database', {
    clusterName: TENANT_CLUSTER,
    version: 'v4.0.5',
    operatorVersion: 'v1.2.0',
    certificates: certs,
    coordinator: { storage: '10Gi' },
    store: { storage: '100Gi' },
    sqlserver: {},
    pump: { storage: '20Gi' },
    changefeed: {},
    columnar: { storageClaims: [{ storage: '100Gi' }] },
  });
  database.addMonitor({
    initializer: { baseImage: 'registry.example.com/monitor-initializer', version: 'v4.0.5' },
    reloader: { baseImage: 'registry.example.com/monitor-reloader', version: 'v1.0.1' },
  });
  new TlsMigrationCluster(chart, 'migration', {
    clusterName: TENANT_CLUSTER,
    version: 'v1.2.0',
    operatorVersion: 'v1.2.0',
    certificates: certs,
    sources: [{ sourceId: 'source1', host: 'mysql.example.com', port: 3306, user: 'migrator', tlsSecretName: 'mysql-source-tls' }],
    target: { database, user: 'migrator', tlsSecretName: 'db-target-tls' },
    task: { name: 'tenant-import' },
  });
  new DrainerRelease(chart, 'drainer', {
    cluster: database,
    releaseName: 'binlog',
    chart: { repository: 'https://charts.example.com/stable', version: '1.1.5' },
  });
  const storage = {
    s3: { provider: 'aws', region: 'us-west-2', bucket: 'tenant-backups', secretName: 's3-keys' },
    credentialsSecretName: 'backup-credentials',
    user: 'backup',
  };
  new BackupRestore(new Chart(app, `${namespace}-backup`, { namespace }), 'backup', { cluster: database, backup: {}, ...storage });
  new BackupRestore(new Chart(app, `${namespace}-restore`, { namespace }), 'restore', { cluster: database, restore: {}, ...storage });
  return chart;
}

/** An app of `n` tenants, tenant 0 first. */
export function buildDeployments(n: number, outdir?: string): App {
  const app = new App({ outdir });
  for (let i = 0; i < n; i++) {
    addDeployment(app, i);
  }
  return app;
}

/** An app of tenant `i` alone. */
export function buildTenant(i: number): App {
  const app = new App();
  addDeployment(app, i);
  return app;
}

/** A tenant index with a long namespace, to check that the floor holds for long names too. */
export const LONG_TENANT = 123456789012;
