/**
 * What `cluster-tls verify` checks of TLS for MySQL clients (the plan's `sqlTls`): each Secret as
 * a certificate set of its own CA, the SQL CA. Pure functions over the plan and the Secrets; the
 * checks themselves are the ones every Secret gets (`verify.ts`), given the SQL CA as the reference,
 * the Secret's own Common Name and no allowed list, plus `sql-ca`: the SQL CA is not the cluster's.
 */
import { X509Certificate } from 'node:crypto';
import { ClusterKind, SECRET_KEYS } from '../model/catalog';
import type { TlsPlan, TlsPlanSecret, TlsPlanSqlSecret } from '../certificates/certificate-options';
import type { SecretData } from './input';
import { describeCertificate, pemBlocks } from './x509';

/** The name of the check that the SQL CA is a CA of its own. */
export const SQL_CA_CHECK = 'sql-ca';

/** A Secret of the plan's `sqlTls`, as the checks of every Secret take one. */
export function asPlanSecret(secret: TlsPlanSqlSecret): TlsPlanSecret {
  return {
    name: secret.name,
    role: secret.role === 'server' ? 'server' : 'client',
    cluster: ClusterKind.DATABASE,
    component: secret.role === 'server' ? 'sqlserver' : undefined,
    usages: secret.usages,
    dnsNames: secret.dnsNames,
    ipAddresses: secret.ipAddresses,
  };
}

/**
 * The plan as the checks of one SQL Secret read it: its Common Name is the Secret's, and it takes
 * part in no rotation or enablement (those move the cluster's certificates only).
 */
export function asSqlPlan(plan: TlsPlan, secret: TlsPlanSqlSecret): TlsPlan {
  return { ...plan, namespace: secret.namespace, commonName: secret.commonName, secrets: [], rotation: undefined, enablement: undefined };
}

/** The Secret of a SQL plan entry in the input: by name, in its namespace (or any, when the input names none). */
export function findSqlSecret(secrets: readonly SecretData[], secret: TlsPlanSqlSecret): SecretData | undefined {
  return secrets.find((s) => s.name === secret.name && (s.namespace === undefined || s.namespace === secret.namespace));
}

/**
 * Whether the input can say anything of a Secret in `namespace`: it holds a Secret of that
 * namespace, or its Secrets carry no namespace at all. A Secret of an application's namespace is
 * checked only then: `kubectl get secrets -n <cluster's namespace>` does not list it.
 */
export function inputCovers(secrets: readonly SecretData[], namespace: string): boolean {
  return secrets.every((s) => s.namespace === undefined) || secrets.some((s) => s.namespace === namespace);
}

/** The SQL CA the Secrets carry: the `ca.crt` most of them hold, with where it was found. */
export function sqlReferenceCa(found: readonly SecretData[]): { certificate: X509Certificate; origin: string } | undefined {
  const carried = found.filter((s) => s.data[SECRET_KEYS.ca] !== undefined).map((s) => firstCertificate(s.data[SECRET_KEYS.ca]))
    .filter((c): c is X509Certificate => c !== undefined);
  if (carried.length === 0) {
    return undefined;
  }
  const count = (c: X509Certificate) => carried.filter((x) => x.fingerprint256 === c.fingerprint256).length;
  const best = carried.reduce((a, b) => (count(b) > count(a) ? b : a));
  return { certificate: best, origin: `${count(best)} of the ${carried.length} Secrets of TLS for MySQL clients` };
}

/** `sql-ca`: the Secret's CA is not the cluster's, which would let a component's certificate in and an application's pass as a component. */
export function checkSqlCa(secret: SecretData, clusterCa: X509Certificate | undefined): { ok: boolean; expected: string; found: string } {
  const ca = firstCertificate(secret.data[SECRET_KEYS.ca]);
  const expected = clusterCa === undefined ? 'ca.crt a CA of its own, not the cluster\'s' : `ca.crt a CA of its own, not the cluster's ${describeCertificate(clusterCa)}`;
  if (ca === undefined) {
    return { ok: false, expected, found: 'no certificate in ca.crt' };
  }
  const same = clusterCa !== undefined && ca.fingerprint256 === clusterCa.fingerprint256;
  return { ok: !same, expected, found: same ? 'ca.crt is the cluster\'s CA' : `ca.crt is ${describeCertificate(ca)}` };
}

/** The first certificate of a PEM value, or undefined when it holds none that parses. */
function firstCertificate(value: Buffer | undefined): X509Certificate | undefined {
  const first = pemBlocks(value?.toString('utf8') ?? '').find((b) => b.label === 'CERTIFICATE');
  try {
    return first === undefined ? undefined : new X509Certificate(first.pem);
  } catch {
    return undefined;
  }
}
