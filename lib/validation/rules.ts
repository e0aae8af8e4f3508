/**
 * The rules the library knows, checked on manifests whoever wrote them (the library, a hand, a
 * template): the plain objects of a set of YAML files, as `kubectl apply` would read them. Each
 * violation names its rule, the object and the field, says what is wrong and how to fix it. The
 * cdk8s validation plugin (`ClusterTlsValidation`) reports them; they are pure functions of the
 * objects, reading every name through `model/names.ts` and the catalog.
 */
import { CLUSTER_KINDS, COMPONENTS, ClusterKind, ComponentEntry, DeployedBy, clusterKind } from '../model/catalog';
import { allowedCommonNameLists } from '../model/allowed-common-names';
import { parseGoDuration } from '../model/duration';
import { describeValue } from '../model/errors';
import { DNS_LABEL_MAX } from '../model/limits';
import { isDnsLabel } from '../model/validate';
import * as names from '../model/names';
import { lifetimeBreaks } from '../model/lifetimes';

/**
 * One object of a manifest file.
 * @jsii ignore
 */
export interface ManifestObject {
  /** The file it was read from. */
  readonly manifestPath: string;
  /** The object, as the file holds it. */
  readonly object: any;
}

/**
 * The names of the rules, as reports show them.
 * @jsii ignore
 */
export enum ManifestRule {
  /** A cluster's certificate Secrets are the ones the operator loads, by name. */
  OPERATOR_SECRET_NAMES = 'cluster-tls/operator-secret-names',
  /** Every allowed Common Name list of a cluster resource accepts its certificates' Common Name. */
  ALLOWED_COMMON_NAMES = 'cluster-tls/allowed-common-names',
  /** A component's server certificate holds every host name its peers dial. */
  SERVER_HOST_NAMES = 'cluster-tls/server-host-names',
  /** A certificate's lifetimes are ones cert-manager accepts, and a leaf ends before its CA. */
  LIFETIMES = 'cluster-tls/certificate-lifetimes',
  /** Each Secret a cluster resource lists in a `tlsClientSecretNames` can name the pod volume the operator mounts it with. */
  CLIENT_SECRET_NAMES = 'cluster-tls/client-secret-names',
}

/**
 * One rule broken by one object.
 * @jsii ignore
 */
export interface ManifestViolation {
  /** The rule. */
  readonly rule: ManifestRule;
  /** `<Kind> <namespace>/<name>` of the object (`<Kind> <name>` without a namespace). */
  readonly resource: string;
  /** The object's `metadata.name`, by which cdk8s-cli's report finds its construct path. */
  readonly name: string;
  /** The file holding it. */
  readonly manifestPath: string;
  /** The field, as a dotted path (`spec.dnsNames`). */
  readonly field: string;
  /** What is wrong, in one line: what the field holds and what it should. */
  readonly message: string;
  /** What to change to fix it, in one line. */
  readonly fix: string;
}

/**
 * The namespace of an object as written; undefined when it has none (a manifest applied with
 * `kubectl apply -n`): objects without one are taken to share one namespace, never guessed.
 */
function namespaceOf(object: any): string | undefined {
  return typeof object?.metadata?.namespace === 'string' ? object.metadata.namespace : undefined;
}

function isCertificate(object: any): boolean {
  return object?.kind === 'Certificate' && typeof object?.apiVersion === 'string' && object.apiVersion.startsWith('cert-manager.io/');
}

function resourceName(object: any): string {
  const namespace = namespaceOf(object);
  return `${object?.kind} ${namespace === undefined ? '' : `${namespace}/`}${object?.metadata?.name}`;
}

/** What the rules read of a cluster resource with TLS on. */
interface ClusterResource {
  readonly item: ManifestObject;
  readonly kind: ClusterKind;
  readonly name: string;
  readonly namespace?: string;
  /** The components the resource configures (a key of its spec). */
  readonly components: readonly ComponentEntry[];
  /** The Certificates of its namespace, by the Secret they write. */
  readonly written: ReadonlyMap<string, ManifestObject>;
}

/** Adds one violation; the rules report through it. */
type Report = (rule: ManifestRule, item: ManifestObject, field: string, message: string, fix: string) => void;

/** Every violation of the rules in a set of manifests, rule by rule. */
export function checkManifests(objects: readonly ManifestObject[]): ManifestViolation[] {
  const certificates = objects.filter((o) => isCertificate(o.object));
  const clusters = clusterResources(objects, certificates);
  const violations: ManifestViolation[] = [];
  const report: Report = (rule, item, field, message, fix) =>
    violations.push({ rule, resource: resourceName(item.object), name: String(item.object?.metadata?.name), manifestPath: item.manifestPath, field, message, fix });
  checkSecretNames(objects, clusters, report);
  checkCommonNames(clusters, report);
  checkHostNames(clusters, report);
  checkLifetimes(objects, certificates, report);
  checkClientSecretNames(objects, report);
  return violations;
}

/** The `tlsClientSecretNames` lists of the cluster kinds, as paths below a resource's `spec`. */
const CLIENT_SECRET_LISTS: ReadonlyArray<{ readonly kind: string; readonly path: readonly string[] }> = [
  { kind: clusterKind(ClusterKind.MIGRATION).resourceKind, path: ['tlsClientSecretNames'] },
  { kind: clusterKind(ClusterKind.DATABASE).resourceKind, path: ['changefeed', 'tlsClientSecretNames'] },
];

/**
 * Every Secret of a cluster resource's `tlsClientSecretNames` (the migration cluster's external
 * databases, the changefeed's sinks) is a DNS-1123 label, listed once: the operator names the pod
 * volume and the mount that hold each Secret after it, and Kubernetes refuses a pod whose volume
 * name has a '.' or more than 63 characters, or whose two volumes share a name.
 */
function checkClientSecretNames(objects: readonly ManifestObject[], report: Report): void {
  for (const item of objects) {
    for (const list of CLIENT_SECRET_LISTS.filter((l) => l.kind === item.object?.kind)) {
      const value: unknown = list.path.reduce<any>((at, key) => at?.[key], item.object?.spec);
      if (!Array.isArray(value)) {
        continue;
      }
      const field = ['spec', ...list.path].join('.');
      value.forEach((name: unknown, i: number) => {
        if (typeof name !== 'string' || !isDnsLabel(name)) {
          report(ManifestRule.CLIENT_SECRET_NAMES, item, `${field}[${i}]`,
            `received ${describeValue(name)}; expected a Secret name that is a DNS-1123 label (lowercase letters, digits and '-', at most ${DNS_LABEL_MAX} characters): `
            + 'the operator names the pod volume that mounts it after it, and Kubernetes refuses the pods otherwise',
            'rename the Secret, and list it under its new name');
        } else if (value.indexOf(name) !== i) {
          report(ManifestRule.CLIENT_SECRET_NAMES, item, `${field}[${i}]`,
            `received ${describeValue(name)} a second time; expected each Secret once: two volumes of one name make Kubernetes refuse the pods`,
            `remove the second "${name}"`);
        }
      });
    }
  }
}

function clusterResources(objects: readonly ManifestObject[], certificates: readonly ManifestObject[]): ClusterResource[] {
  return objects.flatMap((item) => {
    const kind = CLUSTER_KINDS.find((k) => k.resourceKind === item.object?.kind)?.kind;
    const name = item.object?.metadata?.name;
    if (kind === undefined || typeof name !== 'string' || item.object?.spec?.tlsCluster?.enabled !== true) {
      return [];
    }
    const namespace = namespaceOf(item.object);
    const components = COMPONENTS.filter((c) => c.cluster === kind && c.specKey !== undefined && item.object.spec[c.specKey] != null);
    const written = new Map(certificates.filter((c) => namespaceOf(c.object) === namespace).map((c) => [c.object?.spec?.secretName, c]));
    return [{ item, kind, name, namespace, components, written }];
  });
}

/**
 * When the manifests issue a cluster's certificates with cert-manager, a Certificate (or a Secret)
 * writes each Secret the operator loads; a server Certificate named in the cluster's form after no
 * component of any cluster of the namespace is a misspelt one. With cfssl or Secrets made
 * elsewhere, nothing in the manifests writes them, and the rule is silent.
 */
function checkSecretNames(objects: readonly ManifestObject[], clusters: readonly ClusterResource[], report: Report): void {
  const reported = new Set<ManifestObject>();
  for (const cluster of clusters) {
    // Each Secret the operator loads, with what it holds and the field of the resource that asks for it.
    const servers = cluster.components.map((c) => names.serverSecretName(cluster.name, c.token));
    const expected = new Map<string, { readonly what: string; readonly field: string }>([
      ...cluster.components.map((c, i) => [servers[i], { what: `the ${c.token}'s server certificate`, field: `spec.${c.specKey}` }] as const),
      [names.clientSecretName(cluster.name, cluster.kind), { what: 'the client certificate', field: 'spec.tlsCluster' }],
    ]);
    if (![...expected.keys()].some((s) => cluster.written.has(s))) {
      continue;
    }
    const secrets = new Set(objects.filter((o) => o.object?.kind === 'Secret' && namespaceOf(o.object) === cluster.namespace).map((o) => o.object?.metadata?.name));
    for (const [secretName, { what, field }] of expected) {
      if (!cluster.written.has(secretName) && !secrets.has(secretName)) {
        report(ManifestRule.OPERATOR_SECRET_NAMES, cluster.item, field,
          `no Certificate writes "${secretName}", the Secret the operator loads ${what} from`,
          `set spec.secretName of that Certificate to "${secretName}"`);
      }
    }
    const neighbours = clusters.filter((c) => c.namespace === cluster.namespace);
    const serverSecrets = new Set(neighbours.flatMap((c) => COMPONENTS.map((e) => names.serverSecretName(c.name, e.token))));
    // The server Secrets' form, `<cluster>-<component>-cluster-secret`, read from the naming function.
    const suffix = names.serverSecretName('', 'store').slice('-store'.length);
    const ofForm = (secretName: string) => secretName.startsWith(`${cluster.name}-`) && secretName.endsWith(suffix) && secretName.length > cluster.name.length + 1 + suffix.length;
    for (const certificate of cluster.written.values()) {
      const secretName = certificate.object?.spec?.secretName;
      if (typeof secretName === 'string' && ofForm(secretName) && !serverSecrets.has(secretName)
        && !neighbours.some((c) => c.name !== cluster.name && secretName.startsWith(`${c.name}-`)) && !reported.has(certificate)) {
        reported.add(certificate);
        report(ManifestRule.OPERATOR_SECRET_NAMES, certificate, 'spec.secretName',
          `received ${describeValue(secretName)}; expected the server Secret of a component of cluster "${cluster.name}", such as ${servers.join(', ')}`,
          'set spec.secretName to the name the operator loads for that component');
      }
    }
  }
}

/**
 * Every allowed Common Name list of a cluster resource is a list of names, a single-value list
 * holds one, and each holds the Common Name of the cluster's client Certificate when the manifests
 * have it.
 */
function checkCommonNames(clusters: readonly ClusterResource[], report: Report): void {
  for (const cluster of clusters) {
    const client = cluster.written.get(names.clientSecretName(cluster.name, cluster.kind))?.object?.spec?.commonName;
    for (const { entry, path, value: list, optional } of allowedCommonNameLists(cluster.item.object)) {
      const field = path.join('.');
      if (optional && list === undefined) {
        continue;
      }
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
        report(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field, `received ${describeValue(list)}; expected a list of Common Names`,
          `set ${field} to a list of strings`);
      } else if (entry.commonNameCheck!.singleValue && list.length !== 1) {
        report(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field, `received ${describeValue(list)}; expected exactly one Common Name: the ${entry.token} accepts only one`,
          `keep one name in ${field}`);
      } else if (typeof client === 'string' && !list.includes(client)) {
        report(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field,
          `received ${describeValue(list)}; expected a list that holds "${client}", the Common Name of the cluster's certificates (the client Certificate's spec.commonName): the ${entry.token} refuses every other peer`,
          `add "${client}" to ${field}`);
      }
    }
  }
}

/**
 * A component's server Certificate, and each Certificate staged for it by a rotation
 * (`<secret>-<rotation id>`), holds every host name of the component table: the components the
 * cluster resource configures, the database cluster's importer and lightning when a Certificate
 * writes their server Secret, and the SQL server's certificate for MySQL clients when the resource
 * turns `spec.sqlserver.tlsClient` on. The drainer's names follow its chart's `drainerName`, which
 * no manifest holds, and are not checked. Without a namespace on the cluster resource its host
 * names are unknown, and the rule is silent.
 */
function checkHostNames(clusters: readonly ClusterResource[], report: Report): void {
  for (const cluster of clusters) {
    const namespace = cluster.namespace;
    if (namespace === undefined) {
      continue;
    }
    const clusterDomain = typeof cluster.item.object.spec.clusterDomain === 'string' ? cluster.item.object.spec.clusterDomain : undefined;
    const options = { clusterName: cluster.name, namespace, clusterDomain };
    // The components the resource does not list and that are no chart's (whose names follow a chart value), when a Certificate writes their Secret.
    const unlisted = COMPONENTS.filter((c) => c.cluster === cluster.kind && c.specKey === undefined && c.deployment !== DeployedBy.CHART
      && cluster.written.has(names.serverSecretName(cluster.name, c.token)));
    const expected = [
      ...[...cluster.components, ...unlisted].map((entry) => ({
        secretName: names.serverSecretName(cluster.name, entry.token), hosts: names.hostNames(entry.token, options), what: `the ${entry.token}`,
      })),
      ...(cluster.item.object.spec.sqlserver?.tlsClient?.enabled === true ? [{
        secretName: names.sqlServerSecretName(cluster.name), hosts: names.sqlServerHostNames(cluster.name, namespace, clusterDomain), what: 'the SQL server, for MySQL clients,',
      }] : []),
    ];
    for (const { secretName, hosts, what } of expected) {
      const issued = [...cluster.written].filter(([written]) => written === secretName || String(written).startsWith(names.stagingSecretName(secretName, ''))).map(([, c]) => c);
      for (const certificate of issued) {
        const dnsNames: unknown = certificate.object?.spec?.dnsNames;
        const missing = hosts.filter((n) => !(Array.isArray(dnsNames) && dnsNames.includes(n)));
        if (missing.length > 0) {
          report(ManifestRule.SERVER_HOST_NAMES, certificate, 'spec.dnsNames',
            `lacks ${missing.map((n) => `"${n}"`).join(', ')}; expected every host name of ${what} of cluster "${cluster.name}": a peer dialing a missing one refuses the handshake`,
            `add the missing names to spec.dnsNames`);
        }
      }
    }
  }
}

/** The CA Certificate behind a Certificate's CA issuer (an `Issuer` of its namespace or a `ClusterIssuer`), if the manifests hold it. */
function caOf(objects: readonly ManifestObject[], certificates: readonly ManifestObject[], certificate: ManifestObject): ManifestObject | undefined {
  const ref = certificate.object?.spec?.issuerRef ?? {};
  const kind = ref.kind ?? 'Issuer';
  const issuer = objects.find((o) => o.object?.kind === kind && o.object?.metadata?.name === ref.name
    && (kind === 'ClusterIssuer' || namespaceOf(o.object) === namespaceOf(certificate.object)));
  const caSecret = issuer?.object?.spec?.ca?.secretName;
  if (caSecret === undefined) {
    return undefined;
  }
  // A ClusterIssuer reads its Secret in cert-manager's own namespace, which the manifests may not name: one match is taken.
  const candidates = certificates.filter((c) => c.object?.spec?.secretName === caSecret
    && (kind === 'ClusterIssuer' || namespaceOf(c.object) === namespaceOf(certificate.object)));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * What cert-manager's webhook refuses (a `duration` under its minimum, a `renewBefore` under its
 * minimum or not shorter than `duration`), and a leaf of a CA issuer not shorter than its CA.
 * An unset field is cert-manager's default and left alone.
 */
function checkLifetimes(objects: readonly ManifestObject[], certificates: readonly ManifestObject[], report: Report): void {
  // As the webhook reads them, with Go's parser: `.5h` is 30 minutes, `90d` no duration at all.
  const read = (text: unknown) => (typeof text === 'string' ? parseGoDuration(text) : undefined);
  for (const certificate of certificates) {
    const spec = certificate.object?.spec ?? {};
    for (const field of ['duration', 'renewBefore'] as const) {
      if (spec[field] !== undefined && read(spec[field]) === undefined) {
        report(ManifestRule.LIFETIMES, certificate, `spec.${field}`, `received ${describeValue(spec[field])}; expected a duration Go reads, such as "2160h" or "1h30m" (units ns, us, ms, s, m, h; no days): cert-manager's webhook refuses the Certificate`,
          `write spec.${field} in hours, such as "2160h" for 90 days`);
      }
    }
    const ca = caOf(objects, certificates, certificate);
    const lifetimes = { duration: read(spec.duration), renewBefore: read(spec.renewBefore), caDuration: read(ca?.object?.spec?.duration) };
    // The leaf's own rules: cert-manager's and its place in its CA. The CA's own settings are its Certificate's to answer for.
    for (const broken of lifetimeBreaks(lifetimes, { certManager: true, nesting: false })) {
      switch (broken.rule) {
        case 'minimum':
          if (broken.field === 'duration' || broken.field === 'renewBefore') {
            report(ManifestRule.LIFETIMES, certificate, `spec.${broken.field}`, `received ${describeValue(spec[broken.field])}; expected at least ${broken.minimum}, the webhook's minimum`,
              `raise spec.${broken.field} to ${broken.minimum} or more`);
          }
          break;
        case 'window':
          report(ManifestRule.LIFETIMES, certificate, 'spec.renewBefore', `received ${describeValue(spec.renewBefore)}; expected less than spec.duration (${spec.duration}), or cert-manager renews it without end`,
            'lower spec.renewBefore below spec.duration');
          break;
        case 'outlives-ca':
          report(ManifestRule.LIFETIMES, certificate, 'spec.duration',
            `received ${describeValue(spec.duration)}; expected less than the duration of its CA (${ca!.object.spec.duration}, ${resourceName(ca!.object)}): a leaf that outlives its CA is rejected once the CA expires`,
            'lower spec.duration below the CA\'s, or lengthen the CA');
          break;
        default:
          break;
      }
    }
  }
}
