/**
 * The drainer chart as text and data, with no construct: the chart values the construct writes,
 * the `helm` commands that install or upgrade the release, and the command that makes a
 * `configSecret` from a TOML file.
 */
import * as names from '../model/names';
import { compact } from './operator';
import type { ResolvedChart, ResolvedDrainerProps } from './drainer-checks';
import type { DrainerReleaseProps } from './drainer-props';
import { component } from '../model/catalog';

/** The key of `configSecret` that holds the values document, as Flux's `valuesFrom` reads it by default. */
export const DRAINER_CONFIG_VALUES_KEY = 'values.yaml';

/**
 * The command that makes a `configSecret` from the drainer's TOML configuration in `drainer.toml`
 * (run in the folder that holds it): the values document `config: |` with the configuration
 * indented below it, piped into the Secret (no file of it left behind), which `kubectl create`
 * never overwrites.
 */
export function drainerConfigSecretCommand(secretName: string, namespace: string): string {
  return `{ echo 'config: |'; sed 's/^/  /' drainer.toml; } | kubectl create secret generic ${secretName} -n ${namespace} --from-file=${DRAINER_CONFIG_VALUES_KEY}=/dev/stdin`;
}

/** The chart values: the construct's own (TLS on, the allowed Common Names where the catalog puts them), then `extraValues`. */
export function drainerChartValues(props: DrainerReleaseProps, resolved: ResolvedDrainerProps): Record<string, unknown> {
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
export function isOci(chart: ResolvedChart): boolean {
  return chart.repository?.startsWith('oci://') ?? false;
}

/**
 * The commands that add the chart's repository for {@link helmCommand}: `helm repo add` under the
 * release's repository name for a classic repository; none for an OCI registry, which helm reads
 * by its URL, nor for a chart reference helm resolves itself.
 */
export function helmRepoAddCommands(releaseName: string, chart: ResolvedChart): string[] {
  return chart.repository === undefined || isOci(chart) ? [] : [`helm repo add ${names.drainerChartRepositoryName(releaseName)} ${chart.repository}`];
}

/** The `helm install` command, run from the output folder: an OCI chart by its URL, a repository's through the added repository. */
export function helmCommand(verb: 'install' | 'upgrade', releaseName: string, chart: ResolvedChart, namespace: string, valuesPath: string): string {
  const repositoryName = names.drainerChartRepositoryName(releaseName);
  const chartRef = chart.repository === undefined ? chart.name
    : isOci(chart) ? `${chart.repository}/${chart.name}` : `${repositoryName}/${chart.name}`;
  return `helm ${verb} ${releaseName} ${chartRef} --namespace=${namespace} --version=${chart.version} -f ${valuesPath}`;
}
