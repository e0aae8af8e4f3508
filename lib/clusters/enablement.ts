/**
 * The `enablement` prop of a database cluster resolved: its phase, what the phase writes, and the
 * store's eviction timeout while it is lowered; and what the phase's runbook says of the cluster.
 */
import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ClusterKind, MOUNT_PATHS, OPERATOR_ROLL_ORDER, PORTS } from '../spec/catalog';
import {
  DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT, ENABLEMENT_PHASES, ENABLEMENT_STATES, EnablementState, TlsEnablement, TlsEnablementPhase,
} from '../spec/enablement';
import * as names from '../spec/names';
import { manifestFileName, membersFileFromOutputFolder, verifyReportFromOutputFolder } from '../spec/output-layout';
import { requireDuration } from '../spec/validate';
import type { EnablementRunbookInput } from '../documents/enablement-runbook';
import type { RunbookStep } from '../documents/runbook';
import type { ITlsCluster } from './tls-cluster';

/** A TLS enablement with its defaults applied. */
export interface ResolvedEnablement {
  readonly phase: TlsEnablementPhase;
  /** What the cluster resource and the drainer say in the phase. */
  readonly state: EnablementState;
  /** The store's eviction timeout while the enablement lowers it. */
  readonly evictLeaderTimeout: string;
}

/** Resolves the `enablement` prop (its shape already checked); undefined when none is declared. */
export function resolveEnablement(scope: IConstruct, enablement: TlsEnablement | undefined): ResolvedEnablement | undefined {
  if (enablement === undefined) {
    return undefined;
  }
  const evictLeaderTimeout = enablement.evictLeaderTimeout ?? DEFAULT_ENABLEMENT_EVICT_LEADER_TIMEOUT;
  requireDuration(scope, 'enablement.evictLeaderTimeout', evictLeaderTimeout);
  return { phase: enablement.phase, state: ENABLEMENT_STATES[enablement.phase], evictLeaderTimeout };
}

/** What the enablement runbook of a phase says of `cluster`, resolved at synth (components may be added until then). */
export function enablementRunbookInput(cluster: ITlsCluster, enablement: ResolvedEnablement,
  extra: { readonly coordinatorReplicas: number; readonly afterRoll: readonly RunbookStep[] }): EnablementRunbookInput {
  const { clusterName, namespace } = cluster;
  return {
    clusterName,
    namespace,
    phase: enablement.phase,
    phases: ENABLEMENT_PHASES,
    tls: enablement.state.tls,
    manifestFile: manifestFileName(Chart.of(cluster)),
    issuanceSteps: cluster.certificates.issuanceSteps(),
    secretNames: [...cluster.components.map((t) => cluster.serverSecretName(t)), cluster.clientSecretName],
    coordinator: {
      statefulSet: names.serviceName(clusterName, 'coordinator'),
      pod: names.firstPodName(clusterName, 'coordinator'),
      replicas: extra.coordinatorReplicas,
      peerUrl: names.coordinatorPeerUrl(clusterName, namespace, 0, cluster.certificates.clusterDomain),
      tlsFolder: MOUNT_PATHS.coordinatorTls,
      clientPort: PORTS.coordinatorClient,
    },
    podSelector: names.clusterPodSelector(clusterName),
    rolled: OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].filter((t) => cluster.components.includes(t)),
    evictLeaderTimeout: enablement.evictLeaderTimeout,
    afterRoll: extra.afterRoll,
    verifyReport: verifyReportFromOutputFolder(namespace, clusterName),
    membersFile: membersFileFromOutputFolder(namespace, clusterName),
  };
}
