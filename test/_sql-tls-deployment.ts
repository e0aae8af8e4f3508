/**
 * The deployment of the application-TLS tests, issued by either method: TLS for MySQL clients on
 * database cluster demo/basic, with two applications in namespaces of their own, and every Secret
 * as the method writes it (cert-manager through its faithful re-creation, cfssl through the
 * synthesized script and the real cfssl).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import type { CertificateRotation } from '../lib/plan/rotation';
import { filesFolderOf } from '../lib/model/output-layout';
import { IssuingMethod } from '../lib/plan/certificate-options';
import { TlsDatabaseCluster } from '../lib/clusters/tls-database-cluster';
import { synthesize } from '../lib/synth/synthesize';
import { CertManagerIssuer } from './_cert-manager-issuer';
import { requireCfssl } from './_cfssl-available';
import { createFakeKubectl } from './_fake-kubectl';
import type { SecretPem } from './_handshakes';

export const CLUSTER = 'basic';
export const NAMESPACE = 'demo';
/** The name an application in the Kubernetes cluster dials, which the server's certificate carries. */
export const DIALED = `${CLUSTER}-sqlserver.${NAMESPACE}.svc`;
/** A name the server's certificate does not carry. */
export const NOT_ON_CERTIFICATE = `${CLUSTER}-sqlserver.elsewhere.svc`;

/** The deployment both methods synthesize: TLS for MySQL clients and two applications in their own namespaces. */
function synthesized(method: IssuingMethod, outdir: string, options: DeploymentOptions): string {
  const app = new App({ outdir });
  const chart = new Chart(app, NAMESPACE, { namespace: NAMESPACE });
  const certs = new ClusterCertificates(chart, 'certs', { clusterName: CLUSTER, method, rotations: options.rotations });
  const database = new TlsDatabaseCluster(chart, 'database', {
    clusterName: CLUSTER, version: options.version ?? 'v4.0.5', certificates: certs, tlsClient: options.reloadUser === undefined ? {} : { reloadUser: options.reloadUser },
  });
  database.addSqlClient('orders-api', { namespace: 'orders' });
  database.addSqlClient('billing', { namespace: 'billing', commonName: 'billing.example.com' });
  synthesize(app, { outdir });
  return path.join(filesFolderOf(outdir), NAMESPACE, CLUSTER);
}

/** What a test changes in the deployment. */
export interface DeploymentOptions {
  /** The SQL server's release. @default 'v4.0.5' */
  readonly version?: string;
  /** `tlsClient.reloadUser`. @default - none */
  readonly reloadUser?: string;
  /** The certificates' rotations. @default - none */
  readonly rotations?: CertificateRotation[];
}

/** Synthesizes the deployment again into the same folders (a rotation declared, say); returns the cluster's folder. */
export function synthesizeAgain(root: string, method: IssuingMethod, options: DeploymentOptions): string {
  return synthesized(method, path.join(root, 'dist'), options);
}

/** Every Secret of the deployment by `namespace/name`, as the method writes it. */
export async function issue(method: IssuingMethod, root: string, options: DeploymentOptions = {}): Promise<{ folder: string; pki?: string; kubectl?: string; secrets: Map<string, SecretPem> }> {
  const outdir = path.join(root, 'dist');
  const folder = synthesized(method, outdir, options);
  if (method === IssuingMethod.CERT_MANAGER) {
    const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, `${NAMESPACE}.k8s.yaml`), 'utf8')).map((d) => d.toJS());
    const issuer = await CertManagerIssuer.issueAll(objects, { distinctKeysAcrossNamespaces: true });
    return { folder, secrets: new Map(issuer.secrets) };
  }
  requireCfssl();
  const kubectl = createFakeKubectl(path.join(root, 'kubectl'));
  const pki = path.join(root, 'pki');
  fs.cpSync(path.join(folder, 'cfssl'), pki, { recursive: true });
  const ran = spawnSync(path.join(pki, 'issue-certificates.sh'), [], { encoding: 'utf8', env: { ...process.env, KUBECTL: kubectl.command } });
  if (ran.status !== 0) {
    throw new Error(`the issuing script failed (${ran.status}): ${ran.stderr}`);
  }
  const decode = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) as SecretPem;
  return { folder, pki, kubectl: kubectl.command, secrets: new Map(kubectl.secrets().map((s) => [`${s.namespace}/${s.name}`, decode(s.data)])) };
}

