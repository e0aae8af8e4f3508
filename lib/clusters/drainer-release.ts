/**
 * The `DrainerRelease` construct: the drainer chart's values with TLS on, its server certificate,
 * the install command, and optionally the Flux or Argo CD objects that install it.
 */
import { ApiObject, Chart } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import * as names from '../model/names';
import { OutputFile } from '../app/output-file';
import type { ClusterCertificates } from '../certificates/cluster-certificates';
import type { ITlsDatabaseCluster } from './tls-cluster';
import { drainerValuesPath, fromOutputFolder, manifestFileName } from '../model/output-layout';
import { CdkPlusPackage } from '../model/secret-ref';
import { registerDrainer } from '../app/registry';
import { compact, dependWithinChart } from './operator';
import { RunbookStep } from '../documents/runbook';
import { stringifyYaml } from '../yaml/emitter';
import { checkProps } from '../model/props';
import { DrainerReleaseProps, GitOpsEngine } from './drainer-props';
import { DRAINER_RELEASE_SHAPE, ResolvedArgoCd, ResolvedChart, ResolvedDrainerProps, resolveDrainerProps } from './drainer-checks';
import { DRAINER_CONFIG_VALUES_KEY, drainerChartValues, drainerConfigSecretCommand, helmCommand, helmRepoAddCommands, isOci } from './drainer-chart';

const FLUX_SOURCE_API = 'source.toolkit.fluxcd.io/v1';
const FLUX_HELM_API = 'helm.toolkit.fluxcd.io/v2';
const ARGO_CD_API = 'argoproj.io/v1alpha1';
/** The Kubernetes cluster Argo CD runs in, as its `destination.server`. */
const IN_CLUSTER = 'https://kubernetes.default.svc';

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
    const checked = checkProps(this, props, DRAINER_RELEASE_SHAPE);
    props = checked;
    const resolved = resolveDrainerProps(this, checked);
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

    if (gitOps === GitOpsEngine.FLUX) {
      [this.helmRepository, this.helmRelease] = this.declareFlux(cluster, resolved.chart, resolved.gitOpsInterval);
    } else if (resolved.argoCd !== undefined) {
      this.application = this.declareArgoCdApplication(cluster, resolved.chart, resolved.argoCd);
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

  /** Declares the Argo CD `Application` that installs the chart with the chart values. */
  private declareArgoCdApplication(cluster: ITlsDatabaseCluster, chart: ResolvedChart, argoCd: ResolvedArgoCd): ApiObject {
    const { namespace } = this;
    const application = new ApiObject(this, 'Application', {
      apiVersion: ARGO_CD_API,
      kind: 'Application',
      metadata: { name: argoCd.applicationName, namespace: argoCd.namespace },
      spec: {
        project: argoCd.project,
        source: {
          // Argo CD's Helm source names an OCI registry without its scheme.
          repoURL: isOci(chart) ? chart.repository!.slice('oci://'.length) : chart.repository,
          chart: chart.name,
          targetRevision: chart.version,
          helm: { releaseName: this.releaseName, valuesObject: this.values },
        },
        destination: { server: IN_CLUSTER, namespace },
        syncPolicy: { automated: { prune: false, selfHeal: true } },
      },
    });
    dependOnCluster(application, cluster);
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
    return {
      title: 'Upgrade the drainer to TLS',
      text: [...text, 'Run it once every pod of the cluster mounts its Secret (the step above).'],
      // The repository again, as on the machine that installed it: helm skips one it already has.
      commands: [...helmRepoAddCommands(this.releaseName, chart), helmCommand('upgrade', this.releaseName, chart, this.namespace, valuesPath), `kubectl rollout status ${target} -n ${this.namespace}`],
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
      commands.push(...helmRepoAddCommands(this.releaseName, chart), this.installCommand);
    }
    commands.push(`kubectl rollout status statefulset/${this.drainerName} -n ${namespace}`);
    return { title: `Install the drainer (release ${this.releaseName})`, text, commands };
  }
}

/** Makes a GitOps object wait for the cluster and its certificates, when they are in its chart. */
function dependOnCluster(obj: ApiObject, cluster: ITlsDatabaseCluster): void {
  dependWithinChart(obj, cluster.resource);
  dependWithinChart(obj, cluster.certificates);
}
