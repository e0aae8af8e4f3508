/**
 * The names of the files in a cluster's cfssl folder, shared by the request files that are
 * declared and the issuing script that reads them and writes the certificates beside them.
 */
import { CFSSL_PROFILES } from '../model/catalog-certificates';
import type { ServerCertificatePlan, TlsPlanSqlSecret } from '../plan/certificate-options';

/** The issuing script, in the cfssl folder. */
export const ISSUE_SCRIPT = 'issue-certificates.sh';

/** The bare name (file prefix) of the CA and of the shared client certificate. */
export const CA_BARE = 'ca';
export const CLIENT_BARE = 'client';

/** The CA's request and the signing configuration. */
export const CA_CSR = 'ca-csr.json';
export const CA_CONFIG = 'ca-config.json';

/** The bare name of a component's server certificate: `<component>-server`. */
export function serverBare(plan: ServerCertificatePlan): string {
  return `${plan.token}-server`;
}

/** Where the runbook and the script suggest copying the folder before running the script: `~/pki-<namespace>-<cluster>`. */
export function pkiCopyFolder(namespace: string, clusterName: string): string {
  return `~/pki-${namespace}-${clusterName}`;
}

/** The bare name of a certificate for MySQL clients: `server`, `operator-client` or `app-<application>`. */
export function sqlBare(secret: TlsPlanSqlSecret): string {
  switch (secret.role) {
    case 'server':
      return 'server';
    case 'operator-client':
      return 'operator-client';
    default:
      return `app-${secret.application}`;
  }
}

/** The cfssl signing profile of a certificate for MySQL clients: the server's, or the clients'. */
export function sqlProfile(secret: TlsPlanSqlSecret): string {
  return secret.role === 'server' ? CFSSL_PROFILES.server : CFSSL_PROFILES.client;
}
