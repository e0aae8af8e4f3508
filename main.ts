/**
 * The reference app: what `npm run synth` writes to dist/, and the example to copy.
 */
import { App, Chart } from 'cdk8s';
import { ClusterCertificates, TlsDatabaseCluster, TlsMigrationCluster, synthesizeOrExit } from './lib';

/** Builds the reference app. */
export function buildApp(outdir?: string): App {
  const app = new App({ outdir });

  // Namespace "demo": the database cluster "basic" and the migration cluster "basic",
  // certificates issued by cert-manager. Both clusters share one CA.
  const demo = new Chart(app, 'demo', { namespace: 'demo' });
  const certs = new ClusterCertificates(demo, 'basic-certificates', {
    clusterName: 'basic',
    subject: { organization: 'demo' },
  });

  const database = new TlsDatabaseCluster(demo, 'basic-database', {
    clusterName: 'basic',
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

  // Migration cluster "basic": one upstream MySQL source, the database cluster above as target,
  // each reached with its own client certificate Secret.
  new TlsMigrationCluster(demo, 'basic-migration', {
    clusterName: 'basic',
    version: 'v1.2.0',
    operatorVersion: 'v1.2.0',
    certificates: certs,
    sources: [
      { sourceId: 'source1', host: 'mysql.example.com', port: 3306, user: 'root', tlsSecretName: 'basic-source1-tls' },
    ],
    target: { database, user: 'root', tlsSecretName: 'basic-target-tls' },
    task: { name: 'basic-migration' },
  });

  certs.addComponent('importer');
  certs.addComponent('lightning');

  return app;
}

if (require.main === module) {
  synthesizeOrExit(() => buildApp());
}
