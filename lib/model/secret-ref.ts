/**
 * Secrets given to the constructs the way cdk8s-plus works with them: a prop that names a Secret
 * also takes a `kplus.ISecret` (the constructs hand out their own certificate Secrets as
 * `kplus.ISecret`s too; see `ClusterCertificates.clientSecret`).
 */
import type * as kplus from 'cdk8s-plus-27';
import { PropSpec, isConstruct } from './props';

/** A Secret, by its name or as a cdk8s-plus `ISecret` (`kplus.Secret.fromSecretName`, or a `kplus.Secret`). */
export type SecretRef = string | kplus.ISecret;

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

/** The prop spec of a {@link SecretRef}. */
export function secretRef(optional = true): PropSpec {
  return { type: 'value', optional, is: isSecretRef, expected: EXPECTED };
}

/** The prop spec of a list of {@link SecretRef}s. */
export function secretRefs(optional = true): PropSpec {
  return { type: 'list', optional, itemIs: isSecretRef, expected: 'a list of Secret names or cdk8s-plus ISecrets', itemExpected: EXPECTED };
}
