/**
 * The `enablement` prop of a database cluster resolved: its phase, what the phase writes, and the
 * store's eviction timeout while it is lowered; and what the phase's runbook says of the cluster.
 */
import { Chart } from 'cdk8s';
import { ClusterKind, OPERATOR_ROLL_ORDER, PORTS } from '../model/catalog';
import { MOUNT_PATHS } from '../model/catalog-pods';
import {
  ENABLEMENT_PHASES, ENABLEMENT_STATES, EnablementState, TlsEnablement,
  TlsEnablementPhase,
} from '../model/enablement';
import { durationText } from '../model/duration';
import * as names from '../model/names';
import { enablementRunbookPath, manifestFileName, membersFileFromOutputFolder, verifyReportFromOutputFolder } from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import { EnablementRunbookInput, enablementRunbook } from '../documents/enablement-runbook';
import type { RunbookStep } from '../documents/runbook';
import type { ITlsCluster } from './tls-cluster';

/**
 * A TLS enablement with its defaults applied.
 * @jsii ignore
 */
export interface ResolvedEnablement {
  /** The phase this commit declares. */
  readonly phase: TlsEnablementPhase;
  /** What the cluster resource and the drainer say in the phase. */
  readonly state: EnablementState;
  /** The store's eviction timeout while the enablement lowers it. */
  readonly evictLeaderTimeout: string;
}

/**
 * Resolves a database cluster's `enablement` prop (its shape already checked), declares it on the
 * cluster's certificates and adds the phase's runbook (`EnablementRunbook`, rendered at synth);
 * undefined when none is declared.
 */
export function declareEnablement(cluster: ITlsCluster, enablement: TlsEnablement | undefined,
  extra: { readonly coordinatorReplicas: number; readonly afterRoll: readonly RunbookStep[] }): ResolvedEnablement | undefined {
  const resolved = resolveEnablement(enablement);
  if (resolved !== undefined) {
    cluster.certificates.declareEnablement(cluster, resolved.phase);
    new OutputFile(cluster, 'EnablementRunbook', {
      path: enablementRunbookPath(cluster.namespace, cluster.clusterName),
      content: { render: () => enablementRunbook(enablementRunbookInput(cluster, resolved, extra)) },
    });
  }
  return resolved;
}

/** Resolves the `enablement` prop, which `ENABLEMENT_SHAPE` checked and gave its default; undefined when none is declared. */
function resolveEnablement(enablement: TlsEnablement | undefined): ResolvedEnablement | undefined {
  if (enablement === undefined) {
    return undefined;
  }
  return { phase: enablement.phase, state: ENABLEMENT_STATES[enablement.phase], evictLeaderTimeout: durationText(enablement.evictLeaderTimeout!) };
}

/** What the enablement runbook of a phase says of `cluster`, resolved at synth (components may be added until then). */
function enablementRunbookInput(cluster: ITlsCluster, enablement: ResolvedEnablement,
  extra: { readonly coordinatorReplicas: number; readonly afterRoll: readonly RunbookStep[] }): EnablementRunbookInput {
  const { clusterName, namespace } = cluster;
  // The plan names the member that stays and its https URL; the runbook says the same.
  const plan = cluster.certificates.plan();
  const { member, peerUrl } = plan.enablement!.coordinator;
  return {
    clusterName,
    namespace,
    phase: enablement.phase,
    phases: ENABLEMENT_PHASES,
    tls: enablement.state.tls,
    manifestFile: manifestFileName(Chart.of(cluster)),
    issuanceSteps: cluster.certificates.issuanceSteps(),
    secretNames: plan.secrets.map((s) => s.name),
    coordinator: {
      pod: member,
      replicas: extra.coordinatorReplicas,
      peerUrl,
      tlsFiles: names.tlsFilePaths(MOUNT_PATHS.coordinatorTls),
      secretName: cluster.serverSecretName('coordinator'),
      podSelector: names.componentPodSelector(clusterName, 'coordinator'),
      clientPort: PORTS.coordinatorClient,
    },
    podSelector: names.componentsPodSelector(clusterName, OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].filter((t) => cluster.components.includes(t))),
    rolled: OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].filter((t) => cluster.components.includes(t)),
    evictLeaderTimeout: enablement.evictLeaderTimeout,
    afterRoll: extra.afterRoll,
    verifyReport: verifyReportFromOutputFolder(namespace, clusterName),
    membersFile: membersFileFromOutputFolder(namespace, clusterName),
  };
}
