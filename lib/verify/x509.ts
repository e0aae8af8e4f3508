/// <reference types="node" preserve="true" />
/**
 * Small X.509 helpers over `node:crypto`: PEM blocks, subject alternative names, host-name
 * matching as TLS clients do it, extended key usages and key strength.
 */
import { KeyObject, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** The OIDs of the extended key usages the specification names, and a few others for messages. */
const EKU_OIDS: Readonly<Record<string, string>> = {
  '1.3.6.1.5.5.7.3.1': 'server auth',
  '1.3.6.1.5.5.7.3.2': 'client auth',
  '1.3.6.1.5.5.7.3.3': 'code signing',
  '1.3.6.1.5.5.7.3.4': 'email protection',
  '1.3.6.1.5.5.7.3.8': 'timestamping',
  '1.3.6.1.5.5.7.3.9': 'ocsp signing',
  '2.5.29.37.0': 'any',
};

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of a text, each with its label (`CERTIFICATE`, `PRIVATE KEY`, …). */
export function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1], pem: m[0] }));
}

/** The names of a certificate's subject alternative names, by type. */
export interface SubjectAltNames {
  /** DNS names, as written in the certificate. */
  readonly dns: string[];
  /** IP addresses, normalized with {@link normalizeIp}. */
  readonly ip: string[];
  /** Other entries (URI, email, …), as node prints them. */
  readonly other: string[];
}

/**
 * Splits node's `subjectAltName` string (`DNS:a, IP Address:127.0.0.1`). Node quotes a value
 * that holds a comma, a quote or a control character as a JSON string.
 */
export function parseSubjectAltName(text: string | undefined): SubjectAltNames {
  const out = { dns: [] as string[], ip: [] as string[], other: [] as string[] };
  let rest = text ?? '';
  while (rest.length > 0) {
    const colon = rest.indexOf(':');
    if (colon < 0) {
      out.other.push(rest);
      break;
    }
    const type = rest.slice(0, colon);
    rest = rest.slice(colon + 1);
    let value: string;
    if (rest.startsWith('"')) {
      const end = quotedEnd(rest);
      value = JSON.parse(rest.slice(0, end + 1));
      rest = rest.slice(end + 1);
    } else {
      const comma = rest.indexOf(', ');
      value = comma < 0 ? rest : rest.slice(0, comma);
      rest = comma < 0 ? '' : rest.slice(comma);
    }
    rest = rest.replace(/^, /, '');
    if (type === 'DNS') {
      out.dns.push(value);
    } else if (type === 'IP Address') {
      out.ip.push(normalizeIp(value));
    } else {
      out.other.push(`${type}:${value}`);
    }
  }
  return out;
}

function quotedEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
    } else if (text[i] === '"') {
      return i;
    }
  }
  return text.length - 1;
}

/**
 * An IP address in one spelling: IPv4 dotted without leading zeros, IPv6 as eight lowercase
 * groups without leading zeros (node prints `::1` as `0:0:0:0:0:0:0:1`), an IPv4-mapped IPv6
 * address as its IPv4 address (TLS clients treat both as equal). Other text is returned lowercased.
 */
export function normalizeIp(text: string): string {
  const value = text.trim().toLowerCase();
  if (isIP(value) === 4) {
    return value.split('.').map((p) => String(Number(p))).join('.');
  }
  if (isIP(value) !== 6) {
    return value;
  }
  let groups = value;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    groups = `${groups.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = groups.includes('::') ? groups.split('::') : [groups, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const parts = [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
  if (parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff) {
    return [parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff].join('.');
  }
  return parts.map((p) => p.toString(16)).join(':');
}

/** Lowercase, without a trailing dot. */
function canonicalHost(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/**
 * Whether a certificate's DNS names cover a name a component is reached by, as TLS clients match
 * them: a name is covered by the same name, or by a wildcard `*.<rest>` whose `*` stands for
 * exactly its left-most label (never part of a label, never across dots). A required name that is
 * itself a wildcard (a peer pattern such as `*.basic-store-peer`) is covered only by the identical
 * wildcard, since it stands for every pod name.
 */
export function dnsNameCovered(required: string, sans: readonly string[]): boolean {
  const want = canonicalHost(required);
  return sans.map(canonicalHost).some((san) => {
    if (san === want) {
      return true;
    }
    if (want.startsWith('*.') || !san.startsWith('*.')) {
      return false;
    }
    const dot = want.indexOf('.');
    return dot > 0 && want.slice(dot) === san.slice(1);
  });
}

/** The extended key usages of a certificate, by name; `undefined` when it has no such extension. */
export function extendedKeyUsages(cert: X509Certificate): string[] | undefined {
  const oids = cert.keyUsage as string[] | undefined;
  return oids?.map((oid) => EKU_OIDS[oid] ?? oid);
}

/** The Common Name of a subject (the last `CN`, as TLS libraries read it); `undefined` when none. */
export function commonName(cert: X509Certificate): string | undefined {
  const cns = cert.subject.split('\n').filter((line) => line.startsWith('CN=')).map((line) => line.slice(3));
  return cns[cns.length - 1];
}

/** A short human description of a certificate: its subject and SHA-256 fingerprint. */
export function describeCertificate(cert: X509Certificate): string {
  return `${cert.subject.split('\n').join(', ')} (SHA-256 ${cert.fingerprint256.slice(0, 23)}…)`;
}

/** A key's algorithm and size, and its security strength in bits (NIST SP 800-57 part 1). */
export interface KeyStrength {
  /** `RSA`, `ECDSA`, `Ed25519`, `Ed448` or node's key type. */
  readonly algorithm: string;
  /** Modulus length for RSA, curve size for ECDSA; none for EdDSA. */
  readonly size?: number;
  /** Security strength in bits; 0 when unknown. */
  readonly bits: number;
}

const CURVE_SIZES: Readonly<Record<string, number>> = {
  prime256v1: 256, 'P-256': 256, secp384r1: 384, 'P-384': 384, secp521r1: 521, 'P-521': 521,
};

/** The strength of a public (or private) key. */
export function keyStrength(key: KeyObject): KeyStrength {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return strengthOf('RSA', details.modulusLength);
    case 'ec':
      return strengthOf('ECDSA', CURVE_SIZES[details.namedCurve ?? ''] ?? 0);
    case 'ed25519':
      return strengthOf('Ed25519');
    case 'ed448':
      return strengthOf('Ed448');
    default:
      return { algorithm: String(key.asymmetricKeyType), bits: 0 };
  }
}

/**
 * The strength of an algorithm and size as a plan spells them (`RSA`/`rsa` 2048, `ECDSA`/`ecdsa`
 * 256, `Ed25519`). Unknown algorithms have strength 0.
 */
export function strengthOf(algorithm: string, size?: number): KeyStrength {
  switch (algorithm.toLowerCase()) {
    case 'rsa': {
      const n = size ?? 0;
      const bits = n >= 15360 ? 256 : n >= 7680 ? 192 : n >= 3072 ? 128 : n >= 2048 ? 112 : n >= 1024 ? 80 : 0;
      return { algorithm: 'RSA', size: n, bits };
    }
    case 'ecdsa':
    case 'ec': {
      const n = size ?? 0;
      return { algorithm: 'ECDSA', size: n, bits: n >= 512 ? 256 : n >= 384 ? 192 : n >= 256 ? 128 : Math.floor(n / 2) };
    }
    case 'ed25519':
      return { algorithm: 'Ed25519', bits: 128 };
    case 'ed448':
      return { algorithm: 'Ed448', bits: 224 };
    default:
      return { algorithm, size, bits: 0 };
  }
}

/**
 * Whether a key is at least as strong as a required one: the same algorithm with at least the
 * size, or another algorithm with at least the security strength.
 */
export function atLeastAsStrong(found: KeyStrength, required: KeyStrength): boolean {
  if (found.algorithm === required.algorithm && found.size !== undefined && required.size !== undefined) {
    return found.size >= required.size;
  }
  return found.bits >= required.bits;
}

/** `RSA 2048 bits (112-bit security)`. */
export function describeStrength(s: KeyStrength): string {
  return `${s.algorithm}${s.size !== undefined ? ` ${s.size} bits` : ''} (${s.bits}-bit security)`;
}
