/**
 * The checks of a drainer release's props, in the order their mistakes are reported, and their
 * resolution into the settings the construct and its chart values are made from. A mistake throws
 * at the construct's path; a configuration is never repeated in a message, since it may hold
 * credentials.
 */
import type { Construct, IConstruct } from 'constructs';
import * as semver from 'semver';
import * as TOML from 'smol-toml';
import { COMPONENTS } from '../model/catalog';
import { Description, describeType, describeValue, hasCredentials, inputError, shown } from '../model/errors';
import * as names from '../model/names';
import { ShapeOf, declareShape, objectOf, oneOf, strings } from '../model/props';
import { durationSpec, durationText } from '../model/duration';
import { storageSize } from '../model/quantity';
import { secretRef } from '../model/secret-ref';
import {
  isDnsLabel, requireDerivedLabels, requireDnsLabel, requireDnsSubdomain, requireDuration, requireExtraCommonNames, requireNoCredentials, requireQuantity,
  requireUrl,
} from '../model/validate';
import { requireRelease } from '../model/versions';
import { DATABASE_CLUSTER_PROP, requireExternalSecretName } from './cluster-props';
import {
  DEFAULT_ARGO_CD_NAMESPACE, DEFAULT_ARGO_CD_PROJECT, DEFAULT_DRAINER_CHART, DEFAULT_DRAINER_STORAGE, DEFAULT_GITOPS_INTERVAL, DrainerDownstreamTls,
  DrainerReleaseProps, GitOpsEngine,
} from './drainer-props';
import type { ITlsDatabaseCluster } from './tls-cluster';
import { HELM_RELEASE_MAX } from '../model/limits';

/** The props of a drainer release, as JavaScript types. */
export const DRAINER_RELEASE_SHAPE = declareShape('DrainerRelease', {
  cluster: DATABASE_CLUSTER_PROP,
  releaseName: { type: 'string', example: 'binlog' },
  drainerName: 'string?',
  chart: objectOf({ name: 'string?', repository: 'string?', version: { type: 'string', example: '1.1.0' } }, false, 'the drainer chart, with at least its exact version: { version: "1.1.0" }'),
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
} satisfies ShapeOf<DrainerReleaseProps>);

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

/** Checks the props that {@link checkProps} accepted, in the order their mistakes are reported, and applies their defaults. */
export function resolveDrainerProps(scope: Construct, props: DrainerReleaseProps): ResolvedDrainerProps {
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
  const gitOpsInterval = durationText(props.gitOpsInterval ?? DEFAULT_GITOPS_INTERVAL);
  requireDuration(scope, 'gitOpsInterval', gitOpsInterval);
  const argoCd = resolveArgoCd(scope, props);
  return { drainerName, chart, version, storage, extraAllowedCommonNames, downstream, configSecret, gitOpsInterval, argoCd };
}

/** Checks the Argo CD props and applies their defaults, with {@link GitOpsEngine.ARGO_CD}; without it they are not read. */
function resolveArgoCd(scope: IConstruct, props: DrainerReleaseProps): ResolvedArgoCd | undefined {
  if (props.gitOps !== GitOpsEngine.ARGO_CD) {
    return undefined;
  }
  const namespace = props.argoCdNamespace ?? DEFAULT_ARGO_CD_NAMESPACE;
  requireDnsLabel(scope, 'argoCdNamespace', namespace);
  const project = props.argoCdProject ?? DEFAULT_ARGO_CD_PROJECT;
  requireDnsSubdomain(scope, 'argoCdProject', project);
  const applicationName = names.drainerApplicationName(props.cluster.namespace, props.releaseName);
  requireDerivedLabels(scope, 'releaseName', props.releaseName, [applicationName]);
  return { namespace, project, applicationName };
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
