/**
 * Settings read from the app's context: the operator's API group and the restart annotation key.
 */
import { IConstruct } from 'constructs';
import { inputError } from './errors';
import { isDnsSubdomain } from './validate';

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
  const group: unknown = apiGroup ?? scope.node.tryGetContext(API_GROUP_CONTEXT) ?? DEFAULT_API_GROUP;
  if (typeof group !== 'string' || !isDnsSubdomain(group) || !group.includes('.')) {
    inputError(scope, `context ${API_GROUP_CONTEXT}`, group, 'an API group: a DNS subdomain with at least one dot, such as "example.org"');
  }
  return group;
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
  const key: unknown = scope.node.tryGetContext(RESTART_ANNOTATION_CONTEXT) ?? `${operatorApiGroup(scope)}/${RESTART_ANNOTATION_NAME}`;
  const [prefix, name, more] = typeof key === 'string' ? key.split('/') : [];
  const qualifiedName = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
  if (typeof key !== 'string' || more !== undefined || !(name === undefined ? qualifiedName.test(prefix) : isDnsSubdomain(prefix) && qualifiedName.test(name))) {
    inputError(scope, `context ${RESTART_ANNOTATION_CONTEXT}`, key, 'an annotation key such as "example.org/restartedAt"');
  }
  return key;
}
