/**
 * The rules the library knows, checked on manifests whoever wrote them (the library, a hand, a
 * template): the plain objects of a set of YAML files, as `kubectl apply` would read them. Each
 * violation names its rule, the object and the field, and says what to write instead. The cdk8s
 * validation plugin (`ClusterTlsValidation`) reports them; they are pure functions of the objects.
 */
import { ClusterKind, COMPONENTS, ComponentEntry, ComponentToken, clusterKind } from '../model/catalog';
import { allowedCommonNameLists } from '../model/allowed-common-names';
import { parseDuration } from '../model/duration';
import { describeValue } from '../model/errors';
import * as names from '../model/names';
import { CERT_MANAGER_MINIMUMS } from '../certificates/certificate-settings';

/** One object of a manifest file. */
export interface ManifestObject {
  /** The file it was read from. */
  readonly manifestPath: string;
  /** The object, as the file holds it. */
  readonly object: any;
}

/** The names of the rules, as reports show them. */
export enum ManifestRule {
  /** A cluster's certificate Secrets are the ones the operator loads, by name. */
  OPERATOR_SECRET_NAMES = 'cluster-tls/operator-secret-names',
  /** Every allowed Common Name list of a cluster resource accepts its certificates' Common Name. */
  ALLOWED_COMMON_NAMES = 'cluster-tls/allowed-common-names',
  /** A component's server certificate holds every host name its peers dial. */
  SERVER_HOST_NAMES = 'cluster-tls/server-host-names',
  /** A certificate's lifetimes are ones cert-manager accepts, and a leaf ends before its CA. */
  LIFETIMES = 'cluster-tls/certificate-lifetimes',
}

/** One rule broken by one object. */
export interface ManifestViolation {
  /** The rule. */
  readonly rule: ManifestRule;
  /** `<Kind> <namespace>/<name>` of the object. */
  readonly resource: string;
  /** The file holding it. */
  readonly manifestPath: string;
  /** The field, as a dotted path (`spec.dnsNames`). */
  readonly field: string;
  /** What is wrong and what to write instead, in one line. */
  readonly message: string;
}

/** The namespace of an object, as `kubectl apply` without `-n` places it. */
function namespaceOf(object: any): string {
  return typeof object?.metadata?.namespace === 'string' ? object.metadata.namespace : 'default';
}

function isCertificate(object: any): boolean {
  return object?.kind === 'Certificate' && typeof object?.apiVersion === 'string' && object.apiVersion.startsWith('cert-manager.io/');
}

/** What the rules read of a cluster resource. */
interface ClusterResource {
  readonly item: ManifestObject;
  readonly kind: ClusterKind;
  readonly name: string;
  readonly namespace: string;
  /** The components the resource configures (a key of its spec). */
  readonly components: readonly ComponentEntry[];
}

function clusterResources(objects: readonly ManifestObject[]): ClusterResource[] {
  return objects.flatMap((item) => {
    const kind = [ClusterKind.DATABASE, ClusterKind.MIGRATION].find((k) => clusterKind(k).resourceKind === item.object?.kind);
    const name = item.object?.metadata?.name;
    if (kind === undefined || typeof name !== 'string' || item.object?.spec?.tlsCluster?.enabled !== true) {
      return [];
    }
    const components = COMPONENTS.filter((c) => c.cluster === kind && c.specKey !== undefined && item.object.spec[c.specKey] != null);
    return [{ item, kind, name, namespace: namespaceOf(item.object), components }];
  });
}

function resourceName(object: any): string {
  return `${object?.kind} ${namespaceOf(object)}/${object?.metadata?.name}`;
}

/** Every violation of the rules in a set of manifests, in the order of the objects. */
export function checkManifests(objects: readonly ManifestObject[]): ManifestViolation[] {
  const clusters = clusterResources(objects);
  const certificates = objects.filter((o) => isCertificate(o.object));
  const violations: ManifestViolation[] = [];
  /** Certificates already reported as misnamed (a database and a migration cluster share a name). */
  const misnamed = new Set<ManifestObject>();
  const violation = (rule: ManifestRule, item: ManifestObject, field: string, message: string) =>
    violations.push({ rule, resource: resourceName(item.object), manifestPath: item.manifestPath, field, message });

  for (const cluster of clusters) {
    const ofCluster = certificates.filter((c) => namespaceOf(c.object) === cluster.namespace);
    const written = new Map(ofCluster.map((c) => [c.object?.spec?.secretName, c]));
    const secrets = new Set(objects.filter((o) => o.object?.kind === 'Secret' && namespaceOf(o.object) === cluster.namespace).map((o) => o.object?.metadata?.name));
    const expected = new Map<string, ComponentToken | 'client'>([
      ...cluster.components.map((c) => [names.serverSecretName(cluster.name, c.token), c.token] as const),
      [names.clientSecretName(cluster.name, cluster.kind), 'client'],
    ]);

    // Only a set of manifests that issues the cluster's certificates can be held to it: with
    // cfssl or your own PKI the Secrets are made elsewhere.
    if ([...expected.keys()].some((s) => written.has(s))) {
      for (const [secretName, token] of expected) {
        if (!written.has(secretName) && !secrets.has(secretName)) {
          const what = token === 'client' ? 'the client certificate' : `the ${token}'s server certificate`;
          violation(ManifestRule.OPERATOR_SECRET_NAMES, cluster.item, 'spec.tlsCluster.enabled',
            `no Certificate writes "${secretName}", the Secret the operator loads ${what} from: name the Certificate's spec.secretName so`);
        }
      }
      // A Certificate named like one of the cluster's (`<cluster>-…-cluster-secret`,
      // `<cluster>-…-client-secret`) under a name no component of either kind has: a typo.
      const known = new Set([
        ...COMPONENTS.map((c) => names.serverSecretName(cluster.name, c.token)),
        ...[ClusterKind.DATABASE, ClusterKind.MIGRATION].map((k) => names.clientSecretName(cluster.name, k)),
        names.sqlOperatorClientSecretName(cluster.name),
      ]);
      for (const certificate of ofCluster) {
        const secretName = certificate.object?.spec?.secretName;
        if (typeof secretName === 'string' && secretName.startsWith(`${cluster.name}-`) && /-(cluster|client)-secret$/.test(secretName) && !known.has(secretName) && !misnamed.has(certificate)) {
          misnamed.add(certificate);
          violation(ManifestRule.OPERATOR_SECRET_NAMES, certificate, 'spec.secretName',
            `received ${describeValue(secretName)}; expected a name the operator loads for a cluster "${cluster.name}", such as ${[...expected.keys()].join(', ')}`);
        }
      }
    }

    const client = written.get(names.clientSecretName(cluster.name, cluster.kind))?.object?.spec?.commonName;
    for (const { entry, path, value: list, optional } of allowedCommonNameLists(cluster.item.object)) {
      const field = path.join('.');
      if (optional && list === undefined) {
        continue;
      }
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
        violation(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field, `received ${describeValue(list)}; expected a list of Common Names`);
      } else if (entry.commonNameCheck!.singleValue && list.length !== 1) {
        violation(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field, `received ${describeValue(list)}; expected exactly one Common Name: the ${entry.token} accepts only one`);
      } else if (typeof client === 'string' && !list.includes(client)) {
        violation(ManifestRule.ALLOWED_COMMON_NAMES, cluster.item, field,
          `received ${describeValue(list)}; expected a list that holds "${client}", the Common Name of the cluster's certificates (the client Certificate's spec.commonName): the ${entry.token} refuses every other peer`);
      }
    }

    for (const entry of cluster.components) {
      const certificate = written.get(names.serverSecretName(cluster.name, entry.token));
      if (!certificate || entry.token === 'drainer') {
        continue;
      }
      const clusterDomain = typeof cluster.item.object.spec.clusterDomain === 'string' ? cluster.item.object.spec.clusterDomain : undefined;
      const dnsNames: unknown = certificate.object?.spec?.dnsNames;
      const held = Array.isArray(dnsNames) ? dnsNames : [];
      const missing = names.hostNames(entry.token, { clusterName: cluster.name, namespace: cluster.namespace, clusterDomain }).filter((n) => !held.includes(n));
      if (missing.length > 0) {
        violation(ManifestRule.SERVER_HOST_NAMES, certificate, 'spec.dnsNames',
          `lacks ${missing.map((n) => `"${n}"`).join(', ')}; expected every host name of the ${entry.token} of cluster "${cluster.name}": a peer dialing a missing one refuses the handshake`);
      }
    }
  }

  checkLifetimes(objects, certificates, violation);
  return violations;
}

/** cert-manager's lifetimes rules, and a leaf issued by a CA Issuer ending before that CA. */
function checkLifetimes(objects: readonly ManifestObject[], certificates: readonly ManifestObject[],
  violation: (rule: ManifestRule, item: ManifestObject, field: string, message: string) => void): void {
  const minimum = { duration: parseDuration(CERT_MANAGER_MINIMUMS.duration)!, renewBefore: parseDuration(CERT_MANAGER_MINIMUMS.renewBefore)! };
  const read = (text: unknown) => (typeof text === 'string' ? parseDuration(text) : undefined);
  for (const certificate of certificates) {
    const spec = certificate.object?.spec ?? {};
    const duration = read(spec.duration);
    const renewBefore = read(spec.renewBefore);
    if (duration !== undefined && duration < minimum.duration) {
      violation(ManifestRule.LIFETIMES, certificate, 'spec.duration', `received ${describeValue(spec.duration)}; expected at least ${CERT_MANAGER_MINIMUMS.duration}: cert-manager's webhook refuses less`);
    }
    if (renewBefore !== undefined && renewBefore < minimum.renewBefore) {
      violation(ManifestRule.LIFETIMES, certificate, 'spec.renewBefore', `received ${describeValue(spec.renewBefore)}; expected at least ${CERT_MANAGER_MINIMUMS.renewBefore}: cert-manager's webhook refuses less`);
    }
    if (duration !== undefined && renewBefore !== undefined && renewBefore >= duration) {
      violation(ManifestRule.LIFETIMES, certificate, 'spec.renewBefore', `received ${describeValue(spec.renewBefore)}; expected a window shorter than spec.duration (${spec.duration})`);
    }
    // A leaf of a CA Issuer: the Issuer's Secret is written by a Certificate of the same namespace.
    const issuer = objects.find((o) => o.object?.kind === (spec.issuerRef?.kind ?? 'Issuer') && o.object?.kind === 'Issuer'
      && o.object?.metadata?.name === spec.issuerRef?.name && namespaceOf(o.object) === namespaceOf(certificate.object));
    const caSecret = issuer?.object?.spec?.ca?.secretName;
    const ca = caSecret === undefined ? undefined : certificates.find((c) => c.object?.spec?.secretName === caSecret && namespaceOf(c.object) === namespaceOf(certificate.object));
    const caDuration = read(ca?.object?.spec?.duration);
    if (duration !== undefined && caDuration !== undefined && duration >= caDuration) {
      violation(ManifestRule.LIFETIMES, certificate, 'spec.duration',
        `received ${describeValue(spec.duration)}; expected a validity shorter than its CA's (${ca!.object.spec.duration}, Certificate ${ca!.object.metadata?.name}), so that no certificate outlives the CA that signs it`);
    }
  }
}
