/**
 * What `cluster-tls verify` checks of TLS for MySQL clients (the plan's `sqlTls`): each Secret as
 * a certificate set of its own CA, the SQL CA. Pure functions over the plan and the Secrets; the
 * checks themselves are the ones every Secret gets (`verify.ts`), given the SQL CA as the reference,
 * the Secret's own Common Name and no allowed list, plus `sql-ca`: the SQL CA is not the cluster's.
 */
import type { X509Certificate } from 'node:crypto';
import { ClusterKind } from '../model/catalog';
import type { TlsPlan, TlsPlanSecret, TlsPlanSqlSecret } from '../plan/certificate-options';
import type { SecretData } from './input';
import { describeCertificate } from './x509';

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
 * The plan as the checks of one SQL Secret read it: its Common Name is the Secret's; it takes part
 * in the rotation (the SQL CA rotates with the cluster's, phase by phase) but in no enablement
 * (which moves the cluster's certificates only).
 */
export function asSqlPlan(plan: TlsPlan, secret: TlsPlanSqlSecret): TlsPlan {
  return { ...plan, namespace: secret.namespace, commonName: secret.commonName, secrets: [], enablement: undefined };
}

/**
 * Whether the input can say anything of a Secret in `namespace`: it holds a Secret of that
 * namespace, or its Secrets carry no namespace at all. A Secret of an application's namespace is
 * checked only then: `kubectl get secrets -n <cluster's namespace>` does not list it.
 */
export function inputCovers(secrets: readonly SecretData[], namespace: string): boolean {
  return secrets.every((s) => s.namespace === undefined) || secrets.some((s) => s.namespace === namespace);
}

/** `sql-ca`: the Secret's CA (the first certificate of its `ca.crt`) is not the cluster's, which would let a component's certificate in and an application's pass as a component. */
export function checkSqlCa(ca: X509Certificate, clusterCa: X509Certificate | undefined): { ok: boolean; expected: string; found: string } {
  const expected = clusterCa === undefined ? 'ca.crt a CA of its own, not the cluster\'s' : `ca.crt a CA of its own, not the cluster's ${describeCertificate(clusterCa)}`;
  const same = clusterCa !== undefined && ca.fingerprint256 === clusterCa.fingerprint256;
  return { ok: !same, expected, found: same ? 'ca.crt is the cluster\'s CA' : `ca.crt is ${describeCertificate(ca)}` };
}
