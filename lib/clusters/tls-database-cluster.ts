/**
 * The `TlsDatabaseCluster` construct: the `DatabaseCluster` with TLS on, its components'
 * certificates and allowed Common Names, its runbook and its monitor.
 */
import { ApiObject, Chart } from 'cdk8s';
import { clusterKey } from '../model/trust';
import type * as kplus from 'cdk8s-plus-27';
import type { ResolvedSpan } from '../model/span';
import { CdkPlusPackage, SecretRef, secretRef, secretRefName, secretRefs } from '../model/secret-ref';
import { Construct, IConstruct } from 'constructs';
import { CAPABILITIES, ClusterKind, ComponentToken, PORTS, SHOWN_VALUES, clusterKind, component } from '../model/catalog';
import { SQL_PORT_RELOAD } from '../model/catalog-sql-tls';
import { MOUNT_PATHS } from '../model/catalog-pods';
import { ClusterCertificates } from '../certificates/cluster-certificates';
import { SQL_CLIENT_SHAPE, SQL_TLS_OPTIONS_SHAPE, SqlClient, SqlClientOptions, SqlTls, SqlTlsOptions, sqlTlsOptionsOf } from '../certificates/sql-tls';
import { DATABASE_MONITOR_OPTIONS_SHAPE, DatabaseMonitor, DatabaseMonitorOptions } from './database-monitor';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import type { TlsFilePaths } from '../model/names';
import { OutputFile } from '../app/output-file';
import { compact, operatorObject } from './operator';
import { DatabaseRunbookInput, MOUNT_CLIENT_SECRET_PATCH_YAML, databaseRunbook } from '../documents/database-runbook';
import { databaseRunbookPath, enablementRunbookPath, fromOutputFolder, manifestFileName, mountClientSecretPatchPath } from '../model/output-layout';
import { RunbookStep } from '../documents/runbook';
import { ITlsDatabaseCluster, TlsClusterProps } from './tls-cluster';
import { RUNBOOK_STEP_SHAPE, externalSecretNames, ownComponent, resolveCluster, rotationRestart, tlsClusterShape } from './cluster-props';
import { withConfigDocuments } from '../model/config-documents';
import { Checked, PropSpec, ShapeOf, checkArguments, checkProps, countOf, declareShape, flag, listOf, objectOf, oneOf, strings, withRules } from '../model/props';
import { storageSize } from '../model/quantity';
import { isInRange, requireMinimum } from '../model/versions';
import { ENABLEMENT_SHAPE, TlsEnablement, TlsEnablementPhase } from '../model/enablement';
import { ResolvedEnablement, declareEnablement } from './enablement';
import {
  AllowedCommonNamesProps, ChangefeedProps, ColumnarProps, CoordinatorProps, DatabaseComponentProps, PumpProps, SqlServerProps, SqlServiceType, StoreProps,
} from './database-component-props';
import { ComponentPropsUnion, DATABASE_COMPONENTS, OperatorComponent, componentSpec, databaseSpecOf } from './database-component-spec';

/** Props of {@link TlsDatabaseCluster}. */
export interface TlsDatabaseClusterProps extends TlsClusterProps {
  /**
   * Time zone of the components.
   * @default 'UTC'
   */
  readonly timezone?: string;
  /**
   * Mount the client certificate set at `/var/lib/cluster-client-tls` in the coordinator and
   * store pods, so that `coordctl` and `storectl` can connect (operator v1.1.5 or later).
   * @default true
   */
  readonly mountClusterClientSecret?: boolean;
  /**
   * Mutual TLS for the discovery server, the operator's `<cluster>-discovery` service that
   * components call as they start (`spec.tlsCluster.enableDiscoveryMTLS`, operator v1.6.6 or
   * later): the server certificate of `${cluster_name}-discovery-cluster-secret`, signed by the
   * cluster CA, on the discovery server alone, which then accepts only clients that present a
   * certificate of that CA (the components' own). Without it the discovery server speaks plain HTTP.
   * @default false
   */
  readonly enableDiscoveryMTLS?: boolean;
  /** The coordinator. @default - defaults of each field */
  readonly coordinator?: CoordinatorProps;
  /** The store. @default - defaults of each field */
  readonly store?: StoreProps;
  /** The SQL server. @default - defaults of each field */
  readonly sqlserver?: SqlServerProps;
  /** The pump. @default - defaults of each field */
  readonly pump?: PumpProps;
  /**
   * The changefeed component; present when set.
   * @default - no changefeed
   */
  readonly changefeed?: ChangefeedProps;
  /**
   * The columnar component; present when set.
   * @default - no columnar component
   */
  readonly columnar?: ColumnarProps;
  /**
   * Turns TLS on for a cluster that already runs without it, one phase per commit (see
   * {@link TlsEnablementPhase}): each phase writes what the operator's procedure needs at that
   * point, and `enablement-runbook.md` gives its commands. The record of the last synth holds the
   * phase, so it moves one step per synth, forward.
   * @default - the cluster runs with TLS from its creation
   */
  readonly enablement?: TlsEnablement;
  /**
   * TLS between the SQL server and its MySQL clients (the operator's `spec.sqlserver.tlsClient`):
   * the server's certificate for the names applications dial, signed by a CA of its own, and the
   * client certificate of the operator's own clients (backup, restore). Declare each application's
   * certificate with {@link TlsDatabaseCluster.addSqlClient}.
   * @default - MySQL clients connect in plain text
   */
  readonly tlsClient?: SqlTlsOptions;
}

/** The props both cluster constructs have, with the database cluster's releases. */
const TLS_CLUSTER_SHAPE = tlsClusterShape(ClusterKind.DATABASE);

const COMPONENT = {
  baseImage: { type: 'string', optional: true, rule: 'image' },
  replicas: countOf('positiveCount', 1),
  config: { type: 'object', optional: true, expected: 'an object: the component\'s configuration', data: true },
} satisfies ShapeOf<DatabaseComponentProps>;
const FAILOVER = { maxFailoverCount: countOf('count', 0) };
const EXTRA = { extraAllowedCommonNames: { ...strings('a list of Common Names'), rule: 'commonName' } } satisfies ShapeOf<AllowedCommonNamesProps>;

/** The storage request of a component, the catalog's size when left out. */
function storage(token: OperatorComponent): { readonly storage: PropSpec } {
  return { storage: { ...storageSize(), rule: 'storageQuantity', default: databaseSpecOf(token).defaultStorage } };
}

/** The props of a database cluster: the fields, with their rules and defaults, and the rules across them. */
const DATABASE_CLUSTER_SHAPE = declareShape('TlsDatabaseCluster', withRules({
  ...TLS_CLUSTER_SHAPE,
  timezone: { type: 'string', optional: true, rule: 'timeZone', default: SHOWN_VALUES.timezone },
  mountClusterClientSecret: flag(true),
  enableDiscoveryMTLS: flag(false),
  // The coordinator has no extra names; asking for them gets its own message (coordinatorOneName).
  coordinator: { ...objectOf({ ...COMPONENT, ...FAILOVER, ...storage('coordinator'), extraAllowedCommonNames: strings('a list of Common Names') }), default: {} },
  store: { ...objectOf({ ...COMPONENT, ...FAILOVER, ...storage('store'), ...EXTRA }), default: {} },
  sqlserver: { ...objectOf({ ...COMPONENT, ...FAILOVER, ...EXTRA, serviceType: { ...oneOf(Object.values(SqlServiceType)), default: SqlServiceType.CLUSTER_IP } }), default: {} },
  pump: { ...objectOf({ ...COMPONENT, ...storage('pump'), ...EXTRA }), default: {} },
  changefeed: objectOf({ ...COMPONENT, ...EXTRA, sinkTlsSecretNames: secretRefs() }),
  columnar: objectOf({
    ...COMPONENT, ...FAILOVER, ...EXTRA,
    storageClaims: { ...listOf({ storage: { ...storageSize(false), rule: 'storageQuantity' }, storageClassName: 'string?' }), default: [{ storage: databaseSpecOf('columnar').defaultStorage }] },
  }),
  enablement: objectOf(ENABLEMENT_SHAPE, true, 'an object { phase, evictLeaderTimeout? }'),
  tlsClient: objectOf(SQL_TLS_OPTIONS_SHAPE, true, `an object with ${Object.keys(SQL_TLS_OPTIONS_SHAPE).join(', ')}, each optional; {} for the defaults`),
} satisfies ShapeOf<TlsDatabaseClusterProps>, [coordinatorOneName, discoveryAfterEnablement, componentReleases, reloadUserRelease]));

/** Props as {@link DATABASE_CLUSTER_SHAPE} returns them, with their defaults. */
type CheckedDatabaseProps = Checked<TlsDatabaseClusterProps, typeof DATABASE_CLUSTER_SHAPE>;

/** Refuses extra Common Names for the coordinator, which accepts exactly one. */
function coordinatorOneName(scope: IConstruct | string, props: TlsDatabaseClusterProps): void {
  if (props.coordinator && 'extraAllowedCommonNames' in props.coordinator) {
    inputError(scope, 'coordinator.extraAllowedCommonNames', props.coordinator.extraAllowedCommonNames,
      'nothing: the coordinator accepts exactly one Common Name, the certificates\'');
  }
}

/** Refuses mutual TLS for the discovery server while a TLS enablement is declared. */
function discoveryAfterEnablement(scope: IConstruct | string, props: TlsDatabaseClusterProps): void {
  if (props.enableDiscoveryMTLS && props.enablement !== undefined) {
    inputError(scope, 'enableDiscoveryMTLS', true, 'false while a TLS enablement is declared: turn on mutual TLS for the discovery server once the enablement\'s last phase is done and it is removed');
  }
}

/** The components a database cluster runs: the four it always has, and the changefeed and the columnar component when given. */
function runningComponents(props: TlsDatabaseClusterProps): OperatorComponent[] {
  return DATABASE_COMPONENTS.map((c) => c.token).filter((t) => props[t] !== undefined);
}

/**
 * Refuses a release older than one of the components needs for TLS, and an operator older than
 * one of them, or the client Secret's mount or the discovery server's mutual TLS, needs.
 */
function componentReleases(scope: IConstruct | string, props: TlsDatabaseClusterProps): void {
  const running = runningComponents(props);
  for (const token of running) {
    const min = component(token).minComponentVersion;
    if (min) {
      requireMinimum(scope, 'version', props.version, min, `tls for the ${token} component`);
    }
  }
  if (props.operatorVersion === undefined) {
    return;
  }
  for (const token of running) {
    requireMinimum(scope, 'operatorVersion', props.operatorVersion, component(token).minOperatorVersion, `tls for the ${token} component`);
  }
  if (props.mountClusterClientSecret) {
    requireMinimum(scope, 'operatorVersion', props.operatorVersion, CAPABILITIES.mountClusterClientSecret.minOperatorVersion,
      'mountClusterClientSecret (set it to false for an older operator)');
  }
  if (props.enableDiscoveryMTLS) {
    requireMinimum(scope, 'operatorVersion', props.operatorVersion, component('discovery').minOperatorVersion, 'enableDiscoveryMTLS (mutual TLS for the discovery server)');
  }
}

/** Refuses a reload user at a release that reloads the MySQL port's certificate without one. */
function reloadUserRelease(scope: IConstruct | string, props: TlsDatabaseClusterProps): void {
  const reloadUser = props.tlsClient?.reloadUser;
  if (reloadUser !== undefined && !isInRange(props.version, SQL_PORT_RELOAD.versions)) {
    inputError(scope, 'tlsClient.reloadUser', reloadUser,
      `nothing at version ${props.version}: releases ${SQL_PORT_RELOAD.versions} take ${SQL_PORT_RELOAD.statement} (${SQL_PORT_RELOAD.statementSource}), and a user granted ${SQL_PORT_RELOAD.privilege} for nothing is a risk`);
  }
}

/**
 * A `DatabaseCluster` with TLS between its components: the cluster resource with
 * `spec.tlsCluster.enabled: true`, every component's allowed Common Names set to the
 * certificates' Common Name, the server certificate of every component it runs, and a runbook
 * with the client-tool commands (specification sections C and D).
 */
export class TlsDatabaseCluster extends Construct implements ITlsDatabaseCluster {
  /** The cluster name. */
  public readonly clusterName: string;
  /** The namespace. */
  public readonly namespace: string;
  /** The release version. */
  public readonly version: string;
  /** The certificates of the cluster. */
  public readonly certificates: ClusterCertificates;
  /** The Common Name every component accepts. */
  public readonly commonName: string;
  private readonly running: readonly ComponentToken[];
  /** The shared client Secret (`${cluster_name}-cluster-client-secret`). */
  public readonly clientSecretName: string;
  /** The SQL server's host name inside the Kubernetes cluster. */
  public readonly sqlHost: string;
  /** The SQL server's port. */
  public readonly sqlPort: number = PORTS.sql;
  /** Whether the client certificate set is mounted in the coordinator and store pods. */
  public readonly mountClusterClientSecret: boolean;
  /** Whether the discovery server speaks mutual TLS (`enableDiscoveryMTLS`). */
  public readonly discoveryMTLS: boolean;
  /** The operator version the cluster is declared for, when given. */
  public readonly operatorVersion?: string;
  /** The `DatabaseCluster` object. */
  public readonly resource: ApiObject;
  /** The runbook file. */
  public readonly runbook: OutputFile;
  /** The Secrets the changefeed reaches its sinks with (`spec.changefeed.tlsClientSecretNames`). */
  public readonly sinkTlsSecretNames: string[];
  /** Whether the cluster runs with TLS in this synth: always, unless an enablement is before its `enable` phase. */
  public readonly tlsEnabled: boolean;
  /**
   * The TLS enablement declared, with its defaults, when one is.
   * @jsii ignore
   */
  public readonly enablement?: ResolvedEnablement;
  /**
   * TLS for MySQL clients, when `tlsClient` turns it on.
   * @jsii ignore
   */
  public readonly sqlTls?: SqlTls;
  /** The client Secret of the operator's MySQL clients (backup, restore), when `tlsClient` turns TLS for them on. */
  public readonly sqlClientSecretName?: string;
  private monitor?: DatabaseMonitor;
  private readonly runbookSteps: RunbookStep[] = [];
  private readonly enablementSteps: RunbookStep[] = [];

  constructor(scope: Construct, id: string, props: TlsDatabaseClusterProps) {
    super(scope, id);
    const checked: CheckedDatabaseProps = checkProps(this, props, DATABASE_CLUSTER_SHAPE);
    const { namespace, certificates, pvReclaimPolicy } = resolveCluster(this, checked);

    this.clusterName = checked.clusterName;
    this.namespace = namespace;
    this.version = checked.version;
    this.mountClusterClientSecret = checked.mountClusterClientSecret;
    this.discoveryMTLS = checked.enableDiscoveryMTLS;
    this.operatorVersion = checked.operatorVersion;
    const parts: Partial<Record<OperatorComponent, ComponentPropsUnion>> = {
      coordinator: checked.coordinator,
      store: checked.store,
      sqlserver: checked.sqlserver,
      pump: checked.pump,
      changefeed: checked.changefeed,
      columnar: checked.columnar,
    };
    const running = runningComponents(checked);
    this.running = running;

    this.certificates = certificates;
    running.forEach((token) => certificates._declareVersion(this, token, checked.version));
    this.enablement = declareEnablement(this, checked.enablement, {
      // Checked with the coordinator's spec below, before the runbook that says it is rendered.
      coordinatorReplicas: parts.coordinator!.replicas!, afterRoll: this.enablementSteps,
    });
    this.tlsEnabled = this.enablement?.state.tls ?? true;
    for (const token of [...running, ...(this.discoveryMTLS ? ['discovery' as const] : [])]) {
      this.certificates.addComponent(token);
    }
    this.commonName = this.certificates.commonName;
    this.clientSecretName = this.certificates.clientSecretName(ClusterKind.DATABASE);
    this.sqlHost = names.serviceHost(checked.clusterName, 'sqlserver', namespace);
    this.sqlTls = checked.tlsClient === undefined ? undefined : this.certificates.enableSqlTls(this, sqlTlsOptionsOf(checked.tlsClient as Checked<SqlTlsOptions, typeof SQL_TLS_OPTIONS_SHAPE>));
    this.sqlClientSecretName = this.sqlTls?.operatorClientSecretName;
    // The user that reloads the MySQL port's certificate in rotations, with a certificate of its own.
    this.sqlTls?.addReloadClient(this);

    this.sinkTlsSecretNames = externalSecretNames(this, 'changefeed.sinkTlsSecretNames', checked.changefeed?.sinkTlsSecretNames, this.certificates);
    this.sinkTlsSecretNames.forEach((name) => this.certificates._addExternalTlsSecret({ name, namespace, cluster: ClusterKind.DATABASE, usedBy: 'the changefeed\'s sink' }));
    const spec: Record<string, unknown> = {
      tlsCluster: { enabled: this.tlsEnabled, enableDiscoveryMTLS: this.discoveryMTLS || undefined },
      version: checked.version,
      timezone: checked.timezone,
      pvReclaimPolicy,
      // The names the operator gives the components must be the names on their certificates.
      clusterDomain: this.certificates.clusterDomain,
      ...acrossKubernetes(this.certificates.span, checked.clusterName),
    };
    for (const token of running) {
      spec[token] = { ...componentSpec(this, token, parts[token]!), annotations: rotationRestart(this, this.certificates, token) };
    }
    this.resource = operatorObject(this, {
      kind: clusterKind(ClusterKind.DATABASE).resourceKind, name: checked.clusterName, namespace, spec: compact(spec),
      // Written as maps, so that escape hatches patch maps; rendered as the TOML documents the operator keeps whole.
      finish: (json) => withConfigDocuments(this, json),
    }, clusterKey(namespace, checked.clusterName));
    this.resource.node.addDependency(this.certificates);

    this.runbook = new OutputFile(this, 'Runbook', {
      path: databaseRunbookPath(namespace, checked.clusterName),
      content: { render: () => databaseRunbook(this.runbookInput(), this.runbookSteps) },
    });
    new OutputFile(this, 'MountClientSecretPatch', {
      path: mountClientSecretPatchPath(namespace, checked.clusterName),
      content: MOUNT_CLIENT_SECRET_PATCH_YAML,
    });
  }

  /**
   * Declares an application that connects to the SQL server with a client certificate of its own
   * (`tlsClient` must be on): a Secret `<application>-<namespace>-<cluster>-sql-client` in the application's
   * namespace with its key, its certificate and the SQL CA as `ca.crt`, and the SQL statement that
   * ties a database user to it in the runbook.
   */
  public addSqlClient(name: string, options: SqlClientOptions = {}): SqlClient {
    ({ name, options } = checkArguments(this, 'addSqlClient', { name, options }, { name: 'string', options: objectOf(SQL_CLIENT_SHAPE, false) }));
    if (this.sqlTls === undefined) {
      inputError(this, 'tlsClient', undefined, `TLS for MySQL clients turned on (the tlsClient prop, {} for the defaults) before the client certificate of application "${name}" is declared`);
    }
    return this.sqlTls.addClient(this, name, options);
  }

  /**
   * Where the changefeed pods find the files of one of its sink Secrets, for the sink's URI
   * (`ssl-ca`, `ssl-cert`, `ssl-key`).
   */
  public sinkTlsFiles(secret: SecretRef): TlsFilePaths {
    checkArguments(this, 'sinkTlsFiles', { secret }, { secret: secretRef(false) });
    const secretName = secretRefName(secret);
    if (!this.sinkTlsSecretNames.includes(secretName)) {
      inputError(this, 'sinkTlsFiles.secret', secretName, `one of changefeed.sinkTlsSecretNames: ${this.sinkTlsSecretNames.join(', ') || 'none'}`);
    }
    return names.mountedTlsFiles(MOUNT_PATHS.sinkTls, secretName);
  }

  /** The server Secret of one of the cluster's components. */
  public serverSecretName(token: ComponentToken): string {
    return this.certificates.serverSecretName(ownComponent(this, ClusterKind.DATABASE, 'serverSecretName', token));
  }

  /** The server Secret of one of the cluster's components, as a cdk8s-plus `ISecret`. */
  public serverSecret(token: ComponentToken): kplus.ISecret;
  /** The server Secret of one of the cluster's components, as an `ISecret` of the cdk8s-plus package given (any major from 27). */
  public serverSecret<S>(token: ComponentToken, plus: CdkPlusPackage<S>): S;
  public serverSecret<S>(token: ComponentToken, plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return this.certificates.serverSecret(ownComponent(this, ClusterKind.DATABASE, 'serverSecret', token), plus as CdkPlusPackage<S>);
  }

  /**
   * The cluster's shared client Secret (`clientSecretName`) as a cdk8s-plus `ISecret`: a
   * cdk8s-plus workload mounts the client certificate set with `kplus.Volume.fromSecret`.
   */
  public clientSecret(): kplus.ISecret;
  /**
   * The shared client Secret as an `ISecret` of the cdk8s-plus package given (any major from 27),
   * for an app on another major: `kplus.Volume.fromSecret(scope, id, cluster.clientSecret(kplus))`.
   */
  public clientSecret<S>(plus: CdkPlusPackage<S>): S;
  public clientSecret<S>(plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return this.certificates.clientSecret(ClusterKind.DATABASE, plus as CdkPlusPackage<S>);
  }

  /**
   * Adds the `DatabaseMonitor` of this cluster, in its namespace, as the child `Monitor`.
   * Calling it again returns the same monitor.
   */
  public addMonitor(options: DatabaseMonitorOptions): DatabaseMonitor {
    checkArguments(this, 'addMonitor', { options }, { options: objectOf(DATABASE_MONITOR_OPTIONS_SHAPE, false) });
    if (!this.monitor) {
      this.monitor = new DatabaseMonitor(this, 'Monitor', { ...options, clusters: [this] });
      this.monitor.node.addDependency(this.resource);
    }
    return this.monitor;
  }

  /** The components the cluster runs, in the specification's order (a copy: changing it changes nothing). */
  public get components(): ComponentToken[] {
    return [...this.running];
  }

  /**
   * Adds a step at the end of the cluster's runbook (the drainer's `helm install`, backup and
   * restore commands).
   */
  public addRunbookStep(step: RunbookStep): void {
    ({ step } = checkArguments(this, 'addRunbookStep', { step }, { step: objectOf(RUNBOOK_STEP_SHAPE, false) }));
    this.runbookSteps.push(step);
  }

  /**
   * Adds a step to the enablement runbook, after the operator's roll of the `enable` phase (the
   * drainer's `helm upgrade`). Does nothing without an enablement, or in another phase.
   */
  public addEnablementStep(step: RunbookStep): void {
    ({ step } = checkArguments(this, 'addEnablementStep', { step }, { step: objectOf(RUNBOOK_STEP_SHAPE, false) }));
    if (this.enablement?.phase === TlsEnablementPhase.ENABLE) {
      this.enablementSteps.push(step);
    }
  }

  /** What the runbook says about this cluster, resolved at synth (components may be added until then). */
  private runbookInput(): DatabaseRunbookInput {
    return {
      clusterName: this.clusterName,
      namespace: this.namespace,
      commonName: this.commonName,
      certificateSecretNames: [...this.running.map((t) => this.serverSecretName(t)), this.clientSecretName],
      issuanceSteps: this.certificates.issuanceSteps(),
      sinkTlsSecretNames: this.sinkTlsSecretNames,
      mountClusterClientSecret: this.mountClusterClientSecret,
      operatorVersion: this.operatorVersion,
      manifestFile: manifestFileName(Chart.of(this)),
      enablement: this.enablement && { phase: this.enablement.phase, tls: this.enablement.state.tls, runbook: fromOutputFolder(enablementRunbookPath(this.namespace, this.clusterName)) },
      sqlTls: this.sqlTls && {
        host: this.sqlHost,
        port: this.sqlPort,
        serverSecretName: this.sqlTls.serverSecretName,
        disableClientAuthn: this.sqlTls.options.disableClientAuthn,
        secrets: this.sqlTls.plan().secrets,
        applications: this.sqlTls.applications,
        reload: this.sqlTls.options.reloadUser === undefined ? undefined
          : { user: this.sqlTls.options.reloadUser, privilege: SQL_PORT_RELOAD.privilege, statement: SQL_PORT_RELOAD.statement },
      },
    };
  }
}


/**
 * The fields of a `DatabaseCluster` that spans Kubernetes clusters (the operator's `acrossK8s` and
 * `cluster`, release 1.6): every one is `acrossK8s`, and each outside the first Kubernetes cluster
 * joins the cluster of the same name there, in the first one's namespace and by its domain.
 */
function acrossKubernetes(span: ResolvedSpan | undefined, clusterName: string): Record<string, unknown> {
  if (span === undefined) {
    return {};
  }
  const joins = span.current.name !== span.first.name;
  return { acrossK8s: true, ...(joins ? { cluster: { name: clusterName, namespace: span.first.namespace, clusterDomain: span.first.clusterDomain } } : {}) };
}
