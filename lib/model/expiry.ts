/**
 * The expiry alerts as data: what each alert is called, the metrics it reads, the default
 * thresholds, and the exporter that reads the Secrets cert-manager does not manage. The rules
 * themselves are rendered from this by `documents/expiry-rules.ts`.
 */
import type { ClusterKind } from './catalog';

/** The alerts, one rule each per watched certificate. */
export const EXPIRY_ALERTS = {
  /** A certificate expires within its threshold (with cert-manager: and its renewal is overdue). */
  expiring: 'ClusterTlsCertificateExpiring',
  /** A cert-manager Certificate is not Ready. */
  notReady: 'ClusterTlsCertificateNotReady',
  /**
   * The Prometheus that holds the rule has series of the cluster's certificates from this source,
   * but none for this one: nothing watches it.
   */
  unwatched: 'ClusterTlsCertificateUnwatched',
  /**
   * The Prometheus that holds the rule has no series of any of the cluster's certificates from a
   * source (cert-manager, the exporter): the source is not scraped there. One alert, not one per certificate.
   */
  metricsMissing: 'ClusterTlsCertificateMetricsMissing',
  /**
   * cert-manager: a leaf was issued before the CA's last renewal, so its Secret's `ca.crt` holds
   * the CA certificate that renewal replaced, which expires `caRenewBefore` after it.
   */
  outdatedCaCopy: 'ClusterTlsOutdatedCaCopy',
} as const;

/** The metrics the alerts read. */
export const EXPIRY_METRICS = {
  /** cert-manager: a Certificate's `notAfter`, in seconds since the epoch; labels `namespace`, `name`. */
  certManagerExpiry: 'certmanager_certificate_expiration_timestamp_seconds',
  /** cert-manager: 1 on the series of a Certificate's current Ready `condition` ("True", "False", "Unknown"). */
  certManagerReady: 'certmanager_certificate_ready_status',
  /** The exporter: a certificate's `notAfter`; labels `secret_namespace`, `secret_name`, `secret_key`. */
  exporterExpiry: 'x509_cert_not_after',
} as const;

/**
 * The defaults of the expiry watch. A leaf alerts 21 days ahead; a CA 60 days ahead, which is its
 * default renewal window (720h) and 30 days more to plan its rotation, since every leaf is
 * re-issued with it.
 */
export const EXPIRY_DEFAULTS = {
  /** How long before it expires a server or client certificate alerts, unless `leafThreshold` is set: 21 days. */
  leafThreshold: '504h',
  /** How long before it expires the CA alerts, unless `caThreshold` is set: 60 days. */
  caThreshold: '1440h',
  /** How long an expiry or a missing series lasts before it alerts; with cert-manager, the grace given to an overdue renewal. */
  for: '1h',
  /** How long a Certificate stays not Ready before it alerts. */
  notReadyFor: '15m',
} as const;

/**
 * The exporter of certificate expiry for the Secrets cert-manager does not manage (cfssl,
 * user-provided, a CA replacement's scripted phases): enix's x509-certificate-exporter, which
 * watches Kubernetes Secrets by type and key and exports `x509_cert_not_after` per Secret. Its
 * chart is published as an OCI artifact (its classic repository is no longer updated).
 */
export const EXPIRY_EXPORTER = {
  /** The chart's OCI reference, as `helm upgrade --install` takes it. */
  chart: 'oci://quay.io/enix/charts/x509-certificate-exporter',
  /** The first release whose chart limits the Secrets it reads by name (`secretsExporter.includeSecrets`). */
  version: '4.2.0',
  /** The Secret types the library's Secrets have: cfssl's script writes Opaque ones, users often kubernetes.io/tls. */
  secretTypes: ['Opaque', 'kubernetes.io/tls'],
} as const;

/** The Secret keys the exporter reads, and which threshold each takes. */
export const EXPORTED_KEYS = [
  { key: 'tls.crt', ca: false },
  { key: 'ca.crt', ca: true },
] as const;

/**
 * The labels the library sets on every alert; `alertLabels` may not set them. `namespace` is the
 * namespace of the Secret or Certificate the alert is about, `tls_cluster_namespace` the cluster's:
 * with both, every alert is unique per certificate across any number of clusters in one
 * Prometheus, and routes and silences can select a namespace.
 */
export const EXPIRY_ALERT_LABELS = ['tls_cluster', 'tls_cluster_namespace', 'namespace', 'secret', 'certificate', 'source', 'severity'] as const;

/** The shortest threshold an expiry alert takes: closer to expiry leaves no time to act. */
export const MINIMUM_EXPIRY_THRESHOLD = '1h';

/**
 * Which CA a certificate belongs with: the cluster's, which every component trusts, the SQL CA
 * of TLS for MySQL clients, or a PKI of the user's (a Secret the user creates that the cluster loads).
 */
export type CertificateTrust = 'cluster' | 'sql' | 'external';

/**
 * A certificate cert-manager issues and renews: a `Certificate` and the Secret it writes.
 * @jsii ignore
 */
export interface ManagedCertificate {
  /** The `Certificate`'s name, which cert-manager's metrics carry. */
  readonly certificateName: string;
  /** The namespace of the `Certificate` and its Secret. */
  readonly namespace: string;
  /** The Secret it writes. */
  readonly secretName: string;
  /** Whether it is a CA. */
  readonly ca: boolean;
  /** The CA it is, or the CA that signs it. */
  readonly trust: CertificateTrust;
  /** Its `duration`, in seconds: its expiry less this is when it was issued. */
  readonly durationSeconds: number;
  /** Its `renewBefore`, in seconds: an alert before that would only announce the renewal. */
  readonly renewBeforeSeconds: number;
}

/**
 * A certificate the exporter reads from a Secret's key.
 * @jsii ignore
 */
export interface ExportedCertificate {
  /** The name of the Secret the exporter reads. */
  readonly secretName: string;
  /** The Secret's namespace. */
  readonly namespace: string;
  /** The CA it is, or the CA that signs it. */
  readonly trust: CertificateTrust;
  /** `tls.crt` or `ca.crt`. */
  readonly secretKey: string;
  /** Whether it is a CA (a Secret's `ca.crt`). */
  readonly ca: boolean;
  /**
   * For a Secret the user creates that the cluster loads (an upstream database's client
   * certificate, a changefeed sink's): what loads it, as an alert says it.
   */
  readonly usedBy?: string;
}

/**
 * A TLS Secret the user creates that a cluster loads: an upstream or downstream database's client
 * certificate of a migration, a changefeed sink's.
 * @jsii ignore
 */
export interface ExternalTlsSecret {
  /** The Secret's name. */
  readonly name: string;
  /** Its namespace, the cluster's. */
  readonly namespace: string;
  /** The kind of the cluster resource that loads it. */
  readonly cluster: ClusterKind;
  /** What loads it, as an alert says it: `migration source <id>`, `the migration's target`, `the changefeed's sink`. */
  readonly usedBy: string;
}

/** One certificate an expiry rule watches, and through which metrics. */
export type WatchedCertificate =
  | ({
    /** Watched through cert-manager's metrics of its `Certificate`. */
    readonly by: 'cert-manager';
  } & ManagedCertificate)
  | ({
    /** Watched through the exporter's metrics of its Secret. */
    readonly by: 'exporter';
  } & ExportedCertificate);
