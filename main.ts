/**
 * The reference app: what `npm run synth` writes to dist/, and the example to copy.
 *
 * The same deployment is synthesized twice, once per issuing method, so dist/ shows them side
 * by side: namespace "demo" with cert-manager, namespace "demo-cfssl" with cfssl.
 */
import { App, Chart } from 'cdk8s';
import {
  BackupRestore, CertificateRotation, ClusterCertificates, DrainerRelease, IssuingMethod, RotationPhase, TlsDatabaseCluster, TlsEnablement, TlsEnablementPhase,
  TlsMigrationCluster, synthesizeOrExit,
} from './lib';

/**
 * Set to a phase of a CA replacement (`trust-both`, `switch-leaves`, `drop-old`) to synthesize the
 * reference app in that phase of rotation `2026-11`, into `build/rotation/dist` so that `dist/`
 * keeps the reference output: `CLUSTER_TLS_ROTATION_PHASE=trust-both npm run synth`.
 */
export const ROTATION_PHASE_ENV = 'CLUSTER_TLS_ROTATION_PHASE';

/**
 * Set to a phase of a TLS enablement (`issue`, `scale-in`, `enable`, `scale-out`) to synthesize the
 * reference deployment as a cluster that ran without TLS and turns it on in place, into
 * `build/enablement/dist`: `CLUSTER_TLS_ENABLEMENT_PHASE=issue npm run synth`.
 */
export const ENABLEMENT_PHASE_ENV = 'CLUSTER_TLS_ENABLEMENT_PHASE';

/** The reference app's TLS enablement: none, or the given phase. */
export function referenceEnablement(phase: string | undefined = process.env[ENABLEMENT_PHASE_ENV]): TlsEnablement | undefined {
  return phase ? { phase: phase as TlsEnablementPhase } : undefined;
}

/** The reference app's rotations: none, or the CA replacement `2026-11` at the given phase. */
export function referenceRotations(phase: string | undefined = process.env[ROTATION_PHASE_ENV]): CertificateRotation[] {
  return phase ? [{ id: '2026-11', phase: phase as RotationPhase }] : [];
}

/** Where the operator's images come from; the operator appends each cluster's version as the tag. */
const REGISTRY = 'registry.example.com/db';

/**
 * One namespace holding the database cluster "basic" with its monitor, drainer, backup and
 * restore, and the migration cluster "basic" that copies an upstream MySQL database into it, as an
 * application of the database with its own client certificate for MySQL clients.
 * Both clusters share one CA. With an enablement, the database cluster ran without TLS and turns
 * it on in place; the migration cluster, whose TLS cannot be turned on in place, is left out.
 * `replicas` sizes the coordinator, the store and the SQL server (one pod each by default), as the
 * tests that compare enablement choices need.
 */
export function addDeployment(app: App, namespace: string, method: IssuingMethod, rotations: CertificateRotation[] = [], enablement?: TlsEnablement,
  replicas: { readonly coordinator?: number; readonly store?: number; readonly sqlserver?: number } = {}): void {
  const chart = new Chart(app, namespace, { namespace });

  const certs = new ClusterCertificates(chart, 'basic-certificates', {
    clusterName: 'basic',
    method,
    subject: { organization: 'demo', organizationalUnit: 'databases', country: 'US', state: 'California', locality: 'San Francisco' },
    rotations,
  });

  const database = new TlsDatabaseCluster(chart, 'basic-database', {
    clusterName: 'basic',
    version: 'v4.0.5',
    operatorVersion: 'v1.2.0',
    certificates: certs,
    coordinator: { baseImage: `${REGISTRY}/coordinator`, storage: '10Gi', replicas: replicas.coordinator },
    store: { baseImage: `${REGISTRY}/store`, storage: '100Gi', replicas: replicas.store },
    sqlserver: { baseImage: `${REGISTRY}/sqlserver`, replicas: replicas.sqlserver },
    pump: { baseImage: `${REGISTRY}/pump`, storage: '20Gi' },
    // The changefeed writes to a downstream database over TLS with that database's client certificate.
    changefeed: { baseImage: `${REGISTRY}/changefeed`, sinkTlsSecretNames: ['basic-sink-tls'] },
    columnar: { baseImage: `${REGISTRY}/columnar`, storageClaims: [{ storage: '100Gi' }] },
    enablement,
    // Applications reach the SQL server over TLS, each with a client certificate of its own,
    // signed by a CA that is not the components'.
    tlsClient: {},
  });
  // Alerts before any certificate of the plan expires: a PrometheusRule for the cluster's
  // Prometheus, and the same rules in the operator's monitor.
  const expiry = certs.watchExpiry();
  database.addMonitor({
    initializer: { baseImage: `${REGISTRY}/monitor-initializer`, version: 'v4.0.5' },
    reloader: { baseImage: `${REGISTRY}/monitor-reloader`, version: 'v1.0.1' },
    expiryWatch: expiry,
  });

  // One upstream MySQL source; the database cluster above is the target. Each is reached with its
  // own client certificate Secret.
  if (enablement === undefined) {
    addMigration(chart, certs, database);
  }

  // The drainer, installed with its chart. No drainerName is set, so its certificate's host names
  // follow the release name: *.basic-binlog-drainer…
  new DrainerRelease(chart, 'basic-drainer', {
    cluster: database,
    releaseName: 'binlog',
    chart: { repository: 'https://charts.example.com/stable', version: '1.1.5' },
  });

  // A backup and a restore: one-off operations, which the operator starts as soon as their objects
  // are created. They go to cluster-tls/, never to dist/, and the cluster's runbook creates them
  // when they are wanted. The restore loads data with the importer and lightning components,
  // whose certificates it adds.
  const storage = {
    s3: { provider: 'aws', region: 'us-west-2', bucket: 'basic-backups', secretName: 'basic-s3-credentials' },
    credentialsSecretName: 'basic-backup-credentials',
    user: 'backup',
  };
  new BackupRestore(chart, 'basic-backup', { cluster: database, backup: {}, ...storage });
  new BackupRestore(chart, 'basic-restore', { cluster: database, restore: {}, ...storage });
}

/** The migration cluster "basic", copying one upstream MySQL source into the database cluster. */
function addMigration(chart: Chart, certs: ClusterCertificates, database: TlsDatabaseCluster): void {
  new TlsMigrationCluster(chart, 'basic-migration', {
    clusterName: 'basic',
    version: 'v2.0.7',
    operatorVersion: 'v1.2.0',
    certificates: certs,
    master: { baseImage: `${REGISTRY}/migration` },
    worker: { baseImage: `${REGISTRY}/migration` },
    sources: [
      { sourceId: 'source1', host: 'mysql.example.com', port: 3306, user: 'root', tlsSecretName: 'basic-source1-tls' },
    ],
    // The migration is an application of the database: with no tlsSecretName, the library issues
    // it a client certificate of its own (database.addSqlClient('basic-migration')), for the user
    // the runbook ties to that certificate.
    target: { database, user: 'basic-migration' },
    task: { name: 'basic-migration' },
  });
}

/** Builds the reference app. */
export function buildApp(outdir?: string, rotations: CertificateRotation[] = referenceRotations(), enablement = referenceEnablement()): App {
  const app = new App({ outdir });
  addDeployment(app, 'demo', IssuingMethod.CERT_MANAGER, rotations, enablement);
  addDeployment(app, 'demo-cfssl', IssuingMethod.CFSSL, rotations, enablement);
  return app;
}

if (require.main === module) {
  // Always dist/, whoever runs it: the cdk8s CLI deletes its own output folder (cdk8s.yaml's
  // `output`) before it runs the app, so it gets a copy of the manifests instead.
  const outdir = process.env[ROTATION_PHASE_ENV] ? 'build/rotation/dist' : process.env[ENABLEMENT_PHASE_ENV] ? 'build/enablement/dist' : 'dist';
  synthesizeOrExit(() => buildApp(), { outdir });
}
