/**
 * The public API of cdk8s-cluster-tls: re-exports only.
 */
export * from './spec/catalog';
export * from './spec/names';
export * from './spec/output-layout';
export type { SecretRef } from './spec/secret-ref';
export * from './spec/duration';
export * from './spec/errors';
export * from './spec/settings';
export {
  DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT, ENABLEMENT_PHASES, ENABLEMENT_STATES, EnablementState, TlsEnablement, TlsEnablementPhase, TlsPlanEnablement,
} from './spec/enablement';
export type { ResolvedEnablement } from './clusters/enablement';
export * from './certificates/certificate-options';
export * from './certificates/cluster-certificates';
export {
  CertificateRotation, PhaseContent, ROTATION_PHASES, RESTART_ORDER, ResolvedRotation, RotationKind, RotationPhase, restartValue,
} from './certificates/rotation';
export * from './synth/output-file';
export type { Runbook, RunbookStep } from './documents/runbook';
export * from './synth/synthesize';
export * from './clusters/endpoints';
export * from './clusters/tls-cluster';
export * from './clusters/tls-database-cluster';
export * from './clusters/database-monitor';
export * from './clusters/tls-migration-cluster';
export * from './clusters/drainer-release';
export * from './clusters/backup-restore';
export * from './verify';
