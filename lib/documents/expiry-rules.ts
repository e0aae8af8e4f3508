/**
 * The expiry alerts of a cluster's certificates as Prometheus rule groups, and the values of the
 * exporter that reads the Secrets cert-manager does not manage. Plain data in, plain data out: the
 * same group goes into a `PrometheusRule` and into a `.rules.yml` file.
 */
import { EXPIRY_ALERTS, EXPIRY_ALERT_LABELS, EXPIRY_EXPORTER, EXPIRY_METRICS, EXPORTED_KEYS, WatchedCertificate } from '../model/expiry';
import * as names from '../model/names';

/**
 * What the rules of one cluster are made from.
 * @jsii ignore
 */
export interface ExpiryRulesInput {
  readonly clusterName: string;
  readonly namespace: string;
  readonly certificates: readonly WatchedCertificate[];
  /** Seconds before expiry that a leaf alerts. */
  readonly leafThresholdSeconds: number;
  /** Seconds before expiry that a CA alerts. */
  readonly caThresholdSeconds: number;
  /** How long an expiry or a missing series lasts before it alerts (a Prometheus duration). */
  readonly for: string;
  /** How long a Certificate stays not Ready before it alerts. */
  readonly notReadyFor: string;
  /** Labels added to every alert. */
  readonly labels: { readonly [key: string]: string };
  /** Where the runbook of a declared rotation is written, from the folder that holds the output folder. */
  readonly rotationRunbook: string;
}

/**
 * One alerting rule.
 * @jsii ignore
 */
export interface AlertRule {
  /** The alert's name, one of {@link EXPIRY_ALERTS}. */
  readonly alert: string;
  /** The PromQL expression that raises the alert. */
  readonly expr: string;
  /** How long the expression must hold before the alert fires, as a Prometheus duration such as `1h`. */
  readonly for: string;
  /** The alert's labels: the `alertLabels` given, then those of {@link EXPIRY_ALERT_LABELS} the rule sets. */
  readonly labels: { readonly [key: string]: string };
  /** The alert's `summary` and `runbook`. */
  readonly annotations: { readonly [key: string]: string };
}

/**
 * A rule group, as a rules file and a `PrometheusRule` hold it.
 * @jsii ignore
 */
export interface RuleGroup {
  /** The group's name: `cluster-tls-<namespace>-<cluster>-certificate-expiry`. */
  readonly name: string;
  /** The group's alerting rules. */
  readonly rules: readonly AlertRule[];
}

/**
 * The rule group: for every watched certificate, its expiry, its Ready condition (cert-manager) and
 * its series' presence; with cert-manager and one CA, whether each leaf's `ca.crt` still holds the
 * CA certificate the CA's last renewal replaced.
 */
export function expiryRuleGroup(input: ExpiryRulesInput): RuleGroup {
  const managed = input.certificates.filter((c): c is Managed => c.by === 'cert-manager');
  const exported = input.certificates.filter((c): c is Exported => c.by === 'exporter');
  const sources = {
    'cert-manager': managed.length > 0 ? byNamespace(managed, (namespace, of) => certManagerSeries(EXPIRY_METRICS.certManagerExpiry, namespace, { name: of.map((c) => c.certificateName) })) : undefined,
    'x509-certificate-exporter': exported.length > 0
      ? byNamespace(exported, (namespace, of) => selector(EXPIRY_METRICS.exporterExpiry, { secret_namespace: namespace }, {}, { secret_name: [...new Set(of.map((c) => c.secretName))] })) : undefined,
  };
  const trusts = [...new Set(managed.map((c) => c.trust))];
  // One CA per trust (none renewed by a rotation under way): each leaf's ca.crt is compared with it.
  const caOf = new Map<string, Managed>();
  for (const trust of trusts) {
    const cas = managed.filter((c) => c.ca && c.trust === trust);
    if (cas.length === 1) {
      caOf.set(trust, cas[0]);
    }
  }
  return {
    name: names.expiryRuleGroupName(input.namespace, input.clusterName),
    rules: [
      ...Object.entries(sources).flatMap(([source, any]) => (any === undefined ? [] : [metricsMissingRule(input, source, any)])),
      ...input.certificates.flatMap((c) => [
        ...(c.by === 'cert-manager' ? managedRules(input, c, sources['cert-manager']!) : exportedRules(input, c, sources['x509-certificate-exporter']!)),
        ...(c.by === 'cert-manager' && !c.ca && caOf.has(c.trust) ? [outdatedCaCopyRule(input, c, caOf.get(c.trust)!)] : []),
      ]),
    ],
  };
}

/** No series from a source for any certificate of the cluster: one alert, where each certificate's own would only repeat it. */
function metricsMissingRule(input: ExpiryRulesInput, source: string, any: string): AlertRule {
  return {
    alert: EXPIRY_ALERTS.metricsMissing,
    expr: `absent(${any})`,
    for: input.for,
    labels: { ...input.labels, tls_cluster: input.clusterName, tls_cluster_namespace: input.namespace, namespace: input.namespace, source, severity: 'warning' },
    annotations: {
      summary: `This Prometheus has no ${source} series for any certificate of cluster ${input.namespace}/${input.clusterName}: nothing alerts before they expire.`,
      runbook: source === 'cert-manager' ? SCRAPE_CERT_MANAGER : 'Install x509-certificate-exporter as the cluster\'s runbook says, and scrape it into this Prometheus.',
    },
  };
}

const SCRAPE_CERT_MANAGER = 'Scrape cert-manager\'s controller metrics into this Prometheus (with cert-manager\'s ServiceMonitor, its namespace label becomes exported_namespace, which these rules read too).';

type Managed = Extract<WatchedCertificate, { by: 'cert-manager' }>;
type Exported = Extract<WatchedCertificate, { by: 'exporter' }>;

/** A name, with its namespace when that is not the cluster's (an application's, or cert-manager's for the SQL CA). */
function inNamespace(input: ExpiryRulesInput, c: WatchedCertificate, name: string): string {
  return c.namespace === input.namespace ? name : `${c.namespace}/${name}`;
}

/** A selector per namespace of the certificates, joined with `or`: the series of any of them. */
function byNamespace<T extends WatchedCertificate>(certificates: readonly T[], select: (namespace: string, of: readonly T[]) => string): string {
  const namespaces = [...new Set(certificates.map((c) => c.namespace))];
  return namespaces.map((n) => select(n, certificates.filter((c) => c.namespace === n))).join(' or ');
}

/** The labels of every rule of a certificate; `severity` is the rule's. */
function labelsOf(input: ExpiryRulesInput, c: WatchedCertificate, severity: 'critical' | 'warning'): AlertRule['labels'] {
  const own: Record<Exclude<(typeof EXPIRY_ALERT_LABELS)[number], 'source'>, string> = {
    tls_cluster: input.clusterName, tls_cluster_namespace: input.namespace, namespace: c.namespace, secret: c.secretName, certificate: c.ca ? 'ca' : 'leaf', severity,
  };
  return { ...input.labels, ...own };
}

/**
 * A cert-manager Certificate: expiring (never before cert-manager's own renewal time, so that a
 * working issuer never raises it), not Ready, and absent. Each expression aggregates over the
 * series (several cert-manager replicas, or scrape jobs, may report one Certificate), so each
 * alert is one per certificate, labelled by its rule.
 */
function managedRules(input: ExpiryRulesInput, c: Managed, anyOfCluster: string): AlertRule[] {
  const series = certManagerSeries(EXPIRY_METRICS.certManagerExpiry, c.namespace, { name: c.certificateName });
  const what = `Certificate ${inNamespace(input, c, c.certificateName)} (Secret ${c.secretName}) of cluster ${input.namespace}/${input.clusterName}`;
  const runbook = managedRenewal(input, c);
  const expiry = `{{ with query "${quoted(`min(${series})`)}" }}{{ . | first | value | humanizeTimestamp }}{{ else }}an unknown time{{ end }}`;
  return [
    expiringRule(input, c, series, Math.min(c.ca ? input.caThresholdSeconds : input.leafThresholdSeconds, c.renewBeforeSeconds), what, runbook),
    {
      alert: EXPIRY_ALERTS.notReady,
      expr: `max(${certManagerSeries(EXPIRY_METRICS.certManagerReady, c.namespace, { name: c.certificateName }, { condition: 'True' })}) == 1`,
      for: input.notReadyFor,
      labels: labelsOf(input, c, 'warning'),
      annotations: { summary: `${what} is not Ready; it expires at ${expiry}.`, runbook },
    },
    unwatchedRule(input, c, series, anyOfCluster, `cert-manager series for ${what}`, `Check that the Certificate exists: "kubectl get certificate ${c.certificateName} -n ${c.namespace}".`),
  ];
}

/** A Secret's key read by the exporter: expiring, and absent. */
function exportedRules(input: ExpiryRulesInput, c: Exported, anyOfCluster: string): AlertRule[] {
  const series = selector(EXPIRY_METRICS.exporterExpiry, { secret_namespace: c.namespace, secret_name: c.secretName, secret_key: c.secretKey });
  // Labels of the exporter's own (secret_*): no scrape label takes their place.
  const what = `the ${c.secretKey} of Secret ${inNamespace(input, c, c.secretName)} (cluster ${input.namespace}/${input.clusterName})`;
  // A rotation moves the certificates for MySQL clients and the SQL CA with the cluster's; a Secret the user creates is theirs to renew.
  const declare = declareRotation(input, c.ca ? '{ id, kind: "ca-renewal" } (the same key) or { id, kind: "ca-replacement" } (a new key)' : '{ id, kind: "leaf-renewal" }');
  const renew = c.usedBy === undefined
    ? `Nothing renews it on its own: ${declare}.`
    : `You create this Secret, and ${c.usedBy} loads it: renew its certificate with the PKI that issued it, and write the Secret whole (kubectl apply) before it expires; then restart what loads it.`;
  return [
    expiringRule(input, c, series, c.ca ? input.caThresholdSeconds : input.leafThresholdSeconds, `${capitalized(what)}${c.usedBy === undefined ? '' : `, a Secret you create for ${c.usedBy},`}`, renew),
    unwatchedRule(input, c, series, anyOfCluster, `x509-certificate-exporter series for ${what}`,
      `Check that the Secret exists with its ${c.secretKey}, and that the exporter's values name it (install them again as the cluster's runbook says).`),
  ];
}

function expiringRule(input: ExpiryRulesInput, c: WatchedCertificate, series: string, thresholdSeconds: number, what: string, runbook: string): AlertRule {
  return {
    alert: EXPIRY_ALERTS.expiring,
    expr: `min(${series}) < time() + ${thresholdSeconds}`,
    for: input.for,
    labels: labelsOf(input, c, 'critical'),
    annotations: { summary: `${what} expires at {{ $value | humanizeTimestamp }}.`, runbook },
  };
}

/** No series for this certificate while the source reports others of the cluster (else {@link metricsMissingRule} says it once). */
function unwatchedRule(input: ExpiryRulesInput, c: WatchedCertificate, series: string, anyOfCluster: string, what: string, runbook: string): AlertRule {
  return {
    alert: EXPIRY_ALERTS.unwatched,
    expr: `absent(${series}) and on () count(${anyOfCluster}) > 0`,
    for: input.for,
    labels: labelsOf(input, c, 'warning'),
    annotations: { summary: `This Prometheus has no ${what}: its expiry time is unknown and nothing alerts before it expires.`, runbook },
  };
}

/**
 * cert-manager renews the CA in place (same key) `caRenewBefore` before it expires and re-issues
 * no leaf: each leaf's `ca.crt` keeps the CA certificate it was issued with until the leaf itself
 * is renewed. A leaf issued before the CA's current certificate (its expiry less its duration is
 * earlier than the CA's) holds the replaced one, which expires `caRenewBefore` after the renewal;
 * from then on the components that load that Secret reject every peer.
 */
function outdatedCaCopyRule(input: ExpiryRulesInput, leaf: Managed, ca: Managed): AlertRule {
  const expiry = (c: Managed) => `min(${certManagerSeries(EXPIRY_METRICS.certManagerExpiry, c.namespace, { name: c.certificateName })})`;
  const caExpiry = expiry(ca);
  const replacedCaExpiry = `${caExpiry} - ${ca.durationSeconds} + ${ca.renewBeforeSeconds}`;
  return {
    alert: EXPIRY_ALERTS.outdatedCaCopy,
    expr: `${expiry(leaf)} - ${leaf.durationSeconds} < ${caExpiry} - ${ca.durationSeconds}`,
    for: input.for,
    labels: labelsOf(input, leaf, 'critical'),
    annotations: {
      summary: `The ca.crt of Secret ${inNamespace(input, leaf, leaf.secretName)} (cluster ${input.namespace}/${input.clusterName}) holds the CA certificate cert-manager has since renewed; `
        + `that copy expires at {{ with query "${quoted(replacedCaExpiry)}" }}{{ . | first | value | humanizeTimestamp }}{{ end }}, `
        + 'and from then on the components that load the Secret reject every peer.',
      runbook: `${capitalized(declareRotation(input, '{ id, kind: "leaf-renewal" }'))}: cert-manager re-issues every leaf from the renewed CA${
        leaf.trust === 'sql' ? ', those for MySQL clients from the renewed SQL CA' : ''}.`,
    },
  };
}

/** The runbook step that renews a rotation's worth of certificates. */
function declareRotation(input: ExpiryRulesInput, kinds: string): string {
  return `declare the next rotation of ClusterCertificates ${input.clusterName} as ${kinds}, synthesize, and follow ${input.rotationRunbook}`;
}

/** What renews a cert-manager Certificate that cert-manager has not renewed. */
function managedRenewal(input: ExpiryRulesInput, c: Managed): string {
  const describe = `"kubectl describe certificate ${c.certificateName} -n ${c.namespace}" says why`;
  // cert-manager renews its CA itself, with the same key; each leaf keeps in its ca.crt the CA it was issued with.
  return c.ca
    ? `cert-manager renews it on its own, with the same key, and has not: ${describe}. Once it is renewed, ${declareRotation(input, '{ id, kind: "leaf-renewal" }')}, `
      + 'so that every Secret\'s ca.crt holds the renewed CA; for a new key, declare { id, kind: "ca-replacement" } instead.'
    : `cert-manager renews it on its own and has not: ${describe}. To renew it by hand, ${declareRotation(input, '{ id, kind: "leaf-renewal" }')}.`;
}

/**
 * A cert-manager metric of one Certificate, as an `or` of two selectors (callers aggregate it,
 * which brackets it). Scraped through cert-manager's ServiceMonitor, whose
 * `honorLabels` is false by default (chart v1.21), the metric's `namespace` label is renamed
 * `exported_namespace` because the target has a `namespace` of its own; scraped with
 * `honorLabels: true` or by an annotation-based job, it stays `namespace`. Both are read.
 */
function certManagerSeries(metric: string, namespace: string, certificate: { readonly name: string | readonly string[] }, different: { readonly [key: string]: string } = {}): string {
  // The name's and the others' matchers, written once for both selectors.
  const rest = typeof certificate.name === 'string' ? matchers({ name: certificate.name }, different) : matchers({}, different, { name: certificate.name });
  return `${metric}{exported_namespace="${namespace}",${rest}} or ${metric}{namespace="${namespace}",exported_namespace="",${rest}}`;
}

/** A value of a label matched by a regular expression, matched literally. */
function literal(value: string): string {
  return value.replace(/[.]/g, '\\\\.');
}

/**
 * A series selector: the labels that must be equal, those that must differ, and those that must be
 * one of several values (a regular expression of the values, each matched literally).
 */
function selector(metric: string, equal: { readonly [key: string]: string }, different: { readonly [key: string]: string } = {},
  oneOf: { readonly [key: string]: readonly string[] } = {}): string {
  return `${metric}{${matchers(equal, different, oneOf)}}`;
}

/** The matchers of a {@link selector}, joined: the equal labels, those one of several values, then those that differ. */
function matchers(equal: { readonly [key: string]: string }, different: { readonly [key: string]: string } = {},
  oneOf: { readonly [key: string]: readonly string[] } = {}): string {
  return [
    ...Object.entries(equal).map(([k, v]) => `${k}="${v}"`),
    ...Object.entries(oneOf).map(([k, values]) => `${k}=~"${values.map(literal).join('|')}"`),
    ...Object.entries(different).map(([k, v]) => `${k}!="${v}"`),
  ].join(',');
}

/** A PromQL expression inside a template's double-quoted string. */
function quoted(expression: string): string {
  return expression.replace(/"/g, '\\"');
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The chart values the library sets; the chart's defaults hold the rest.
 * @jsii ignore
 */
export interface ExporterValues {
  /** The name the chart gives its objects, unique in the cluster: `<namespace>-${cluster_name}-cert-expiry`. */
  readonly fullnameOverride: string;
  /** Which Secrets the exporter reads. */
  readonly secretsExporter: {
    /** The namespaces of the Secrets, the cluster's first. */
    readonly includeNamespaces: readonly string[];
    /** The names of the Secrets, matched literally. */
    readonly includeSecrets: readonly string[];
    /** Each Secret type the library's Secrets may have, with each key the exporter reads of it (`tls.crt`, `ca.crt`). */
    readonly secretTypes: readonly {
      /** The Secret type: `Opaque` or `kubernetes.io/tls`. */
      readonly type: string;
      /** The Secret key that holds a certificate: `tls.crt` or `ca.crt`. */
      readonly key: string;
    }[];
  };
  /** The chart's ServiceMonitor. */
  readonly prometheusServiceMonitor: {
    /** Whether the chart makes a ServiceMonitor: only where prometheus-operator scrapes the exporter. */
    readonly create: boolean;
    /** Labels on the ServiceMonitor, for the `serviceMonitorSelector` of the Prometheus; absent when there are none. */
    readonly extraLabels?: { readonly [key: string]: string };
  };
  /** The chart's own alerting rules. */
  readonly prometheusRules: {
    /** Always `false`: the library's rules alert instead. */
    readonly create: boolean;
  };
}

/**
 * What the exporter's values are made from.
 * @jsii ignore
 */
export interface ExporterValuesInput {
  /** The namespaces of the Secrets it reads, the cluster's first. */
  readonly namespaces: readonly string[];
  /** The name of its objects, unique in the cluster. */
  readonly fullname: string;
  /** The Secrets it reads. */
  readonly secretNames: readonly string[];
  /** Whether prometheus-operator scrapes it (a ServiceMonitor), with the labels its Prometheus selects; otherwise, no ServiceMonitor. */
  readonly serviceMonitor?: { readonly labels: { readonly [key: string]: string } };
}

/**
 * The exporter's chart values for the Secrets of one cluster that it reads: their `tls.crt` and
 * `ca.crt`, in their namespaces, by name (literal names, which its glob patterns match exactly),
 * whichever type the library's Secrets have; its objects named apart from any other cluster's; a
 * ServiceMonitor only where prometheus-operator runs (its CRD missing, the install would fail).
 * The alerting is the library's rules' (the chart's own would alert on other thresholds, without
 * the cluster's runbook).
 */
export function exporterValues(input: ExporterValuesInput): ExporterValues {
  const labels = input.serviceMonitor?.labels ?? {};
  return {
    fullnameOverride: input.fullname,
    secretsExporter: {
      includeNamespaces: [...input.namespaces],
      includeSecrets: [...input.secretNames],
      secretTypes: EXPIRY_EXPORTER.secretTypes.flatMap((type) => EXPORTED_KEYS.map(({ key }) => ({ type, key }))),
    },
    prometheusServiceMonitor: { create: input.serviceMonitor !== undefined, ...(Object.keys(labels).length > 0 ? { extraLabels: { ...labels } } : {}) },
    prometheusRules: { create: false },
  };
}
