/**
 * The one table of value rules a prop's spec may name (`rule: 'dnsLabel'`): each is a validator
 * of `validate.ts` or `versions.ts`, with what it accepts and an example, as the walker of
 * `props.ts` words a prop left out or of the wrong type. A rule runs once the value's type and
 * bound are right.
 */
import type { IConstruct } from 'constructs';
import { durationText } from './duration';
import { EXPIRY_ALERT_LABELS } from './expiry';
import type { RuleName, VersionGate } from './prop-spec';
import { QUANTITY_EXPECTED } from './quantity';
import {
  LABEL_RULE, requireCertificateDnsName, requireCommonName, requireCount, requireDnsLabel, requireDnsName, requireDnsSubdomain, requireDuration,
  requireHost, requireImageName, requireIpAddress, requireKubernetesLabels, requirePrometheusLabels, requireQuantity, requireTimeZone,
} from './validate';
import { RELEASE_EXPECTED, requireMinimum, requireRelease } from './versions';

/** A rule of values: what it accepts, in words and by example, and the validator that holds it. */
export interface ValueRule {
  /** What the rule accepts, as the message of a required prop left out says it. */
  readonly expected: string;
  /** A value it accepts, for that message, when `expected` shows none. */
  readonly example?: string;
  /** Throws the one-line error of the field unless `value` keeps the rule. */
  readonly check: (scope: IConstruct | string, field: string, value: any) => void;
}

/** Every value rule, by the name a spec gives it. */
export const VALUE_RULES: { readonly [name in RuleName]: ValueRule } = {
  dnsLabel: { expected: LABEL_RULE, example: 'orders', check: requireDnsLabel },
  dnsSubdomain: { expected: 'a DNS-1123 subdomain', example: 'orders-tls', check: requireDnsSubdomain },
  dnsName: { expected: 'a DNS name', example: 'cluster.local', check: requireDnsName },
  certificateDnsName: { expected: 'a DNS name', example: 'db.example.com', check: requireCertificateDnsName },
  ipAddress: { expected: 'an IPv4 or IPv6 address', example: '10.0.0.1', check: requireIpAddress },
  host: { expected: 'a host name or IP address', example: 'db.example.com', check: requireHost },
  goDuration: { expected: 'a positive Go duration', example: '8760h', check: (scope, field, value) => requireDuration(scope, field, durationText(value)) },
  storageQuantity: { expected: QUANTITY_EXPECTED, check: requireQuantity },
  image: { expected: 'an image repository without a tag or digest', example: 'registry.example.com/db/store', check: requireImageName },
  timeZone: { expected: 'an IANA time zone name', example: 'UTC', check: requireTimeZone },
  release: { expected: RELEASE_EXPECTED, check: requireRelease },
  commonName: { expected: 'a Common Name: one line of 1 to 64 printable characters', example: 'orders', check: requireCommonName },
  count: { expected: 'a whole number from 0', check: (scope, field, value) => requireCount(scope, field, value, 0) },
  positiveCount: { expected: 'a whole number from 1', check: (scope, field, value) => requireCount(scope, field, value, 1) },
  alertLabels: { expected: 'Prometheus labels other than those the library sets on its alerts', check: (scope, field, value) => requirePrometheusLabels(scope, field, value, EXPIRY_ALERT_LABELS) },
  kubernetesLabels: { expected: 'Kubernetes labels', check: requireKubernetesLabels },
};

/** Throws unless a version prop, which its rule found well formed, reaches the release of its gate. */
export function checkGate(scope: IConstruct | string, field: string, version: string, gate: VersionGate): void {
  requireMinimum(scope, field, version, gate.minimum, gate.what);
}
