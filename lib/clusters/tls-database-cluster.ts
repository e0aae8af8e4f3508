/**
 * The `TlsDatabaseCluster` construct: the `DatabaseCluster` with TLS on, its components'
 * certificates and allowed Common Names, its runbook and its monitor.
 */
import { ApiObject, Chart } from 'cdk8s';
import { clusterKey } from '../model/trust';
import type * as kplus from 'cdk8s-plus-27';
import type { ResolvedSpan } from '../model/span';
import { CdkPlusPackage, SecretRef, secretRef, secretRefName, secretRefs } from '../model/secret-ref';
import { Construct } from 'constructs';
import { CAPABILITIES, ClusterKind, ComponentToken, PORTS, SHOWN_VALUES, clusterKind, component } from '../model/catalog';
import { SQL_PORT_RELOAD } from '../model/catalog-sql-tls';
import { MOUNT_PATHS } from '../model/catalog-pods';
import { ClusterCertificates } from '../certificates/cluster-certificates';
import { SQL_CLIENT_SHAPE, SQL_TLS_OPTIONS_SHAPE, SqlClient, SqlClientOptions, SqlTls, SqlTlsOptions, resolveSqlTlsOptions } from '../certificates/sql-tls';
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
import { RUNBOOK_STEP_SHAPE, TLS_CLUSTER_SHAPE, externalSecretNames, ownComponent, resolveCluster, rotationRestart } from './cluster-props';
import { withConfigDocuments } from '../model/config-documents';
import { PropShape, ShapeOf, checkArguments, checkProps, listOf, objectOf, oneOf, strings } from '../model/props';
import { storageSize } from '../model/quantity';
import { requireTimeZone } from '../model/validate';
import { isInRange, requireMinimum } from '../model/versions';
import { ENABLEMENT_SHAPE, TlsEnablement, TlsEnablementPhase } from '../model/enablement';
import { ResolvedEnablement, declareEnablement } from './enablement';
import { ChangefeedProps, ColumnarProps, CoordinatorProps, PumpProps, SqlServerProps, SqlServiceType, StoreProps } from './database-component-props';
import { ComponentPropsUnion, DATABASE_COMPONENTS, OperatorComponent, componentSpec } from './database-component-spec';

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

const COMPONENT: PropShape = { baseImage: 'string?', replicas: 'number?', config: { type: 'object', optional: true, expected: 'an object: the component\'s configuration', data: true } };
const FAILOVER: PropShape = { maxFailoverCount: 'number?' };
const STORAGE: PropShape = { storage: storageSize() };
const EXTRA: PropShape = { extraAllowedCommonNames: strings('a list of Common Names') };

/** The props of a database cluster, as JavaScript types. */
const DATABASE_CLUSTER_SHAPE = {
  ...TLS_CLUSTER_SHAPE,
  timezone: 'string?',
  mountClusterClientSecret: 'boolean?',
  enableDiscoveryMTLS: 'boolean?',
  // The coordinator has no extra names; asking for them gets its own message.
  coordinator: objectOf({ ...COMPONENT, ...FAILOVER, ...STORAGE, ...EXTRA }),
  store: objectOf({ ...COMPONENT, ...FAILOVER, ...STORAGE, ...EXTRA }),
  sqlserver: objectOf({ ...COMPONENT, ...FAILOVER, ...EXTRA, serviceType: oneOf(Object.values(SqlServiceType)) }),
  pump: objectOf({ ...COMPONENT, ...STORAGE, ...EXTRA }),
  changefeed: objectOf({ ...COMPONENT, ...EXTRA, sinkTlsSecretNames: secretRefs() }),
  columnar: objectOf({ ...COMPONENT, ...FAILOVER, ...EXTRA, storageClaims: listOf({ storage: storageSize(false), storageClassName: 'string?' }) }),
  enablement: objectOf(ENABLEMENT_SHAPE, true, 'an object { phase, evictLeaderTimeout? }'),
  tlsClient: objectOf(SQL_TLS_OPTIONS_SHAPE, true, `an object with ${Object.keys(SQL_TLS_OPTIONS_SHAPE).join(', ')}, each optional; {} for the defaults`),
} satisfies ShapeOf<TlsDatabaseClusterProps>;

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
    props = checkProps(this, props, DATABASE_CLUSTER_SHAPE);
    const { namespace, certificates, pvReclaimPolicy } = resolveCluster(this, props, ClusterKind.DATABASE);
    if (props.coordinator && 'extraAllowedCommonNames' in props.coordinator) {
      inputError(this, 'coordinator.extraAllowedCommonNames', props.coordinator.extraAllowedCommonNames,
        'nothing: the coordinator accepts exactly one Common Name, the certificates\'');
    }

    this.clusterName = props.clusterName;
    this.namespace = namespace;
    this.version = props.version;
    this.mountClusterClientSecret = props.mountClusterClientSecret ?? true;
    this.discoveryMTLS = props.enableDiscoveryMTLS ?? false;
    this.operatorVersion = props.operatorVersion;
    const parts: Partial<Record<OperatorComponent, ComponentPropsUnion>> = {
      coordinator: props.coordinator ?? {},
      store: props.store ?? {},
      sqlserver: props.sqlserver ?? {},
      pump: props.pump ?? {},
      changefeed: props.changefeed,
      columnar: props.columnar,
    };
    const running = DATABASE_COMPONENTS.map((c) => c.token).filter((t) => parts[t] !== undefined);
    this.running = running;
    this.checkVersions(props, running);

    this.certificates = certificates;
    running.forEach((token) => certificates._declareVersion(this, token, props.version));
    this.enablement = declareEnablement(this, props.enablement, {
      // Checked with the coordinator's spec below, before the runbook that says it is rendered.
      coordinatorReplicas: parts.coordinator!.replicas ?? 1, afterRoll: this.enablementSteps,
    });
    this.tlsEnabled = this.enablement?.state.tls ?? true;
    if (this.discoveryMTLS && this.enablement !== undefined) {
      inputError(this, 'enableDiscoveryMTLS', true, 'false while a TLS enablement is declared: turn on mutual TLS for the discovery server once the enablement\'s last phase is done and it is removed');
    }
    for (const token of [...running, ...(this.discoveryMTLS ? ['discovery' as const] : [])]) {
      this.certificates.addComponent(token);
    }
    this.commonName = this.certificates.commonName;
    this.clientSecretName = this.certificates.clientSecretName(ClusterKind.DATABASE);
    this.sqlHost = names.serviceHost(props.clusterName, 'sqlserver', namespace);
    this.sqlTls = props.tlsClient === undefined ? undefined : this.certificates.enableSqlTls(this, resolveSqlTlsOptions(this, props.tlsClient));
    this.sqlClientSecretName = this.sqlTls?.operatorClientSecretName;
    if (this.sqlTls?.options.reloadUser !== undefined && !isInRange(props.version, SQL_PORT_RELOAD.versions)) {
      inputError(this, 'tlsClient.reloadUser', this.sqlTls.options.reloadUser,
        `nothing at version ${props.version}: releases ${SQL_PORT_RELOAD.versions} take ${SQL_PORT_RELOAD.statement} (${SQL_PORT_RELOAD.statementSource}), and a user granted ${SQL_PORT_RELOAD.privilege} for nothing is a risk`);
    }
    // The user that reloads the MySQL port's certificate in rotations, with a certificate of its own.
    this.sqlTls?.addReloadClient(this);

    this.sinkTlsSecretNames = externalSecretNames(this, 'changefeed.sinkTlsSecretNames', props.changefeed?.sinkTlsSecretNames, this.certificates);
    this.sinkTlsSecretNames.forEach((name) => this.certificates._addExternalTlsSecret({ name, namespace, cluster: ClusterKind.DATABASE, usedBy: 'the changefeed\'s sink' }));
    const spec: Record<string, unknown> = {
      tlsCluster: { enabled: this.tlsEnabled, enableDiscoveryMTLS: this.discoveryMTLS || undefined },
      version: props.version,
      timezone: requireTimeZone(this, 'timezone', props.timezone ?? SHOWN_VALUES.timezone),
      pvReclaimPolicy,
      // The names the operator gives the components must be the names on their certificates.
      clusterDomain: this.certificates.clusterDomain,
      ...acrossKubernetes(this.certificates.span, props.clusterName),
    };
    for (const token of running) {
      spec[token] = { ...componentSpec(this, token, parts[token]!), annotations: rotationRestart(this, this.certificates, token) };
    }
    this.resource = operatorObject(this, {
      kind: clusterKind(ClusterKind.DATABASE).resourceKind, name: props.clusterName, namespace, spec: compact(spec),
      // Written as maps, so that escape hatches patch maps; rendered as the TOML documents the operator keeps whole.
      finish: (json) => withConfigDocuments(this, json),
    }, clusterKey(namespace, props.clusterName));
    this.resource.node.addDependency(this.certificates);

    this.runbook = new OutputFile(this, 'Runbook', {
      path: databaseRunbookPath(namespace, props.clusterName),
      content: { render: () => databaseRunbook(this.runbookInput(), this.runbookSteps) },
    });
    new OutputFile(this, 'MountClientSecretPatch', {
      path: mountClientSecretPatchPath(namespace, props.clusterName),
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

  private checkVersions(props: TlsDatabaseClusterProps, running: readonly OperatorComponent[]): void {
    for (const token of running) {
      const min = component(token).minComponentVersion;
      if (min) {
        requireMinimum(this, 'version', props.version, min, `tls for the ${token} component`);
      }
    }
    if (props.operatorVersion === undefined) {
      return;
    }
    requireMinimum(this, 'operatorVersion', props.operatorVersion, clusterKind(ClusterKind.DATABASE).minOperatorVersion,
      'tls between database cluster components');
    for (const token of running) {
      requireMinimum(this, 'operatorVersion', props.operatorVersion, component(token).minOperatorVersion, `tls for the ${token} component`);
    }
    if (this.mountClusterClientSecret) {
      requireMinimum(this, 'operatorVersion', props.operatorVersion, CAPABILITIES.mountClusterClientSecret.minOperatorVersion,
        'mountClusterClientSecret (set it to false for an older operator)');
    }
    if (this.discoveryMTLS) {
      requireMinimum(this, 'operatorVersion', props.operatorVersion, component('discovery').minOperatorVersion, 'enableDiscoveryMTLS (mutual TLS for the discovery server)');
    }
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
