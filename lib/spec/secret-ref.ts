/**
 * Secrets given to and taken from the constructs the way cdk8s-plus works with them: a prop that
 * names a Secret also takes a `kplus.ISecret`, and the constructs hand out their certificate
 * Secrets as `kplus.ISecret`s, which a cdk8s-plus workload mounts with `Volume.fromSecret`.
 *
 * cdk8s-plus-27 is loaded only when a Secret is handed out, so an app that never asks pays nothing
 * for it at start-up.
 */
import type * as kplus from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { PropSpec, isConstruct } from './props';

/** A Secret, by its name or as a cdk8s-plus `ISecret` (`kplus.Secret.fromSecretName`, or a `kplus.Secret`). */
export type SecretRef = string | kplus.ISecret;

/** What a message says a {@link SecretRef} prop expects. */
const EXPECTED = 'a Secret name or a cdk8s-plus ISecret';

/** Whether a value is a {@link SecretRef}: a string, or a construct with a string `name`. */
export function isSecretRef(value: unknown): value is SecretRef {
  return typeof value === 'string' || (isConstruct(value) && typeof (value as { name?: unknown }).name === 'string');
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
  return { type: 'list', optional, itemIs: isSecretRef, expected: `a list of ${EXPECTED}s`, itemExpected: EXPECTED };
}

/**
 * The Secret of the given name as a cdk8s-plus `ISecret`, made once per name under `scope` (a
 * construct of no output: it writes nothing).
 */
export function importedSecret(scope: Construct, name: string): kplus.ISecret {
  const id = `Secret-${name}`;
  const existing = scope.node.tryFindChild(id);
  if (existing) {
    return existing as unknown as kplus.ISecret;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const plus: typeof kplus = require('cdk8s-plus-27');
  return plus.Secret.fromSecretName(scope, id, name);
}
