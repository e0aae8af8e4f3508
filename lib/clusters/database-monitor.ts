/**
 * The `DatabaseMonitor` construct: the operator's monitor of a database cluster.
 */
import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { IDatabaseEndpoint, isDatabaseEndpoint } from './endpoints';
import { ExpiryWatch } from '../certificates/expiry-watch';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import { compact, operatorObject } from './operator';
import { requireImageName } from '../model/validate';
import { ShapeOf, checkProps, constructOf, declareShape, objectOf, oneOf, withRules } from '../model/props';

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

/** An image of the monitor: its repository and a pinned version (`pinnedImage`). */
const IMAGE = withRules({ baseImage: { type: 'string', example: 'prom/prometheus' }, version: { type: 'string', example: 'v2.53.1' } } satisfies ShapeOf<MonitorImage>, [pinnedImage]);

/** Refuses an image without its repository or a pinned version, or whose repository is no image name. */
function pinnedImage(scope: IConstruct | string, image: MonitorImage, at: string): void {
  if (!image.baseImage || !image.version || image.version === 'latest') {
    inputError(scope, at.slice(0, -1), image, 'a baseImage and a pinned version other than "latest"');
  }
  requireImageName(scope, `${at}baseImage`, image.baseImage);
}

/**
 * The options of a monitor ({@link DatabaseMonitorOptions}), as JavaScript types.
 * @internal
 */
export const DATABASE_MONITOR_OPTIONS_SHAPE = declareShape('TlsDatabaseCluster.addMonitor', {
  name: { type: 'string', optional: true, rule: 'dnsLabel' },
  prometheus: { ...objectOf(IMAGE), default: DEFAULT_PROMETHEUS },
  grafana: { ...objectOf(IMAGE), default: DEFAULT_GRAFANA },
  initializer: objectOf(IMAGE, false, 'the initializer image as { baseImage, version }: the operator\'s DatabaseMonitor requires it'),
  reloader: objectOf(IMAGE, false, 'the reloader image as { baseImage, version }: the operator\'s DatabaseMonitor requires it'),
  imagePullPolicy: { ...oneOf(Object.values(MonitorImagePullPolicy)), default: MonitorImagePullPolicy.IF_NOT_PRESENT },
  expiryWatch: constructOf((w) => w instanceof ExpiryWatch, 'an ExpiryWatch, as ClusterCertificates.watchExpiry() returns it', true),
} satisfies ShapeOf<DatabaseMonitorOptions>);

/**
 * The props of a monitor: the clusters first, whose first names the monitor when `name` is left
 * out; across them, at least one cluster, and the expiry watch one of theirs.
 */
const DATABASE_MONITOR_SHAPE = declareShape('DatabaseMonitor', withRules({
  clusters: { type: 'list', itemIs: isDatabaseEndpoint, expected: 'a list of database clusters: [cluster, …], each a TlsDatabaseCluster or another database endpoint', itemExpected: 'a database endpoint, such as a TlsDatabaseCluster' },
  ...DATABASE_MONITOR_OPTIONS_SHAPE,
  name: { ...DATABASE_MONITOR_OPTIONS_SHAPE.name, default: (props: DatabaseMonitorProps) => props.clusters[0] && names.monitorName(props.clusters[0].clusterName) },
} satisfies ShapeOf<DatabaseMonitorProps>, [someCluster, watchOfACluster]));

/** Refuses a monitor of no cluster. */
function someCluster(scope: IConstruct | string, props: DatabaseMonitorProps): void {
  if (props.clusters.length === 0) {
    inputError(scope, 'clusters', props.clusters, 'at least one database cluster');
  }
}

/** Refuses the expiry watch of a cluster the monitor does not monitor: its rules name that cluster's certificates. */
function watchOfACluster(scope: IConstruct | string, props: DatabaseMonitorProps): void {
  const watch = props.expiryWatch;
  if (watch && !props.clusters.some((c) => c.clusterName === watch.clusterName && c.namespace === watch.namespace)) {
    inputError(scope, 'expiryWatch', `${watch.namespace}/${watch.clusterName}`, 'the expiry watch of a cluster the monitor monitors: its rules name that cluster\'s certificates');
  }
}


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
    const checked = checkProps(this, props, DATABASE_MONITOR_SHAPE);
    this.name = checked.name;
    this.namespace = checked.clusters[0].namespace;
    this.resource = operatorObject(this, {
      kind: 'DatabaseMonitor',
      name: this.name,
      namespace: this.namespace,
      spec: compact({
        clusters: checked.clusters.map((c) => ({ name: c.clusterName, namespace: c.namespace === this.namespace ? undefined : c.namespace })),
        prometheus: { ...checked.prometheus, config: checked.expiryWatch && { ruleConfigRef: ruleConfigRef(checked.expiryWatch, this.namespace) } },
        grafana: checked.grafana,
        initializer: checked.initializer,
        reloader: checked.reloader,
        imagePullPolicy: checked.imagePullPolicy,
      }),
    });
  }
}

/** Where the monitor finds the rules of an expiry watch: its ConfigMap, with its namespace when not the monitor's. */
function ruleConfigRef(watch: ExpiryWatch, namespace: string): { name: string; namespace?: string } {
  const name = watch.addRulesConfigMap();
  return watch.namespace === namespace ? { name } : { name, namespace: watch.namespace };
}
