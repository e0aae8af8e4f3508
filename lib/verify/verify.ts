/// <reference types="node" preserve="true" />
/**
 * The checks of `cluster-tls verify`: every Secret a certificate plan requires, against what the
 * components need from it. Pure functions: the inputs come from `input.ts`, the time is a parameter.
 */
import { ENABLEMENT_CHECK, ROLLED_CHECK, ROTATION_CHECK } from '../model/verify-report';
import { X509Certificate } from 'node:crypto';
import { ClusterKind, OPERATOR_ROLL_ORDER, component } from '../model/catalog';
import { SECRET_KEYS } from '../model/catalog-certificates';
import { SQL_PORT_RELOAD } from '../model/catalog-sql-tls';
import { CLUSTER_POD_LABEL, COMPONENT_POD_LABEL } from '../model/catalog-pods';
import { IssuingMethod } from '../plan/certificate-options';
import type { TlsPlan, TlsPlanSecret } from '../plan/certificate-options';
import { parseDuration } from '../model/duration';
import {
  atLeastAsStrong, commonName, describeCertificate, describeStrength, dnsNameCovered, extendedKeyUsages, keyStrength,
  normalizeIp, parseSubjectAltName, strengthOf,
} from './x509';
import { describeValue } from '../model/errors';
import { PodData, SecretData, VerifyInputError } from './input';
import { checkLoaded } from './loaded';
import type { AllowedCommonNames, LoadedPlan } from './plans';
import { iso, listed, oneLine } from './text';
import { ClientContexts, HandshakeOutcome, describeOutcome, dialedNames, handshakesWith, mutualHandshake } from './handshake';
import { findSecret, handshakesFound, isPeer, shakesHands, tlsMaterial } from './peers';
import { SQL_CA_CHECK, asPlanSecret, asSqlPlan, checkSqlCa, inputCovers } from './sql';
import { CheckResult, result } from './checks';
import { Material, checkExpiry, checkKeyMatch, checkKeys, checkValid, dated, hasKeys, material, parseCertificates } from './material';
import { checkMinDays } from './min-days';
import { summarize } from './summary';
import type { ClusterCa, PlanReport, SecretReport, VerifyContext, VerifyReport } from './types';
import { verifyUserSecrets } from './user-secrets';

// across.ts, which others are changing, takes these from here; they live in the modules above.
export type { CheckResult } from './checks';
export type { SecretReport, UncheckedCluster, VerifyReport } from './types';
export { parseCertificates } from './material';
export { summarize } from './summary';

/** A Secret of a plan that passed its own checks: the peers every other Secret shakes hands with. */
interface PeerSecret {
  readonly required: TlsPlanSecret;
  readonly secret: SecretData;
}

function hours(ms: number): string {
  return `${Math.floor(ms / 3_600_000)}h`;
}

function quoted(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * Checks one Secret the plan requires. Returns one result per check that could run: a missing
 * Secret yields only `present`, a Secret without the three keys only `present` and `keys`, and
 * `san` is run only when the plan lists names for the Secret.
 * @throws VerifyInputError when a certificate or key of the Secret does not parse
 */
export async function verifySecret(required: TlsPlanSecret, plan: TlsPlan, secret: SecretData | undefined, context: VerifyContext): Promise<CheckResult[]> {
  if (!secret) {
    return [result('present', false, `Secret ${required.name} in namespace ${plan.namespace}`, 'no Secret of that name in the input')];
  }
  const results = [result('present', true, `Secret ${required.name} in namespace ${plan.namespace}`, 'present'), checkKeys(secret)];
  if (!hasKeys(secret)) {
    return results;
  }
  const m = material(secret);
  results.push(checkSubject(m));
  results.push(await checkChain(secret, required, m));
  // During a rotation ca.crt may hold two CAs: the rotation check says which, in place of same-ca.
  if (context.clusterCa && plan.rotation === undefined) {
    results.push(checkSameCa(m, context.clusterCa));
  }
  results.push(checkKeyMatch(m));
  if ((required.dnsNames?.length ?? 0) + (required.ipAddresses?.length ?? 0) > 0) {
    results.push(checkNames(m, required));
  }
  results.push(checkUsages(m, required));
  results.push(checkCommonName(m, required, plan, context.allowedCommonNames ?? []));
  results.push(...checkValidity(m, plan, context.now));
  if (context.minDays !== undefined) {
    results.push(checkExpiry(m, context.now, context.minDays));
  }
  results.push(checkKeyStrength(m, plan));
  if (plan.rotation !== undefined) {
    results.push(checkRotation(m, plan.rotation));
  }
  if (plan.enablement !== undefined && required.cluster === ClusterKind.DATABASE) {
    results.push(checkEnablement(required, plan, plan.enablement, context.allowedCommonNames ?? []));
  }
  return results;
}

/** A server Secret of a database component whose pods the operator runs (not the drainer's, nor a restore's jobs'). */
function isOperatorComponent(required: TlsPlanSecret): boolean {
  return required.role === 'server' && required.cluster === ClusterKind.DATABASE && required.component !== undefined
    && OPERATOR_ROLL_ORDER[ClusterKind.DATABASE].includes(required.component);
}

/**
 * Once a TLS enablement has flipped: every pod of the component (by the operator's instance and
 * component labels) mounts the component's Secret. The operator mounts it only in pods it
 * creates with TLS on, so a pod without it started before the flip and still speaks plain text.
 */
function checkRolled(required: TlsPlanSecret, plan: TlsPlan, pods: readonly PodData[]): CheckResult {
  const ofComponent = pods.filter((p) => p.labels[CLUSTER_POD_LABEL] === plan.clusterName && p.labels[COMPONENT_POD_LABEL] === required.component);
  const plain = ofComponent.filter((p) => !p.secretNames.includes(required.name));
  const expected = `every pod of the ${required.component} (${CLUSTER_POD_LABEL}=${plan.clusterName}, ${COMPONENT_POD_LABEL}=${required.component}) started with TLS on: it mounts the Secret`;
  if (ofComponent.length === 0) {
    return result(ROLLED_CHECK, false, expected, 'no pod of the component in the input: list the pods of the namespace with the Secrets');
  }
  return result(ROLLED_CHECK, plain.length === 0, expected, plain.length === 0 ? `${listed(ofComponent.map((p) => p.name), 'pod')} mount${ofComponent.length === 1 ? 's' : ''} it`
    : `${listed(plain.map((p) => p.name), 'pod')} ${plain.length === 1 ? 'does' : 'do'} not mount it: started before the flip, still in plain text; wait for the operator's roll`);
}

/**
 * The declared enablement phase: before the flip the cluster runs in plain text and the output
 * configures no allowed Common Name list for it; from the flip on, every component of the
 * cluster that checks Common Names has its list (the common-name check says whether it holds the CN).
 */
function checkEnablement(required: TlsPlanSecret, plan: TlsPlan, enablement: NonNullable<TlsPlan['enablement']>, allowed: readonly AllowedCommonNames[]): CheckResult {
  const lists = allowed.filter((a) => a.cluster === required.cluster);
  if (!enablement.tls) {
    return result(ENABLEMENT_CHECK, lists.length === 0, `phase ${enablement.phase}: the cluster runs in plain text, so no allowed Common Name list is configured yet`,
      lists.length === 0 ? 'no allowed Common Name list' : `allowed Common Name lists of ${listed(lists.map((l) => `${l.component} (${l.source})`), 'list')}`);
  }
  const checking = plan.secrets.filter((s) => s.role === 'server' && s.cluster === required.cluster && s.component !== undefined
    && component(s.component).commonNameCheck !== undefined).map((s) => s.component!);
  const missing = checking.filter((t) => !lists.some((l) => l.component === t));
  return result(ENABLEMENT_CHECK, missing.length === 0, `phase ${enablement.phase}: TLS is on, and every component that checks Common Names (${checking.join(', ')}) has its allowed list`,
    missing.length === 0 ? 'every component has its list' : `no allowed Common Name list for ${missing.join(', ')}`);
}

/**
 * The declared rotation phase: ca.crt holds the phase's CA certificates, in order, and tls.crt is
 * signed by the key of the one the phase names (or, when its generation is not in ca.crt, as after
 * a CA renewal, by the key of the first), directly or through the intermediate tls.crt carries.
 */
function checkRotation(m: Material, rotation: NonNullable<TlsPlan['rotation']>): CheckResult {
  const cas = m.anchors.filter((a) => a.ca);
  const expected = `phase ${rotation.phase} of rotation ${rotation.id}: ca.crt holds ${rotation.caCertificates.length} CA certificate${rotation.caCertificates.length > 1 ? 's' : ''} `
    + `(${rotation.caCertificates.join(', then ')}) and tls.crt of generation ${rotation.leafGeneration} is signed by the CA of ${rotation.signedBy}`;
  if (cas.length !== rotation.caCertificates.length) {
    return result(ROTATION_CHECK, false, expected, `ca.crt holds ${cas.length} CA certificate${cas.length === 1 ? '' : 's'}`);
  }
  const at = Math.max(0, rotation.caCertificates.indexOf(rotation.signedBy));
  // With a span's intermediate in tls.crt, the CA of ca.crt signed the intermediate, which signed the leaf.
  const top = [m.leaf, ...m.intermediates].reduce((cert, next) => (signedBy(cert, next) ? next : cert));
  const signer = cas.findIndex((a) => signedBy(top, a));
  return result(ROTATION_CHECK, signer === at, expected,
    signer < 0 ? 'tls.crt is signed by none of them' : `tls.crt is signed by CA certificate ${signer + 1} of ca.crt (${describeCertificate(cas[signer])})`);
}

/** The subject of a certificate on one line, as OpenSSL prints it: `C=US, O=demo, CN=basic`. */
function subjectLine(cert: X509Certificate): string {
  return cert.subject.split('\n').join(', ');
}

function checkSubject(m: Material): CheckResult {
  // A certificate whose subject is its issuer's name is self-issued to OpenSSL, which then looks
  // no further than the trusted certificates for it.
  const issuer = m.anchors.find((a) => a.subject === m.leaf.issuer) ?? m.anchors.find((a) => a.ca) ?? m.anchors[0];
  const same = m.leaf.subject === m.leaf.issuer && !m.anchors.some((a) => a.fingerprint256 === m.leaf.fingerprint256);
  return result('subject', !same, `a subject other than its CA's (${subjectLine(issuer)})`, same
    ? `tls.crt carries its CA's subject ${subjectLine(m.leaf)}: OpenSSL takes it for self-signed and rejects every handshake; re-issue the certificates from the current synth output, whose certificates carry a subject other than the CA's`
    : `subject ${subjectLine(m.leaf)}`);
}

/**
 * OpenSSL's verdict on tls.crt against the Secret's own ca.crt: the Secret serves and dials itself
 * on loopback, so its certificate is verified for client authentication and, on server
 * certificates, for server authentication.
 */
async function checkChain(secret: SecretData, required: TlsPlanSecret, m: Material): Promise<CheckResult> {
  const expected = `tls.crt accepted by OpenSSL against ca.crt (${required.role === 'server' ? 'as a server and as a client' : 'as a client'})`;
  let outcome: HandshakeOutcome;
  try {
    const own = tlsMaterial(secret);
    outcome = await mutualHandshake(own, own, { verifyServer: required.role === 'server' });
  } catch (e) {
    return result('chain', false, expected, `OpenSSL cannot load tls.crt with tls.key: ${oneLine((e as Error).message)}`);
  }
  const reasons = [
    outcome.failure,
    outcome.failure === undefined && required.role === 'server' && !outcome.client.ok ? `as a server: ${outcome.client.reason}` : undefined,
    outcome.failure === undefined && !outcome.server.ok ? `as a client: ${outcome.server.reason}` : undefined,
  ].filter((r): r is string => r !== undefined);
  if (reasons.length === 0) {
    return result('chain', true, expected, 'accepted');
  }
  const hint = chainHint(m);
  return result('chain', false, expected, `rejected ${reasons.join('; ')}${hint ? `: ${hint}` : ''}`);
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** Why OpenSSL rejected a chain, in words, where the certificates show it. */
function chainHint(m: Material): string | undefined {
  const cas = m.anchors.filter((a) => a.ca);
  if (cas.length === 0) {
    return `ca.crt holds no CA certificate, ${describeCertificate(m.anchors[0])} is not a CA`;
  }
  if (cas.some((a) => signedBy(m.leaf, a))) {
    return undefined;
  }
  const issuer = m.leaf.issuer.split('\n').join(', ');
  return cas.some((a) => a.subject === m.leaf.issuer)
    ? `tls.crt names the issuer ${issuer}, but its signature does not verify with the key of ca.crt (a different CA of the same name)`
    : `tls.crt issued by ${issuer}, which is not ca.crt (${describeCertificate(cas[0])})`;
}

/**
 * Real mutual handshakes of a Secret with the Secrets of its plan that passed their own checks,
 * each side verifying the other: a server Secret serves and every good Secret dials it, checking
 * every name of the plan (a wildcard as its first pod's name); a client Secret dials every good
 * server Secret. A Secret that fails alone is not a peer, so a failure here is this Secret's.
 */
async function checkHandshakes(required: TlsPlanSecret, secret: SecretData, good: readonly PeerSecret[], contexts: ClientContexts): Promise<CheckResult> {
  const pairs = required.role === 'server'
    ? good.filter((p) => p.required.name !== required.name).map((p) => ({ peer: p, server: secret, client: p.secret }))
    : good.filter((p) => p.required.role === 'server').map((p) => ({ peer: p, server: p.secret, client: secret }));
  const names = dialedNames(required);
  const expected = required.role === 'server'
    ? 'mutual handshakes with the Secrets that dial it, each side accepting the other, every name of the plan verified'
    : 'mutual handshakes with every server Secret, each side accepting the other';
  // A server Secret serves once for all who dial it; a client Secret dials each server's own.
  const outcomes: HandshakeOutcome[] = [];
  if (required.role === 'server') {
    outcomes.push(...await handshakesWith(tlsMaterial(secret), pairs.map((pair) => ({ material: tlsMaterial(pair.client), options: { alsoNames: names } })), contexts));
  } else {
    for (const pair of pairs) {
      outcomes.push(...await handshakesWith(tlsMaterial(pair.server), [{ material: tlsMaterial(secret) }], contexts));
    }
  }
  const failures = pairs.flatMap((pair, i) => (outcomes[i].ok ? [] : [`with ${pair.peer.required.name}: ${describeOutcome(outcomes[i])}`]));
  return result('handshake', failures.length === 0, expected, handshakesFound(pairs.length, failures, 'no Secret of the plan passed its own checks to shake hands with'));
}

function checkSameCa(m: Material, ca: ClusterCa): CheckResult {
  const found = m.anchors[0];
  return result('same-ca', found.fingerprint256 === ca.certificate.fingerprint256,
    `ca.crt is ${ca.label ?? 'the cluster\'s CA'} ${describeCertificate(ca.certificate)}, as in ${ca.origin}`, `ca.crt is ${describeCertificate(found)}`);
}

function checkNames(m: Material, required: TlsPlanSecret): CheckResult {
  const sans = parseSubjectAltName(m.leaf.subjectAltName);
  const dns = required.dnsNames ?? [];
  const ips = required.ipAddresses ?? [];
  const missing = [
    ...dns.filter((n) => !dnsNameCovered(n, sans.dns)),
    ...ips.filter((ip) => !sans.ip.includes(normalizeIp(ip))),
  ];
  const all = [...sans.dns, ...sans.ip, ...sans.other];
  if (missing.length === 0) {
    return result('san', true, `SANs covering the plan's ${dns.length} DNS names and ${ips.length} IP addresses`, 'all covered');
  }
  return result('san', false, `SANs covering ${listed(missing, 'name')}`,
    `no SAN covers ${missing.length === 1 ? 'it' : 'them'}; the certificate has ${all.length ? listed(all, 'name') : 'no SANs'}`);
}

function checkUsages(m: Material, required: TlsPlanSecret): CheckResult {
  const want = [...required.usages].sort();
  const found = extendedKeyUsages(m.leaf);
  const expected = `extended key usages ${required.usages.join(', ')} (${required.role} certificate)`;
  if (found === undefined) {
    return result('usage', false, expected, 'no extended key usage extension');
  }
  const have = [...new Set(found)].sort();
  return result('usage', have.length === want.length && have.every((u, i) => u === want[i]), expected, `extended key usages ${listed(found, 'usage') || 'none'}`);
}

function checkCommonName(m: Material, required: TlsPlanSecret, plan: TlsPlan, allowed: readonly AllowedCommonNames[]): CheckResult {
  const lists = allowed.filter((a) => a.cluster === required.cluster);
  const cn = commonName(m.leaf);
  const expected = lists.length === 0
    ? `CN ${JSON.stringify(plan.commonName)} (the plan's)`
    : `CN ${JSON.stringify(plan.commonName)} (the plan's), in the allowed list of ${lists.map((l) => `${l.component} ${l.key}`).join(', ')}`;
  if (cn === undefined) {
    return result('common-name', false, expected, 'no Common Name in the subject');
  }
  const rejecting = lists.filter((l) => !l.names.includes(cn));
  const problems = [
    cn !== plan.commonName ? 'not the plan\'s' : '',
    ...rejecting.map((l) => `not in ${l.component} ${l.key} [${quoted(l.names)}] (${l.source})`),
  ].filter(Boolean);
  return result('common-name', problems.length === 0, expected, `CN ${JSON.stringify(cn)}${problems.length ? `: ${problems.join('; ')}` : ''}`);
}

function checkValidity(m: Material, plan: TlsPlan, now: Date): CheckResult[] {
  const leaf = dated('tls.crt', m.leaf);
  const ca = dated('ca.crt', m.anchors[0]);
  const out: CheckResult[] = [checkValid(m, now)];

  // The CA of an issuer of the user's renews on the user's terms: only its expiry is checked.
  const windows = [
    { cert: leaf, renewBefore: plan.renewBefore },
    ...(plan.ca !== undefined ? [{ cert: ca, renewBefore: plan.ca.renewBefore }] : []),
  ];
  const renewing = windows
    .filter(({ cert }) => now >= cert.notBefore && now < cert.notAfter)
    .filter(({ cert, renewBefore }) => cert.notAfter.getTime() - now.getTime() <= parseDuration(renewBefore)!)
    .map(({ cert, renewBefore }) => `${cert.label} expires ${iso(cert.notAfter)}, ${hours(cert.notAfter.getTime() - now.getTime())} away, inside its ${renewBefore} renewal window`);
  out.push(result('renewal', renewing.length === 0,
    `more than ${plan.renewBefore} left on tls.crt${plan.ca !== undefined ? ` and more than ${plan.ca.renewBefore} on ca.crt` : ''}`,
    renewing.length ? renewing.join('; ') : `${hours(leaf.notAfter.getTime() - now.getTime())} left on tls.crt, ${hours(ca.notAfter.getTime() - now.getTime())} on ca.crt`));

  out.push(result('ca-lifetime', leaf.notAfter <= ca.notAfter, `tls.crt to expire no later than ca.crt (${iso(ca.notAfter)})`,
    `tls.crt expires ${iso(leaf.notAfter)}`));
  return out;
}

function checkKeyStrength(m: Material, plan: TlsPlan): CheckResult {
  const want = strengthOf(plan.privateKey.algorithm, plan.privateKey.size);
  // The key of an issuer's CA is the user's: the plan says nothing of it, so only tls.crt is held to the plan.
  const caKey = plan.ca === undefined ? plan.privateKey : plan.ca.privateKey ?? plan.privateKey;
  const wantCa = strengthOf(caKey.algorithm, caKey.size);
  const keys = [
    { label: 'tls.crt', strength: keyStrength(m.leaf.publicKey), want },
    ...(plan.ca !== undefined ? [{ label: 'ca.crt', strength: keyStrength(m.anchors[0].publicKey), want: wantCa }] : []),
  ];
  const expected = caKey === plan.privateKey || describeStrength(want) === describeStrength(wantCa)
    ? `keys at least as strong as the plan's ${describeStrength(want)}`
    : `keys at least as strong as the plan's: ${describeStrength(want)} for tls.crt, ${describeStrength(wantCa)} for ca.crt`;
  return result('key-strength', keys.every((k) => atLeastAsStrong(k.strength, k.want)), expected,
    keys.map((k) => `${k.label} ${describeStrength(k.strength)}`).join(', '));
}

/**
 * Options of {@link verify}.
 * @jsii ignore
 */
export interface VerifyOptions {
  /**
   * The time the certificates must be valid at.
   * @default - now
   */
  readonly now?: Date;
  /**
   * Check only the plans of this namespace.
   * @default - the namespaces of the Secrets, when they carry one; otherwise every plan
   */
  readonly namespace?: string;
  /**
   * Check only the plans of this cluster name.
   * @default - every cluster
   */
  readonly clusterName?: string;
  /**
   * The Pods of the input (`kubectl get secrets,pods -o json --show-managed-fields`): each Secret
   * that some Pod of its namespace mounts gets the `loaded` check, every container started at
   * or after the Secret's last write. An empty list is the same as none.
   * @default - no Pods: the `loaded` check is not run
   */
  readonly pods?: readonly PodData[];
  /**
   * How many days every certificate (`tls.crt`, and every CA certificate in `ca.crt`) must stay
   * valid after `now`: the `expiry` check. A whole number within {@link MIN_DAYS_RANGE}.
   * @default - the `expiry` check is not run
   */
  readonly minDays?: number;
}

/**
 * Checks the Secrets against the plans: every Secret each plan requires, and that the Secrets of
 * one cluster carry one CA (the CA Secret's certificate when the input holds the CA Secret, else
 * the CA most of the cluster's Secrets carry); with Pods, that the pods mounting each Secret
 * started after it was last written.
 * @throws VerifyInputError when no plan matches, or a certificate or key of one of the plan's `secrets` or `sqlTls` does
 * not parse (one of a Secret you create, `userSecrets`, fails its `keys` check instead)
 */
export async function verify(plans: readonly LoadedPlan[], secrets: readonly SecretData[], options: VerifyOptions = {}): Promise<VerifyReport> {
  const now = options.now ?? new Date();
  checkMinDays(options.minDays);
  const selected = selectPlans(plans, secrets, options);
  const planReports: PlanReport[] = [];
  const reports: SecretReport[] = [];
  for (const loaded of selected) {
    const { plan } = loaded;
    const find = (name: string, namespace = plan.namespace) => findSecret(secrets, name, namespace);
    const clusterCa = referenceCa(plan.ca && find(plan.ca.secretName), plan.secrets.map((s) => find(s.name)), 'Secrets of the cluster');
    const sql = plan.sqlTls === undefined ? undefined : await verifySqlSecrets(plan, secrets, { now, minDays: options.minDays, clusterCa, pods: options.pods });
    planReports.push({
      file: loaded.file, namespace: plan.namespace, clusterName: plan.clusterName, method: plan.method,
      issuer: plan.issuer && `${plan.issuer.kind} ${plan.issuer.name}`,
      allowedCommonNames: loaded.allowedCommonNames, ca: clusterCa?.origin,
      rotation: plan.rotation && { id: plan.rotation.id, phase: plan.rotation.phase },
      enablement: plan.enablement && { phase: plan.enablement.phase },
      notInInput: sql !== undefined && sql.notInInput.length > 0 ? sql.notInInput : undefined,
    });
    const checked: CheckedSecret[] = [];
    for (const required of plan.secrets) {
      const secret = find(required.name);
      checked.push({ required, secret, checks: await verifySecret(required, plan, secret, { now, allowedCommonNames: loaded.allowedCommonNames, clusterCa, minDays: options.minDays }) });
    }
    await addHandshakes(checked);
    const pods = (options.pods ?? []).filter((p) => p.namespace === undefined || p.namespace === plan.namespace);
    for (const { required, secret, checks } of checked) {
      if (secret !== undefined && (options.pods?.length ?? 0) > 0 && plan.enablement?.tls && isOperatorComponent(required)) {
        checks.push(checkRolled(required, plan, pods));
      }
      if (secret !== undefined && (options.pods?.length ?? 0) > 0) {
        // A component this phase does not restart takes its new certificate while it runs (the plan's rotation.reloading).
        const reloads = required.role === 'server' && required.component !== undefined && (plan.rotation?.reloading ?? []).includes(required.component);
        // The kubelet's projection is judged at the real time, never at --now, which moves the validity checks only.
        checks.push(checkLoaded(secret, pods, reloads ? { component: required.component!, now: new Date() } : undefined));
      }
      reports.push({
        name: required.name, namespace: plan.namespace, clusterName: plan.clusterName, cluster: required.cluster,
        role: required.role, component: required.component, ok: checks.every((c) => c.ok), checks,
        // With Secrets you provide, every Secret of the plan is yours: a missing one is named with the user's own.
        ...(plan.method === IssuingMethod.USER_PROVIDED ? { usedBy: loadedBy(required) } : {}),
      });
    }
    reports.push(...(sql?.reports ?? []));
    reports.push(...verifyUserSecrets(plan, find, { now, minDays: options.minDays, pods: (options.pods?.length ?? 0) > 0 ? pods : undefined }));
  }
  const summary = summarize(reports);
  return {
    ok: summary.passed === reports.length,
    now: iso(now),
    plans: planReports,
    secrets: reports,
    summary,
  };
}

/** What loads a Secret of the plan, as the summary names a missing one you provide. */
function loadedBy(required: TlsPlanSecret): string {
  return required.role === 'server' ? `the ${required.component}` : `the ${required.cluster} cluster's components and tools, as their client certificate`;
}

/** A Secret of a plan with the checks it has had so far. */
interface CheckedSecret {
  readonly required: TlsPlanSecret;
  readonly secret?: SecretData;
  readonly checks: CheckResult[];
}

/**
 * Adds the handshake check to every Secret of a set that had its chain checked: real handshakes
 * with those of the set that passed the checks a peer needs (`PEER_CHECKS` of peers.ts).
 */
async function addHandshakes(checked: readonly CheckedSecret[]): Promise<void> {
  const good = checked.filter((c) => c.secret !== undefined && isPeer(c.checks)) as PeerSecret[];
  // Each client's certificate set is loaded once for the set's handshakes, and dropped after them.
  const contexts: ClientContexts = new Map();
  for (const { required, secret, checks } of checked) {
    if (secret !== undefined && shakesHands(checks)) {
      checks.push(await checkHandshakes(required, secret, good, contexts));
    }
  }
}

/**
 * The Secrets of TLS for MySQL clients: each with the checks of every Secret, against the SQL CA
 * (its Secret's certificate when the input holds it, else the one most of them carry) and its own
 * Common Name, then `sql-ca` (not the cluster's CA) and mutual handshakes between the server's
 * Secret and the clients', and with Pods the `loaded` check against the pods of its namespace. A
 * Secret of a namespace the input holds nothing of is listed as not in the input instead.
 */
async function verifySqlSecrets(plan: TlsPlan, secrets: readonly SecretData[],
  context: { now: Date; minDays?: number; clusterCa?: ClusterCa; pods?: readonly PodData[] }) {
  const sqlTls = plan.sqlTls!;
  const inInput = sqlTls.secrets.filter((s) => inputCovers(secrets, s.namespace));
  const caSecret = sqlTls.ca.secretNamespace === undefined ? undefined : findSecret(secrets, sqlTls.ca.name, sqlTls.ca.secretNamespace);
  const sqlCa = referenceCa(caSecret, inInput.map((s) => findSecret(secrets, s.name, s.namespace)), 'Secrets of TLS for MySQL clients');
  const checked: CheckedSecret[] = [];
  for (const sql of inInput) {
    const required = asPlanSecret(sql);
    const secret = findSecret(secrets, sql.name, sql.namespace);
    const checks = await verifySecret(required, asSqlPlan(plan, sql), secret, { now: context.now, minDays: context.minDays, clusterCa: sqlCa && { ...sqlCa, label: 'the SQL CA' } });
    if (secret !== undefined && shakesHands(checks)) {
      const sqlCaResult = checkSqlCa(parseCertificates(secret, SECRET_KEYS.ca)[0], context.clusterCa?.certificate);
      checks.push(result(SQL_CA_CHECK, sqlCaResult.ok, sqlCaResult.expected, sqlCaResult.found));
    }
    checked.push({ required, secret, checks });
  }
  await addHandshakes(checked);
  if ((context.pods?.length ?? 0) > 0) {
    checked.forEach(({ secret, checks }, i) => {
      if (secret !== undefined) {
        // The SQL server's Secret, in a phase that reloads its MySQL port rather than restarting it (tlsClient.reloadUser).
        const reloads = inInput[i].role === 'server' && (plan.rotation?.reloading ?? []).includes('sqlserver');
        checks.push(checkLoaded(secret, context.pods!.filter((p) => p.namespace === undefined || p.namespace === inInput[i].namespace),
          reloads ? { component: 'sqlserver', now: new Date(), takes: `loads them on its MySQL port when the rotation runbook runs ${SQL_PORT_RELOAD.statement}` } : undefined));
      }
    });
  }
  const reports: SecretReport[] = checked.map(({ required, checks }, i) => ({
    name: required.name, namespace: inInput[i].namespace, clusterName: plan.clusterName, cluster: required.cluster, role: required.role,
    component: required.component, sqlTls: inInput[i].role, ok: checks.every((c) => c.ok), checks,
  }));
  const notInInput = sqlTls.secrets.filter((s) => !inInput.includes(s)).map((s) => `${s.namespace}/${s.name}`);
  return { reports, notInInput };
}

function selectPlans(plans: readonly LoadedPlan[], secrets: readonly SecretData[], options: VerifyOptions): LoadedPlan[] {
  const namespaces = [...new Set(secrets.map((s) => s.namespace).filter((n): n is string => n !== undefined))];
  const selected = plans.filter((p) => (options.namespace !== undefined ? p.plan.namespace === options.namespace
    : namespaces.length === 0 || namespaces.includes(p.plan.namespace))
    && (options.clusterName === undefined || p.plan.clusterName === options.clusterName));
  if (selected.length === 0) {
    const wanted = [
      // Each name bounded, and hidden when it holds a URL's password: the options and the input are the user's text.
      options.namespace !== undefined ? `namespace ${describeValue(options.namespace)}`
        : namespaces.length ? `the namespace of the Secrets (${listed(namespaces.map((n) => describeValue(n)), 'namespace')})` : '',
      options.clusterName !== undefined ? `cluster ${describeValue(options.clusterName)}` : '',
    ].filter(Boolean).join(' and ');
    throw new VerifyInputError('--dist', 'plans', plans.map((p) => `${p.plan.namespace}/${p.plan.clusterName}`),
      `a plan for ${wanted}; choose one with --namespace and --cluster`);
  }
  return selected;
}

/**
 * The reference CA of a set of Secrets: the CA Secret's certificate when the input holds it, else
 * the CA most of the Secrets of the set carry in their `ca.crt` (`what` names the set).
 */
function referenceCa(caSecret: SecretData | undefined, set: readonly (SecretData | undefined)[], what: string): ClusterCa | undefined {
  if (caSecret) {
    const key = caSecret.data[SECRET_KEYS.certificate] ? SECRET_KEYS.certificate : SECRET_KEYS.ca;
    const certificate = parseCertificates(caSecret, key)[0];
    // An intermediate CA (a span's) signs the leaves, and the root in its ca.crt is what every leaf carries.
    const root = key === SECRET_KEYS.certificate && caSecret.data[SECRET_KEYS.ca] !== undefined ? parseCertificates(caSecret, SECRET_KEYS.ca)[0] : undefined;
    const intermediate = root !== undefined && root.fingerprint256 !== certificate.fingerprint256 && certificate.checkIssued(root) && certificate.verify(root.publicKey);
    if (intermediate) {
      return { certificate: root, origin: `the root in ca.crt of the intermediate CA Secret ${caSecret.name}` };
    }
    return { certificate, origin: `the CA Secret ${caSecret.name}` };
  }
  const carried = set
    .filter((s): s is SecretData => s !== undefined && s.data[SECRET_KEYS.ca] !== undefined)
    .map((s) => parseCertificates(s, SECRET_KEYS.ca)[0]);
  if (carried.length === 0) {
    return undefined;
  }
  const counts = new Map<string, number>();
  for (const cert of carried) {
    counts.set(cert.fingerprint256, (counts.get(cert.fingerprint256) ?? 0) + 1);
  }
  const best = carried.reduce((a, b) => (counts.get(b.fingerprint256)! > counts.get(a.fingerprint256)! ? b : a));
  return { certificate: best, origin: `${counts.get(best.fingerprint256)} of the ${carried.length} ${what}` };
}
