/**
 * Secrets given to the constructs the way cdk8s-plus works with them: a prop that names a Secret
 * also takes an `ISecret` of any cdk8s-plus major from 27 (the constructs hand out their own
 * certificate Secrets as `ISecret`s too; see `ClusterCertificates.clientSecret`).
 */
import type * as kplus from 'cdk8s-plus-27';
import type { Construct, IConstruct } from 'constructs';
import { ApiObject } from 'cdk8s';
import { Description, inputError } from './errors';
import { PropSpec, isConstruct } from './props';

/**
 * What the constructs read of a cdk8s-plus `ISecret`: its name and its kind. Every major's
 * `ISecret` (`cdk8s-plus-27` to `cdk8s-plus-34`) has both, so an app on any of them passes its own.
 */
export interface ISecretLike extends IConstruct {
  /** The Secret's name in Kubernetes. */
  readonly name: string;
  /** The object's kind: `Secret`. */
  readonly kind: string;
}

/**
 * The earlier name of {@link ISecretLike}, kept for apps written before jsii required the `I`.
 * @deprecated use {@link ISecretLike}
 */
export type SecretLike = ISecretLike;

/**
 * A Secret, by its name or as a cdk8s-plus `ISecret` of any major (`kplus.Secret.fromSecretName`, or
 * a `kplus.Secret`). cdk8s-plus-27's `ISecret` is named apart from {@link ISecretLike}, which it
 * matches: Java takes a value of a union only as one of the types the union names, so a Java app
 * passes the `ISecret` the constructs hand out (`clientSecret()`) or makes with cdk8s-plus-27.
 */
export type SecretRef = string | ISecretLike | kplus.ISecret;

/**
 * A cdk8s-plus package, any major from 27, as `import * as kplus from 'cdk8s-plus-34'` gives it:
 * what the constructs use of it to hand out a Secret as that package's `ISecret`.
 * @jsii ignore
 */
export interface CdkPlusPackage<S> {
  /** The package's `Secret` class. */
  readonly Secret: {
    /** Refers to an existing Secret by its name, as an `ISecret` under `scope` with the construct id `id`. */
    fromSecretName(scope: Construct, id: string, name: string): S;
  };
}

/** What a message says a {@link SecretRef} prop expects. */
const EXPECTED = 'a Secret name or a cdk8s-plus ISecret';

/** Whether a value is a {@link SecretRef}: a string, or a construct of kind `Secret` with a string `name`. */
export function isSecretRef(value: unknown): value is SecretRef {
  if (typeof value === 'string') {
    return true;
  }
  const secret = value as { kind?: unknown; name?: unknown };
  return isConstruct(value) && secret.kind === 'Secret' && typeof secret.name === 'string';
}

/** The name of the Secret a {@link SecretRef} refers to. */
export function secretRefName(ref: SecretRef): string {
  return typeof ref === 'string' ? ref : ref.name;
}

/**
 * The name of the Secret a {@link SecretRef} refers to, for pods of `namespace` to load. Throws when
 * it is a Secret the app declares (a cdk8s-plus `Secret`, not one imported by name) in another
 * namespace: a pod loads Secrets of its own namespace only, and would find none there, or another.
 */
export function secretRefIn(scope: IConstruct, field: string, ref: SecretRef, namespace: string): string {
  const name = secretRefName(ref);
  if (typeof ref === 'string') {
    return name;
  }
  const declared = ref.node.tryFindChild('Resource');
  if (!ApiObject.isApiObject(declared)) {
    return name;
  }
  const declaredIn = declared.metadata.namespace;
  if (declaredIn !== namespace || ref.node.root !== scope.node.root) {
    const where = ref.node.root !== scope.node.root ? 'in another app'
      : declaredIn === undefined ? 'with no namespace, which kubectl applies wherever its context or -n points' : `in namespace "${declaredIn}"`;
    inputError(scope, field, new Description(`the Secret "${name}" that ${ref.node.path} declares ${where}`),
      `a Secret of namespace "${namespace}" in this app, where the pods that load it read it: declare it in a chart of that namespace, or refer to it by name`);
  }
  return name;
}

/** The prop spec of a {@link SecretRef}. */
export function secretRef(optional = true): PropSpec {
  return { type: 'value', optional, is: isSecretRef, expected: EXPECTED, example: 'orders-tls' };
}

/** The prop spec of a list of {@link SecretRef}s. */
export function secretRefs(optional = true): PropSpec {
  return { type: 'list', optional, itemIs: isSecretRef, expected: 'a list of Secret names or cdk8s-plus ISecrets', itemExpected: EXPECTED };
}
