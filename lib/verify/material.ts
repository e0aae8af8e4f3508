/**
 * What a Secret holds, read on its own: its three keys (`tls.crt`, `tls.key`, `ca.crt`), the
 * certificates and key parsed from them, and the checks that need nothing but them and the time:
 * `key-match`, `validity` and `expiry`, which the plan's Secrets and those you create get alike, and
 * `keys`, exactly the three for the plan's and at least the three, parsed, for yours.
 */
import { KeyObject, X509Certificate, createPrivateKey } from 'node:crypto';
import { SECRET_KEYS } from '../model/catalog-certificates';
import { CheckResult, result } from './checks';
import { SecretData, VerifyInputError } from './input';
import { iso, listed, oneLine } from './text';
import { describeStrength, keyStrength, pemBlocks } from './x509';

/** The certificates and key of a Secret, parsed. */
export interface Material {
  readonly leaf: X509Certificate;
  readonly intermediates: X509Certificate[];
  readonly anchors: X509Certificate[];
  readonly key: KeyObject;
}

/** A key of a Secret whose value does not parse: what it holds and what is expected, in words that never quote the value. */
interface Unparsed {
  readonly key: string;
  readonly received: string;
  readonly expected: string;
}

const REQUIRED_KEYS: readonly string[] = [SECRET_KEYS.certificate, SECRET_KEYS.privateKey, SECRET_KEYS.ca];

function readCertificates(secret: SecretData, key: string): X509Certificate[] | Unparsed {
  const blocks = pemBlocks(secret.data[key]?.toString('utf8') ?? '').filter((b) => b.label === 'CERTIFICATE');
  if (blocks.length === 0) {
    return { key, received: 'no PEM certificate', expected: 'one or more "-----BEGIN CERTIFICATE-----" blocks' };
  }
  const certificates: X509Certificate[] = [];
  for (const [i, b] of blocks.entries()) {
    try {
      certificates.push(new X509Certificate(b.pem));
    } catch (e) {
      return {
        key, received: `a PEM certificate (block ${i + 1}) that does not parse`,
        expected: `a DER X.509 certificate inside the PEM block; the parser said: ${oneLine((e as Error).message)}`,
      };
    }
  }
  return certificates;
}

function readPrivateKey(secret: SecretData, key: string): KeyObject | Unparsed {
  const blocks = pemBlocks(secret.data[key]?.toString('utf8') ?? '').filter((b) => /PRIVATE KEY$/.test(b.label));
  if (blocks.length !== 1) {
    return { key, received: `${blocks.length} PEM private keys`, expected: 'exactly one "-----BEGIN … PRIVATE KEY-----" block' };
  }
  try {
    return createPrivateKey(blocks[0].pem);
  } catch (e) {
    return { key, received: 'a PEM private key that does not parse', expected: `an unencrypted private key; the parser said: ${oneLine((e as Error).message)}` };
  }
}

function isUnparsed(value: object): value is Unparsed {
  return 'received' in value;
}

function refuse(secret: SecretData, unparsed: Unparsed): never {
  throw new VerifyInputError(secret.source, `Secret ${secret.name} ${unparsed.key}`, unparsed.received, unparsed.expected);
}

/**
 * Parses the PEM certificates stored under one key of a Secret.
 * @throws VerifyInputError when the value holds no certificate or one that does not parse
 */
export function parseCertificates(secret: SecretData, key: string): X509Certificate[] {
  const read = readCertificates(secret, key);
  return isUnparsed(read) ? refuse(secret, read) : read;
}

/**
 * Parses the PEM private key of a Secret (PKCS#8, or PKCS#1/SEC1 as cfssl writes them).
 * @throws VerifyInputError when the value is not an unencrypted PEM private key
 */
export function parsePrivateKey(secret: SecretData, key: string = SECRET_KEYS.privateKey): KeyObject {
  const read = readPrivateKey(secret, key);
  return isUnparsed(read) ? refuse(secret, read) : read;
}

/**
 * The material of a Secret that has the three keys.
 * @throws VerifyInputError when a certificate or the key does not parse
 */
export function material(secret: SecretData): Material {
  const [leaf, ...intermediates] = parseCertificates(secret, SECRET_KEYS.certificate);
  return { leaf, intermediates, anchors: parseCertificates(secret, SECRET_KEYS.ca), key: parsePrivateKey(secret) };
}

/** Whether a Secret holds the three keys the checks of its certificate read. */
export function hasKeys(secret: SecretData): boolean {
  return REQUIRED_KEYS.every((k) => secret.data[k] !== undefined);
}

/** The keys of a Secret, as `found` lists them, and those of the three it lacks. */
function keysFound(secret: SecretData): { keys: string[]; missing: string[]; found: string } {
  const keys = Object.keys(secret.data).sort();
  const missing = REQUIRED_KEYS.filter((k) => !keys.includes(k));
  return { keys, missing, found: `keys ${listed(keys, 'key') || 'none'}` };
}

/** `keys` of the plan's Secrets: exactly `tls.crt`, `tls.key` and `ca.crt`, as the library writes them. */
export function checkKeys(secret: SecretData): CheckResult {
  const { keys, missing, found } = keysFound(secret);
  const extra = keys.filter((k) => !REQUIRED_KEYS.includes(k));
  return result('keys', missing.length === 0 && extra.length === 0, `exactly the keys ${REQUIRED_KEYS.join(', ')}`,
    [found, missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `unexpected ${listed(extra, 'key')}` : ''].filter(Boolean).join('; '));
}

/**
 * `keys` of a Secret you create, with its material when it passes: at least `tls.crt`, `tls.key`
 * and `ca.crt`, each of which parses. Other keys are left alone: the components read those three
 * files of the folder the operator mounts, and a Secret of yours may carry more (cert-manager's
 * `additionalOutputFormats` add `tls-combined.pem` and `key.der`). A value that does not parse
 * fails the check, named by its key and what it holds, never quoted: the Secret is the cluster's
 * state, not input the command cannot read.
 */
export function checkUserKeys(secret: SecretData): { readonly check: CheckResult; readonly material?: Material } {
  const { missing, found } = keysFound(secret);
  const expected = `at least the keys ${REQUIRED_KEYS.join(', ')} (any other is left alone), each of which parses: `
    + `PEM certificates in ${SECRET_KEYS.certificate} and ${SECRET_KEYS.ca}, one PEM private key in ${SECRET_KEYS.privateKey}`;
  if (missing.length > 0) {
    return { check: result('keys', false, expected, `${found}; missing ${missing.join(', ')}`) };
  }
  const certificates = readCertificates(secret, SECRET_KEYS.certificate);
  const key = readPrivateKey(secret, SECRET_KEYS.privateKey);
  const anchors = readCertificates(secret, SECRET_KEYS.ca);
  if (isUnparsed(certificates) || isUnparsed(key) || isUnparsed(anchors)) {
    const unparsed = [certificates, key, anchors].filter(isUnparsed);
    return { check: result('keys', false, expected, [found, ...unparsed.map((u) => `${u.key} holds ${u.received} (expected ${u.expected})`)].join('; ')) };
  }
  const [leaf, ...intermediates] = certificates;
  return { check: result('keys', true, expected, found), material: { leaf, intermediates, anchors, key } };
}

/** `key-match`: `tls.key` is the private key of `tls.crt`. */
export function checkKeyMatch(m: Material): CheckResult {
  let ok: boolean;
  try {
    ok = m.leaf.checkPrivateKey(m.key);
  } catch {
    ok = false;
  }
  return result('key-match', ok, 'tls.key is the private key of tls.crt', ok ? 'it is'
    : `a key that does not belong to tls.crt (tls.key: ${describeStrength(keyStrength(m.key))}; tls.crt: ${describeStrength(keyStrength(m.leaf.publicKey))})`);
}

/** A certificate's validity, with the name a message gives it. */
export interface Dated {
  readonly label: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** The validity of a certificate, named `label`. */
export function dated(label: string, cert: X509Certificate): Dated {
  return { label, notBefore: new Date(cert.validFrom), notAfter: new Date(cert.validTo) };
}

/** `validity`: tls.crt and (the first certificate of) ca.crt are valid at `now`. */
export function checkValid(m: Material, now: Date): CheckResult {
  const leaf = dated('tls.crt', m.leaf);
  const ca = dated('ca.crt', m.anchors[0]);
  const invalid = [leaf, ca].flatMap((c) => (now < c.notBefore ? [`${c.label} not valid before ${iso(c.notBefore)}`]
    : now >= c.notAfter ? [`${c.label} expired ${iso(c.notAfter)}`] : []));
  return result('validity', invalid.length === 0, `tls.crt and ca.crt valid at ${iso(now)}`,
    invalid.length ? invalid.join('; ') : `tls.crt valid until ${iso(leaf.notAfter)}, ca.crt until ${iso(ca.notAfter)}`);
}

/**
 * `expiry` (`--min-days`): `tls.crt` and every CA certificate in `ca.crt` stay valid for at least
 * `days` days after `now`, so that a job can gate on certificates that would lapse before anyone renews them.
 */
export function checkExpiry(m: Material, now: Date, days: number): CheckResult {
  const until = new Date(now.getTime() + days * 86_400_000);
  const certificates = [dated('tls.crt', m.leaf), ...m.anchors.map((a, i) => dated(m.anchors.length > 1 ? `ca.crt (certificate ${i + 1})` : 'ca.crt', a))];
  const soon = certificates.filter((c) => c.notAfter < until);
  const daysLeft = (c: Dated) => Math.floor((c.notAfter.getTime() - now.getTime()) / 86_400_000);
  const first = certificates.reduce((a, b) => (a.notAfter <= b.notAfter ? a : b));
  return result('expiry', soon.length === 0, `tls.crt and every CA certificate in ca.crt valid until at least ${iso(until)} (${days} days)`,
    soon.length > 0 ? soon.map((c) => `${c.label} expires ${iso(c.notAfter)}, in ${daysLeft(c)} days`).join('; ')
      : `the first to expire, ${first.label}, expires ${iso(first.notAfter)}`);
}
