import { IConstruct } from 'constructs';

/**
 * The API group of the operator's custom resources (the specification's `{api_group}`) when
 * nothing else is set. The CRDs in `crds/operator/` use it.
 */
export const DEFAULT_API_GROUP = 'db.operator.io';

/** The API version of the operator's custom resources. */
export const OPERATOR_API_VERSION = 'v1alpha1';

/**
 * Context key that sets the operator's API group for a whole app or a subtree:
 * `app.node.setContext(API_GROUP_CONTEXT, 'example.org')` before adding constructs.
 */
export const API_GROUP_CONTEXT = 'cdk8s-cluster-tls:apiGroup';

/** The `apiVersion` of the operator's resources under `scope`: `<group>/v1alpha1`. */
export function operatorApiVersion(scope: IConstruct, apiGroup?: string): string {
  const group = apiGroup ?? (scope.node.tryGetContext(API_GROUP_CONTEXT) as string | undefined) ?? DEFAULT_API_GROUP;
  return `${group}/${OPERATOR_API_VERSION}`;
}
