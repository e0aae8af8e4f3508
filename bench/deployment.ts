/**
 * One complete deployment of the library, as a platform with one chart per tenant declares it:
 * the benchmark synthesizes N of them, and the equivalence test checks them against stock cdk8s.
 */
import { App, AppProps } from 'cdk8s';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { MANIFESTS_ONLY_CONTEXT } from '../lib/app/registry';
import { addDeployment } from '../main';

/** The namespace (and chart id) of tenant `i`. */
export function tenantNamespace(i: number): string {
  return `tenant-${i}`;
}

/**
 * Adds tenant `i` to `app`: the reference app's deployment (`addDeployment` of main.ts, with
 * cert-manager) in namespace `tenant-<i>`: a chart with the certificates, the database cluster
 * with changefeed and columnar, its monitor, the migration cluster and the drainer release, and
 * the backup and the restore in charts of their own.
 */
export function addTenant(app: App, i: number): void {
  addDeployment(app, tenantNamespace(i), IssuingMethod.CERT_MANAGER);
}

/**
 * An app of `n` tenants, tenant 0 first. `props` are the app's; `manifestsOnly` lets stock
 * `app.synth()` write its manifests (the library refuses it otherwise).
 */
export function buildDeployments(n: number, outdir?: string, props: AppProps = {}, manifestsOnly = false): App {
  const app = new App({ ...props, outdir });
  if (manifestsOnly) {
    app.node.setContext(MANIFESTS_ONLY_CONTEXT, true);
  }
  for (let i = 0; i < n; i++) {
    addTenant(app, i);
  }
  return app;
}

/** An app of tenant `i` alone. */
export function buildTenant(i: number): App {
  const app = new App();
  addTenant(app, i);
  return app;
}

/** A tenant index with a long namespace, to check that the floor holds for long names too. */
export const LONG_TENANT = 123456789012;
