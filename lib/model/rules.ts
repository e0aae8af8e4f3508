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
  BUCKET_FIELDS, CHART_REPOSITORY_RULE, HELM_RELEASE_RULE, LABEL_RULE, SOURCE_ID_RULE, TASK_NAME_RULE, requireBackupType, requireCertificateDnsName, requireChartRepository, requireCommonName, requireCount,
  requireDatabaseUser, requireDnsLabel, requireDnsName, requireDnsSubdomain, requireDuration, requireFolderPath, requireHelmReleaseName, requireHost,
  requireImageName, requireIpAddress, requireKeyPrefix, requireKubernetesLabels, requireMigrationSourceId, requireMigrationTaskName, requirePort,
  requirePrometheusLabels, requireQuantity, requireStorageEndpoint, requireTaskMode, requireText, requireTimeZone,
} from './validate';
import { RELEASE_EXPECTED, requireChartVersion, requireMinimum, requireRelease } from './versions';

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
  port: { expected: 'a port from 1 to 65535', check: requirePort },
  migrationSourceId: { expected: `a source id of ${SOURCE_ID_RULE}`, example: 'mysql-01', check: requireMigrationSourceId },
  migrationTaskName: { expected: TASK_NAME_RULE, example: 'orders', check: requireMigrationTaskName },
  folderPath: { expected: 'a folder path without spaces', example: './relay_log', check: requireFolderPath },
  taskMode: { expected: 'a task mode such as "all"', check: requireTaskMode },
  helmReleaseName: { expected: HELM_RELEASE_RULE, example: 'binlog', check: requireHelmReleaseName },
  chartRepository: { expected: CHART_REPOSITORY_RULE, example: 'https://charts.example.com', check: requireChartRepository },
  chartVersion: { expected: 'an exact chart version', example: '1.1.0', check: requireChartVersion },
  databaseUser: { expected: 'a database user name without spaces or quotes', example: 'backup', check: requireDatabaseUser },
  backupType: { expected: 'a backup type such as "full"', check: requireBackupType },
  keyPrefix: { expected: 'a key prefix without spaces or quotes', example: 'orders/backups', check: requireKeyPrefix },
  ...bucketRules(),
  storageEndpoint: { expected: 'the storage service\'s URL', example: 'https://s3.example.com', check: requireStorageEndpoint },
};

/** The rules of a bucket's provider, region and name, each a pattern of `BUCKET_FIELDS`. */
function bucketRules(): { readonly [name in 'storageProvider' | 'storageRegion' | 'bucket']: ValueRule } {
  const rule = ({ pattern, expected }: { pattern: RegExp; expected: string }, example?: string): ValueRule => ({
    expected, example, check: (scope, field, value) => requireText(scope, field, value, pattern, expected),
  });
  return { storageProvider: rule(BUCKET_FIELDS.provider), storageRegion: rule(BUCKET_FIELDS.region), bucket: rule(BUCKET_FIELDS.bucket, 'orders-backups') };
}

/** Throws unless a version prop, which its rule found well formed, reaches the release of its gate. */
export function checkGate(scope: IConstruct | string, field: string, version: string, gate: VersionGate): void {
  requireMinimum(scope, field, version, gate.minimum, gate.what);
}
