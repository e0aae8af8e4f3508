/**
 * The command-line issuing method (specification, section A): declares the cfssl request files
 * of a cluster and a script that issues the certificates with `cfssl` and `cfssljson` and stores
 * them as the Secrets the operator loads. Nothing here runs a tool or holds a key: the script
 * makes the keys where the user runs it.
 */
import { Construct } from 'constructs';
import { CFSSL_PROFILES, ClusterKind, SECRET_KEYS, USAGES } from '../spec/catalog';
import type { CertificateSettings, ResolvedPrivateKey, ServerCertificatePlan } from './certificate-options';
import { IssuingMethod } from './certificate-options';
import { inputError } from '../spec/errors';
import * as names from '../spec/names';
import * as layout from '../spec/output-layout';
import { OutputFile } from '../synth/output-file';
import type { CertificateRenderer } from './renderer';
import { DistinguishedName, caSubject, leafSubject } from './subjects';

/** The issuing script, in the cfssl folder. */
export const ISSUE_SCRIPT = 'issue-certificates.sh';

/** The signing profiles of `ca-config.json`, as the specification names them. */
const PROFILE = CFSSL_PROFILES;
const BASE_USAGES = CFSSL_PROFILES.baseUsages;
/** The bare name (file prefix) of the CA and of the shared client certificate. */
const CA_BARE = 'ca';
const CLIENT_BARE = 'client';
/** The CA's request and the signing configuration. */
const CA_CSR = 'ca-csr.json';
const CA_CONFIG = 'ca-config.json';

/** A cfssl `key` object. */
interface CfsslKey {
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

/** The bare name of a component's server certificate: `<component>-server`. */
function serverBare(plan: ServerCertificatePlan): string {
  return `${plan.token}-server`;
}

/** JSON as the files hold it: two-space indent and a final newline. */
function json(value: unknown): string {
  return `${JSON.stringify(value, undefined, 2)}\n`;
}

/** `ca-config.json`: the default expiry and the two signing profiles. */
function caConfig(settings: CertificateSettings): unknown {
  const expiry = settings.duration;
  return {
    signing: {
      default: { expiry },
      profiles: {
        [PROFILE.server]: { expiry, usages: [...BASE_USAGES, ...USAGES.server] },
        [PROFILE.client]: { expiry, usages: [...BASE_USAGES, ...USAGES.client] },
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

function cfsslKey(key: ResolvedPrivateKey): CfsslKey {
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

/** Quotes a word for bash. */
function sh(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What the issuing script needs to know. */
interface ScriptInput {
  readonly settings: CertificateSettings;
  readonly servers: readonly ServerCertificatePlan[];
  readonly kinds: readonly ClusterKind[];
}

/** The issuing script: steps 3 to 7 of section A, safe to run again. */
function issueScript({ settings, servers, kinds }: ScriptInput): string {
  const { clusterName, namespace } = settings;
  const leaves = [...servers.map(serverBare), ...(kinds.length > 0 ? [CLIENT_BARE] : [])];
  const lines = [
    '#!/usr/bin/env bash',
    `# Issues the TLS certificates of cluster ${clusterName} in namespace ${namespace} with cfssl, then`,
    '# stores each certificate set as the Secret the operator loads (steps 3 to 7 of section A of the',
    '# TLS specification). Generated by cdk8s-cluster-tls: change the construct, not this file.',
    '#',
    '# Run it with no arguments. It works in the folder that holds it, next to the cfssl request',
    '# files, and leaves the CA, the certificates and their private keys there, readable by you',
    '# alone. Copy the folder out of the synth output before running it: the next synth replaces',
    '# that output, and the keys and the CA with it, so the script refuses to run inside it.',
    '#',
    '# Running it again changes nothing that exists: a CA, a certificate or a Secret already there is',
    '# kept, so a running cluster keeps the certificates it loaded. Replacing certificates is the',
    '# separate renewal procedure; this script never does it.',
    '#',
    '# Environment:',
    '#   KUBECTL  the kubectl command, split on spaces (default: kubectl),',
    '#            for example KUBECTL="kubectl --context=staging"',
    'set -euo pipefail',
    'umask 077',
    'cd "$(dirname "$0")"',
    '',
    'KUBECTL="${KUBECTL:-kubectl}"',
    'read -r -a kubectl <<<"$KUBECTL"',
    `NAMESPACE=${sh(namespace)}`,
    '',
    'fail() {',
    `  echo "${ISSUE_SCRIPT}: $*" >&2`,
    '  exit 1',
    '}',
    '',
    '# Every synth writes a marker at the root of its output folder and replaces that folder whole,',
    '# keys included: refuse to make keys anywhere below such a marker.',
    'here="$(pwd -P)"',
    'dir="$here"',
    'while :; do',
    `  [ ! -e "$dir/${layout.OUTPUT_MARKER_FILE}" ] || fail "$here is inside the synth output $dir, which the next synth replaces whole, keys included; `
      + `copy this folder out and run the copy, for example: cp -r '$here' ~/pki-${namespace}-${clusterName} && ~/pki-${namespace}-${clusterName}/${ISSUE_SCRIPT}"`,
    '  [ "$dir" != / ] || break',
    '  dir="$(dirname "$dir")"',
    'done',
    '',
    '# need TOOL HINT: stops with HINT unless TOOL is on the search path.',
    'need() {',
    '  command -v "$1" >/dev/null 2>&1 || fail "$1 was not found on PATH; $2"',
    '}',
    '',
    'need cfssl \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
    'need cfssljson \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
    '[ "${#kubectl[@]}" -gt 0 ] || fail \'KUBECTL is blank; unset it or set it to the kubectl command\'',
    'need "${kubectl[0]}" \'install kubectl, or set KUBECTL to the command to use\'',
    '',
    '# New files are made in a private scratch folder and moved into place only when complete, so an',
    '# interrupted run never leaves a certificate without its key.',
    'work="$(mktemp -d ./.issuing.XXXXXX)"',
    'trap \'rm -rf -- "$work"\' EXIT',
    '',
    '# issue BARE REQUEST [PROFILE]: makes BARE.pem and BARE-key.pem from the request file REQUEST,',
    '# signed by the CA with PROFILE, or a self-signed CA when no profile is given. Keeps them if they exist.',
    'issue() {',
    '  local bare="$1" request="$2" profile="${3:-}"',
    '  if [ -e "$bare.pem" ] && [ -e "$bare-key.pem" ]; then',
    '    echo "kept $bare.pem and $bare-key.pem: they exist (renewing them is a separate procedure)"',
    '    return',
    '  fi',
    '  if [ -e "$bare.pem" ] || [ -e "$bare-key.pem" ]; then',
    '    fail "found only one of $bare.pem and $bare-key.pem; restore the other, or remove both to issue them anew"',
    '  fi',
    '  if [ -z "$profile" ]; then',
    '    cfssl gencert -initca "$request" | cfssljson -bare "$work/$bare" -',
    '  else',
    `    cfssl gencert -ca=${sh(`${CA_BARE}.pem`)} -ca-key=${sh(`${CA_BARE}-key.pem`)} -config=${sh(CA_CONFIG)} -profile="$profile" "$request" \\`,
    '      | cfssljson -bare "$work/$bare"',
    '  fi',
    '  mv -- "$work/$bare-key.pem" "$bare-key.pem"',
    '  mv -- "$work/$bare.csr" "$bare.csr"',
    '  mv -- "$work/$bare.pem" "$bare.pem"',
    '  echo "issued $bare.pem and $bare-key.pem"',
    '}',
    '',
    '# secret_exists NAME: succeeds when the Secret exists, fails when kubectl reports it absent, and',
    '# stops the script on any other kubectl error (access, connection), which must not read as absent.',
    'secret_exists() {',
    '  local out',
    '  if out="$("${kubectl[@]}" get secret "$1" --namespace="$NAMESPACE" 2>&1)"; then',
    '    return 0',
    '  fi',
    '  case "$out" in',
    '    *NotFound*|*"not found"*) return 1 ;;',
    '  esac',
    '  fail "kubectl could not tell whether Secret $NAMESPACE/$1 exists: $out"',
    '}',
    '',
    '# secret NAME BARE: creates the Secret NAME from BARE.pem, BARE-key.pem and the CA, unless a',
    '# Secret of that name exists.',
    'secret() {',
    '  local name="$1" bare="$2"',
    '  if secret_exists "$name"; then',
    '    echo "kept Secret $NAMESPACE/$name: it exists (replacing it is the separate renewal procedure)"',
    '    return',
    '  fi',
    '  "${kubectl[@]}" create secret generic "$name" --namespace="$NAMESPACE" \\',
    `    --from-file=${SECRET_KEYS.certificate}="$bare.pem" \\`,
    `    --from-file=${SECRET_KEYS.privateKey}="$bare-key.pem" \\`,
    `    --from-file=${SECRET_KEYS.ca}=${sh(`${CA_BARE}.pem`)}`,
    '}',
  ];
  const secretNames = [...servers.map((s) => s.secretName), ...kinds.map((k) => names.clientSecretName(clusterName, k))];
  if (leaves.length > 0) {
    lines.push(
      '',
      '# A new CA would not have signed the certificates or Secrets already there: refuse rather than',
      '# mix CAs (the cluster would reject the new certificates).',
      `if [ ! -e ${sh(`${CA_BARE}.pem`)} ] && [ ! -e ${sh(`${CA_BARE}-key.pem`)} ]; then`,
      `  for bare in ${leaves.map(sh).join(' ')}; do`,
      '    if [ -e "$bare.pem" ]; then',
      `      fail "found $bare.pem but not the CA that signed it; restore ${CA_BARE}.pem and ${CA_BARE}-key.pem"`,
      '    fi',
      '  done',
      `  for name in ${secretNames.map(sh).join(' ')}; do`,
      '    if secret_exists "$name"; then',
      `      fail "Secret $NAMESPACE/$name exists but the CA that signed it is not in this folder; run the script from the folder that holds ${CA_BARE}.pem and ${CA_BARE}-key.pem"`,
      '    fi',
      '  done',
      'fi',
    );
  }
  lines.push('', '# Step 3: the CA.', `issue ${sh(CA_BARE)} ${sh(CA_CSR)}`);
  if (servers.length > 0) {
    lines.push('', `# Step 4: one server certificate per component, signing profile "${PROFILE.server}".`);
    lines.push(...servers.map((s) => `issue ${sh(serverBare(s))} ${sh(`${serverBare(s)}.json`)} ${sh(PROFILE.server)}`));
  }
  if (kinds.length > 0) {
    lines.push('', `# Step 5: the shared client certificate, signing profile "${PROFILE.client}".`);
    lines.push(`issue ${sh(CLIENT_BARE)} ${sh(`${CLIENT_BARE}.json`)} ${sh(PROFILE.client)}`);
  }
  if (servers.length > 0) {
    lines.push('', '# Step 6: the Secret of each server certificate.');
    lines.push(...servers.map((s) => `secret ${sh(s.secretName)} ${sh(serverBare(s))}`));
  }
  if (kinds.length > 0) {
    lines.push('', '# Step 7: the shared client Secret of each cluster kind, all from the one client certificate.');
    lines.push(...kinds.map((k) => `secret ${sh(names.clientSecretName(clusterName, k))} ${sh(CLIENT_BARE)}`));
  }
  lines.push('', `echo "certificates and Secrets of cluster ${clusterName} are in place in namespace ${namespace}"`);
  return `${lines.join('\n')}\n`;
}

/** Keeps what the script makes at run time out of version control, should it run inside a repository. */
const GIT_IGNORE = [
  '# Written by issue-certificates.sh when it runs: private keys, certificates, requests.',
  '*.pem',
  '*.csr',
  '.issuing.*/',
].join('\n');

/**
 * Declares the cfssl files of a cluster under `scope` (a child `Cfssl`), in
 * `<namespace>/<cluster>/cfssl/`. The script is rendered at synth, so it covers every component
 * added after this call. Throws when the settings ask for a key cfssl cannot make.
 */
export function renderCfssl(scope: Construct, settings: CertificateSettings): CertificateRenderer {
  if (settings.privateKey.algorithm !== 'RSA' && settings.privateKey.algorithm !== 'ECDSA') {
    inputError(scope, 'privateKey.algorithm', settings.privateKey.algorithm,
      'RSA or ECDSA with the cfssl method (cfssl makes no Ed25519 keys)');
  }
  const folder = layout.cfsslFolder(settings.namespace, settings.clusterName);
  const root = new Construct(scope, 'Cfssl');
  const file = (id: string, name: string, content: string | (() => string), executable = false) =>
    new OutputFile(root, id, { path: `${folder}/${name}`, content, executable });

  const servers: ServerCertificatePlan[] = [];
  const kinds: ClusterKind[] = [];
  file('CaConfig', CA_CONFIG, json(caConfig(settings)));
  file('CaCsr', CA_CSR, json(caCsr(settings)));
  file('Script', ISSUE_SCRIPT, () => issueScript({ settings, servers, kinds }), true);
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
      const copy = `~/pki-${settings.namespace}-${settings.clusterName}`;
      return [{
        title: 'Issue the certificates with cfssl',
        text: [
          `Copy \`${folder}\` out of the output folder (the next synth replaces it) and run \`./${ISSUE_SCRIPT}\` there once. It makes the CA and every certificate and creates the Secrets; run again, it changes nothing that exists.`,
        ],
        commands: [`cp -r ${folder} ${copy}`, `${copy}/${ISSUE_SCRIPT}`],
      }];
    },
  };
}
