/**
 * Validators of single values (names, quantities, durations, images, time zones), each throwing
 * the one-line error of `errors.ts` and returning the value it accepted.
 */
import { isIP } from 'node:net';
import { Chart, Size, SizeRoundingBehavior } from 'cdk8s';
import { IConstruct } from 'constructs';
import { parseDuration } from './duration';
import { QUANTITY_EXPECTED, StorageSize, isStorageQuantity, sizeQuantity } from './quantity';
import { Description, MAX_SHOWN, WITH_CREDENTIALS, describeValue, hasCredentials, inputError, shown } from './errors';
import { DNS_LABEL_MAX, DNS_SUBDOMAIN_MAX, HELM_RELEASE_MAX, MIGRATION_SOURCE_ID_MAX } from './limits';
import { TASK_FILE, sourceFileName } from './output-layout';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Whether a string is a DNS-1123 label (lowercase alphanumerics and '-', at most 63 characters). */
export function isDnsLabel(value: string): boolean {
  return value.length <= DNS_LABEL_MAX && LABEL.test(value);
}

/** Whether a string is a DNS-1123 subdomain (labels joined by '.', at most 253 characters). */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= DNS_SUBDOMAIN_MAX && value.split('.').every((l) => LABEL.test(l));
}

/**
 * Whether a string is a DNS name as certificates and resolvers take it: DNS-1123 labels of at most
 * 63 characters each, joined by '.', at most 253 characters in all. (A Kubernetes object name, a
 * DNS-1123 subdomain, has no limit per label.)
 */
export function isDnsName(value: string): boolean {
  return isDnsSubdomain(value) && value.split('.').every((l) => l.length <= DNS_LABEL_MAX);
}

/** What a DNS name must be, as messages say it. */
const DNS_NAME_RULE = `lowercase letters, digits, '-' and '.', labels of at most ${DNS_LABEL_MAX} characters, at most ${DNS_SUBDOMAIN_MAX} in all`;

/** Throws unless `value` is a DNS name (see {@link isDnsName}), such as a cluster domain. */
export function requireDnsName(scope: IConstruct | string, field: string, value: string): void {
  if (typeof value !== 'string' || !isDnsName(value)) {
    inputError(scope, field, shown(value), `a DNS name: ${DNS_NAME_RULE}`);
  }
}

/** What a DNS-1123 label must be, as messages say it. */
export const LABEL_RULE = 'a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit, at most 63 characters';

/** Throws unless `value` is a DNS-1123 label. */
export function requireDnsLabel(scope: IConstruct | string, field: string, value: string): void {
  if (typeof value !== 'string' || !isDnsLabel(value)) {
    inputError(scope, field, shown(value), LABEL_RULE);
  }
}

/**
 * Throws unless every name derived from `value` is a DNS-1123 label. `derived` holds the names
 * built from it (service names and the like); the message names the longest one that fails.
 */
export function requireDerivedLabels(scope: IConstruct | string, field: string, value: string, derived: readonly string[]): void {
  requireDnsLabel(scope, field, value);
  const bad = derived.filter((d) => !isDnsLabel(d)).sort((a, b) => b.length - a.length)[0];
  if (bad !== undefined) {
    const room = DNS_LABEL_MAX - (bad.length - value.length);
    inputError(scope, field, value,
      `at most ${room} characters, so that the derived name "${bad}" (${bad.length} characters) stays a DNS-1123 label of at most 63`);
  }
}

/** Throws unless `value` is a DNS-1123 subdomain, such as a Secret name. */
export function requireDnsSubdomain(scope: IConstruct | string, field: string, value: string): void {
  if (typeof value !== 'string' || !isDnsSubdomain(value)) {
    inputError(scope, field, shown(value), 'a DNS-1123 subdomain: lowercase letters, digits, \'-\' and \'.\', at most 253 characters');
  }
}

/** Parses a duration prop, throwing a clear error when it is malformed or not positive. */
export function requireDuration(scope: IConstruct | string, field: string, value: string): number {
  const ms = typeof value === 'string' ? parseDuration(value) : undefined;
  if (ms === undefined || ms <= 0) {
    inputError(scope, field, shown(value), 'a positive Go duration such as "8760h" or "1h30m" (units h, m, s, ms)');
  }
  return ms;
}

/**
 * The quantity a storage size prop stands for; throws unless it is a Kubernetes quantity greater
 * than zero ({@link isStorageQuantity}) or a cdk8s `Size` of whole kibibytes ({@link sizeQuantity}).
 */
export function requireQuantity(scope: IConstruct | string, field: string, value: StorageSize): string {
  if (value instanceof Size) {
    return sizeQuantity(value) ?? inputError(scope, field, new Description(`a Size of ${sizeKibibytes(value)} KiB`), QUANTITY_EXPECTED);
  }
  if (typeof value !== 'string' || !isStorageQuantity(value)) {
    inputError(scope, field, shown(value), QUANTITY_EXPECTED);
  }
  return value;
}

/** The form of an IANA time zone name: segments that start with a capital (`UTC`, `Asia/Kolkata`, `Etc/GMT+5`). */
const TIME_ZONE_FORM = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

/** Every name asked about, with whether it is a time zone: asking `Intl` builds a formatter, which is slow. */
const IS_KNOWN_TIME_ZONE = new Map<string, boolean>();

/** Whether `value` has the form of a time zone name and the time zone database behind `Intl` knows it. */
function isTimeZone(value: string): boolean {
  let known = IS_KNOWN_TIME_ZONE.get(value);
  if (known === undefined) {
    try {
      known = TIME_ZONE_FORM.test(value) && new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone !== undefined;
    } catch {
      known = false;
    }
    IS_KNOWN_TIME_ZONE.set(value, known);
  }
  return known;
}

/**
 * Throws unless `value` is an IANA time zone name such as `UTC` or `Asia/Shanghai`: a name the
 * time zone database behind `Intl` knows, new names and links included (`Intl.supportedValuesOf`
 * lists only one name per zone, and not always the newest), spelled in IANA's capitals, as the
 * components' file lookup needs it.
 */
export function requireTimeZone(scope: IConstruct | string, field: string, value: string): string {
  if (!isTimeZone(value)) {
    inputError(scope, field, shown(value), 'an IANA time zone name, spelled exactly, such as "UTC" or "Asia/Shanghai"');
  }
  return value;
}

/** The kibibytes of a cdk8s `Size`, as a message says them: a number, or what cdk8s says of it when it is none. */
function sizeKibibytes(value: Size): string {
  try {
    return String(value.toKibibytes({ rounding: SizeRoundingBehavior.NONE }));
  } catch {
    return 'no whole number of';
  }
}

/**
 * The largest count the operator reads: replicas and failover counts are Go `int32` fields of its
 * resources, and the API server refuses a larger number in them.
 */
export const MAX_COUNT = 2 ** 31 - 1;

/** Throws unless `value` is a whole number from `min` to {@link MAX_COUNT} (replicas, failover counts). */
export function requireCount(scope: IConstruct | string, field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > MAX_COUNT) {
    inputError(scope, field, shown(value), `a whole number from ${min} to ${MAX_COUNT} (an int32 of the operator)`);
  }
  return value;
}

/** Longest Common Name X.509 allows. */
export const COMMON_NAME_MAX = 64;

/** Throws unless `value` is a Common Name: one line of 1 to 64 printable characters (the X.509 limit). */
export function requireCommonName(scope: IConstruct | string, field: string, value: string): string {
  return requireSubjectText(scope, field, value, COMMON_NAME_MAX);
}

/** Throws unless `value` is a single line of printable text of 1 to `limit` characters. */
export function requireSubjectText(scope: IConstruct | string, field: string, value: unknown, limit: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > limit || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(value) || value.trim() !== value) {
    // A value too long says its length (a reader cannot count 65 characters in a message); past what a message shows, it says it already.
    const counted = typeof value === 'string' && value.length > limit && value.length <= MAX_SHOWN && !hasCredentials(value);
    inputError(scope, field, counted ? new Description(`${describeValue(value)} (${value.length} characters)`) : shown(value),
      `a single line of 1 to ${limit} printable characters, without leading or trailing spaces`);
  }
  return value;
}

/**
 * Checks a list of extra allowed Common Names and returns it without duplicates and without the
 * certificates' own Common Name, which comes first in every list.
 */
export function requireExtraCommonNames(scope: IConstruct | string, field: string, names: readonly string[] | undefined, commonName: string): string[] {
  if (names !== undefined && !Array.isArray(names)) {
    inputError(scope, field, shown(names), 'a list of Common Names');
  }
  (names ?? []).forEach((n, i) => requireCommonName(scope, `${field}[${i}]`, n));
  return otherCommonNames(names, commonName);
}

/** Extra Common Names once each, without the certificates' own, which comes first of its own. */
export function otherCommonNames(names: readonly string[] | undefined, commonName: string): string[] {
  return [...new Set(names ?? [])].filter((n) => n !== commonName);
}

/**
 * Throws unless `value` is a DNS name for a certificate: a DNS name (see {@link isDnsName}),
 * optionally starting with `*.`, at most 253 characters in all.
 */
export function requireCertificateDnsName(scope: IConstruct | string, field: string, value: string): void {
  if (typeof value !== 'string' || value.length > DNS_SUBDOMAIN_MAX || !isDnsName(value.startsWith('*.') ? value.slice(2) : value)) {
    inputError(scope, field, shown(value), `a DNS name: ${DNS_NAME_RULE}, optionally starting with "*."`);
  }
}

/** Throws unless `value` is an IPv4 or IPv6 address. */
export function requireIpAddress(scope: IConstruct | string, field: string, value: string): void {
  if (typeof value !== 'string' || isIP(value) === 0) {
    inputError(scope, field, shown(value), 'an IPv4 or IPv6 address');
  }
}

/**
 * Refuses a value that carries a URL's user name or password, without repeating it: the library
 * would copy it into manifests and runbooks, and an error would print it. Run it before any check
 * that names the value it refuses. `expected` says what the field holds, for a field that is not a
 * URL or host (a folder, a user name).
 */
export function requireNoCredentials(scope: IConstruct | string, field: string, value: unknown,
  expected = 'a URL or host without credentials: give them in the Secret the construct\'s documentation names'): void {
  if (typeof value === 'string' && hasCredentials(value)) {
    inputError(scope, field, WITH_CREDENTIALS, expected);
  }
}

/**
 * Throws unless `value` is an absolute URL of one of `schemes` (without the ':'), whose host is a
 * DNS name or an IP address, without user information (refused without being repeated), query or
 * fragment (which may hold a token, so not repeated either). `expected` says what the field holds.
 */
export function requireUrl(scope: IConstruct | string, field: string, value: unknown, schemes: readonly string[], expected: string): string {
  requireNoCredentials(scope, field, value);
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url !== undefined && typeof value === 'string' && (url.search !== '' || url.hash !== '' || /[?#]/.test(value))) {
    inputError(scope, field, new Description('a URL with a query or fragment (not repeated here: it may hold a token)'), `${expected}, without a query or fragment`);
  }
  const host = url?.hostname.replace(/^\[(.*)\]$/, '$1') ?? '';
  if (url === undefined || !schemes.includes(url.protocol.slice(0, -1)) || !(isIP(host) !== 0 || isDnsName(host.replace(/\.$/, '')))
    || !(value as string).toLowerCase().startsWith(`${url.protocol}//`)) {
    inputError(scope, field, shown(value), expected);
  }
  return value as string;
}

/**
 * Throws unless `value` is a host a client connects to: an IP address, or a DNS name of letters
 * (either case), digits, '-' and '.', each label at most 63 characters and the whole at most 253.
 * A port goes in its own field; credentials are refused without being repeated.
 */
export function requireHost(scope: IConstruct | string, field: string, value: unknown): string {
  requireNoCredentials(scope, field, value);
  if (typeof value === 'string' && isIP(value) !== 0) {
    return value;
  }
  const name = typeof value === 'string' ? value.replace(/\.$/, '') : '';
  if (name.length === 0 || name.length > DNS_SUBDOMAIN_MAX || !name.split('.').every((l) => /^[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?$/.test(l))) {
    const port = typeof value === 'string' && /^[^:]+:\d+$/.test(value) ? ', without a port (give it in the port field)' : '';
    inputError(scope, field, shown(value), `a host name or IP address${port}: labels of letters, digits and '-' of at most ${DNS_LABEL_MAX} characters, at most ${DNS_SUBDOMAIN_MAX} in all`);
  }
  return value as string;
}

/**
 * The namespace of a construct: the given one, else the enclosing chart's; throws when there is
 * none or it is not a DNS-1123 label.
 */
export function resolveNamespace(scope: IConstruct, namespace: string | undefined): string {
  const resolved = namespace ?? Chart.of(scope).namespace;
  if (resolved === undefined) {
    inputError(scope, 'namespace', resolved, 'a namespace, from this prop or from the enclosing chart');
  }
  requireDnsLabel(scope, 'namespace', resolved);
  return resolved;
}

/** A registry host of an image reference: DNS-like components, an optional port. */
const IMAGE_DOMAIN = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?';
/** One path component of an image repository: lowercase letters and digits, joined by `.`, `_`, `__` or dashes. */
const IMAGE_PATH = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
/**
 * An image repository without tag or digest, by the grammar of container image references: the
 * first component is a registry when it holds a `.` or a `:`, or is `localhost`.
 */
const IMAGE_NAME = new RegExp(`^(?:(?:${IMAGE_DOMAIN})/)?${IMAGE_PATH}(?:/${IMAGE_PATH})*$`);

/**
 * Throws unless `value` is a container image repository without a tag or digest, such as
 * `registry.example.com:5000/db/store`: the operator appends the version as the tag, for the
 * cluster components and the monitor's images alike.
 */
export function requireImageName(scope: IConstruct | string, field: string, value: string): string {
  const [first, ...rest] = typeof value === 'string' ? value.split('/') : [];
  const registry = rest.length > 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (typeof value !== 'string' || value.length > 255 || !IMAGE_NAME.test(value) || (!registry && first !== first.toLowerCase())) {
    // A digest's '@' is not a user's: the reference is shown unless what comes before it holds one.
    const bare = typeof value === 'string' ? value.replace(/@[a-z0-9]+:[0-9a-fA-F]*$/, '') : value;
    inputError(scope, field, shown(bare) === bare ? value : shown(bare), 'an image repository without a tag or digest, in lowercase after the registry, '
      + 'such as "registry.example.com/db/store": the operator appends the version as the tag');
  }
  return value;
}

const PROMETHEUS_LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * Throws unless `labels` are Prometheus labels: names of letters, digits and '_' not starting
 * with a digit nor with the reserved '__', none of the `reserved` names the library sets itself,
 * string values.
 */
export function requirePrometheusLabels(scope: IConstruct | string, field: string, labels: { readonly [key: string]: unknown }, reserved: readonly string[]): { [key: string]: string } {
  for (const [name, value] of Object.entries(labels)) {
    if (!PROMETHEUS_LABEL.test(name) || name.startsWith('__')) {
      inputError(scope, field, name, 'Prometheus label names: letters, digits and \'_\', not starting with a digit or \'__\'');
    }
    if (reserved.includes(name)) {
      inputError(scope, `${field}.${name}`, value, `no value: the library sets ${reserved.map((r) => `"${r}"`).join(', ')} on every alert`);
    }
    if (typeof value !== 'string') {
      inputError(scope, `${field}.${name}`, shown(value), 'a string');
    }
    if (value.includes('{{') || value.includes('}}')) {
      // Prometheus expands alert labels as Go templates: '{{' would run as one, or not parse.
      inputError(scope, `${field}.${name}`, value, 'a label value without "{{" or "}}": Prometheus reads alert labels as Go templates');
    }
  }
  return { ...labels as { [key: string]: string } };
}

const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Throws unless `labels` are Kubernetes labels: each key a DNS subdomain prefix and a name, each value at most 63 characters. */
export function requireKubernetesLabels(scope: IConstruct | string, field: string, labels: { readonly [key: string]: unknown }): { [key: string]: string } {
  for (const [key, value] of Object.entries(labels)) {
    const slash = key.lastIndexOf('/');
    const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
    if ((prefix !== undefined && !isDnsSubdomain(prefix)) || name.length === 0 || name.length > DNS_LABEL_MAX || !LABEL_VALUE.test(name)) {
      inputError(scope, field, key, 'label keys: an optional DNS subdomain and \'/\', then at most 63 letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit');
    }
    if (typeof value !== 'string' || value.length > DNS_LABEL_MAX || !LABEL_VALUE.test(value)) {
      inputError(scope, `${field}.${key}`, shown(value), 'a label value: at most 63 letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit');
    }
  }
  return { ...labels as { [key: string]: string } };
}

/** Throws unless `value` is a TCP port, a whole number from 1 to 65535. */
export function requirePort(scope: IConstruct | string, field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    inputError(scope, field, shown(value), 'a port from 1 to 65535');
  }
  return value;
}

/**
 * A migration source id or task name. A source id names the source's file, so both are kept to
 * characters and a length every file system takes (the specification sets no limit).
 */
const MIGRATION_ID = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const MIGRATION_ID_RULE = 'at most 63 letters, digits, \'.\', \'_\' and \'-\', starting and ending with a letter or digit';
/** What a migration task name must be, as messages say it. */
export const TASK_NAME_RULE = `a task name of ${MIGRATION_ID_RULE}`;
/** What a source id must be: a {@link MIGRATION_ID} of at most the migration tool's longest, which its source and subtask checks refuse past. */
export const SOURCE_ID_RULE = `at most ${MIGRATION_SOURCE_ID_MAX} letters, digits, '.', '_' and '-', starting and ending with a letter or digit (the migration tool refuses a longer source id)`;

/** Throws unless `value` is a migration source id: within {@link SOURCE_ID_RULE}, and not the name of the task file once it names its own. */
export function requireMigrationSourceId(scope: IConstruct | string, field: string, value: string): string {
  if (typeof value !== 'string' || !MIGRATION_ID.test(value) || value.length > MIGRATION_SOURCE_ID_MAX) {
    inputError(scope, field, shown(value), `a source id of ${SOURCE_ID_RULE}`);
  }
  if (sourceFileName(value) === TASK_FILE) {
    inputError(scope, field, value, `a source id other than "${value}": ${TASK_FILE} is the task file`);
  }
  return value;
}

/** Throws unless `value` is a migration task name. */
export function requireMigrationTaskName(scope: IConstruct | string, field: string, value: string): string {
  if (typeof value !== 'string' || !MIGRATION_ID.test(value)) {
    inputError(scope, field, shown(value), TASK_NAME_RULE);
  }
  return value;
}

const NO_SPACE = /^\S+$/;

/** Throws unless `value` is a folder path of the migration tool's files: no spaces, no user name or password in it (which is not repeated). */
export function requireFolderPath(scope: IConstruct | string, field: string, value: string): string {
  return requireText(scope, field, value, NO_SPACE, 'a folder path without spaces');
}

/** Throws unless `value` is a migration task mode: one word, no user name or password in it (which is not repeated). */
export function requireTaskMode(scope: IConstruct | string, field: string, value: string): string {
  return requireText(scope, field, value, NO_SPACE, 'a task mode such as "all"');
}

/** What a Helm release name must be, as messages say it. */
export const HELM_RELEASE_RULE = `a Helm release name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most ${HELM_RELEASE_MAX} characters`;

/** Throws unless `value` is a Helm release name: a DNS-1123 label of at most Helm's length. */
export function requireHelmReleaseName(scope: IConstruct | string, field: string, value: string): string {
  if (typeof value !== 'string' || !isDnsLabel(value) || value.length > HELM_RELEASE_MAX) {
    inputError(scope, field, shown(value), HELM_RELEASE_RULE);
  }
  return value;
}

/** What a chart repository must be, as messages say it. */
export const CHART_REPOSITORY_RULE = 'a repository URL starting with https:// (or oci:// for an OCI registry), without a trailing \'/\'';

/** Throws unless `value` is a chart repository's URL, `https://…` or `oci://…`, that a shell command holds unquoted. */
export function requireChartRepository(scope: IConstruct | string, field: string, value: string): string {
  requireUrl(scope, field, value, ['https', 'oci'], CHART_REPOSITORY_RULE);
  if (!/^(https|oci):\/\/[^\s'"$`\\]+[^/\s'"$`\\]$/.test(value)) {
    inputError(scope, field, shown(value), CHART_REPOSITORY_RULE);
  }
  return value;
}

/**
 * Throws unless `value` is a string matching `pattern`, without a URL's user name or password in
 * it (refused without being repeated); `expected` says what the field holds.
 */
export function requireText(scope: IConstruct | string, field: string, value: unknown, pattern: RegExp, expected: string): string {
  requireNoCredentials(scope, field, value, `${expected}, without a user name or password in it (no 'user:password@')`);
  if (typeof value !== 'string' || !pattern.test(value)) {
    inputError(scope, field, shown(value), expected);
  }
  return value as string;
}

/** Throws unless `value` is a database user name a job logs in as: no spaces or quotes. */
export function requireDatabaseUser(scope: IConstruct | string, field: string, value: string): string {
  return requireText(scope, field, value, /^[^\s'"`$\\]+$/, 'a database user name without spaces or quotes: a dedicated account with only the privileges backup and restore need');
}

/** Throws unless `value` is a backup type, a lowercase word. */
export function requireBackupType(scope: IConstruct | string, field: string, value: string): string {
  return requireText(scope, field, value, /^[a-z]+$/, 'a backup type such as "full"');
}

/** Throws unless `value` is a key prefix in a bucket: no spaces or quotes, neither starting nor ending with '/'. */
export function requireKeyPrefix(scope: IConstruct | string, field: string, value: string): string {
  requireText(scope, field, value, /^[^/\s'"`$\\][^\s'"`$\\]*$/, 'a key prefix without spaces or quotes that does not start with \'/\'');
  if (value.endsWith('/')) {
    inputError(scope, field, shown(value), 'a key prefix that does not end with \'/\'');
  }
  return value;
}

/** The forms of a bucket's fields, as messages say them. */
export const BUCKET_FIELDS = {
  provider: { pattern: /^[a-z0-9][a-z0-9-]*$/, expected: 'a storage provider name such as "aws" or "ceph"' },
  region: { pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/, expected: 'a region such as "us-west-2"' },
  bucket: { pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/, expected: 'a bucket name (letters, digits, \'-\', \'_\' and \'.\')' },
} as const;

/** Throws unless `value` is the URL of a storage service, `https://…` or `http://…` (which takes its own consent, checked apart). */
export function requireStorageEndpoint(scope: IConstruct | string, field: string, value: string): string {
  const expected = 'the storage service\'s URL, such as "https://s3.example.com" (a port after the host, as in "https://s3.example.com:9000")';
  requireUrl(scope, field, value, ['https', 'http'], expected);
  return requireText(scope, field, value, /^https?:\/\/[^\s'"`$\\]+$/, expected);
}
