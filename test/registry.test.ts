/**
 * The registry (lib/app/registry.ts) runs the library's synthesis on stock `app.synth()` once
 * synth/synthesize.ts has handed it over, which the package's entry point makes sure of. A module
 * that loads the constructs alone, past the entry point, gets a fault that says so instead of
 * manifests written without their files. This file imports no module of lib/synth/ on purpose.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';

test('app.synth() without the synthesis loaded names the entry point, and writes nothing', () => {
  const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-registry-')), 'dist');
  const app = new App({ outdir });
  new ClusterCertificates(new Chart(app, 'orders', { namespace: 'orders' }), 'certificates', { clusterName: 'orders', components: ['store'] });
  expect(() => app.synth()).toThrow('cdk8s-cluster-tls: the library\'s synthesis is not loaded: import the library from its package (\'cdk8s-cluster-tls\'), whose entry point loads it');
  expect(fs.existsSync(outdir)).toBe(false);
});
