/**
 * The blocks both of a span's intermediate scripts are made of, whether the user keeps the root
 * offline (intermediate.ts) or one cluster's cert-manager keeps it (kept-root-script.ts): the
 * files' names, the options, the namespace and tools checks, the scratch folder, the check of a
 * Secret that exists, and its writing.
 */
import { SECRET_KEYS } from '../model/catalog-certificates';
import { parseDuration } from '../model/duration';
import { Block, FIELD_MANAGER, KUBECTL_CHECK, sh } from './script-blocks';

/** The script that signs the current Kubernetes cluster's intermediate (and, with the root offline, makes the root once). */
export const INTERMEDIATE_SCRIPT = 'issue-intermediate.sh';
/** The request of the current Kubernetes cluster's intermediate CA. */
export const INTERMEDIATE_CSR = 'intermediate-ca-csr.json';
/** The request of the span's root CA, made offline. */
export const ROOT_CSR = 'root-ca-csr.json';
/** The signing configuration of the intermediate: a CA that signs leaves only. */
export const INTERMEDIATE_CONFIG = 'intermediate-ca-config.json';
/** The cfssl profile that signs an intermediate. */
export const INTERMEDIATE_PROFILE = 'intermediate';
/** The root's files, by the bare name cfssljson writes them with, in the folder the user keeps it in. */
export const ROOT_BARE = 'root-ca';

/** A duration in hours, as cfssl reads an expiry and cert-manager a Go duration. */
export function hours(duration: string, factor = 1): string {
  return `${Math.ceil((parseDuration(duration)! * factor) / 3_600_000)}h`;
}

/** The help option, the usage line of a script without options past `--renew`, and nothing else. */
export const HELP_CASE = `  -h|--help) sed -n '2,/^set -euo/{/^#/s/^# \\{0,1\\}//p;}' "$0"; exit 0 ;;`;

/**
 * The namespace, read before anything is made: a run that stops for it leaves nothing to undo;
 * without the right to read namespaces, the Secret's creation says whether it exists.
 */
export const NAMESPACE_BLOCK: Block = [
  '# The namespace, before anything is made: a run that stops for it leaves nothing to undo. Without the',
  '# right to read namespaces, the Secret\'s creation below says whether it exists.',
  'if ! out="$("${kubectl[@]}" get namespace "$NAMESPACE" -o name 2>&1)"; then',
  '  case "$out" in',
  '    *Forbidden*|*forbidden*) ;;',
  '    *NotFound*|*"not found"*) fail "namespace $NAMESPACE does not exist in this Kubernetes cluster; create it first: kubectl create namespace $NAMESPACE" ;;',
  '    *) fail "kubectl could not read namespace $NAMESPACE: ${out##*$nl}" ;;',
  '  esac',
  'fi',
];

/**
 * The private scratch folder the intermediate's key is made in, removed on exit, and `identity
 * FILE`: a digest of the subject and public key of the first certificate in FILE, which a CA
 * renewed with its own key keeps, so that a root cert-manager renews still signed what it signed.
 */
export const SCRATCH_BLOCK: Block = [
  'work="$(mktemp -d)"',
  'trap \'rm -rf -- "$work"\' EXIT',
  '# identity FILE: the SHA-256 of the subject and the public key of the first certificate in FILE.',
  'identity() {',
  '  openssl x509 -noout -subject -pubkey -in "$1" | openssl sha256',
  '}',
];

/** The programs both scripts run: cfssl and cfssljson make the intermediate's key and request, openssl checks certificates. */
export const TOOLS_BLOCK: Block = [
  'need cfssl \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
  'need cfssljson \'install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)\'',
  'need openssl \'install openssl\'',
  ...KUBECTL_CHECK,
];

/** Stops unless the root in `rootFile` (a shell word) outlives an intermediate signed now, with `hint` saying what to do. */
export function rootExpiryBlock(rootFile: string, caDuration: string, where: string, hint: string): Block {
  return [
    `openssl x509 -checkend ${Math.ceil(parseDuration(caDuration)! / 1000)} -noout -in ${rootFile} >/dev/null \\`,
    `  || fail "the root CA ${where} expires within ${caDuration}, before an intermediate it signs now would; ${hint}"`,
  ];
}

/**
 * Keeps a Secret that exists when its ca.crt is this root (in `rootFile`, a shell word; `where`
 * names it in messages), or goes on to replace it with `--renew`; stops when another root signed
 * it, with `hint` saying what to do, and with `--renew` when there is none.
 */
export function keptBlock(secret: string, rootFile: string, where: string, hint: string): Block {
  return [
    `if secret_exists ${sh(secret)}; then`,
    `  get_key ${sh(secret)} ${SECRET_KEYS.ca} "$work/kept-ca.crt"`,
    `  kept="$(identity "$work/kept-ca.crt")" || fail "the ca.crt of Secret $NAMESPACE/${secret} is not a certificate; delete the Secret or write it whole from the root"`,
    `  [ "$kept" = "$(identity ${rootFile})" ] \\`,
    `    || fail "Secret $NAMESPACE/${secret} exists with another root in its ca.crt than ${where}: the clusters would not trust each other; ${hint}"`,
    '  if ! $renew; then',
    `    echo "Secret $NAMESPACE/${secret} exists, signed by ${where}: kept"`,
    '    exit 0',
    '  fi',
    'elif $renew; then',
    `  fail "Secret $NAMESPACE/${secret} does not exist, so there is no intermediate to renew; run without --renew to issue it"`,
    'fi',
  ];
}

/**
 * Writes the intermediate's Secret from the scratch folder's `intermediate.pem` and
 * `intermediate-key.pem` and the root in `rootFile`: created with `kubectl create`, which refuses
 * one that exists, or with `--renew` its three keys replaced by a server-side apply (no copy of the
 * key in an annotation).
 */
export function writeSecretBlock(secret: string, rootFile: string, where: string): Block {
  const files = `--from-file=${SECRET_KEYS.certificate}="$work/intermediate.pem" --from-file=${SECRET_KEYS.privateKey}="$work/intermediate-key.pem" --from-file=${SECRET_KEYS.ca}=${rootFile}`;
  return [
    'if $renew; then',
    `  "\${kubectl[@]}" create secret generic ${sh(secret)} --namespace="$NAMESPACE" --type=kubernetes.io/tls ${files} --dry-run=client -o json \\`,
    `    | "\${kubectl[@]}" apply --server-side --field-manager=${FIELD_MANAGER} --force-conflicts -f - >/dev/null`,
    `  echo "renewed Secret $NAMESPACE/${secret}: a new intermediate CA, signed by ${where}; certificates issued before keep the previous one, which the root still verifies, until cert-manager renews them"`,
    'else',
    `  if ! out="$("\${kubectl[@]}" create secret generic ${sh(secret)} --namespace="$NAMESPACE" --type=kubernetes.io/tls ${files} 2>&1)"; then`,
    '    case "$out" in',
    '      *"namespaces \\"$NAMESPACE\\" not found"*) fail "namespace $NAMESPACE does not exist in this Kubernetes cluster; create it first: kubectl create namespace $NAMESPACE" ;;',
    '    esac',
    `    fail "kubectl could not create Secret $NAMESPACE/${secret}: \${out##*$nl}"`,
    '  fi',
    `  echo "created Secret $NAMESPACE/${secret}: the intermediate CA of this Kubernetes cluster, signed by ${where}"`,
    'fi',
  ];
}
