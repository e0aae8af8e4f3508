/**
 * The trust boundary, checked on every object of the app in one pass: each reference an object
 * makes to a trust-bearing Secret or issuer (`model/trust-references.ts`) is compared with the
 * parties its owner class allows (`model/trust.ts`). The first reference outside them is the
 * refusal, one line naming the object, the Secret or issuer, and who may hold it.
 */
import { describeValue } from '../model/errors';
import { TRUST_CLASSES, TRUST_ROLES, TrustedObject } from '../model/trust';
import { grantsOf, rolesOn } from '../model/trust-grants';
import { ANY_NAMESPACE, TrustReference, TrustTarget } from '../model/trust-references';
import { AppFacts, ObjectFacts, holderPath } from './app-facts';

/** The first reference of an object of the app to a trusted object that its class does not let it hold. */
export function trustBoundary(facts: AppFacts): string | undefined {
  // Indexed once, so that each reference finds its objects without a scan: by kind and name (for a
  // reference in any namespace, and to name where a Secret is issued), and by namespace as well.
  const byName = new Map<string, TrustedObject[]>();
  const byNamespace = new Map<string, TrustedObject[]>();
  for (const t of facts.trusted) {
    append(byName, nameKey(t), t);
    append(byNamespace, namespaceKey(t), t);
  }
  for (const o of facts.objects) {
    const grants = grantsOf(o.object);
    for (const r of o.references) {
      const named = byName.get(nameKey(r.target)) ?? [];
      const trusted = r.target.namespace === ANY_NAMESPACE ? named : byNamespace.get(namespaceKey(r.target)) ?? [];
      if (trusted.length === 0) {
        const across = elsewhere(o, r, named);
        if (across !== undefined) {
          return across;
        }
        continue;
      }
      for (const t of trusted) {
        // A party holds it in the ways its role refers to what it holds: an application reads its certificate, never writes it.
        const roles = [...rolesOn(t, grants, o.namespace, r.way === 'declares')].filter((role) => TRUST_ROLES[role].ways.includes(r.way));
        if (!TRUST_CLASSES[t.trust].holders.some((h) => roles.includes(h))) {
          return refusal(o, r, t);
        }
      }
    }
  }
  return undefined;
}

/** The key of a target's kind and name. */
function nameKey(t: TrustTarget): string {
  return `${t.kind}/${t.name}`;
}

/** The key of a target's kind, namespace (none for an object of no namespace) and name. */
function namespaceKey(t: TrustTarget): string {
  return `${t.kind}/${t.namespace ?? ''}/${t.name}`;
}

/** Adds a value to the list of a key. */
function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) {
    map.set(key, [value]);
  } else {
    list.push(value);
  }
}

/** The one line of a reference outside a trusted object's holders. */
function refusal(o: ObjectFacts, r: TrustReference, t: TrustedObject): string {
  const entry = TRUST_CLASSES[t.trust];
  const where = t.namespace === undefined ? '' : ` in namespace "${t.namespace}"`;
  const holders = entry.holders.filter((h) => h !== 'provider' || t.provided).map((h) => TRUST_ROLES[h].text);
  return `${holderPath(o.object)}: ${t.kind} "${t.name}"${where} (${t.holds}, of cluster ${t.clusterKey}): received ${article(o.object.kind)} ${o.object.kind} that ${r.way} it (${r.field}); `
    + `expected it held only by ${listed(holders)}: ${entry.risk}; ${entry.instead.replace('{certificates}', t.certificates)}`;
}

/**
 * A Secret the library issues only in other namespaces, loaded by a pod of this one: a pod reads
 * Secrets of its own namespace only, so it would not start, or would read another Secret of that name.
 */
function elsewhere(o: ObjectFacts, r: TrustReference, named: readonly TrustedObject[]): string | undefined {
  const issued = named.filter((t) => t.kind === 'Secret' && TRUST_CLASSES[t.trust].holders.includes('writer'));
  if (r.way !== 'loads' || issued.length === 0 || o.namespace === undefined || r.target.namespace !== o.namespace) {
    return undefined;
  }
  const where = [...new Set(issued.map((t) => t.namespace!))].sort().join(', ');
  return `${holderPath(o.object)}: Secret "${r.target.name}": received ${article(o.object.kind)} ${o.object.kind} in namespace ${describeValue(o.namespace)} that loads it; expected it in the namespace the library issues `
    + `the Secret in (${where}): a pod reads Secrets of its own namespace only; declare the workload there, or give it a certificate `
    + `of its own in "${o.namespace}" (addSqlClient with namespace "${o.namespace}")`;
}

/** The indefinite article of a kind's name: `an Ingress`, `a Deployment`. */
function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
