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

/** The API group of the operator's resources under `scope`. */
export function operatorApiGroup(scope: IConstruct, apiGroup?: string): string {
  return apiGroup ?? (scope.node.tryGetContext(API_GROUP_CONTEXT) as string | undefined) ?? DEFAULT_API_GROUP;
}

/** The `apiVersion` of the operator's resources under `scope`: `<group>/v1alpha1`. */
export function operatorApiVersion(scope: IConstruct, apiGroup?: string): string {
  return `${operatorApiGroup(scope, apiGroup)}/${OPERATOR_API_VERSION}`;
}

/**
 * Context key that sets the annotation the operator watches to restart a component's pods one at a
 * time (`spec.<component>.annotations["<key>"] = <timestamp>`), for an operator built with another key.
 */
export const RESTART_ANNOTATION_CONTEXT = 'cdk8s-cluster-tls:restartAnnotation';

/** The name part of the operator's restart annotation, below its API group. */
export const RESTART_ANNOTATION_NAME = 'restartedAt';

/**
 * The annotation key of a graceful rolling restart under `scope`: the context value when set, else
 * `<api group>/restartedAt`, the real operator's key (`db.operator.io/restartedAt` by default).
 */
export function restartAnnotationKey(scope: IConstruct): string {
  return (scope.node.tryGetContext(RESTART_ANNOTATION_CONTEXT) as string | undefined) ?? `${operatorApiGroup(scope)}/${RESTART_ANNOTATION_NAME}`;
}
