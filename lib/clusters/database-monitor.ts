/**
 * The `DatabaseMonitor` construct: the operator's monitor of a database cluster.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { IDatabaseEndpoint, isDatabaseEndpoint } from './endpoints';
import { ExpiryWatch } from '../certificates/expiry-watch';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import { compact, operatorObject } from './operator';
import { requireDnsLabel, requireImageName } from '../model/validate';
import { PropShape, ShapeOf, checkProps, constructOf, declareShape, objectOf, oneOf } from '../model/props';

/** When the monitor's images are pulled. */
export enum MonitorImagePullPolicy {
  /** Only when missing on the node (the specification's value). */
  IF_NOT_PRESENT = 'IfNotPresent',
  /** At every start. */
  ALWAYS = 'Always',
  /** Never; the image must be on the node. */
  NEVER = 'Never',
}

/** An image of the monitor, by name and tag. */
export interface MonitorImage {
  /** Image name without tag. */
  readonly baseImage: string;
  /** Image tag. */
  readonly version: string;
}

/** Settings of a {@link DatabaseMonitor}, as {@link TlsDatabaseCluster.addMonitor} takes them. */
export interface DatabaseMonitorOptions {
  /**
   * `metadata.name` of the monitor.
   * @default `${cluster_name}-monitor` of the first cluster
   */
  readonly name?: string;
  /**
   * The Prometheus image.
   * @default { baseImage: 'prom/prometheus', version: 'v2.53.1' }
   */
  readonly prometheus?: MonitorImage;
  /**
   * The Grafana image.
   * @default { baseImage: 'grafana/grafana', version: '10.4.5' }
   */
  readonly grafana?: MonitorImage;
  /**
   * The image that loads dashboards and rules for the cluster version. The operator's
   * `DatabaseMonitor` requires it, and no version fits every cluster, so there is no default.
   */
  readonly initializer: MonitorImage;
  /** The image that reloads the Prometheus configuration; the operator requires it. */
  readonly reloader: MonitorImage;
  /**
   * Image pull policy.
   * @default MonitorImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: MonitorImagePullPolicy;
  /**
   * The expiry alerts of the cluster's certificates (`ClusterCertificates.watchExpiry()`), loaded
   * into the monitor's Prometheus as a rules ConfigMap (`spec.prometheus.config.ruleConfigRef`).
   * The monitor's Prometheus scrapes the cluster's components only: for the alerts to see the
   * certificates, cert-manager's or the exporter's metrics must reach it too, which the
   * metrics-missing alert says until they do.
   * @default - no rules beyond the operator's
   */
  readonly expiryWatch?: ExpiryWatch;
}

/** Props of {@link DatabaseMonitor}. */
export interface DatabaseMonitorProps extends DatabaseMonitorOptions {
  /** The monitored clusters; the monitor runs in the namespace of the first. */
  readonly clusters: IDatabaseEndpoint[];
}

/** Default Prometheus image, pinned. */
export const DEFAULT_PROMETHEUS: MonitorImage = { baseImage: 'prom/prometheus', version: 'v2.53.1' };
/** Default Grafana image, pinned. */
export const DEFAULT_GRAFANA: MonitorImage = { baseImage: 'grafana/grafana', version: '10.4.5' };

const IMAGE: PropShape = { baseImage: 'string', version: 'string' };

/**
 * The options of a monitor ({@link DatabaseMonitorOptions}), as JavaScript types.
 * @internal
 */
export const DATABASE_MONITOR_OPTIONS_SHAPE = {
  name: 'string?',
  prometheus: objectOf(IMAGE),
  grafana: objectOf(IMAGE),
  initializer: objectOf(IMAGE, false, 'the initializer image as { baseImage, version }: the operator\'s DatabaseMonitor requires it'),
  reloader: objectOf(IMAGE, false, 'the reloader image as { baseImage, version }: the operator\'s DatabaseMonitor requires it'),
  imagePullPolicy: oneOf(Object.values(MonitorImagePullPolicy)),
  expiryWatch: constructOf((w) => w instanceof ExpiryWatch, 'an ExpiryWatch, as ClusterCertificates.watchExpiry() returns it', true),
} satisfies ShapeOf<DatabaseMonitorOptions>;

/** The props of a monitor, as JavaScript types. */
const DATABASE_MONITOR_SHAPE = declareShape('DatabaseMonitor', {
  ...DATABASE_MONITOR_OPTIONS_SHAPE,
  clusters: { type: 'list', itemIs: isDatabaseEndpoint, expected: 'a list of database clusters: [cluster, …], each a TlsDatabaseCluster or another database endpoint', itemExpected: 'a database endpoint, such as a TlsDatabaseCluster' },
} satisfies ShapeOf<DatabaseMonitorProps>);


/** A `DatabaseMonitor` for one or more database clusters (specification section C, step 3). */
export class DatabaseMonitor extends Construct {
  /** The monitor's name. */
  public readonly name: string;
  /** The namespace. */
  public readonly namespace: string;
  /** The `DatabaseMonitor` object. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: DatabaseMonitorProps) {
    super(scope, id);
    props = checkProps(this, props, DATABASE_MONITOR_SHAPE);
    const first = props.clusters[0];
    if (!first) {
      inputError(this, 'clusters', props.clusters, 'at least one database cluster');
    }
    const watch = props.expiryWatch;
    if (watch && !props.clusters.some((c) => c.clusterName === watch.clusterName && c.namespace === watch.namespace)) {
      inputError(this, 'expiryWatch', `${watch.namespace}/${watch.clusterName}`, 'the expiry watch of a cluster the monitor monitors: its rules name that cluster\'s certificates');
    }
    this.name = props.name ?? names.monitorName(first.clusterName);
    requireDnsLabel(this, 'name', this.name);
    this.namespace = first.namespace;
    for (const [field, image] of Object.entries({ prometheus: props.prometheus, grafana: props.grafana, initializer: props.initializer, reloader: props.reloader })) {
      if (image && (typeof image !== 'object' || !image.baseImage || !image.version || image.version === 'latest')) {
        inputError(this, field, image, 'a baseImage and a pinned version other than "latest"');
      }
      if (image) {
        requireImageName(this, `${field}.baseImage`, image.baseImage);
      }
    }
    this.resource = operatorObject(this, {
      kind: 'DatabaseMonitor',
      name: this.name,
      namespace: this.namespace,
      spec: compact({
        clusters: props.clusters.map((c) => ({ name: c.clusterName, namespace: c.namespace === this.namespace ? undefined : c.namespace })),
        prometheus: { ...(props.prometheus ?? DEFAULT_PROMETHEUS), config: props.expiryWatch && { ruleConfigRef: ruleConfigRef(props.expiryWatch, this.namespace) } },
        grafana: props.grafana ?? DEFAULT_GRAFANA,
        initializer: props.initializer,
        reloader: props.reloader,
        imagePullPolicy: props.imagePullPolicy ?? MonitorImagePullPolicy.IF_NOT_PRESENT,
      }),
    });
  }
}

/** Where the monitor finds the rules of an expiry watch: its ConfigMap, with its namespace when not the monitor's. */
function ruleConfigRef(watch: ExpiryWatch, namespace: string): { name: string; namespace?: string } {
  const name = watch.addRulesConfigMap();
  return watch.namespace === namespace ? { name } : { name, namespace: watch.namespace };
}
