/**
 * The `DrainerRelease` construct: the drainer chart's values with TLS on, its server certificate,
 * the install command, and optionally the Flux or Argo CD objects that install it.
 */
import { ApiObject, Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-27';
import { Construct, IConstruct } from 'constructs';
import * as semver from 'semver';
import * as TOML from 'smol-toml';
import { COMPONENTS, SHOWN_VALUES, component } from '../model/catalog';
import { Description, describeType, describeValue, hasCredentials, inputError, shown } from '../model/errors';
import * as names from '../model/names';
import { OutputFile } from '../synth/output-file';
import type { ClusterCertificates } from '../certificates/cluster-certificates';
import type { ITlsDatabaseCluster } from './tls-cluster';
import { drainerValuesPath, fromOutputFolder, manifestFileName } from '../model/output-layout';
import { CdkPlusPackage, SecretRef, secretRef } from '../model/secret-ref';
import { registerDrainer } from '../synth/app-rules';
import { compact, dependWithinChart } from './operator';
import { RunbookStep } from '../documents/runbook';
import { DATABASE_CLUSTER_PROP, requireExternalSecretName } from './cluster-props';
import { stringifyYaml } from '../yaml/emitter';
import { ShapeOf, checkProps, objectOf, oneOf, strings } from '../model/props';
import { DurationValue, durationSpec, durationText } from '../model/duration';
import { StorageSize, storageSize } from '../model/quantity';
import {
  isDnsLabel, requireDerivedLabels, requireDnsLabel, requireDnsSubdomain, requireDuration, requireExtraCommonNames, requireNoCredentials, requireQuantity, requireUrl,
} from '../model/validate';
import { requireRelease } from '../model/versions';

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

/** Helm refuses release names longer than this. */
const HELM_RELEASE_MAX = 53;
const FLUX_SOURCE_API = 'source.toolkit.fluxcd.io/v1';
const FLUX_HELM_API = 'helm.toolkit.fluxcd.io/v2';
const ARGO_CD_API = 'argoproj.io/v1alpha1';
/** The Kubernetes cluster Argo CD runs in, as its `destination.server`. */
const IN_CLUSTER = 'https://kubernetes.default.svc';
/** The props of a drainer release, as JavaScript types. */
const DRAINER_RELEASE_SHAPE = {
  cluster: DATABASE_CLUSTER_PROP,
  releaseName: 'string',
  drainerName: 'string?',
  chart: objectOf({ name: 'string?', repository: 'string?', version: 'string' }, false, 'the drainer chart, with at least its exact version: { version: "1.1.0" }'),
  version: 'string?',
  storage: storageSize(),
  storageClassName: 'string?',
  config: { type: 'string', optional: true, expected: 'a TOML document as a string (the chart value config is text)', kind: 'configMapData' },
  configSecret: secretRef(),
  extraAllowedCommonNames: strings('a list of Common Names'),
  downstreamTls: objectOf({
    secretName: secretRef(false), allowedCommonNames: strings('a list of Common Names'), checkpointSecretName: secretRef(),
    checkpointAllowedCommonNames: strings('a list of Common Names'),
  }),
  extraValues: { type: 'object', optional: true, expected: 'an object of chart values', data: true },
  gitOps: oneOf(Object.values(GitOpsEngine)),
  gitOpsInterval: durationSpec(),
  argoCdNamespace: 'string?',
  argoCdProject: 'string?',
} satisfies ShapeOf<DrainerReleaseProps>;

/** Chart values the construct writes itself; `extraValues` may not set them. */
const OWN_VALUES = ['clusterName', 'drainerName', 'clusterVersion', 'storage', 'storageClassName', 'tlsCluster', 'tlsSyncer', 'config'];

/**
 * The drainer of a TLS database cluster, installed with its package-manager chart (specification,
 * section C step 4): the chart values file with TLS on and the allowed Common Names, the drainer's
 * server certificate with host names from its `drainerName`, the `helm install` command in the
 * cluster's runbook, and, on request, the Flux or Argo CD objects that install it instead.
 *
 * The values file is `<namespace>/<cluster>/drainer-<release>-values.yaml` in the files folder;
 * it holds `drainerName` when one is set (the chart defaults it to `${cluster_name}-${release_name}-drainer`).
 * Synth compares the effective name with the committed output, so a rename is refused.
 */
export class DrainerRelease extends Construct {
  /** The chart's release name. */
  public readonly releaseName: string;
  /** The effective `drainerName`: the one given, or `${cluster_name}-${release_name}-drainer`. */
  public readonly drainerName: string;
  /** The namespace the drainer runs in, the cluster's. */
  public readonly namespace: string;
  /** The drainer's server Secret, `${cluster_name}-drainer-cluster-secret`. */
  public readonly serverSecretName: string;
  /** The host names on the drainer's server certificate. */
  public readonly hostNames: string[];
  /** The values file. */
  public readonly valuesFile: OutputFile;
  /** The `helm install` command, as the runbook shows it (run from the output folder). */
  public readonly installCommand: string;
  /** The Flux `HelmRepository`, with {@link GitOpsEngine.FLUX}. */
  public readonly helmRepository?: ApiObject;
  /** The Flux `HelmRelease`, with {@link GitOpsEngine.FLUX}. */
  public readonly helmRelease?: ApiObject;
  /** The Argo CD `Application`, with {@link GitOpsEngine.ARGO_CD}. */
  public readonly application?: ApiObject;
  private readonly chartValues: Record<string, unknown>;
  private readonly certificates: ClusterCertificates;
  /** The Secret, which you create, that the `HelmRelease` takes the drainer's configuration from (`configSecret`), when given. */
  public readonly configSecretName?: string;

  constructor(scope: Construct, id: string, props: DrainerReleaseProps) {
    super(scope, id);
    props = checkProps(this, props, DRAINER_RELEASE_SHAPE);
    const resolved = resolveDrainerProps(this, props);
    const { cluster, gitOps } = props;
    const { clusterName, namespace } = cluster;

    this.releaseName = props.releaseName;
    this.drainerName = resolved.drainerName;
    this.namespace = namespace;
    registerDrainer(this);
    const plan = cluster.certificates.addComponent('drainer', { releaseName: props.releaseName, drainerName: props.drainerName });
    cluster.certificates._declareVersion(this, 'drainer', resolved.version);
    this.serverSecretName = plan.secretName;
    this.certificates = cluster.certificates;
    this.hostNames = [...plan.dnsNames];

    this.configSecretName = resolved.configSecret;
    this.chartValues = drainerChartValues(props, resolved);
    const valuesPath = drainerValuesPath(namespace, clusterName, props.releaseName);
    this.valuesFile = new OutputFile(this, 'Values', { path: valuesPath, content: this.valuesFileContent(clusterName) });
    // Commands run in the output folder, as every runbook's do.
    this.installCommand = helmCommand('install', props.releaseName, resolved.chart, namespace, fromOutputFolder(valuesPath));
    cluster.addEnablementStep(this.enablementStep(resolved.chart, fromOutputFolder(valuesPath), gitOps));

    const interval = durationText(props.gitOpsInterval ?? '10m');
    requireDuration(this, 'gitOpsInterval', interval);
    if (gitOps === GitOpsEngine.FLUX) {
      [this.helmRepository, this.helmRelease] = this.declareFlux(cluster, resolved.chart, interval);
    } else if (gitOps === GitOpsEngine.ARGO_CD) {
      this.application = this.declareArgoCdApplication(props, resolved.chart);
    }

    cluster.addRunbookStep(this.runbookStep(cluster, resolved, fromOutputFolder(valuesPath), gitOps));
  }

  /** The drainer's server Secret (`serverSecretName`) as a cdk8s-plus `ISecret`. */
  public serverSecret(): kplus.ISecret;
  /** The drainer's server Secret as an `ISecret` of the cdk8s-plus package given (any major from 27). */
  public serverSecret<S>(plus: CdkPlusPackage<S>): S;
  public serverSecret<S>(plus?: CdkPlusPackage<S>): kplus.ISecret | S {
    return this.certificates.serverSecret('drainer', plus as CdkPlusPackage<S>);
  }

  /** The chart values, as the values file and the GitOps objects hold them (a copy). */
  public get values(): Record<string, any> {
    return structuredClone(this.chartValues);
  }

  /** The values file's text: a header naming the release and the drainer, then the chart values as YAML. */
  private valuesFileContent(clusterName: string): string {
    const header = `# Values of the drainer chart, release ${this.releaseName} of database cluster ${this.namespace}/${clusterName}. `
      + `Generated by cdk8s-cluster-tls; the drainer's name (${this.drainerName}) cannot change once it runs.\n`;
    // Helm reads YAML 1.1: a value such as `yes` or `on` is quoted, so that it stays a string.
    return header + stringifyYaml(this.chartValues);
  }

  /** Declares Flux's `HelmRepository` and the `HelmRelease` that installs the chart from it with the chart values. */
  private declareFlux(cluster: ITlsDatabaseCluster, chart: ResolvedChart, interval: string): [ApiObject, ApiObject] {
    const { namespace, releaseName } = this;
    const repositoryName = names.drainerChartRepositoryName(releaseName);
    const helmRepository = new ApiObject(this, 'HelmRepository', {
      apiVersion: FLUX_SOURCE_API,
      kind: 'HelmRepository',
      metadata: { name: repositoryName, namespace },
      spec: compact({ interval, url: chart.repository, type: isOci(chart) ? 'oci' : undefined }),
    });
    const helmRelease = new ApiObject(this, 'HelmRelease', {
      apiVersion: FLUX_HELM_API,
      kind: 'HelmRelease',
      metadata: { name: releaseName, namespace },
      spec: {
        releaseName,
        interval,
        chart: { spec: { chart: chart.name, version: chart.version, sourceRef: { kind: 'HelmRepository', name: repositoryName } } },
        values: this.values,
        // The chart value config from the Secret the user creates, a values document: its credentials stay out of the
        // manifests. Not a targetPath: Flux sets a value at a path with Helm's --set syntax, which splits a TOML text at its commas.
        valuesFrom: this.configSecretName === undefined ? undefined : [{ kind: 'Secret', name: this.configSecretName, valuesKey: DRAINER_CONFIG_VALUES_KEY }],
      },
    });
    helmRelease.node.addDependency(helmRepository);
    dependOnCluster(helmRepository, cluster);
    dependOnCluster(helmRelease, cluster);
    return [helmRepository, helmRelease];
  }

  /** Checks the Argo CD props and declares the `Application` that installs the chart with the chart values. */
  private declareArgoCdApplication(props: DrainerReleaseProps, chart: ResolvedChart): ApiObject {
    const { namespace } = this;
    const argoNamespace = props.argoCdNamespace ?? 'argocd';
    requireDnsLabel(this, 'argoCdNamespace', argoNamespace);
    const project = props.argoCdProject ?? 'default';
    requireDnsSubdomain(this, 'argoCdProject', project);
    const applicationName = names.drainerApplicationName(namespace, props.releaseName);
    requireDerivedLabels(this, 'releaseName', props.releaseName, [applicationName]);
    const application = new ApiObject(this, 'Application', {
      apiVersion: ARGO_CD_API,
      kind: 'Application',
      metadata: { name: applicationName, namespace: argoNamespace },
      spec: {
        project,
        source: {
          // Argo CD's Helm source names an OCI registry without its scheme.
          repoURL: isOci(chart) ? chart.repository!.slice('oci://'.length) : chart.repository,
          chart: chart.name,
          targetRevision: chart.version,
          helm: { releaseName: props.releaseName, valuesObject: this.values },
        },
        destination: { server: IN_CLUSTER, namespace },
        syncPolicy: { automated: { prune: false, selfHeal: true } },
      },
    });
    dependOnCluster(application, props.cluster);
    return application;
  }

  /** The `enable` phase's step: the drainer, installed in plain text, upgraded to the values with TLS on once the cluster has rolled. */
  private enablementStep(chart: ResolvedChart, valuesPath: string, gitOps?: GitOpsEngine): RunbookStep {
    const target = `statefulset/${this.drainerName}`;
    const text = [`The drainer's chart is not the operator's: it still speaks plain text to a cluster that now speaks TLS, and reads nothing until it is upgraded. Its values file \`${valuesPath}\` now turns TLS on.`];
    if (gitOps !== undefined) {
      text.push(`${gitOps === GitOpsEngine.FLUX ? 'Flux' : 'Argo CD'} upgrades the release from the manifests applied above; wait for the drainer to restart.`);
      return { title: 'Upgrade the drainer to TLS', text, commands: [`kubectl rollout status ${target} -n ${this.namespace}`] };
    }
    // The repository again, as on the machine that installed it: helm skips one it already has.
    const repository = chart.repository !== undefined && !isOci(chart) ? [`helm repo add ${names.drainerChartRepositoryName(this.releaseName)} ${chart.repository}`] : [];
    return {
      title: 'Upgrade the drainer to TLS',
      text: [...text, 'Run it once every pod of the cluster mounts its Secret (the step above).'],
      commands: [...repository, helmCommand('upgrade', this.releaseName, chart, this.namespace, valuesPath), `kubectl rollout status ${target} -n ${this.namespace}`],
    };
  }

  /** The runbook step that checks the Secrets and installs the drainer, by hand or through the GitOps engine. */
  private runbookStep(cluster: ITlsDatabaseCluster, { chart, downstream }: ResolvedDrainerProps, valuesPath: string, gitOps?: GitOpsEngine): RunbookStep {
    const { namespace } = this;
    const secrets = [this.serverSecretName];
    if (downstream) {
      secrets.push(...new Set([downstream.secretName, downstream.checkpointSecretName ?? downstream.secretName]));
    }
    if (this.configSecretName !== undefined) {
      secrets.push(this.configSecretName);
    }
    const text = [
      `The drainer is installed from its chart, not by the operator. Its server certificate Secret \`${this.serverSecretName}\` `
        + `must exist first${downstream ? ', and so must the client certificate Secrets of the databases it writes to' : ''}. `
        + `The values file \`${valuesPath}\` turns TLS on and accepts the Common Name \`${cluster.commonName}\`.`,
      `The drainer is named \`${this.drainerName}\` (chart value \`drainerName\`, which also names its StatefulSet and pods). `
        + 'A running drainer cannot be renamed: keep `drainerName` as it is once the drainer is installed.',
    ];
    const commands = [`kubectl get secret ${secrets.join(' ')} -n ${namespace}`];
    if (gitOps === GitOpsEngine.FLUX) {
      text.push(`Flux installs the chart from the HelmRelease \`${this.helmRelease!.name}\` in \`${manifestFileName(Chart.of(this))}\`, with the same values; do not run \`helm install\` as well.`);
      if (this.configSecretName !== undefined) {
        text.push(`It takes the drainer's configuration from the Secret \`${this.configSecretName}\`, which you create, kept out of the repository: its key `
          + `\`${DRAINER_CONFIG_VALUES_KEY}\` holds \`config: |\` and the TOML configuration indented below it. With the configuration in \`drainer.toml\`, `
          + `in a private folder: \`${drainerConfigSecretCommand(this.configSecretName, namespace)}\`. The release waits for the Secret, and the manifests never hold its credentials.`);
      }
      commands.push(`kubectl get helmreleases.helm.toolkit.fluxcd.io ${this.helmRelease!.name} -n ${namespace}`);
    } else if (gitOps === GitOpsEngine.ARGO_CD) {
      text.push(`Argo CD installs the chart from the Application \`${this.application!.name}\` in \`${manifestFileName(Chart.of(this))}\`, with the same values; do not run \`helm install\` as well.`);
      commands.push(`kubectl get applications.argoproj.io ${this.application!.name} -n ${this.application!.metadata.namespace}`);
    } else {
      if (chart.repository !== undefined && !isOci(chart)) {
        commands.push(`helm repo add ${names.drainerChartRepositoryName(this.releaseName)} ${chart.repository}`);
      }
      commands.push(this.installCommand);
    }
    commands.push(`kubectl rollout status statefulset/${this.drainerName} -n ${namespace}`);
    return { title: `Install the drainer (release ${this.releaseName})`, text, commands };
  }
}

/** The chart with its defaults applied. */
interface ResolvedChart {
  readonly name: string;
  readonly repository?: string;
  readonly version: string;
}

/** The props the construct derives values from, checked and with their defaults applied. */
interface ResolvedDrainerProps {
  /** The effective `drainerName`. */
  readonly drainerName: string;
  readonly chart: ResolvedChart;
  /** The drainer's version, the cluster's by default. */
  readonly version: string;
  readonly storage: string;
  readonly extraAllowedCommonNames: string[];
  /** `downstreamTls`, checked, with its Secrets by name. */
  readonly downstream?: ResolvedDownstreamTls;
  /** The name of `configSecret`, checked. */
  readonly configSecret?: string;
}

/** The downstream TLS settings with the Secrets by name. */
interface ResolvedDownstreamTls {
  readonly secretName: string;
  readonly checkpointSecretName?: string;
  /** The downstream Common Names the drainer accepts, when given. */
  readonly allowedCommonNames?: string[];
  /** The checkpoint database's Common Names the drainer accepts, when given. */
  readonly checkpointAllowedCommonNames?: string[];
}

/** Checks the props that {@link checkProps} accepted, in the order their mistakes are reported, and applies their defaults. */
function resolveDrainerProps(scope: Construct, props: DrainerReleaseProps): ResolvedDrainerProps {
  const { cluster } = props;
  const { clusterName, namespace } = cluster;
  checkReleaseName(scope, props.releaseName);
  if (cluster.certificates.hasComponent('drainer')) {
    inputError(scope, 'releaseName', props.releaseName,
      `no second drainer for cluster ${namespace}/${clusterName}: one is already declared`);
  }
  const drainerName = checkDrainerName(scope, clusterName, props.releaseName, props.drainerName);
  const chart = resolveChart(scope, props);
  const version = props.version ?? cluster.version;
  requireRelease(scope, 'version', version);
  const storage = requireQuantity(scope, 'storage', props.storage ?? DEFAULT_DRAINER_STORAGE);
  if (props.storageClassName !== undefined) {
    requireDnsSubdomain(scope, 'storageClassName', props.storageClassName);
  }
  const extraAllowedCommonNames = requireExtraCommonNames(scope, 'extraAllowedCommonNames', props.extraAllowedCommonNames, cluster.commonName);
  if (props.config !== undefined && typeof props.config !== 'string') {
    inputError(scope, 'config', describeType(props.config), 'a TOML document as a string (the chart value config is text)');
  }
  checkExtraValues(scope, props.extraValues);
  const downstream = resolveDownstreamTls(scope, props.downstreamTls, cluster);
  checkGitOps(scope, props.gitOps, chart);
  const configSecret = checkConfigSource(scope, props, cluster);
  return { drainerName, chart, version, storage, extraAllowedCommonNames, downstream, configSecret };
}

/** Refuses `extraValues` keys the construct sets itself, without showing the value (chart values may hold credentials). */
function checkExtraValues(scope: IConstruct, extraValues: DrainerReleaseProps['extraValues']): void {
  const clash = Object.keys(extraValues ?? {}).find((k) => OWN_VALUES.includes(k));
  if (clash !== undefined) {
    inputError(scope, `extraValues.${clash}`, new Description('a value, not shown since chart values may hold credentials'),
      `nothing: the construct sets "${clash}"; use the prop of that name (chart values it sets: ${OWN_VALUES.join(', ')})`);
  }
}

/** Checks the downstream TLS settings and resolves their Secrets to names, once. */
function resolveDownstreamTls(scope: Construct, downstream: DrainerDownstreamTls | undefined, cluster: ITlsDatabaseCluster): ResolvedDownstreamTls | undefined {
  if (downstream === undefined) {
    return undefined;
  }
  const secretName = requireExternalSecretName(scope, 'downstreamTls.secretName', downstream.secretName, cluster.certificates);
  const checkpointSecretName = downstream.checkpointSecretName === undefined ? undefined
    : requireExternalSecretName(scope, 'downstreamTls.checkpointSecretName', downstream.checkpointSecretName, cluster.certificates);
  // Lists of their own: no certificate Common Name of this cluster is implied (hence the empty one).
  const allowedCommonNames = downstream.allowedCommonNames === undefined ? undefined
    : requireExtraCommonNames(scope, 'downstreamTls.allowedCommonNames', downstream.allowedCommonNames, '');
  if (downstream.checkpointAllowedCommonNames !== undefined && checkpointSecretName === undefined) {
    inputError(scope, 'downstreamTls.checkpointAllowedCommonNames', downstream.checkpointAllowedCommonNames,
      'nothing without downstreamTls.checkpointSecretName: the chart writes the list into the checkpoint\'s TLS section, which it writes only for a checkpoint Secret; set checkpointSecretName, or move the names to allowedCommonNames');
  }
  const checkpointAllowedCommonNames = downstream.checkpointAllowedCommonNames === undefined ? undefined
    : requireExtraCommonNames(scope, 'downstreamTls.checkpointAllowedCommonNames', downstream.checkpointAllowedCommonNames, '');
  return { secretName, checkpointSecretName, allowedCommonNames, checkpointAllowedCommonNames };
}

/** Checks the GitOps engine, which needs the chart's repository to fetch the chart from. */
function checkGitOps(scope: IConstruct, gitOps: GitOpsEngine | undefined, chart: ResolvedChart): void {
  if (gitOps !== undefined && !Object.values(GitOpsEngine).includes(gitOps)) {
    inputError(scope, 'gitOps', gitOps, `one of ${Object.values(GitOpsEngine).map((e) => `"${e}"`).join(', ')}`);
  }
  if (gitOps !== undefined && chart.repository === undefined) {
    inputError(scope, 'chart.repository', undefined, `the chart repository's URL: ${gitOps} fetches the chart itself`);
  }
}

/** The key of `configSecret` that holds the values document, as Flux's `valuesFrom` reads it by default. */
const DRAINER_CONFIG_VALUES_KEY = 'values.yaml';

/**
 * The command that makes a `configSecret` from the drainer's TOML configuration in `drainer.toml`
 * (run in the folder that holds it): the values document `config: |` with the configuration
 * indented below it, piped into the Secret (no file of it left behind), which `kubectl create`
 * never overwrites.
 */
function drainerConfigSecretCommand(secretName: string, namespace: string): string {
  return `{ echo 'config: |'; sed 's/^/  /' drainer.toml; } | kubectl create secret generic ${secretName} -n ${namespace} --from-file=${DRAINER_CONFIG_VALUES_KEY}=/dev/stdin`;
}

/** Words of a configuration key that holds a credential (`password`, `passwd`, `secret`, `token`). */
const CREDENTIAL_KEY = /passw(or)?d|secret|token/i;

/**
 * The first key of a TOML configuration that holds a credential: a credential's key with a value
 * of any type that is not empty (`password = 123456`, `tokens = ["abc"]`), or a URL with a user name
 * or password in it anywhere, lists included.
 */
function credentialKey(config: unknown, at = ''): string | undefined {
  if (config === null || typeof config !== 'object') {
    return undefined;
  }
  for (const [key, value] of Object.entries(config)) {
    const path = at ? `${at}.${key}` : key;
    if (CREDENTIAL_KEY.test(key) && !isEmptyValue(value)) {
      return path;
    }
    const inner = typeof value === 'string' ? (hasCredentials(value) ? path : undefined) : credentialKey(value, path);
    if (inner !== undefined) {
      return inner;
    }
  }
  return undefined;
}

/** Whether a TOML value holds nothing: an empty string, list or table, or false. */
function isEmptyValue(value: unknown): boolean {
  return value === '' || value === false || (Array.isArray(value) && value.every(isEmptyValue))
    || (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && Object.values(value).every(isEmptyValue));
}

/**
 * Refuses a configuration a GitOps engine would carry into the manifests with a credential in it
 * (Flux takes it from `configSecret` instead), `configSecret` beside `config` or without Flux, and
 * a `config` that is no TOML document. Never repeats the configuration: it may hold credentials.
 */
function checkConfigSource(scope: Construct, props: DrainerReleaseProps, cluster: ITlsDatabaseCluster): string | undefined {
  const { config, configSecret, gitOps } = props;
  if (configSecret !== undefined) {
    if (config !== undefined) {
      inputError(scope, 'config', new Description('a configuration (not shown)'), 'nothing beside configSecret: the chart value config comes from one or the other');
    }
    if (gitOps !== GitOpsEngine.FLUX) {
      inputError(scope, 'gitOps', gitOps, `"${GitOpsEngine.FLUX}" with configSecret: only Flux takes chart values from a Secret (valuesFrom); `
        + 'without Flux, give the configuration in config (it goes to the values file)');
    }
    return requireExternalSecretName(scope, 'configSecret', configSecret, cluster.certificates);
  }
  if (config === undefined) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = TOML.parse(config);
  } catch {
    inputError(scope, 'config', new Description('a document that is not TOML (not shown: it may hold credentials)'), 'a TOML document, as the drainer reads its configuration');
  }
  const credential = gitOps === undefined ? undefined : credentialKey(parsed);
  if (credential !== undefined) {
    inputError(scope, 'config', new Description(`a configuration with a credential at ${describeValue(credential)} (not shown)`), gitOps === GitOpsEngine.FLUX
      ? 'no credential in a configuration the HelmRelease writes into the manifests: put the configuration in a Secret you create, as values (the runbook shows how), and name it in configSecret'
      : 'no credential in a configuration the Application writes into the manifests: Argo CD takes chart values from the Application only; install with Flux and configSecret, or with the runbook\'s helm install');
  }
  return undefined;
}

/** The chart values: the construct's own (TLS on, the allowed Common Names where the catalog puts them), then `extraValues`. */
function drainerChartValues(props: DrainerReleaseProps, resolved: ResolvedDrainerProps): Record<string, unknown> {
  const { cluster } = props;
  const { downstream } = resolved;
  const check = component('drainer').commonNameCheck!;
  const [tlsKey, allowedKey] = check.path;
  return compact({
    clusterName: cluster.clusterName,
    drainerName: props.drainerName,
    clusterVersion: resolved.version,
    storage: resolved.storage,
    storageClassName: props.storageClassName,
    // Before a TLS enablement's flip, the drainer speaks plain text like the cluster it reads from.
    [tlsKey]: cluster.tlsEnabled ? { enabled: true, [allowedKey]: [cluster.commonName, ...resolved.extraAllowedCommonNames] } : { enabled: false },
    tlsSyncer: downstream && {
      tlsClientSecretName: downstream.secretName,
      certAllowedCN: downstream.allowedCommonNames,
      checkpoint: downstream.checkpointSecretName === undefined ? undefined
        : { tlsClientSecretName: downstream.checkpointSecretName, certAllowedCN: downstream.checkpointAllowedCommonNames },
    },
    config: props.config,
    ...structuredClone(props.extraValues ?? {}),
  });
}

/** Whether the chart comes from an OCI registry (`oci://…`) rather than a classic repository or a local reference. */
function isOci(chart: ResolvedChart): boolean {
  return chart.repository?.startsWith('oci://') ?? false;
}

/** The `helm install` command, run from the output folder: an OCI chart by its URL, a repository's through the added repository. */
function helmCommand(verb: 'install' | 'upgrade', releaseName: string, chart: ResolvedChart, namespace: string, valuesPath: string): string {
  const repositoryName = names.drainerChartRepositoryName(releaseName);
  const chartRef = chart.repository === undefined ? chart.name
    : isOci(chart) ? `${chart.repository}/${chart.name}` : `${repositoryName}/${chart.name}`;
  return `helm ${verb} ${releaseName} ${chartRef} --namespace=${namespace} --version=${chart.version} -f ${valuesPath}`;
}

/** Makes a GitOps object wait for the cluster and its certificates, when they are in its chart. */
function dependOnCluster(obj: ApiObject, cluster: ITlsDatabaseCluster): void {
  dependWithinChart(obj, cluster.resource);
  dependWithinChart(obj, cluster.certificates);
}

/** Checks the release name against Helm's rules. */
function checkReleaseName(scope: IConstruct, releaseName: string): void {
  if (typeof releaseName !== 'string' || !isDnsLabel(releaseName) || releaseName.length > HELM_RELEASE_MAX) {
    inputError(scope, 'releaseName', shown(releaseName),
      `a Helm release name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most ${HELM_RELEASE_MAX} characters`);
  }
}

/** Checks the chart and applies the default chart name. */
function resolveChart(scope: IConstruct, props: DrainerReleaseProps): ResolvedChart {
  if (props.chart === undefined || typeof props.chart !== 'object') {
    inputError(scope, 'chart', shown(props.chart), 'the drainer chart, with at least its exact version: { version: "1.1.0" }');
  }
  const name = props.chart.name ?? DEFAULT_DRAINER_CHART;
  const { repository, version } = props.chart;
  if (repository !== undefined) {
    const expected = 'a repository URL starting with https:// (or oci:// for an OCI registry), without a trailing \'/\'';
    requireUrl(scope, 'chart.repository', repository, ['https', 'oci'], expected);
    if (!/^(https|oci):\/\/[^\s'"$`\\]+[^/\s'"$`\\]$/.test(repository)) {
      inputError(scope, 'chart.repository', shown(repository), expected);
    }
    if (typeof name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
      inputError(scope, 'chart.name', shown(name), 'the chart\'s name in the repository: lowercase letters, digits and \'-\'');
    }
  } else {
    requireNoCredentials(scope, 'chart.name', name);
    if (typeof name !== 'string' || !/^[A-Za-z0-9._/:@-]+$/.test(name)) {
      inputError(scope, 'chart.name', shown(name), 'a chart reference for helm, such as "myrepo/drainer" or "./charts/drainer" (letters, digits and . _ / : @ -)');
    }
  }
  if (typeof version !== 'string' || semver.valid(version.replace(/^v/, '')) === null) {
    inputError(scope, 'chart.version', shown(version),
      'an exact chart version such as "1.1.0" (SemVer, optionally prefixed with v): a range or "latest" makes the install unrepeatable');
  }
  return { name, repository, version };
}

/**
 * The drainer's effective name (its `drainerName`, else the chart's `${cluster_name}-${release_name}-drainer`),
 * checked here rather than by the certificates, so that a mistake is reported at the drainer: a
 * DNS-1123 label, and not the service of another component of the cluster, which it would shadow.
 */
function checkDrainerName(scope: IConstruct, clusterName: string, releaseName: string, given: string | undefined): string {
  const name = names.drainerName(clusterName, releaseName, given);
  if (given !== undefined) {
    requireDnsLabel(scope, 'drainerName', given);
  } else {
    requireDerivedLabels(scope, 'releaseName', releaseName, [name]);
  }
  for (const c of COMPONENTS) {
    if (c.token === 'drainer') {
      continue;
    }
    const taken = names.componentServiceNames(clusterName, c);
    if (taken.includes(name)) {
      inputError(scope, given !== undefined ? 'drainerName' : 'releaseName', given ?? releaseName,
        `a drainer name other than ${describeValue(name)}, the service of the cluster's ${c.token}, which the drainer's service would clash with`);
    }
  }
  return name;
}
