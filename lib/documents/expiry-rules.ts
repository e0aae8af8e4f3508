/**
 * The expiry alerts of a cluster's certificates as Prometheus rule groups, and the values of the
 * exporter that reads the Secrets cert-manager does not manage. Plain data in, plain data out: the
 * same group goes into a `PrometheusRule` and into a `.rules.yml` file.
 */
import { EXPIRY_ALERTS, EXPIRY_EXPORTER, EXPIRY_METRICS, EXPORTED_KEYS, WatchedCertificate } from '../model/expiry';
import * as names from '../model/names';

/** What the rules of one cluster are made from. */
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
  /** Where the runbook of a declared rotation is written, from the output folder. */
  readonly rotationRunbook: string;
}

/** One alerting rule. */
export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: { readonly [key: string]: string };
  readonly annotations: { readonly [key: string]: string };
}

/** A rule group, as a rules file and a `PrometheusRule` hold it. */
export interface RuleGroup {
  readonly name: string;
  readonly rules: readonly AlertRule[];
}

/**
 * The rule group: for every watched certificate, its expiry, its Ready condition (cert-manager) and
 * its series' presence; with cert-manager and one CA, whether each leaf's `ca.crt` still holds the
 * CA certificate the CA's last renewal replaced.
 */
export function expiryRuleGroup(input: ExpiryRulesInput): RuleGroup {
  const cas = input.certificates.filter((c) => c.ca && c.certificateName !== undefined);
  return {
    name: names.expiryRuleGroupName(input.namespace, input.clusterName),
    rules: input.certificates.flatMap((c) => [
      ...certificateRules(input, c),
      ...(cas.length === 1 && !c.ca && c.certificateName !== undefined ? [outdatedCaCopyRule(input, c, cas[0])] : []),
    ]),
  };
}

/**
 * cert-manager renews the CA in place (same key) `caRenewBefore` before it expires and re-issues
 * no leaf: each leaf's `ca.crt` keeps the CA certificate it was issued with until the leaf itself
 * is renewed. A leaf issued before the CA's current certificate (its expiry less its duration is
 * earlier than the CA's) holds the replaced one, which expires `caRenewBefore` after the renewal;
 * from then on the components that load that Secret reject every peer.
 */
function outdatedCaCopyRule(input: ExpiryRulesInput, leaf: WatchedCertificate, ca: WatchedCertificate): AlertRule {
  const expiry = (c: WatchedCertificate) => selector(EXPIRY_METRICS.certManagerExpiry, { namespace: input.namespace, name: c.certificateName! });
  const replacedCaExpiry = `${expiry(ca)} - ${ca.durationSeconds} + ${ca.renewBeforeSeconds}`;
  return {
    alert: EXPIRY_ALERTS.outdatedCaCopy,
    expr: `${expiry(leaf)} - ${leaf.durationSeconds} < on (namespace) ${expiry(ca)} - ${ca.durationSeconds}`,
    for: input.for,
    labels: { ...input.labels, tls_cluster: input.clusterName, secret: leaf.secretName, certificate: 'leaf', severity: 'critical' },
    annotations: {
      summary: `The ca.crt of Secret ${leaf.secretName} (cluster ${input.namespace}/${input.clusterName}) holds the CA certificate cert-manager has since renewed; `
        + `that copy expires at {{ with query "${replacedCaExpiry.replace(/"/g, '\\"')}" }}{{ . | first | value | humanizeTimestamp }}{{ end }}, `
        + 'and from then on the components that load the Secret reject every peer.',
      runbook: `Declare the next rotation of ClusterCertificates ${input.clusterName} as { id, kind: "leaf-renewal" }, synthesize, and follow ${input.rotationRunbook}: `
        + 'cert-manager re-issues every leaf from the renewed CA.',
    },
  };
}

/** The rules of one certificate. */
function certificateRules(input: ExpiryRulesInput, c: WatchedCertificate): AlertRule[] {
  const byCertManager = c.certificateName !== undefined;
  const series = byCertManager
    ? selector(EXPIRY_METRICS.certManagerExpiry, { namespace: input.namespace, name: c.certificateName! })
    : selector(EXPIRY_METRICS.exporterExpiry, { secret_namespace: input.namespace, secret_name: c.secretName, secret_key: c.secretKey! });
  const threshold = Math.min(c.ca ? input.caThresholdSeconds : input.leafThresholdSeconds, c.renewBeforeSeconds ?? Infinity);
  const what = byCertManager
    ? `Certificate ${c.certificateName} (Secret ${c.secretName}) of cluster ${input.namespace}/${input.clusterName}`
    : `the ${c.secretKey} of Secret ${c.secretName} (cluster ${input.namespace}/${input.clusterName})`;
  const labels = { ...input.labels, tls_cluster: input.clusterName, secret: c.secretName, certificate: c.ca ? 'ca' : 'leaf' };
  const runbook = renewal(input, c);
  const rules: AlertRule[] = [{
    alert: EXPIRY_ALERTS.expiring,
    expr: `${series} < time() + ${threshold}`,
    for: input.for,
    labels: { ...labels, severity: 'critical' },
    annotations: {
      summary: `${capitalized(what)} expires at {{ $value | humanizeTimestamp }}.`,
      runbook,
    },
  }];
  if (byCertManager) {
    const expiry = `{{ with query "${series.replace(/"/g, '\\"')}" }}{{ . | first | value | humanizeTimestamp }}{{ else }}an unknown time{{ end }}`;
    rules.push({
      alert: EXPIRY_ALERTS.notReady,
      expr: `${selector(EXPIRY_METRICS.certManagerReady, { namespace: input.namespace, name: c.certificateName!, condition: '!True' })} == 1`,
      for: input.notReadyFor,
      labels: { ...labels, severity: 'warning' },
      annotations: { summary: `${capitalized(what)} is not Ready; it expires at ${expiry}.`, runbook },
    });
  }
  rules.push({
    alert: EXPIRY_ALERTS.unwatched,
    expr: `absent(${series})`,
    for: input.for,
    labels: { ...labels, severity: 'warning' },
    annotations: {
      summary: `This Prometheus has no ${byCertManager ? 'cert-manager' : 'x509-certificate-exporter'} series for ${what}: its expiry time is unknown and nothing alerts before it expires.`,
      runbook: byCertManager
        ? 'Scrape cert-manager\'s controller metrics into this Prometheus, and check that the Certificate exists.'
        : `Install the exporter as the cluster's runbook says, scrape it into this Prometheus, and check that the Secret has its ${c.secretKey}.`,
    },
  });
  return rules;
}

/** What renews a certificate: cert-manager on its own, or the rotation the library declares. */
function renewal(input: ExpiryRulesInput, c: WatchedCertificate): string {
  const declare = (kinds: string) => `declare the next rotation of ClusterCertificates ${input.clusterName} as ${kinds}, synthesize, and follow ${input.rotationRunbook}`;
  if (c.certificateName === undefined) {
    return `Nothing renews it on its own: ${declare(c.ca ? '{ id, kind: "ca-renewal" } (the same key) or { id, kind: "ca-replacement" } (a new key)' : '{ id, kind: "leaf-renewal" }')}.`;
  }
  const describe = `"kubectl describe certificate ${c.certificateName} -n ${input.namespace}" says why`;
  // cert-manager renews its CA itself, with the same key; each leaf keeps in its ca.crt the CA it was issued with.
  return c.ca
    ? `cert-manager renews it on its own, with the same key, and has not: ${describe}. Once it is renewed, ${declare('{ id, kind: "leaf-renewal" }')}, `
      + 'so that every Secret\'s ca.crt holds the renewed CA; for a new key, declare { id, kind: "ca-replacement" } instead.'
    : `cert-manager renews it on its own and has not: ${describe}. To renew it by hand, ${declare('{ id, kind: "leaf-renewal" }')}.`;
}

/** A series selector; a value starting with `!` is a negative match. */
function selector(metric: string, labels: { readonly [key: string]: string }): string {
  const matchers = Object.entries(labels).map(([k, v]) => (v.startsWith('!') ? `${k}!="${v.slice(1)}"` : `${k}="${v}"`));
  return `${metric}{${matchers.join(',')}}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The exporter's chart values for the Secrets of one cluster that it reads: their `tls.crt` and
 * `ca.crt`, in their namespace, by name (literal names, which its glob patterns match exactly),
 * whichever type the library's Secrets have. The alerting is the library's rules' (the chart's own
 * would alert on other thresholds, without the cluster's runbook).
 */
export function exporterValues(namespace: string, secretNames: readonly string[]): object {
  return {
    secretsExporter: {
      includeNamespaces: [namespace],
      includeSecrets: [...secretNames],
      secretTypes: EXPIRY_EXPORTER.secretTypes.flatMap((type) => EXPORTED_KEYS.map(({ key }) => ({ type, key }))),
    },
    prometheusRules: { create: false },
  };
}
