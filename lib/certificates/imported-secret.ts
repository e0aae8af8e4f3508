/**
 * The cluster's Secrets handed out as cdk8s-plus `ISecret`s (`serverSecret`, `clientSecret`):
 * one construct per package and name, which writes nothing.
 */
import { Construct } from 'constructs';
import { describeType, inputError } from '../model/errors';
import type { CdkPlusPackage } from '../model/secret-ref';

/** The Secrets handed out, per scope, per cdk8s-plus package given (`undefined`: the default), by name. */
const handedOut = new WeakMap<Construct, Map<CdkPlusPackage<unknown> | undefined, Map<string, unknown>>>();

/**
 * The Secret of the given name as an `ISecret` of the cdk8s-plus package given, or of
 * cdk8s-plus-27 (the design's default), made once per package and name under `scope` (a construct
 * of no output: it writes nothing). The default package's Secret has the id `Secret-<name>`
 * whatever was asked before it; each package given has a number by its first use. cdk8s-plus-27
 * is loaded here, on first use, so a synth that hands out no Secret does not pay for loading it.
 */
export function importedSecret<S>(scope: Construct, name: string, plus?: CdkPlusPackage<S>): S {
  if (plus !== undefined && typeof (plus as Partial<CdkPlusPackage<S>>)?.Secret?.fromSecretName !== 'function') {
    inputError(scope, 'plus', describeType(plus), 'a cdk8s-plus package, any major from 27, as import * as kplus from \'cdk8s-plus-34\' gives it (with Secret.fromSecretName)');
  }
  const byPackage = handedOut.get(scope) ?? new Map<CdkPlusPackage<unknown> | undefined, Map<string, unknown>>();
  handedOut.set(scope, byPackage);
  const byName = byPackage.get(plus) ?? new Map<string, unknown>();
  byPackage.set(plus, byName);
  if (!byName.has(name)) {
    const pkg: CdkPlusPackage<unknown> = plus ?? require('cdk8s-plus-27');
    const given = [...byPackage.keys()].filter((p) => p !== undefined);
    const id = plus === undefined ? `Secret-${name}` : `Secret-${given.indexOf(plus) + 1}-${name}`;
    byName.set(name, pkg.Secret.fromSecretName(scope, id, name));
  }
  return byName.get(name) as S;
}
