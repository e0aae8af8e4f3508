/**
 * The props of `DrainerRelease`: the chart, the downstream TLS, the GitOps engine, and their
 * defaults. Only types and constants: how they are checked is `drainer-checks.ts`.
 */
import { SHOWN_VALUES } from '../model/catalog';
import type { DurationValue } from '../model/duration';
import type { StorageSize } from '../model/quantity';
import type { SecretRef } from '../model/secret-ref';
import type { ITlsDatabaseCluster } from './tls-cluster';

/** The GitOps engine that installs the drainer chart instead of a person running `helm install`. */
export enum GitOpsEngine {
  /** Flux: a `HelmRepository` and a `HelmRelease` in the cluster's namespace. */
  FLUX = 'flux',
  /** Argo CD: an `Application` in Argo CD's namespace. */
  ARGO_CD = 'argo-cd',
}

/** The chart the drainer is installed from. */
export interface DrainerChart {
  /**
   * With `repository`: the chart's name in that repository. Without: the chart reference handed to
   * `helm install` as it is, such as `myrepo/drainer` for a repository already added, or a local path.
   * @default 'drainer'
   */
  readonly name?: string;
  /**
   * The chart repository's URL: `https://…` for a classic repository, `oci://…` for an OCI
   * registry. Required with `gitOps`.
   * @default - none: `name` is a reference helm resolves itself
   */
  readonly repository?: string;
  /**
   * The exact chart version (`helm install --version`), a SemVer version such as `1.1.0`. There is
   * no default: the chart's versions are the chart publisher's, and an unpinned install is not
   * repeatable.
   */
  readonly version: string;
}

/**
 * TLS between the drainer and the databases it writes to: the chart's `tlsSyncer` values.
 *
 * ```yaml
 * tlsSyncer:
 *   tlsClientSecretName: <secretName>
 *   certAllowedCN: [<allowedCommonNames>]            # when set
 *   checkpoint:
 *     tlsClientSecretName: <checkpointSecretName>    # when set
 *     certAllowedCN: [<checkpointAllowedCommonNames>]  # when set
 * ```
 */
export interface DrainerDownstreamTls {
  /**
   * The Secret with the client certificate set (`tls.crt`, `tls.key`, `ca.crt`) for the downstream
   * database the drainer writes to (`tlsSyncer.tlsClientSecretName`). You create it; the library
   * only refers to it. It cannot be one of the cluster's own certificate Secrets. A name, or a
   * cdk8s-plus `ISecret`.
   */
  readonly secretName: SecretRef;
  /**
   * Common Names the drainer accepts from the downstream database (`tlsSyncer.certAllowedCN`).
   * @default - the chart's default: no Common Name check
   */
  readonly allowedCommonNames?: string[];
  /**
   * The Secret with the client certificate set for the checkpoint database, when the drainer keeps
   * its checkpoint in another database than the downstream one (`tlsSyncer.checkpoint.tlsClientSecretName`).
   * A name, or a cdk8s-plus `ISecret`.
   * @default - none: the checkpoint is kept in the downstream database
   */
  readonly checkpointSecretName?: SecretRef;
  /**
   * Common Names the drainer accepts from the checkpoint database (`tlsSyncer.checkpoint.certAllowedCN`).
   * Only with `checkpointSecretName`: the chart writes the list into the checkpoint's TLS section,
   * which it writes only for a checkpoint Secret (without one, the list would land in the section
   * before it and check the downstream database instead).
   * @default - the chart's default: no Common Name check of the checkpoint database
   */
  readonly checkpointAllowedCommonNames?: string[];
}

/** Props of {@link DrainerRelease}. */
export interface DrainerReleaseProps {
  /** The database cluster the drainer belongs to. */
  readonly cluster: ITlsDatabaseCluster;
  /**
   * The chart's release name (`helm install <releaseName>`): lowercase letters, digits and '-',
   * at most 53 characters (Helm's limit).
   */
  readonly releaseName: string;
  /**
   * The chart value `drainerName`: the name of the drainer's StatefulSet, pods and service, and so
   * of its host names. It cannot change once the drainer runs (the specification does not support
   * renaming a running drainer).
   * @default `${cluster_name}-${release_name}-drainer`
   */
  readonly drainerName?: string;
  /** The chart and its exact version. */
  readonly chart: DrainerChart;
  /**
   * The drainer's version (chart value `clusterVersion`), `v<major>.<minor>.<patch>`. It also
   * decides whether a rotation restarts the drainer: from v4.0.0 it re-reads its certificate for
   * each new connection (the catalog's `leafReload`).
   * @default - the cluster's version
   */
  readonly version?: string;
  /**
   * The drainer's volume size (chart value `storage`): a quantity such as `10Gi`, or a cdk8s `Size`.
   * @default '10Gi'
   */
  readonly storage?: StorageSize;
  /**
   * The storage class of the drainer's volume (chart value `storageClassName`).
   * @default - the Kubernetes cluster's default storage class
   */
  readonly storageClassName?: string;
  /**
   * The drainer's own configuration, a TOML document passed through as the chart value `config`
   * (the chart reads a string, not a map). It may hold credentials: errors never repeat it.
   * @default - the chart's default configuration
   */
  readonly config?: string;
  /**
   * A Secret you create that holds the drainer's configuration (its downstream password and all)
   * as chart values, with {@link GitOpsEngine.FLUX}: its key `values.yaml` is the document
   * `config: |` followed by the TOML configuration indented by two spaces, which the `HelmRelease`
   * merges through `valuesFrom`, so the credentials never reach the manifests GitOps commits (the
   * runbook gives the command that makes it from a TOML file). A name, or a cdk8s-plus `ISecret`.
   * Give it instead of `config`.
   * @default - none: the chart value `config` is written with the values, from `config`
   */
  readonly configSecret?: SecretRef;
  /**
   * Common Names the drainer accepts from peers besides the certificates' (`tlsCluster.certAllowedCN`).
   * @default - only the certificates' Common Name
   */
  readonly extraAllowedCommonNames?: string[];
  /**
   * TLS to the downstream database and to the checkpoint database (see {@link DrainerDownstreamTls}).
   * @default - no downstream TLS values
   */
  readonly downstreamTls?: DrainerDownstreamTls;
  /**
   * Further chart values (resources, node selector, …), written after the construct's own. Keys
   * the construct sets are refused.
   * @default - none
   */
  readonly extraValues?: { readonly [key: string]: any };
  /**
   * Let a GitOps engine install the chart: with {@link GitOpsEngine.FLUX} a `HelmRepository` and a
   * `HelmRelease`, with {@link GitOpsEngine.ARGO_CD} an `Application`, each carrying the values of
   * the values file. Needs `chart.repository`.
   * @default - none: the runbook's `helm install` installs it
   */
  readonly gitOps?: GitOpsEngine;
  /**
   * How often Flux checks the repository and the release (`spec.interval`).
   * @default '10m'
   */
  readonly gitOpsInterval?: DurationValue;
  /**
   * The namespace Argo CD runs in, where the `Application` goes.
   * @default 'argocd'
   */
  readonly argoCdNamespace?: string;
  /**
   * The Argo CD project of the `Application`.
   * @default 'default'
   */
  readonly argoCdProject?: string;
}

/** The default chart reference, documented on {@link DrainerChart.name}. */
export const DEFAULT_DRAINER_CHART = 'drainer';
/** The default size of the drainer's volume. */
export const DEFAULT_DRAINER_STORAGE = SHOWN_VALUES.drainerStorage;
/** The default interval of Flux's checks, documented on {@link DrainerReleaseProps.gitOpsInterval}. */
export const DEFAULT_GITOPS_INTERVAL = '10m';
/** The default namespace of Argo CD, documented on {@link DrainerReleaseProps.argoCdNamespace}. */
export const DEFAULT_ARGO_CD_NAMESPACE = 'argocd';
/** The default Argo CD project, documented on {@link DrainerReleaseProps.argoCdProject}. */
export const DEFAULT_ARGO_CD_PROJECT = 'default';
