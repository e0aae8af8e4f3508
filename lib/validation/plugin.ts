/**
 * The cdk8s validation plugin of the library: `cdk8s synth` runs it on the manifests it
 * synthesized when `cdk8s.yaml` lists it, and fails the synth (exit code 2) with a report of every
 * violation of the library's rules ({@link checkManifests}), whoever wrote the manifests.
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/cdk8s-cluster-tls
 *     version: 0.1.0
 *     class: ClusterTlsValidation
 * ```
 *
 * The plugin contract is cdk8s-cli's (`Validation` in `cdk8s-cli/lib/plugins/validation`); it is
 * written here by shape, so that the package does not depend on the CLI.
 */
import * as YAML from 'yaml';
import { READ_LIMITS, readBounded } from '../model/bounded-read';
import { ClusterTlsError, oneLine } from '../model/errors';
import { ManifestObject, ManifestRule, checkManifests } from './rules';

/**
 * What the plugin uses of the report cdk8s-cli gives it.
 * @jsii ignore
 */
export interface ValidationReportLike {
  /** Adds one violation of a rule, with the resources that break it. */
  addViolation(violation: {
    readonly ruleName: string;
    readonly recommendation: string;
    readonly fix: string;
    readonly violatingResources: readonly { readonly resourceName: string; readonly locations: readonly string[]; readonly manifestPath: string }[];
  }): void;
  /** Ends the report with its status. */
  submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
}

/**
 * What the plugin uses of the context cdk8s-cli gives it.
 * @jsii ignore
 */
export interface ValidationContextLike {
  /** The manifest files to check. */
  readonly manifests: readonly string[];
  /** The report to fill. */
  readonly report: ValidationReportLike;
}

/**
 * Reads every object of the manifest files as `kubectl apply` reads them (empty documents skipped):
 * YAML 1.1, as its reader (go-yaml, through sigs.k8s.io/yaml) takes it, with its booleans (`yes`,
 * `on`, `y`) and merge keys (`<<`). A file that is not YAML, or whose aliases expand past a
 * hundred (an alias bomb), is refused with one line naming it.
 */
export function readManifests(paths: readonly string[]): ManifestObject[] {
  return paths.flatMap((manifestPath) => YAML.parseAllDocuments(readBounded(manifestPath, READ_LIMITS.outputFile), { version: '1.1' }).flatMap((document) => {
    const [error] = document.errors;
    if (error) {
      throw new ClusterTlsError(`${manifestPath}: received a file that is not YAML (${oneLine(error.message)}); expected Kubernetes manifests`);
    }
    let object: unknown;
    try {
      object = document.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (e) {
      // yaml's refusal of aliases that expand past the count: no manifest of the library's has any.
      throw new ClusterTlsError(`${manifestPath}: received YAML whose aliases expand past ${MAX_ALIASES} (${oneLine(String((e as Error).message))}); expected Kubernetes manifests`);
    }
    return object === null || object === undefined ? [] : [{ manifestPath, object }];
  }));
}

/** How far a manifest's aliases may expand before it is taken for an alias bomb. */
const MAX_ALIASES = 100;

/**
 * The library's rules as a cdk8s validation plugin (`validations:` in `cdk8s.yaml`, class
 * `ClusterTlsValidation`). It takes no properties.
 * @jsii ignore
 */
export class ClusterTlsValidation {
  /** cdk8s-cli passes the entry's `properties`; the plugin has none. */
  public constructor(_properties: Record<string, unknown> = {}) {}

  /** Checks the manifests and reports each violation: one per rule and object, at its field. */
  public async validate(context: ValidationContextLike): Promise<void> {
    const violations = checkManifests(readManifests(context.manifests));
    for (const v of violations) {
      context.report.addViolation({
        ruleName: v.rule,
        recommendation: `${v.resource}: ${v.message}`,
        fix: v.fix,
        violatingResources: [{ resourceName: v.name, locations: [v.field], manifestPath: v.manifestPath }],
      });
    }
    context.report.submit(violations.length === 0 ? 'success' : 'failure', {
      'rules checked': Object.values(ManifestRule).join(', '),
      'violations': String(violations.length),
    });
  }
}
