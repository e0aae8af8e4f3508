/**
 * The command-line issuing method (specification, section A): declares the cfssl request files
 * of a cluster and a script that issues the certificates with `cfssl` and `cfssljson` and stores
 * them as the Secrets the operator loads. Nothing here runs a tool or holds a key: the script
 * makes the keys where the user runs it.
 */
import { Construct } from 'constructs';
import { ClusterKind } from '../model/catalog';
import { CFSSL_PROFILES, USAGES } from '../model/catalog-certificates';
import type { CertificateSettings, ResolvedPrivateKey, ServerCertificatePlan, TlsPlanSqlTls } from '../plan/certificate-options';
import { IssuingMethod } from '../plan/certificate-options';
import { inputError } from '../model/errors';
import * as layout from '../model/output-layout';
import { IOutputFileContent, OutputFile } from '../app/output-file';
import type { CertificateRenderer } from './renderer';
import { DistinguishedName, caSubject, leafSubject } from '../plan/subjects';
import { CA_CONFIG, CA_CSR, CLIENT_BARE, ISSUE_SCRIPT, pkiCopyFolder, serverBare } from '../scripts/cfssl-files';
import { issueScript } from '../scripts/cfssl-script';

/** A cfssl `key` object. */
export interface CfsslKey {
  readonly algo: 'rsa' | 'ecdsa';
  readonly size: number;
}

/** One entry of a cfssl `names` array: the subject's fields, unset ones left out. */
interface CfsslName {
  readonly C?: string;
  readonly L?: string;
  readonly O?: string;
  readonly ST?: string;
  readonly OU?: string;
}

/** JSON as the files hold it: two-space indent and a final newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, undefined, 2)}\n`;
}

/** `ca-config.json`: the default expiry and the two signing profiles. */
function caConfig(settings: CertificateSettings): unknown {
  const expiry = settings.duration;
  return {
    signing: {
      default: { expiry },
      profiles: {
        [CFSSL_PROFILES.server]: { expiry, usages: [...CFSSL_PROFILES.baseUsages, ...USAGES.server] },
        [CFSSL_PROFILES.client]: { expiry, usages: [...CFSSL_PROFILES.baseUsages, ...USAGES.client] },
      },
    },
  };
}

/** `ca-csr.json`: the CA's Common Name, validity, key (RSA 2048) and subject names. */
function caCsr(settings: CertificateSettings): unknown {
  const { CN, names } = csrSubject(caSubject(settings, IssuingMethod.CFSSL));
  return { CN, CA: { expiry: settings.caDuration }, key: cfsslKey(settings.caPrivateKey), names };
}

/**
 * `<component>-server.json`: the Common Name, the IP addresses first (`127.0.0.1`, `::1`, then extra
 * ones), then the DNS names. No `names`: the subject of the CA is not repeated on what it signs.
 */
function serverCsr(settings: CertificateSettings, plan: ServerCertificatePlan): unknown {
  return {
    ...csrSubject(leafSubject(settings, IssuingMethod.CFSSL)),
    hosts: [...plan.ipAddresses, ...plan.dnsNames],
    key: cfsslKey(settings.privateKey),
  };
}

/** `client.json`: the Common Name and no hosts. */
function clientCsr(settings: CertificateSettings): unknown {
  return { ...csrSubject(leafSubject(settings, IssuingMethod.CFSSL)), hosts: [], key: cfsslKey(settings.privateKey) };
}

/** A private key's algorithm and size as a cfssl `key` object. */
export function cfsslKey(key: ResolvedPrivateKey): CfsslKey {
  // The constructor resolved the size of RSA and ECDSA keys and refused Ed25519 with cfssl.
  return { algo: key.algorithm === 'ECDSA' ? 'ecdsa' : 'rsa', size: key.size! };
}

/** The keys of a cfssl `names` entry, in the order of the specification's `ca-csr.json` table. */
const NAME_KEYS: readonly (keyof CfsslName)[] = ['C', 'L', 'O', 'ST', 'OU'];

/** A distinguished name as a cfssl request's `CN` and `names` (left out when only the CN is set). */
function csrSubject(name: DistinguishedName): { CN: string; names?: CfsslName[] } {
  const value = (type: string) => name.find((a) => a.type === type)?.value;
  const entry = Object.fromEntries(NAME_KEYS.filter((k) => value(k) !== undefined).map((k) => [k, value(k)])) as CfsslName;
  return Object.keys(entry).length === 0 ? { CN: value('CN')! } : { CN: value('CN')!, names: [entry] };
}

/** Keeps what the script makes at run time out of version control, should it run inside a repository. */
const GIT_IGNORE = [
  `# Written by ${ISSUE_SCRIPT} when it runs: private keys, certificates, requests.`,
  '*.pem',
  '*.csr',
  '.issuing.*/',
].join('\n');

/**
 * Declares the cfssl files of a cluster under `scope` (a child `Cfssl`), in
 * `<namespace>/<cluster>/cfssl/`. The script is rendered at synth, so it covers every component
 * added after this call, and the certificates for MySQL clients that `sql` returns then. Throws when the settings ask for a key cfssl cannot make.
 */
export function renderCfssl(scope: Construct, settings: CertificateSettings, sql: () => TlsPlanSqlTls | undefined = () => undefined): CertificateRenderer {
  if (settings.privateKey.algorithm !== 'RSA' && settings.privateKey.algorithm !== 'ECDSA') {
    inputError(scope, 'privateKey.algorithm', settings.privateKey.algorithm,
      'RSA or ECDSA with the cfssl method (cfssl makes no Ed25519 keys)');
  }
  const folder = layout.cfsslFolder(settings.namespace, settings.clusterName);
  const root = new Construct(scope, 'Cfssl');
  const file = (id: string, name: string, content: string | IOutputFileContent, executable = false) =>
    new OutputFile(root, id, { path: `${folder}/${name}`, content, executable });

  const servers: ServerCertificatePlan[] = [];
  const kinds: ClusterKind[] = [];
  file('CaConfig', CA_CONFIG, json(caConfig(settings)));
  file('CaCsr', CA_CSR, json(caCsr(settings)));
  file('Script', ISSUE_SCRIPT, { render: () => issueScript({ settings, servers, kinds, sql: sql() }) }, true);
  file('GitIgnore', '.gitignore', `${GIT_IGNORE}\n`);

  return {
    addKind(kind) {
      if (kinds.length === 0) {
        file('Client', `${CLIENT_BARE}.json`, json(clientCsr(settings)));
      }
      kinds.push(kind);
    },
    addServer(plan) {
      servers.push(plan);
      file(`Server-${plan.token}`, `${serverBare(plan)}.json`, json(serverCsr(settings, plan)));
    },
    issuanceSteps() {
      const copy = pkiCopyFolder(settings.namespace, settings.clusterName);
      const from = layout.fromOutputFolder(folder);
      return [{
        title: 'Issue the certificates with cfssl',
        text: [
          `Copy \`${from}\` out of the files folder (the next synth replaces it) and run \`./${ISSUE_SCRIPT}\` there. It makes the CA and every certificate and creates the Secrets; run again, it changes nothing that exists, and the copy is made over the earlier one, whose keys it keeps.`,
        ],
        commands: [`mkdir -p ${copy}`, `cp -r ${from}/. ${copy}/`, `${copy}/${ISSUE_SCRIPT}`],
      }];
    },
    managedCertificates: () => [],
  };
}
