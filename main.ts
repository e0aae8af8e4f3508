/**
 * The reference app: what `npm run synth` writes to dist/, and the example to copy.
 */
import { App, Chart } from 'cdk8s';
import { ClusterCertificates, synthesizeOrExit } from './lib';

/** Builds the reference app. */
export function buildApp(outdir?: string): App {
  const app = new App({ outdir });

  // Namespace "demo": the database cluster "basic" and the migration cluster "basic",
  // certificates issued by cert-manager.
  const demo = new Chart(app, 'demo', { namespace: 'demo' });
  new ClusterCertificates(demo, 'basic-certificates', {
    clusterName: 'basic',
    subject: { organization: 'demo' },
    components: [
      'coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning',
      'mig-master', 'mig-worker',
    ],
  });

  return app;
}

if (require.main === module) {
  synthesizeOrExit(() => buildApp());
}
