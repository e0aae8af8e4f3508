/**
 * The component catalog: the tables of the transport-security specification as plain data.
 *
 * The components, the cluster kinds, their host-name rules, Common-Name keys, ports, versions and
 * restart order are here; every name, host name, Secret name and allowed-Common-Name key that the
 * constructs produce is derived from them through the pure functions in `names.ts`. The tables
 * beside it hold what is not a component's: the certificates (`catalog-certificates.ts`), the
 * operator's pods, their mount paths and labels (`catalog-pods.ts`) and TLS for MySQL clients
 * (`catalog-sql-tls.ts`).
 * Nothing else in the library spells these facts out again.
 */

/** The two kinds of cluster the operator runs. */
export enum ClusterKind {
  /** A `DatabaseCluster` and its components. */
  DATABASE = 'database',
  /** A `MigrationCluster` and its components. */
  MIGRATION = 'migration',
}

/** Component tokens of both clusters, as the specification names them. */
export type ComponentToken =
  | 'mig-master'
  | 'mig-worker'
  | 'coordinator'
  | 'store'
  | 'sqlserver'
  | 'pump'
  | 'drainer'
  | 'changefeed'
  | 'columnar'
  | 'importer'
  | 'lightning'
  | 'discovery';

/** Who deploys a component. */
export enum DeployedBy {
  /** The operator, from the cluster resource. */
  OPERATOR = 'operator',
  /** A package-manager chart (the drainer). */
  CHART = 'chart',
  /** Only needed while data is restored (importer, lightning). */
  RESTORE = 'restore',
}

/**
 * One group of three host names on a server certificate: `<base>`, `<base>.<namespace>` and
 * `<base>.<namespace>.svc`, where `<base>` is the component's service (`service`) or its peer
 * service (`peer`), optionally prefixed with `*.`.
 * @jsii ignore
 */
export interface HostForm {
  /** Which service the names are built on. */
  readonly of: 'service' | 'peer';
  /** Whether the names are wildcards (`*.<base>…`). */
  readonly wildcard: boolean;
}

/**
 * Where a component reads the list of Common Names it accepts from peers.
 * @jsii ignore
 */
export interface CommonNameCheck {
  /** The configuration key, as the component spells it. */
  readonly key: 'cert-allowed-cn' | 'cluster-verify-cn' | 'certAllowedCN' | 'cert_allowed_cn';
  /**
   * The path of the key below the component's object in the cluster resource
   * (or below the chart values, for the drainer).
   */
  readonly path: readonly string[];
  /** Whether the key accepts exactly one value (the specification's Limits table). */
  readonly singleValue: boolean;
  /**
   * Further lists of the same component that the construct sets to the same names: the operator
   * copies the main list into each of them when it is unset.
   */
  readonly mirrors?: readonly {
    /** The configuration key of the mirrored list, as the component spells it. */
    readonly key: CommonNameCheck['key'];
    /** The path of the mirrored key, in the same form as `path`. */
    readonly path: readonly string[];
  }[];
}

/**
 * One row of the component catalog.
 * @jsii ignore
 */
export interface ComponentEntry {
  /** The component token. */
  readonly token: ComponentToken;
  /** The cluster the component belongs to. */
  readonly cluster: ClusterKind;
  /** Who deploys it. */
  readonly deployment: DeployedBy;
  /** The key of its object in the cluster resource's spec, for components the operator deploys. */
  readonly specKey?: string;
  /** Whether the component has a peer service (`<cluster>-<token>-peer`). */
  readonly peerService: boolean;
  /** The host-name rule: the groups of names on its server certificate, in order. */
  readonly hostForms: readonly HostForm[];
  /** Where its allowed Common Names are configured, if it checks them. */
  readonly commonNameCheck?: CommonNameCheck;
  /**
   * The form in which the operator keeps the component's configuration (`spec.<component>.config`)
   * whole: `object` (a map), `toml` (a TOML document as a string) or `toml-documents` (a map of
   * TOML documents, one per key: columnar's engine `config` and its `proxy`). The operator's
   * release 1.6 reads a configuration given as a map into the component's deprecated struct
   * (`TiKVConfig`, `PDConfig`, `TiDBConfig`, `TiCDCConfig`, TiFlash's `CommonConfig` and
   * `ProxyConfig`, through `unmarshalJSON` of its config wrappers) and silently drops every key the
   * struct lacks: a changefeed's `[security]` section, a store's `[log]`. Given as a TOML document
   * it keeps every key, and it stores every configuration back as TOML documents.
   * @default 'object'
   */
  readonly configDocument?: 'object' | 'toml' | 'toml-documents';
  /** The first operator version that supports TLS for this component. */
  readonly minOperatorVersion: string;
  /** The first component version that supports TLS, where the specification states one. */
  readonly minComponentVersion?: string;
  /**
   * The releases of the component that re-read `tls.crt` and `tls.key` for each new connection, so
   * that a renewed certificate takes effect with no restart once the kubelet has written it into the
   * pod. Unset when no source shows the component doing so: it restarts to take a new certificate.
   * No component re-reads `ca.crt` ({@link CA_RELOAD}).
   */
  readonly leafReload?: LeafReload;
  /**
   * The shape of its object in the `DatabaseCluster` spec, for the database components the
   * operator deploys: whether it takes `maxFailoverCount`, and how it asks for storage
   * (`requests.storage`, or columnar's `storageClaims`) with which default size.
   */
  readonly databaseSpec?: {
    /** Whether the object takes `maxFailoverCount`. */
    readonly failover: boolean;
    /** How it asks for storage: `requests.storage` (`requests`) or `storageClaims` (`claims`); unset when it takes no storage. */
    readonly storage?: 'requests' | 'claims';
    /** The storage size used when the props give none, as a Kubernetes quantity (`100Gi`). */
    readonly defaultStorage?: string;
  };
}

/**
 * Which releases of a component re-read their certificate and key for each new connection, and
 * where that is stated.
 * @jsii ignore
 */
export interface LeafReload {
  /** The component versions that do, as a `semver` range of `<major>.<minor>.<patch>` versions. */
  readonly versions: string;
  /** Where that is stated: the component's pull requests or issues, short enough for a runbook's table. */
  readonly source: string;
}

/**
 * Why every component restarts when its `ca.crt` changes: none of them re-reads its CA while it
 * runs, even those that re-read their certificate and key.
 */
export const CA_RELOAD = {
  /** Where that is stated. */
  source: 'pd#6217',
} as const;

const SERVICE: HostForm = { of: 'service', wildcard: false };
const PEER: HostForm = { of: 'peer', wildcard: false };
const WILDCARD_SERVICE: HostForm = { of: 'service', wildcard: true };
const WILDCARD_PEER: HostForm = { of: 'peer', wildcard: true };

/** Host-name rule of the components that have a service and a peer service. */
const WITH_PEER: readonly HostForm[] = [SERVICE, PEER, WILDCARD_PEER];

const SECURITY_ALLOWED_CN = ['config', 'security', 'cert-allowed-cn'];

/** The catalog, in the order of the specification's component table. */
export const COMPONENTS: readonly ComponentEntry[] = [
  {
    token: 'mig-master',
    specKey: 'master',
    cluster: ClusterKind.MIGRATION,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cert-allowed-cn', path: ['config', 'cert-allowed-cn'], singleValue: true },
    minOperatorVersion: '1.2.0',
    // Its server re-reads its files through its embedded etcd from v2.0.0 (etcd's TLSInfo), but its
    // clients to the workers load theirs once (tidb-tools' ToTLSConfigWithVerify) until tiflow#11122
    // moved them to tidb's NewTLSConfig, which re-reads them on each handshake (v8.2.0).
    leafReload: { versions: '>=8.2.0', source: 'tiflow#11122' },
  },
  {
    token: 'mig-worker',
    specKey: 'worker',
    cluster: ClusterKind.MIGRATION,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cert-allowed-cn', path: ['config', 'cert-allowed-cn'], singleValue: false },
    minOperatorVersion: '1.2.0',
    // Its listener loads its files once (tidb-tools' ToTLSConfigWithVerify) until tiflow#11122 (v8.2.0).
    leafReload: { versions: '>=8.2.0', source: 'tiflow#11122' },
  },
  {
    token: 'coordinator',
    specKey: 'coordinator',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cert-allowed-cn', path: SECURITY_ALLOWED_CN, singleValue: true },
    databaseSpec: { failover: true, storage: 'requests', defaultStorage: '10Gi' },
    configDocument: 'toml',
    minOperatorVersion: '1.1.0',
    // Its embedded etcd serves with etcd's TLSInfo, whose GetCertificate re-reads the files on each
    // handshake (server/config GenEmbedEtcdConfig, read at v4.0.0 and v7.5.0).
    leafReload: { versions: '>=4.0.0', source: 'etcd TLSInfo in the coordinator\'s embedded etcd; the database\'s docs, "Enable TLS between components"' },
  },
  {
    token: 'store',
    specKey: 'store',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cert-allowed-cn', path: SECURITY_ALLOWED_CN, singleValue: false },
    databaseSpec: { failover: true, storage: 'requests', defaultStorage: '100Gi' },
    configDocument: 'toml',
    minOperatorVersion: '1.1.0',
    // tikv#7150 added the reload and tikv#12569 made it work, released in v5.4.2 and v6.1.0 (as tiflash#5503 records).
    leafReload: { versions: '>=5.4.2 <6.0.0 || >=6.1.0', source: 'tikv#7150, tikv#12569' },
  },
  {
    token: 'sqlserver',
    specKey: 'sqlserver',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cluster-verify-cn', path: ['config', 'security', 'cluster-verify-cn'], singleValue: false },
    databaseSpec: { failover: true },
    configDocument: 'toml',
    minOperatorVersion: '1.1.0',
    // The cluster side only: the MySQL port does not (SQL_PORT_RELOAD).
    leafReload: { versions: '>=4.0.0', source: 'tidb#14833' },
  },
  {
    token: 'pump',
    specKey: 'pump',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: false,
    hostForms: [WILDCARD_SERVICE],
    commonNameCheck: { key: 'cert-allowed-cn', path: SECURITY_ALLOWED_CN, singleValue: false },
    databaseSpec: { failover: false, storage: 'requests', defaultStorage: '20Gi' },
    minOperatorVersion: '1.1.0',
    // pkg/security ToTLSConfig re-reads the certificate and key on each new connection, the CA once (v4.0.0-beta.2, v3.0.13).
    leafReload: { versions: '>=4.0.0', source: 'tidb-binlog#927' },
  },
  {
    token: 'drainer',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.CHART,
    peerService: false,
    hostForms: [WILDCARD_SERVICE],
    commonNameCheck: { key: 'certAllowedCN', path: ['tlsCluster', 'certAllowedCN'], singleValue: false },
    minOperatorVersion: '1.1.0',
    // pkg/security ToTLSConfig re-reads the certificate and key on each new connection, the CA once (v4.0.0-beta.2, v3.0.13).
    leafReload: { versions: '>=4.0.0', source: 'tidb-binlog#927' },
  },
  {
    token: 'changefeed',
    specKey: 'changefeed',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    commonNameCheck: { key: 'cert-allowed-cn', path: SECURITY_ALLOWED_CN, singleValue: false },
    databaseSpec: { failover: false },
    configDocument: 'toml',
    minOperatorVersion: '1.1.3',
    minComponentVersion: '4.0.3',
    // tiflow#7908 was opened after v6.5 shipped without it (the v6.5 docs say so, docs-cn#12295); the
    // first release that has it is not established here, so the first long-term release after it is
    // the earliest trusted.
    leafReload: { versions: '>=7.1.0', source: 'tiflow#7908' },
  },
  {
    token: 'columnar',
    specKey: 'columnar',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: true,
    hostForms: WITH_PEER,
    // Two TOML documents (real operator, release 1.6): the engine's configuration, spelled with
    // underscores, and its storage proxy's, whose list the operator fills from the engine's.
    commonNameCheck: {
      key: 'cert_allowed_cn',
      path: ['config', 'config', 'security', 'cert_allowed_cn'],
      singleValue: false,
      mirrors: [{ key: 'cert-allowed-cn', path: ['config', 'proxy', 'security', 'cert-allowed-cn'] }],
    },
    databaseSpec: { failover: true, storage: 'claims', defaultStorage: '100Gi' },
    configDocument: 'toml-documents',
    minOperatorVersion: '1.1.4',
    minComponentVersion: '4.0.5',
    // The database's docs add it to the reloading components for v6.6 (docs-cn#12737) and say v6.5 does not reload (docs-cn#12295).
    leafReload: { versions: '>=6.6.0', source: 'tiflash#5503' },
  },
  {
    token: 'importer',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.RESTORE,
    peerService: false,
    hostForms: [SERVICE, WILDCARD_SERVICE],
    minOperatorVersion: '1.1.0',
  },
  {
    token: 'lightning',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.RESTORE,
    peerService: false,
    hostForms: [SERVICE],
    minOperatorVersion: '1.1.0',
  },
  // The discovery server, which every database cluster runs. With spec.tlsCluster.enableDiscoveryMTLS
  // (real operator, v1.6.6: types.go, tidb_discovery_manager.go, cmd/discovery) it serves HTTPS on
  // port 10261 with this Secret, mounted on its own pod alone, and requires a client certificate its
  // ca.crt verifies, checking no Common Name; the components call it with their own cluster
  // certificates (the start scripts' curl --cert of the component's Secret). It loads its certificate
  // and CA once (http.Server.ListenAndServeTLS, ClientCAs read at start): no leafReload.
  {
    token: 'discovery',
    cluster: ClusterKind.DATABASE,
    deployment: DeployedBy.OPERATOR,
    peerService: false,
    hostForms: [SERVICE],
    minOperatorVersion: '1.6.6',
  },
];

/**
 * One row per cluster kind: the names and resources that belong to the kind, not to a component.
 * @jsii ignore
 */
export interface ClusterKindEntry {
  /** The kind. */
  readonly kind: ClusterKind;
  /** The kind of the operator's custom resource. */
  readonly resourceKind: 'DatabaseCluster' | 'MigrationCluster';
  /** Suffix of the CA-type Issuer: `${cluster_name}-<suffix>`. */
  readonly caIssuerSuffix: string;
  /** Suffix of the shared client Secret: `${cluster_name}-<suffix>`. */
  readonly clientSecretSuffix: string;
  /** The first operator version with TLS between this cluster's components. */
  readonly minOperatorVersion: string;
  /**
   * The oldest cluster version the operator runs at all, where it has one: it refuses a migration
   * cluster whose major version is below 2 (its validation of the spec, in release 1.6:
   * "dm cluster version can't set to v1.x.y") and deploys nothing of it.
   */
  readonly minVersion?: string;
}

/** The cluster kinds, database first. */
export const CLUSTER_KINDS: readonly ClusterKindEntry[] = [
  {
    kind: ClusterKind.DATABASE,
    resourceKind: 'DatabaseCluster',
    caIssuerSuffix: 'db-issuer',
    clientSecretSuffix: 'cluster-client-secret',
    minOperatorVersion: '1.1.0',
  },
  {
    kind: ClusterKind.MIGRATION,
    resourceKind: 'MigrationCluster',
    caIssuerSuffix: 'mig-issuer',
    clientSecretSuffix: 'mig-client-secret',
    minOperatorVersion: '1.2.0',
    minVersion: '2.0.0',
  },
];

/**
 * The order in which the operator rolls each cluster's components when their pod template changes
 * (a restart annotation): each component waits for the ones before it to finish, and inside a
 * component the pods restart one at a time from the highest ordinal down (a StatefulSet
 * partition). The two cluster kinds are separate resources, each rolled by its own controller, so
 * they roll at the same time. From the operator's release-1.6 sources:
 * `pkg/controller/tidbcluster/tidb_cluster_control.go` (`updateTidbCluster`: pd, tiflash, tikv,
 * pump, tidb, ticdc) and `pkg/controller/dmcluster/dm_cluster_control.go` (`updateDMCluster`:
 * dm-master, dm-worker), in this project's names. Later operator releases roll the changefeed
 * first when its version is 5.1 or later (`NeedToUpdateTiCDCFirst`).
 */
export const OPERATOR_ROLL_ORDER: Readonly<Record<ClusterKind, readonly ComponentToken[]>> = {
  [ClusterKind.DATABASE]: ['coordinator', 'columnar', 'store', 'pump', 'sqlserver', 'changefeed'],
  [ClusterKind.MIGRATION]: ['mig-master', 'mig-worker'],
};

/** Where {@link OPERATOR_ROLL_ORDER} comes from, as the rotation runbook cites it. */
export const OPERATOR_ROLL_ORDER_SOURCE = 'the operator\'s release-1.6 sync loops, pkg/controller/tidbcluster/tidb_cluster_control.go and '
  + 'pkg/controller/dmcluster/dm_cluster_control.go; later releases roll the changefeed first when its version is 5.1 or later, '
  + 'which the rotation keeps safe as well';

/**
 * A switch of a cluster resource that has the operator mount a Secret on its pods (with
 * `spec.tlsCluster.enabled`): a component's object in the spec mounts its server Secret, the
 * discovery server's mutual TLS and the SQL server's TLS for MySQL clients mount theirs.
 * @jsii ignore
 */
export interface OperatorMount {
  /** The cluster resource's kind. */
  readonly resourceKind: ClusterKindEntry['resourceKind'];
  /** The field whose presence (or, with `value`, whose value) has the operator mount the Secret. */
  readonly path: readonly string[];
  /** The value that turns it on; any value present when unset. */
  readonly value?: unknown;
  /** The Secret mounted: a component's server Secret, or the SQL server's Secret for MySQL clients. */
  readonly secret: {
    /** The component whose server Secret it is. */
    readonly component: ComponentToken;
  } | {
    /** The SQL server's Secret for MySQL clients. */
    readonly sqlServer: true;
  };
  /** The construct's prop that sets the field and plans the Secret. */
  readonly prop: string;
}

/**
 * Every field of a cluster resource that has the operator mount a Secret when TLS is on, read from
 * the operator's release 1.6 (each component's `tlsCluster` volume, `enableDiscoveryMTLS` on the
 * discovery Deployment, `tlsClient.enabled` on the SQL server's): the fields an escape hatch can set
 * without the prop that issues what they mount.
 * @jsii ignore
 */
export const OPERATOR_MOUNTS: readonly OperatorMount[] = [
  ...COMPONENTS.filter((c) => c.specKey !== undefined && c.deployment === DeployedBy.OPERATOR).map((c): OperatorMount => ({
    resourceKind: CLUSTER_KINDS.find((k) => k.kind === c.cluster)!.resourceKind, path: ['spec', c.specKey!], secret: { component: c.token }, prop: c.specKey!,
  })),
  { resourceKind: 'DatabaseCluster', path: ['spec', 'tlsCluster', 'enableDiscoveryMTLS'], value: true, secret: { component: 'discovery' }, prop: 'enableDiscoveryMTLS' },
  { resourceKind: 'DatabaseCluster', path: ['spec', 'sqlserver', 'tlsClient', 'enabled'], value: true, secret: { sqlServer: true }, prop: 'tlsClient' },
];

/** The `kind` of every cluster resource (`DatabaseCluster`, `MigrationCluster`). */
export const CLUSTER_RESOURCE_KINDS: ReadonlySet<string> = new Set(CLUSTER_KINDS.map((k) => k.resourceKind));

/** Capabilities of the specification's Versioning table that are not a component. */
export const CAPABILITIES = {
  /** `spec.<component>.mountClusterClientSecret` on the database cluster. */
  mountClusterClientSecret: {
    /** The first operator version that supports it. */
    minOperatorVersion: '1.1.5',
  },
} as const;

/** Ports the specification's procedures use. */
export const PORTS = {
  /** The SQL server's client port (backup, restore, migration target). */
  sql: 4000,
  /** The coordinator's client port (`coordctl -u https://127.0.0.1:2379`). */
  coordinatorClient: 2379,
  /** The coordinator's peer port, in the peer URL each member is stored with. */
  coordinatorPeer: 2380,
  /** The store's status port (`storectl --host 127.0.0.1:20160`). */
  storeStatus: 20160,
  /** The migration master's port (`migctl --master-addr 127.0.0.1:8261`). */
  migMaster: 8261,
  /** A MySQL-protocol source database. */
  mysql: 3306,
} as const;

/** Finds a component's catalog row. */
export function component(token: ComponentToken): ComponentEntry {
  const entry = COMPONENTS.find((c) => c.token === token);
  if (!entry) {
    throw new Error(`unknown component token "${token}"; expected one of ${COMPONENTS.map((c) => c.token).join(', ')}`);
  }
  return entry;
}

/** Finds a cluster kind's catalog row. */
export function clusterKind(kind: ClusterKind): ClusterKindEntry {
  const entry = CLUSTER_KINDS.find((k) => k.kind === kind);
  if (!entry) {
    throw new Error(`unknown cluster kind "${kind}"; expected one of ${CLUSTER_KINDS.map((k) => k.kind).join(', ')}`);
  }
  return entry;
}

/** Whether a value is one of the catalog's component tokens. */
export function isComponentToken(value: unknown): value is ComponentToken {
  return COMPONENTS.some((c) => c.token === value);
}

/**
 * Every component token, in the catalog's order.
 * @internal
 */
export const COMPONENT_TOKENS: readonly ComponentToken[] = COMPONENTS.map((c) => c.token);

/** The tokens of one cluster kind's components, optionally only those deployed a given way. */
export function componentsOf(kind: ClusterKind, deployment?: DeployedBy): ComponentToken[] {
  return COMPONENTS
    .filter((c) => c.cluster === kind && (deployment === undefined || c.deployment === deployment))
    .map((c) => c.token);
}

/**
 * Values the specification shows in its examples and the constructs use as defaults, where no
 * table row holds them.
 */
export const SHOWN_VALUES = {
  /** `spec.timezone` of the database cluster. */
  timezone: 'UTC',
  /** `storageSize` of the migration cluster's master and worker. */
  migrationStorageSize: '10Gi',
  /** A source's `relay-dir` in its migration configuration. */
  relayDir: './relay_log',
  /** The migration task's `task-mode`. */
  taskMode: 'all',
  /** The migration task's loader `dir`. */
  loaderDir: './dumped_data',
  /** The drainer chart's `storage`. */
  drainerStorage: '10Gi',
  /** The `backupType` of a backup or restore. */
  backupType: 'full',
} as const;
