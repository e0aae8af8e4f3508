/**
 * The rules that span constructs, checked as one validation of the app (`node.addValidation` on
 * its root, which `registry.ts` adds when the app's first construct registers), so that every way
 * of rendering it runs them: the library's `synthesize` and `renderApp`, and stock cdk8s
 * (`app.synth()`, `Chart.toJson()`, `Testing.synth()`). Each rule is a function of the app's facts
 * and of what the constructs registered; one mistake is one line.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CLUSTER_RESOURCE_KINDS as CLUSTER_RESOURCES, OPERATOR_MOUNTS } from '../model/catalog';
import * as names from '../model/names';
import { clusterKey } from '../model/trust';
import { allowedCommonNameLists } from '../model/allowed-common-names';
import { Description, describeValue } from '../model/errors';
import { AppFacts, CertificatesFacts, DrainerFacts, appFacts } from './app-facts';
import { trustBoundary } from './trust-rule';

/** The app's validation: the first failure of the rules, as one line; one mistake is one line. */
export function firstRuleFailure(root: IConstruct, certificates: readonly CertificatesFacts[], drainers: readonly DrainerFacts[]): string[] {
  const facts = appFacts(root, certificates);
  const objects = facts.objects.map((o) => o.object);
  const failure = uniqueObjects(objects) ?? secretClaims(certificates) ?? joinedNames(certificates) ?? issuerRefs(facts, certificates)
    ?? drainerReleases(drainers) ?? operatorMounts(facts, certificates) ?? commonNames(facts, certificates) ?? trustBoundary(facts);
  return failure === undefined ? [] : [failure];
}

/** Two objects of the same kind, namespace and name would overwrite each other in the cluster. */
export function uniqueObjects(objects: readonly ApiObject[]): string | undefined {
  const seen = new Map<string, string>();
  // Cluster resources first, so that two clusters of one name are reported as such.
  const isCluster = (o: ApiObject) => CLUSTER_RESOURCES.has(o.kind);
  for (const o of [...objects.filter(isCluster), ...objects.filter((x) => !isCluster(x))]) {
    const group = o.apiVersion.slice(0, Math.max(o.apiVersion.lastIndexOf('/'), 0));
    const namespace = o.metadata.namespace ?? '';
    const key = `${group}/${o.kind}/${namespace}/${o.name}`;
    const other = seen.get(key);
    if (other !== undefined) {
      return `${o.node.path}: ${o.kind} "${o.name}" in namespace "${namespace}": received it twice (${other} declares it too); `
        + 'expected each object once: share one construct instead of declaring it twice';
    }
    seen.set(key, o.node.path);
  }
  return undefined;
}

/** Two constructs that issue or require the same Secret in one namespace. */
export function secretClaims(certificates: readonly CertificatesFacts[]): string | undefined {
  const seen = new Map<string, string>();
  for (const c of certificates) {
    for (const name of new Set(c.secretNames())) {
      const key = `${c.namespace}/${name}`;
      const first = seen.get(key);
      if (first !== undefined) {
        return `${c.node.path}: Secret "${name}" in namespace "${c.namespace}": received a second claim (${first} claims it too); `
          + 'expected each Secret issued by one construct: pass the same ClusterCertificates to every cluster of that name';
      }
      seen.set(key, c.node.path);
    }
  }
  return undefined;
}

/**
 * Objects two clusters name alike because their names join to the same text (`x`/`y-z` and
 * `x-y`/`z`): an application's Secret in one namespace, the exporter's cluster-wide objects. The
 * second install would fail in the cluster, or take over the first one's.
 */
export function joinedNames(certificates: readonly CertificatesFacts[]): string | undefined {
  const seen = new Map<string, string>();
  for (const c of certificates) {
    for (const claim of c._joinedNameClaims()) {
      const key = `${claim.what}/${claim.namespace ?? ''}/${claim.name}`;
      const first = seen.get(key);
      if (first !== undefined && first !== c.node.path) {
        const where = claim.namespace === undefined ? 'in the whole cluster' : `in namespace "${claim.namespace}"`;
        return `${c.node.path}: ${claim.what} "${claim.name}" ${where}: received a second claim (${first} names it so too); `
          + `expected a name of one cluster: namespace "${c.namespace}" and cluster "${c.clusterName}" join to the same text as the other's; rename either cluster`;
      }
      seen.set(key, c.node.path);
    }
  }
  return undefined;
}

/**
 * What `issuerRef` may not name, when the app declares it: a self-signed issuer (each leaf would
 * be its own CA, and no component could check another's), or the SQL CA of a cluster, whose
 * certificates go to application teams (it would sign a cluster's components too).
 */
export function issuerRefs(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const sqlIssuers = new Map(certificates.flatMap((c) => {
    const sql = c._issuers().sqlIssuer;
    return sql === undefined ? [] : [[sql, c] as const];
  }));
  for (const c of certificates) {
    const ref = c._issuers().issuerRef;
    if (ref === undefined || ref.group !== 'cert-manager.io') {
      continue;
    }
    const sql = ref.kind === 'ClusterIssuer' ? sqlIssuers.get(ref.name) : undefined;
    if (sql !== undefined) {
      return `${c.node.path}: issuerRef: received the ClusterIssuer "${ref.name}", the SQL CA of cluster ${sql.namespace}/${sql.clusterName}; `
        + 'expected an issuer of a CA for cluster components: the SQL CA signs the certificates application teams hold, and must sign nothing else';
    }
    const issuer = facts.objects.find(({ object: o }) => o.kind === ref.kind && o.name === ref.name && o.apiVersion.startsWith('cert-manager.io/')
      && (ref.kind === 'ClusterIssuer' || o.metadata.namespace === c.namespace));
    if (issuer !== undefined && issuer.rendered.spec?.selfSigned !== undefined) {
      return `${c.node.path}: issuerRef: received the self-signed ${ref.kind} "${ref.name}" (${issuer.object.node.path}); `
        + 'expected an issuer of a CA: with a self-signed issuer each certificate is its own CA, and no component can check another\'s';
    }
  }
  return undefined;
}

/**
 * Drainer releases of one namespace: Helm refuses a second release of the same name, and two
 * drainers of one name would share a StatefulSet and a service.
 */
export function drainerReleases(drainers: readonly DrainerFacts[]): string | undefined {
  const releases = new Map<string, string>();
  const names = new Map<string, string>();
  for (const d of drainers) {
    const release = releases.get(`${d.namespace}/${d.releaseName}`);
    const name = names.get(`${d.namespace}/${d.drainerName}`);
    if (release !== undefined) {
      return `${d.node.path}: releaseName: received ${describeValue(d.releaseName)}; expected a release name no other drainer of namespace `
        + `"${d.namespace}" uses (${release} installs a release of that name, and helm install refuses a second one)`;
    }
    if (name !== undefined) {
      return `${d.node.path}: drainerName: received ${describeValue(d.drainerName)}; expected a drainer name no other drainer of namespace `
        + `"${d.namespace}" uses (${name} names its drainer so)`;
    }
    releases.set(`${d.namespace}/${d.releaseName}`, d.node.path);
    names.set(`${d.namespace}/${d.drainerName}`, d.node.path);
  }
  return undefined;
}

/**
 * The allowed Common Name lists of every cluster resource, as rendered (escape hatches applied),
 * against the Common Name of its cluster's certificates: each list holds it, and the
 * single-value lists (coordinator, migration master) hold exactly it. A cluster resource with TLS
 * off (a TLS enablement before its flip) has no lists yet, and is skipped.
 */
export function commonNames(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const byCluster = new Map(certificates.map((c) => [clusterKey(c.namespace, c.clusterName), c.commonName]));
  for (const { object: o, rendered } of facts.objects) {
    if (!CLUSTER_RESOURCES.has(o.kind)) {
      continue;
    }
    const cn = byCluster.get(clusterKey(o.metadata.namespace ?? '', o.name));
    if (cn === undefined || rendered.spec?.tlsCluster?.enabled === false) {
      continue;
    }
    for (const { entry, path, value: list, optional } of allowedCommonNameLists(rendered)) {
      const field = path.join('.');
      if (optional && list === undefined) {
        continue;
      }
      if (entry.commonNameCheck!.singleValue && !(Array.isArray(list) && list.length === 1 && list[0] === cn)) {
        return `${o.node.path}: ${field}: received ${describeValue(list)}; expected exactly ["${cn}"], the certificates' Common Name (only one value is allowed)`;
      }
      if (!Array.isArray(list) || !list.includes(cn)) {
        return `${o.node.path}: ${field}: received ${describeValue(list)}; expected a list that holds "${cn}", the certificates' Common Name`;
      }
    }
  }
  return undefined;
}

/**
 * The fields of every cluster resource with TLS on that have the operator mount a Secret
 * (`OPERATOR_MOUNTS`), as rendered (escape hatches applied), against what the cluster's
 * certificates plan: a field set by a patch rather than by its prop would have the operator mount
 * a Secret nothing issues, and the pods would not start.
 */
export function operatorMounts(facts: AppFacts, certificates: readonly CertificatesFacts[]): string | undefined {
  const byCluster = new Map(certificates.map((c) => [clusterKey(c.namespace, c.clusterName), c]));
  for (const { object: o, rendered } of facts.objects) {
    const c = byCluster.get(clusterKey(rendered.metadata?.namespace, rendered.metadata?.name));
    if (!CLUSTER_RESOURCES.has(o.kind) || c === undefined || rendered.spec?.tlsCluster?.enabled !== true) {
      continue;
    }
    const planned = new Set(c._plannedSecrets());
    for (const mount of OPERATOR_MOUNTS.filter((m) => m.resourceKind === o.kind)) {
      const value = mount.path.reduce((at: any, key) => at?.[key], rendered);
      const on = mount.value === undefined ? value !== undefined : value === mount.value;
      const secret = 'component' in mount.secret ? names.serverSecretName(c.clusterName, mount.secret.component) : names.sqlServerSecretName(c.clusterName);
      if (on && !planned.has(secret)) {
        const received = typeof value === 'object' && value !== null ? new Description('an object') : value;
        return `${o.node.path}: ${mount.path.join('.')}: received ${describeValue(received)}; expected it set by the construct's prop ${mount.prop}, which issues what it has `
          + `the operator mount: Secret "${secret}", which the certificates of cluster ${c.namespace}/${c.clusterName} do not issue, and without which the pods do not start`;
      }
    }
  }
  return undefined;
}
