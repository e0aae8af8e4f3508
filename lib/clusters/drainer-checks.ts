/**
 * The shape of a drainer release's props (each field's rule and default, and the rules across
 * them, which the walker runs in the order their mistakes are reported) and their resolution into
 * the settings the construct and its chart values are made from. A mistake throws at the
 * construct's path; a configuration is never repeated in a message, since it may hold credentials.
 */
import type { Construct, IConstruct } from 'constructs';
import * as TOML from 'smol-toml';
import { COMPONENTS } from '../model/catalog';
import { Description, describeValue, hasCredentials, inputError, shown } from '../model/errors';
import * as names from '../model/names';
import { Checked, ShapeOf, declareShape, objectOf, oneOf, strings, withRules } from '../model/props';
import { durationSpec, durationText } from '../model/duration';
import { quantityOf, storageSize } from '../model/quantity';
import { secretRef } from '../model/secret-ref';
import { otherCommonNames, requireDerivedLabels, requireDnsLabel, requireDnsSubdomain, requireNoCredentials } from '../model/validate';
import { DATABASE_CLUSTER_PROP, requireExternalSecretName } from './cluster-props';
import {
  DEFAULT_ARGO_CD_NAMESPACE, DEFAULT_ARGO_CD_PROJECT, DEFAULT_DRAINER_CHART, DEFAULT_DRAINER_STORAGE, DEFAULT_GITOPS_INTERVAL, DrainerChart,
  DrainerDownstreamTls, DrainerReleaseProps, GitOpsEngine,
} from './drainer-props';
import type { ITlsDatabaseCluster } from './tls-cluster';

/** The chart: a name in a repository, or a reference helm resolves itself, at an exact version. */
const CHART_SHAPE = withRules({
  name: { type: 'string', optional: true, default: DEFAULT_DRAINER_CHART },
  repository: { type: 'string', optional: true, rule: 'chartRepository' },
  version: { type: 'string', rule: 'chartVersion', example: '1.1.0' },
} satisfies ShapeOf<DrainerChart>, [chartName]);

const COMMON_NAMES = { ...strings('a list of Common Names'), rule: 'commonName' } as const;

/** TLS to the downstream database and the checkpoint database. */
const DOWNSTREAM_SHAPE = withRules({
  secretName: secretRef(false),
  allowedCommonNames: COMMON_NAMES,
  checkpointSecretName: secretRef(),
  checkpointAllowedCommonNames: COMMON_NAMES,
} satisfies ShapeOf<DrainerDownstreamTls>, [checkpointNamesNeedSecret]);

/** The props of a drainer release: the fields, with their rules and defaults, and the rules across them, in the order their mistakes are reported. */
export const DRAINER_RELEASE_SHAPE = declareShape('DrainerRelease', withRules({
  cluster: DATABASE_CLUSTER_PROP,
  releaseName: { type: 'string', rule: 'helmReleaseName', example: 'binlog' },
  drainerName: { type: 'string', optional: true, rule: 'dnsLabel' },
  chart: objectOf(CHART_SHAPE, false, 'the drainer chart, with at least its exact version: { version: "1.1.0" }'),
  version: { type: 'string', optional: true, rule: 'release', default: (props: DrainerReleaseProps) => props.cluster.version },
  storage: { ...storageSize(), rule: 'storageQuantity', default: DEFAULT_DRAINER_STORAGE },
  storageClassName: { type: 'string', optional: true, rule: 'dnsSubdomain' },
  config: { type: 'string', optional: true, expected: 'a TOML document as a string (the chart value config is text)', kind: 'configMapData' },
  configSecret: secretRef(),
  extraAllowedCommonNames: COMMON_NAMES,
  downstreamTls: objectOf(DOWNSTREAM_SHAPE),
  extraValues: { type: 'object', optional: true, expected: 'an object of chart values', data: true },
  gitOps: oneOf(Object.values(GitOpsEngine)),
  gitOpsInterval: { ...durationSpec(), rule: 'goDuration', default: DEFAULT_GITOPS_INTERVAL },
  // Checked with Argo CD alone (argoCdSettings), which is the only engine that reads them.
  argoCdNamespace: { type: 'string', optional: true, default: DEFAULT_ARGO_CD_NAMESPACE },
  argoCdProject: { type: 'string', optional: true, default: DEFAULT_ARGO_CD_PROJECT },
} satisfies ShapeOf<DrainerReleaseProps>, [oneDrainer, drainerNameFree, ownValuesKept, gitOpsRepository, configSource, argoCdSettings]));

/** Props as {@link DRAINER_RELEASE_SHAPE} returns them, with their defaults. */
export type CheckedDrainerProps = Checked<DrainerReleaseProps, typeof DRAINER_RELEASE_SHAPE>;

/** Chart values the construct writes itself; `extraValues` may not set them. */
const OWN_VALUES = ['clusterName', 'drainerName', 'clusterVersion', 'storage', 'storageClassName', 'tlsCluster', 'tlsSyncer', 'config'];

/** The chart with its defaults applied. */
export interface ResolvedChart {
  readonly name: string;
  readonly repository?: string;
  readonly version: string;
}

/** The props the construct derives values from, checked and with their defaults applied. */
export interface ResolvedDrainerProps {
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
  /** `gitOpsInterval` as a Go duration, checked with any engine or none. */
  readonly gitOpsInterval: string;
  /** Where the Argo CD `Application` goes and its name, checked, with {@link GitOpsEngine.ARGO_CD}. */
  readonly argoCd?: ResolvedArgoCd;
}

/** The Argo CD settings of a drainer release, checked and with their defaults applied. */
export interface ResolvedArgoCd {
  /** Argo CD's namespace, where the `Application` goes. */
  readonly namespace: string;
  readonly project: string;
  /** The `Application`'s name. */
  readonly applicationName: string;
}

/** The downstream TLS settings with the Secrets by name. */
export interface ResolvedDownstreamTls {
  readonly secretName: string;
  readonly checkpointSecretName?: string;
  /** The downstream Common Names the drainer accepts, when given. */
  readonly allowedCommonNames?: string[];
  /** The checkpoint database's Common Names the drainer accepts, when given. */
  readonly checkpointAllowedCommonNames?: string[];
}

/**
 * The settings the construct derives values from, of props {@link DRAINER_RELEASE_SHAPE} checked:
 * the drainer's effective name, the chart, and the Secrets by name, each checked against the
 * cluster's certificates (which are another construct's, so not the shape's).
 */
export function resolveDrainerProps(scope: Construct, props: CheckedDrainerProps): ResolvedDrainerProps {
  const { cluster } = props;
  const chart = props.chart as Required<Pick<DrainerChart, 'name'>> & DrainerChart;
  return {
    drainerName: names.drainerName(cluster.clusterName, props.releaseName, props.drainerName),
    chart: { name: chart.name, repository: chart.repository, version: chart.version },
    version: props.version,
    storage: quantityOf(props.storage),
    extraAllowedCommonNames: otherCommonNames(props.extraAllowedCommonNames, cluster.commonName),
    downstream: resolveDownstreamTls(scope, props.downstreamTls, cluster),
    configSecret: props.configSecret === undefined ? undefined : requireExternalSecretName(scope, 'configSecret', props.configSecret, cluster.certificates),
    gitOpsInterval: durationText(props.gitOpsInterval),
    argoCd: props.gitOps !== GitOpsEngine.ARGO_CD ? undefined : {
      namespace: props.argoCdNamespace, project: props.argoCdProject, applicationName: names.drainerApplicationName(cluster.namespace, props.releaseName),
    },
  };
}

/** Refuses a second drainer for one cluster: the chart's objects, and its certificate, are one per cluster. */
function oneDrainer(scope: IConstruct | string, props: DrainerReleaseProps): void {
  const { cluster } = props;
  if (cluster.certificates.hasComponent('drainer')) {
    inputError(scope, 'releaseName', props.releaseName, `no second drainer for cluster ${cluster.namespace}/${cluster.clusterName}: one is already declared`);
  }
}

/** Checks the Argo CD settings and the `Application`'s name, with {@link GitOpsEngine.ARGO_CD}; without it they are not read. */
function argoCdSettings(scope: IConstruct | string, props: DrainerReleaseProps): void {
  if (props.gitOps !== GitOpsEngine.ARGO_CD) {
    return;
  }
  // The shape's defaults fill them in.
  requireDnsLabel(scope, 'argoCdNamespace', props.argoCdNamespace!);
  requireDnsSubdomain(scope, 'argoCdProject', props.argoCdProject!);
  requireDerivedLabels(scope, 'releaseName', props.releaseName, [names.drainerApplicationName(props.cluster.namespace, props.releaseName)]);
}

/** Refuses `extraValues` keys the construct sets itself, without showing the value (chart values may hold credentials). */
function ownValuesKept(scope: IConstruct | string, { extraValues }: DrainerReleaseProps): void {
  const clash = Object.keys(extraValues ?? {}).find((k) => OWN_VALUES.includes(k));
  if (clash !== undefined) {
    inputError(scope, `extraValues.${clash}`, new Description('a value, not shown since chart values may hold credentials'),
      `nothing: the construct sets "${clash}"; use the prop of that name (chart values it sets: ${OWN_VALUES.join(', ')})`);
  }
}

/** Refuses Common Names for the checkpoint database without its Secret: the chart would write them where they check the downstream database. */
function checkpointNamesNeedSecret(scope: IConstruct | string, downstream: DrainerDownstreamTls, at: string): void {
  if (downstream.checkpointAllowedCommonNames !== undefined && downstream.checkpointSecretName === undefined) {
    inputError(scope, `${at}checkpointAllowedCommonNames`, downstream.checkpointAllowedCommonNames,
      `nothing without ${at}checkpointSecretName: the chart writes the list into the checkpoint's TLS section, which it writes only for a checkpoint Secret; set checkpointSecretName, or move the names to allowedCommonNames`);
  }
}

/** The downstream TLS settings, their Secrets checked against the cluster's certificates and by name. */
function resolveDownstreamTls(scope: Construct, downstream: DrainerDownstreamTls | undefined, cluster: ITlsDatabaseCluster): ResolvedDownstreamTls | undefined {
  if (downstream === undefined) {
    return undefined;
  }
  const secretName = requireExternalSecretName(scope, 'downstreamTls.secretName', downstream.secretName, cluster.certificates);
  const checkpointSecretName = downstream.checkpointSecretName === undefined ? undefined
    : requireExternalSecretName(scope, 'downstreamTls.checkpointSecretName', downstream.checkpointSecretName, cluster.certificates);
  // Lists of their own: no certificate Common Name of this cluster is implied (hence the empty one).
  const commonNames = (list: string[] | undefined) => (list === undefined ? undefined : otherCommonNames(list, ''));
  return { secretName, checkpointSecretName, allowedCommonNames: commonNames(downstream.allowedCommonNames), checkpointAllowedCommonNames: commonNames(downstream.checkpointAllowedCommonNames) };
}

/** Refuses a GitOps engine without the chart's repository, which it fetches the chart from. */
function gitOpsRepository(scope: IConstruct | string, { gitOps, chart }: DrainerReleaseProps): void {
  if (gitOps !== undefined && chart.repository === undefined) {
    inputError(scope, 'chart.repository', undefined, `the chart repository's URL: ${gitOps} fetches the chart itself`);
  }
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
 * a `config` that is no TOML document; the Secret itself is checked with the cluster's certificates. Never repeats the configuration: it may hold credentials.
 */
function configSource(scope: IConstruct | string, props: DrainerReleaseProps): void {
  const { config, configSecret, gitOps } = props;
  if (configSecret !== undefined) {
    if (config !== undefined) {
      inputError(scope, 'config', new Description('a configuration (not shown)'), 'nothing beside configSecret: the chart value config comes from one or the other');
    }
    if (gitOps !== GitOpsEngine.FLUX) {
      inputError(scope, 'gitOps', gitOps, `"${GitOpsEngine.FLUX}" with configSecret: only Flux takes chart values from a Secret (valuesFrom); `
        + 'without Flux, give the configuration in config (it goes to the values file)');
    }
    return;
  }
  if (config === undefined) {
    return;
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
}

/** Refuses a chart name of the wrong form: a name in the repository, or without one a reference helm resolves (never holding a credential). */
function chartName(scope: IConstruct | string, chart: DrainerChart, at: string): void {
  // The shape's default fills it in.
  const name = chart.name!;
  if (chart.repository !== undefined) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
      inputError(scope, `${at}name`, shown(name), 'the chart\'s name in the repository: lowercase letters, digits and \'-\'');
    }
    return;
  }
  requireNoCredentials(scope, `${at}name`, name);
  if (!/^[A-Za-z0-9._/:@-]+$/.test(name)) {
    inputError(scope, `${at}name`, shown(name), 'a chart reference for helm, such as "myrepo/drainer" or "./charts/drainer" (letters, digits and . _ / : @ -)');
  }
}

/**
 * Refuses a drainer name (its `drainerName`, else the chart's `${cluster_name}-${release_name}-drainer`)
 * the certificates would refuse, so that the mistake is reported at the drainer: one derived from
 * the release name that is no DNS-1123 label, or the service of another component of the cluster,
 * which the drainer's would shadow.
 */
function drainerNameFree(scope: IConstruct | string, { cluster, releaseName, drainerName: given }: DrainerReleaseProps): void {
  const { clusterName } = cluster;
  const name = names.drainerName(clusterName, releaseName, given);
  if (given === undefined) {
    requireDerivedLabels(scope, 'releaseName', releaseName, [name]);
  }
  for (const c of COMPONENTS) {
    if (c.token !== 'drainer' && names.componentServiceNames(clusterName, c).includes(name)) {
      inputError(scope, given !== undefined ? 'drainerName' : 'releaseName', given ?? releaseName,
        `a drainer name other than ${describeValue(name)}, the service of the cluster's ${c.token}, which the drainer's service would clash with`);
    }
  }
}
