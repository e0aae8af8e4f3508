/**
 * The public API of cdk8s-cluster-tls: re-exports only.
 */
export * from './model/catalog';
export * from './model/catalog-certificates';
export * from './model/catalog-pods';
export * from './model/catalog-sql-tls';
export * from './model/names';
export { HELM_RELEASE_MAX } from './model/limits';
export * from './model/output-layout';
export type { CdkPlusPackage, ISecretLike, SecretLike, SecretRef } from './model/secret-ref';
export { DurationValue, durationHours, durationText, formatDuration, parseDuration } from './model/duration';
export { MAX_QUANTITY_EXPONENT, isStorageQuantity, sizeQuantity } from './model/quantity';
export type { StorageSize } from './model/quantity';
export * from './model/errors';
export * from './model/settings';
export {
  DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT, ENABLEMENT_PHASES, ENABLEMENT_STATES, EnablementState, TlsEnablement, TlsEnablementPhase, TlsPlanEnablement,
} from './model/enablement';
export type { ResolvedEnablement } from './clusters/enablement';
export { MigrationRecreation, MigrationRecreationPhase, RECREATION_PHASES } from './model/recreation';
export { KubernetesClusterSpec, KubernetesSpan } from './model/span';
export type { ResolvedKubernetesCluster, ResolvedSpan } from './model/span';
export * from './plan/certificate-options';
export * from './certificates/cluster-certificates';
export { ClusterCertificatesProps, SUBJECT_PROP } from './certificates/cluster-certificates-props';
export { IssuerKind, IssuerReference } from './plan/issuer-ref';
export {
  CertificateRotation, PhaseContent, ROTATION_PHASES, RESTART_ORDER, ResolvedRotation, RotationKind, RotationPhase, restartValue,
} from './plan/rotation';
export * from './certificates/expiry-watch';
export { ResolvedSqlTlsOptions, SqlClient, SqlClientOptions, SqlTls, SqlTlsOptions, SqlTlsProps, resolveSqlTlsOptions } from './certificates/sql-tls';
export { EXPIRY_ALERTS, EXPIRY_ALERT_LABELS, EXPIRY_DEFAULTS, EXPIRY_EXPORTER, EXPIRY_METRICS, MINIMUM_EXPIRY_THRESHOLD } from './model/expiry';
export type { CertificateTrust, ExportedCertificate, ExternalTlsSecret, ManagedCertificate, WatchedCertificate } from './model/expiry';
export type { AlertRule, ExporterValues, RuleGroup } from './documents/expiry-rules';
export * from './app/output-file';
export type { Runbook, RunbookFile, RunbookStep } from './documents/runbook';
export * from './synth/synthesize';
export { MANIFESTS_ONLY_CONTEXT } from './app/registry';
export * from './synth/cluster-tls';
export * from './clusters/endpoints';
export * from './clusters/tls-cluster';
export * from './clusters/database-component-props';
export * from './clusters/tls-database-cluster';
export * from './clusters/database-monitor';
export * from './clusters/migration-props';
export * from './clusters/tls-migration-cluster';
export * from './clusters/drainer-props';
export * from './clusters/drainer-release';
export * from './clusters/backup-restore';
export * from './verify';
export { ClusterTlsValidation, ValidationContextLike, ValidationReportLike, readManifests } from './validation/plugin';
export { ManifestObject, ManifestRule, ManifestViolation, checkManifests } from './validation/rules';
