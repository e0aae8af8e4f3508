/**
 * The user-provided issuing method: the user creates the Secrets by other means (their own PKI, a
 * secrets manager). Nothing is issued; a Markdown file lists each Secret the cluster loads, its
 * three keys and, for server Secrets, the names its certificate must cover.
 */
import { Construct } from 'constructs';
import { SECRET_KEYS } from '../model/catalog-certificates';
import type { CertificateSettings, TlsPlan, TlsPlanSecret, TlsPlanSqlSecret } from '../plan/certificate-options';
import * as layout from '../model/output-layout';
import { OutputFile } from '../app/output-file';
import type { CertificateRenderer } from './renderer';

const USAGE_WORDS: Record<string, string> = { 'server auth': 'server authentication', 'client auth': 'client authentication' };

/** The names a certificate must cover, a list item each: DNS names, then IP addresses. */
function subjectAltNames(secret: { readonly dnsNames?: readonly string[]; readonly ipAddresses?: readonly string[] }): string[] {
  return [...(secret.dnsNames ?? []).map((n) => `- DNS \`${n}\``), ...(secret.ipAddresses ?? []).map((ip) => `- IP \`${ip}\``)];
}

function describeSecret(secret: TlsPlanSecret): string[] {
  const usages = secret.usages.map((u) => USAGE_WORDS[u] ?? u).join(' and ');
  const out = [`### \`${secret.name}\``, ''];
  if (secret.role === 'client') {
    out.push(`The shared client certificate of the ${secret.cluster} cluster. Extended key usage: ${usages} only. `
      + 'It needs no host names or IP addresses.', '');
    return out;
  }
  out.push(`The server certificate of \`${secret.component}\` (${secret.cluster} cluster). Extended key usages: ${usages}. `
    + 'Its subject alternative names must cover:', '');
  out.push(...subjectAltNames(secret), '');
  return out;
}

/** What every Secret must hold in the declared rotation's phase; nothing without a rotation. */
function rotationSection(plan: TlsPlan): string[] {
  const r = plan.rotation;
  if (r === undefined) {
    return [];
  }
  const ca = (g: string) => (g === r.id ? `the CA of generation \`${g}\` (new in this rotation)` : `the CA of generation \`${g}\``);
  return [
    `## Rotation \`${r.id}\` (${r.kind}), phase \`${r.phase}\``,
    '',
    `Phases, in order: ${r.phases.map((p) => `\`${p}\``).join(', ')}. In this phase every Secret below holds:`,
    '',
    `- \`${SECRET_KEYS.certificate}\` and \`${SECRET_KEYS.privateKey}\`: the certificate and key of generation \`${r.leafGeneration}\`, signed by ${ca(r.signedBy)};`,
    `- \`${SECRET_KEYS.ca}\`: ${r.caCertificates.map(ca).join(', followed by ')}.`,
    '',
    'Update each Secret whole (`kubectl apply`), never delete one, then restart the components as',
    `\`${layout.ROTATION_RUNBOOK_FILE}\` says. \`${layout.TLS_PLAN_FILE}\` states the same under \`rotation\`.`,
    '',
  ];
}

/** The Secrets of TLS for MySQL clients, signed by a CA of their own; nothing when it is off. */
function sqlSection(plan: TlsPlan): string[] {
  const sql = plan.sqlTls;
  if (sql === undefined) {
    return [];
  }
  const describe = (s: TlsPlanSqlSecret): string[] => {
    const what = s.role === 'server' ? 'The SQL server\'s certificate for MySQL clients'
      : s.role === 'operator-client' ? 'The client certificate of the operator\'s own MySQL clients (backup, restore)'
        : `The client certificate of application \`${s.application}\``;
    return [
      `### \`${s.namespace}/${s.name}\``, '',
      `${what}. Subject: exactly \`CN=${s.commonName}\`. Extended key usage: ${s.usages.map((u) => USAGE_WORDS[u] ?? u).join(' and ')}.${s.dnsNames ? ' Its subject alternative names must cover:' : ''}`, '',
      ...subjectAltNames(s), ...(s.dnsNames ? [''] : []),
    ];
  };
  return [
    '## TLS for MySQL clients',
    '',
    'These Secrets are signed by a CA of their own, not the CA of the certificates above: the SQL server',
    'checks client certificates against it, and an application certificate it signs cannot pass as a',
    `component. Each Secret's \`${SECRET_KEYS.ca}\` holds that CA. Create each in the namespace named.`,
    '',
    ...(plan.rotation === undefined ? [] : [
      `They rotate with the cluster's: in phase \`${plan.rotation.phase}\` of rotation \`${plan.rotation.id}\` each holds what the section above says,`,
      'with the SQL CA of each generation in place of the cluster\'s CA (a CA replacement makes a new SQL CA, a CA renewal renews it',
      `with the same key). Update each whole in its namespace before the restarts of \`${layout.ROTATION_RUNBOOK_FILE}\`.`, '',
    ]),
    ...sql.secrets.flatMap(describe),
  ];
}

/** The Markdown list of the Secrets a cluster loads and what each must hold. */
function requiredSecrets(plan: TlsPlan): string {
  const clients = plan.secrets.filter((s) => s.role === 'client');
  const servers = plan.secrets.filter((s) => s.role === 'server');
  const key = `${plan.privateKey.algorithm}${plan.privateKey.size ? ` ${plan.privateKey.size}` : ''}`;
  const out = [
    `# Secrets to create for cluster ${plan.clusterName} in namespace ${plan.namespace}`,
    '',
    'These certificates are provided by you: the library issues none. Create every Secret below in',
    `namespace \`${plan.namespace}\` before the cluster. The operator loads each one by its exact name; with`,
    'another name the deployment of the cluster fails.',
    '',
    'Each is a generic Secret with exactly these three data keys:',
    '',
    '| Key | Content |',
    '|---|---|',
    `| \`${SECRET_KEYS.certificate}\` | the certificate (PEM) |`,
    `| \`${SECRET_KEYS.privateKey}\` | its private key (PEM) |`,
    `| \`${SECRET_KEYS.ca}\` | the certificate of the CA that signed it (PEM) |`,
    '',
    'Every certificate of the cluster is signed by the same CA and carries the same Common Name,',
    `\`${plan.commonName}\`: the components accept only peers with that name. The other issuing methods`,
    `would give them organization \`${plan.organization}\`, ${key} keys and a validity of ${plan.duration}`,
    // A plan of this method always has the library's CA settings: issuerRef goes with cert-manager alone.
    `(the CA ${plan.ca!.duration}).`,
    '',
    'For example, with the files of one certificate at hand:',
    '',
    '```sh',
    `kubectl create secret generic <name> --namespace=${plan.namespace} \\`,
    `  --from-file=${SECRET_KEYS.certificate}=<certificate>.pem --from-file=${SECRET_KEYS.privateKey}=<key>.pem --from-file=${SECRET_KEYS.ca}=<ca>.pem`,
    '```',
    '',
    `The same list, machine-readable, is \`${layout.TLS_PLAN_FILE}\` in this folder.`,
    '',
  ];
  out.push(...rotationSection(plan));
  if (clients.length > 0) {
    out.push('## Client Secrets', '', ...clients.flatMap((s) => describeSecret(s)));
  }
  if (servers.length > 0) {
    out.push('## Server Secrets', '', ...servers.flatMap((s) => describeSecret(s)));
  }
  if (plan.secrets.length === 0) {
    out.push('No component has been added yet, so no Secret is needed.', '');
  }
  out.push(...sqlSection(plan));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * Declares `<namespace>/<cluster>/required-secrets.md` under `scope` (id `RequiredSecrets`),
 * rendered at synth from the cluster's plan (which is `tls-plan.json` beside it). No
 * certificate objects and no script.
 */
export function renderUserProvided(scope: Construct, settings: CertificateSettings, plan: () => TlsPlan): CertificateRenderer {
  const path = layout.requiredSecretsPath(settings.namespace, settings.clusterName);
  new OutputFile(scope, 'RequiredSecrets', {
    path,
    content: { render: () => requiredSecrets(plan()) },
  });
  return {
    addKind() {},
    addServer() {},
    issuanceSteps: () => [{
      title: 'Create the certificate Secrets',
      text: [`Create them with your own PKI as \`${layout.fromOutputFolder(path)}\` describes: the names, the keys and the host names each certificate must cover.`],
    }],
    managedCertificates: () => [],
  };
}
