/**
 * Objects of the operator's custom resources, with the API group taken from the settings.
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { operatorApiVersion } from '../model/settings';
import { grantClusterTrust, grantOwnReferences } from '../model/trust-grants';

/** What every operator object needs. */
export interface OperatorObjectProps {
  /** The resource kind (`DatabaseCluster`, `MigrationCluster`, `DatabaseMonitor`, `Backup`, `Restore`). */
  readonly kind: string;
  /** `metadata.name`. */
  readonly name: string;
  /** `metadata.namespace`. */
  readonly namespace: string;
  /** The spec, complete, in the JSON spelling of the CRD. */
  readonly spec: Record<string, unknown>;
  /** The API group; the app's setting when not given. */
  readonly apiGroup?: string;
  /**
   * Finishes the object's JSON once cdk8s has rendered it, escape hatches applied: the place for a
   * form the operator needs that a user's JSON patch should not have to spell (configurations as
   * TOML documents).
   * @default - the JSON as rendered
   */
  readonly finish?: (json: any) => any;
}

/** An operator object whose JSON is finished after cdk8s renders it (escape hatches applied). */
class FinishedApiObject extends ApiObject {
  constructor(scope: Construct, id: string, props: ConstructorParameters<typeof ApiObject>[2], private readonly finish: (json: any) => any) {
    super(scope, id, props);
  }

  public toJson(): any {
    return this.finish(super.toJson());
  }
}

/**
 * Creates one object of the operator's custom resources under `scope` with the id `Resource`.
 * The spec is handed over complete; nothing mutates it afterwards. The object holds the Secrets its
 * spec names (see `grantOwnReferences`); `cluster`, for a cluster resource, makes it hold the
 * cluster's own certificates too, which the operator mounts on its pods.
 */
export function operatorObject(scope: Construct, props: OperatorObjectProps, cluster?: string): ApiObject {
  const objectProps = operatorManifest(scope, props);
  const object = props.finish ? new FinishedApiObject(scope, 'Resource', objectProps, props.finish) : new ApiObject(scope, 'Resource', objectProps);
  grantOwnReferences(object, objectProps, props.namespace);
  if (cluster !== undefined) {
    grantClusterTrust(object, 'operator', cluster);
  }
  return object;
}

/**
 * The manifest of one object of the operator's custom resources, as plain data: for an object
 * written to a file of its own rather than declared in a chart (a one-off Backup or Restore).
 */
export function operatorManifest(scope: IConstruct, props: Pick<OperatorObjectProps, 'kind' | 'name' | 'namespace' | 'spec' | 'apiGroup'>) {
  return {
    apiVersion: operatorApiVersion(scope, props.apiGroup),
    kind: props.kind,
    metadata: { name: props.name, namespace: props.namespace },
    spec: props.spec,
  };
}

/** Removes `undefined` values from an object, recursively, so the YAML holds only what was set. */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map(compact) as T;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) {
        out[k] = compact(v);
      }
    }
    return out as T;
  }
  return value;
}

/**
 * Makes `source` be applied after `target` when both sit in the same chart, and does nothing
 * otherwise. Between charts the order is the order their manifest files are applied in: a
 * dependency across charts would make cdk8s prefix every manifest file with a number
 * (`0000-<chart>.k8s.yaml`), renaming the files the runbooks point to.
 */
export function dependWithinChart(source: IConstruct, target: IConstruct): void {
  if (Chart.of(source) === Chart.of(target)) {
    source.node.addDependency(target);
  }
}
