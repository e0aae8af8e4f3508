/**
 * The bash blocks shared by the scripts the library writes (the cfssl issuing script and the
 * cert-manager rotation script): quoting, the kubectl command, stopping with a message, and
 * reading and writing whole Secrets. Pure functions and constants; each script joins its blocks
 * with {@link joinBlocks}.
 */
import { SECRET_KEYS } from '../model/catalog-certificates';

/** The lines of one block of a script; blocks are separated by one blank line. */
export type Block = readonly string[];

/** A script from its blocks: empty blocks left out, one blank line between the others, a final newline. */
export function joinBlocks(blocks: readonly Block[]): string {
  return `${blocks.filter((b) => b.length > 0).map((b) => b.join('\n')).join('\n\n')}\n`;
}

/** Quotes a word for bash. */
export function sh(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The kubectl command (from `KUBECTL`) as an array, the namespace of the Secrets, and `nl`, a
 * newline: a message quotes the last line of kubectl's output (`${out##*$nl}`), so that it stays one
 * line. That line names the error: kubectl prints its retries before it. Where kubectl lists several
 * causes, one per line, the message keeps the last.
 */
export function kubectlVariables(namespace: string): Block {
  return [
    'KUBECTL="${KUBECTL:-kubectl}"',
    'read -r -a kubectl <<<"$KUBECTL"',
    `NAMESPACE=${sh(namespace)}`,
    'nl=$\'\\n\'',
  ];
}

/** `fail MESSAGE`: stops the script with the message, prefixed with the script's name. */
export function failFunction(script: string): Block {
  return [
    'fail() {',
    `  echo "${script}: $*" >&2`,
    '  exit 1',
    '}',
  ];
}

/** `need TOOL HINT`: stops with the hint unless the tool is on the search path. */
export const NEED_FUNCTION: Block = [
  '# need TOOL HINT: stops with HINT unless TOOL is on the search path.',
  'need() {',
  '  command -v "$1" >/dev/null 2>&1 || fail "$1 was not found on PATH; $2"',
  '}',
];

/** Stops early unless the kubectl command is there. */
export const KUBECTL_CHECK: Block = [
  '[ "${#kubectl[@]}" -gt 0 ] || fail \'KUBECTL is blank; unset it or set it to the kubectl command\'',
  'need "${kubectl[0]}" \'install kubectl, or set KUBECTL to the command to use\'',
];

/** `secret_exists NAME`: whether the Secret exists, stopping on any other kubectl error. */
export const SECRET_EXISTS_FUNCTION: Block = [
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
  '  fail "kubectl could not tell whether Secret $NAMESPACE/$1 exists: ${out##*$nl}"',
  '}',
];

/** The field manager of the Secrets the scripts write, as server-side apply records it. */
export const FIELD_MANAGER = 'cdk8s-cluster-tls';

/**
 * `put_secret NAME CERT KEY CA`: writes the whole Secret from three files with a server-side
 * `kubectl apply`, creating it or replacing its three keys; it never deletes a Secret. Server-side,
 * so that no copy of the Secret, private key included, is left in the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation a client-side apply writes; the
 * field manager takes the three keys over from whoever wrote them (cert-manager included).
 */
export const PUT_SECRET_FUNCTION: Block = [
  '# put_secret NAME CERT KEY CA: writes Secret NAME whole from the three files with a server-side kubectl',
  '# apply (no copy of the key in an annotation), creating it or replacing its data in place. A Secret is',
  '# never deleted.',
  'put_secret() {',
  '  "${kubectl[@]}" create secret generic "$1" --namespace="$NAMESPACE" \\',
  `    --from-file=${SECRET_KEYS.certificate}="$2" --from-file=${SECRET_KEYS.privateKey}="$3" --from-file=${SECRET_KEYS.ca}="$4" \\`,
  `    --dry-run=client -o json | "\${kubectl[@]}" apply --server-side --field-manager=${FIELD_MANAGER} --force-conflicts -f - >/dev/null`,
  '  echo "wrote Secret $NAMESPACE/$1"',
  '}',
];

/** `get_key NAME KEY FILE`: writes one key of a Secret, decoded, to a file; stops when it is empty or absent. */
export const GET_KEY_FUNCTION: Block = [
  '# get_key NAME KEY FILE: writes the value of KEY in Secret NAME, decoded, to FILE.',
  'get_key() {',
  '  local value',
  '  value="$("${kubectl[@]}" get secret "$1" --namespace="$NAMESPACE" -o "jsonpath={.data.${2//./\\\\.}}")" \\',
  '    || fail "kubectl could not read Secret $NAMESPACE/$1"',
  '  [ -n "$value" ] || fail "Secret $NAMESPACE/$1 has no $2"',
  '  printf %s "$value" | base64 -d >"$3"',
  '}',
];

/** How long the cert-manager scripts wait for one Certificate, in seconds (`TIMEOUT` overrides). */
export const ISSUE_TIMEOUT_SECONDS = 300;

/**
 * `wait_issued NAME [ABOVE]`: waits until cert-manager has issued Certificate NAME for its current
 * spec: Ready, with the Ready condition observed at the object's generation (so a Ready left from
 * before an apply does not count), and, when ABOVE is given, at a revision above it (a renewal
 * passes the revision it started from; a Certificate declared again over a Secret that matches it
 * may become Ready without a new revision). Stops after `TIMEOUT` seconds with what it last saw.
 */
export const WAIT_ISSUED_FUNCTION: Block = [
  '# wait_issued NAME [ABOVE]: waits until cert-manager has issued Certificate NAME for its current spec:',
  '# Ready, observed at the generation the object has now, and at a revision above ABOVE when given.',
  'wait_issued() {',
  '  [[ "$TIMEOUT" =~ ^[0-9]+$ ]] || fail "TIMEOUT is $TIMEOUT; set it to whole seconds, such as 300"',
  '  [[ "$POLL" =~ ^[0-9]+([.][0-9]+)?$ ]] || fail "POLL is $POLL; set it to seconds, such as 2 or 0.5"',
  '  local name="$1" above="${2:--1}" deadline=$((SECONDS + TIMEOUT)) state generation ready observed revision',
  '  while :; do',
  '    state="$("${kubectl[@]}" get certificate "$name" --namespace="$NAMESPACE" \\',
  '      -o \'jsonpath={.metadata.generation}/{.status.conditions[?(@.type=="Ready")].status}/{.status.conditions[?(@.type=="Ready")].observedGeneration}/{.status.revision}\')" \\',
  '      || fail "kubectl could not read Certificate $NAMESPACE/$name"',
  '    IFS=/ read -r generation ready observed revision <<<"$state"',
  '    if [ "$ready" = True ] && [ -n "$generation" ] && [ "$observed" = "$generation" ] && [ "${revision:-0}" -gt "$above" ]; then',
  '      return 0',
  '    fi',
  '    [ "$SECONDS" -lt "$deadline" ] || fail "cert-manager has not issued Certificate $NAMESPACE/$name within ${TIMEOUT}s (Ready: ${ready:-unknown}, revision: ${revision:-none}); see kubectl describe certificate --namespace=$NAMESPACE $name"',
  '    sleep "$POLL"',
  '  done',
  '}',
];

/** The waiting settings of the cert-manager scripts. */
export const WAIT_VARIABLES: Block = [
  `TIMEOUT="\${TIMEOUT:-${ISSUE_TIMEOUT_SECONDS}}"`,
  'POLL="${POLL:-2}"',
];
