/**
 * How the library makes its cert-manager objects: each holds the Secrets and issuers its props
 * name when it is made, and nothing an escape hatch adds later (see `model/trust.ts`).
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { grantOwnReferences } from '../model/trust-grants';

/**
 * Creates one of the library's cert-manager objects under `scope`, holding the Secrets and issuers
 * its props name (see `grantOwnReferences`): what an escape hatch makes it name later is judged as
 * any object's reference. `clusterResourceNamespaces` is where a ClusterIssuer's Secrets live.
 */
export function certManagerObject<P extends { readonly metadata?: { readonly namespace?: string } }, T extends ApiObject>(
  make: new (scope: Construct, id: string, props: P) => T, scope: Construct, id: string, props: P, clusterResourceNamespaces: readonly string[] = []): T {
  const object = new make(scope, id, props);
  grantOwnReferences(object, { kind: object.kind, ...props }, props.metadata?.namespace, clusterResourceNamespaces);
  return object;
}
