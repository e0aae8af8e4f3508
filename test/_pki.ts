/**
 * A small in-test PKI: a CA and leaf certificates made with @peculiar/x509 over node's webcrypto,
 * and the Secrets of a certificate plan as `kubectl get secrets -o json` lists them, with a way to
 * spoil any Secret in one precise way.
 */
import 'reflect-metadata';
import { createPrivateKey, webcrypto } from 'node:crypto';

type CryptoKeyPair = webcrypto.CryptoKeyPair;
import type * as X509 from '@peculiar/x509';
import type { TlsPlan } from '../lib/plan/certificate-options';
import { parseDuration } from '../lib/model/duration';

const x509: typeof X509 = require('@peculiar/x509');
x509.cryptoProvider.set(webcrypto as any);

const HOUR = 3_600_000;

/** Key kinds the tests use. */
export type KeyKind = 'rsa2048' | 'rsa1024' | 'ec256';

/** A key pair and its private key as PEM. */
export interface TestKey {
  readonly kind: KeyKind;
  readonly pair: CryptoKeyPair;
  /** PKCS#8 PEM (`PRIVATE KEY`). */
  readonly pem: string;
  /** The encoding cfssl writes: PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`). */
  readonly legacyPem: string;
}

function algorithmOf(kind: KeyKind): webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams {
  return kind === 'ec256'
    ? { name: 'ECDSA', namedCurve: 'P-256' }
    : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: kind === 'rsa1024' ? 1024 : 2048 };
}

function signingOf(kind: KeyKind): webcrypto.Algorithm | webcrypto.EcdsaParams {
  return kind === 'ec256' ? { name: 'ECDSA', hash: 'SHA-256' } as webcrypto.EcdsaParams : { name: 'RSASSA-PKCS1-v1_5' };
}

/** Makes a key pair. */
export async function makeKey(kind: KeyKind): Promise<TestKey> {
  const pair = await webcrypto.subtle.generateKey(algorithmOf(kind), true, ['sign', 'verify']) as CryptoKeyPair;
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  const pem = x509.PemConverter.encode(der, 'PRIVATE KEY');
  const legacyPem = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    .export({ format: 'pem', type: kind === 'ec256' ? 'sec1' : 'pkcs1' }).toString();
  return { kind, pair, pem, legacyPem };
}

/** A CA: its certificate and key. */
export interface TestCa {
  readonly certificate: X509.X509Certificate;
  readonly pem: string;
  readonly key: TestKey;
}

/** What a CA is made of. */
export interface CaOptions {
  readonly commonName: string;
  readonly organization?: string;
  readonly key: TestKey;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** A certificate without the CA flag, to stand in for a leaf in ca.crt. Default true. */
  readonly isCa?: boolean;
}

/** Makes a self-signed CA certificate. */
export async function makeCa(o: CaOptions): Promise<TestCa> {
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: o.organization === undefined ? `CN=${o.commonName}` : `O=${o.organization}, CN=${o.commonName}`,
    keys: o.key.pair,
    notBefore: o.notBefore,
    notAfter: o.notAfter,
    signingAlgorithm: signingOf(o.key.kind),
    extensions: [
      new x509.BasicConstraintsExtension(o.isCa ?? true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(o.key.pair.publicKey),
    ],
  });
  return { certificate, pem: certificate.toString('pem'), key: o.key };
}

/** A certificate `signer` signs for `key`, with the given subject, validity and extensions. */
function signedBy(signer: TestCa, o: { subject: string; key: TestKey; notBefore: Date; notAfter: Date; extensions: X509.Extension[] }): Promise<X509.X509Certificate> {
  return x509.X509CertificateGenerator.create({
    subject: o.subject,
    issuer: signer.certificate.subject,
    notBefore: o.notBefore,
    notAfter: o.notAfter,
    publicKey: o.key.pair.publicKey,
    signingKey: signer.key.pair.privateKey,
    signingAlgorithm: signingOf(signer.key.kind),
    extensions: o.extensions,
  });
}

/** Makes an intermediate CA certificate that `signer` signs, as a span's root signs each Kubernetes cluster's (a CA of path length 0). */
export async function makeIntermediate(o: Omit<CaOptions, 'isCa' | 'organization' | 'commonName'> & { readonly signer: TestCa; readonly subject: string }): Promise<TestCa> {
  const certificate = await signedBy(o.signer, { ...o, extensions: [
    new x509.BasicConstraintsExtension(true, 0, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
    await x509.SubjectKeyIdentifierExtension.create(o.key.pair.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(o.signer.key.pair.publicKey),
  ] });
  return { certificate, pem: certificate.toString('pem'), key: o.key };
}

const EKU: Record<string, string> = { 'server auth': x509.ExtendedKeyUsage.serverAuth, 'client auth': x509.ExtendedKeyUsage.clientAuth, 'code signing': x509.ExtendedKeyUsage.codeSigning };

/** What a leaf certificate is made of. */
export interface LeafOptions {
  readonly commonName: string;
  /** The whole subject, replacing the organization and Common Name (`CN=basic`, as a CA of that name carries it). */
  readonly subject?: string;
  readonly organization?: string;
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  /** Extended key usages by name; `null` leaves the extension out. */
  readonly usages: readonly string[] | null;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The certificate's key. */
  readonly key: TestKey;
  /** The CA that signs it. */
  readonly signer: TestCa;
  /** Whether it names the signer's key (authority key identifier). Default true. */
  readonly authorityKeyId?: boolean;
}

/** Issues a leaf certificate and returns it as PEM. */
export async function issueLeaf(o: LeafOptions): Promise<string> {
  const names = [
    ...(o.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await signedBy(o.signer, {
    subject: o.subject ?? `O=${o.organization ?? 'test'}, CN=${o.commonName}`,
    key: o.key,
    notBefore: o.notBefore,
    notAfter: o.notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      ...(o.usages === null ? [] : [new x509.ExtendedKeyUsageExtension(o.usages.map((u) => EKU[u]))]),
      ...(names.length ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      ...(o.authorityKeyId === false ? [] : [await x509.AuthorityKeyIdentifierExtension.create(o.signer.key.pair.publicKey)]),
    ],
  });
  return cert.toString('pem');
}

/** One way to spoil one Secret; unset fields keep what the plan asks for. */
export interface SecretFault {
  readonly commonName?: string;
  /** The whole subject of the certificate, such as the CA's. */
  readonly subject?: string;
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly usages?: readonly string[] | null;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /** The certificate's key (and, unless `tlsKey` says otherwise, tls.key). */
  readonly key?: TestKey;
  /** The CA that signs tls.crt. */
  readonly signer?: TestCa;
  /** Whether tls.crt names the signer's key. Default true. */
  readonly authorityKeyId?: boolean;
  /** The CA written to ca.crt. */
  readonly caCrt?: TestCa;
  /** The key written to tls.key. */
  readonly tlsKey?: TestKey;
  /** Last edit of the Secret's data (PEM text by key) before it is encoded. */
  readonly edit?: (data: Record<string, string>) => Record<string, string>;
}

/** How {@link TestPki.secrets} lays out the Secrets. */
export interface SecretsOptions {
  /** Faults by Secret name. */
  readonly faults?: Readonly<Record<string, SecretFault>>;
  /** Secrets left out. */
  readonly omit?: readonly string[];
  /** Also list the CA Secret, as cert-manager keeps it. Default false. */
  readonly caSecret?: boolean;
  /** Key encoding and Secret type as cfssl and kubectl create them (PKCS#1/SEC1, Opaque). Default false. */
  readonly cfssl?: boolean;
}

/** A `kubectl get secrets -o json` List. */
export interface SecretListJson {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: any[];
}

/** The three PEM values of a TLS Secret. */
export interface TlsSecretPem {
  readonly 'tls.crt': string;
  readonly 'tls.key': string;
  readonly 'ca.crt': string;
}

let userSecret: Promise<TlsSecretPem> | undefined;

/**
 * A TLS Secret as you create one for a cluster to load (the plan's `userSecrets`: an upstream
 * database's client certificate, a changefeed sink's): a client certificate from a CA of its own,
 * which the library knows nothing of, valid from a day ago for two years. Made once per process.
 */
export function userTlsSecret(): Promise<TlsSecretPem> {
  userSecret ??= (async () => {
    const [caKey, key] = await Promise.all([makeKey('rsa2048'), makeKey('rsa2048')]);
    const notBefore = new Date(Date.now() - 24 * HOUR);
    const notAfter = new Date(notBefore.getTime() + 2 * 8760 * HOUR);
    const ca = await makeCa({ commonName: 'upstream-ca', organization: 'upstream', key: caKey, notBefore, notAfter });
    const cert = await issueLeaf({ commonName: 'migrator', organization: 'upstream', usages: ['client auth'], notBefore, notAfter, key, signer: ca });
    return { 'tls.crt': cert, 'tls.key': key.pem, 'ca.crt': ca.pem };
  })();
  return userSecret;
}

/** Builds a Secret object with raw (not yet base64) values. */
export function secretObject(name: string, namespace: string | undefined, data: Record<string, string>, type = 'kubernetes.io/tls'): any {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

/**
 * A test PKI fixed in time: the cluster CA and another CA of the same name, keys of each kind,
 * and the good Secrets of a plan with any fault injected.
 */
export class TestPki {
  /** Makes the keys and the CAs; `now` is the time the certificates are checked at. */
  public static async create(now: Date): Promise<TestPki> {
    const [caKey, otherCaKey, leafKey, otherKey, weakKey, ecKey] = await Promise.all(
      (['rsa2048', 'rsa2048', 'rsa2048', 'rsa2048', 'rsa1024', 'ec256'] as const).map(makeKey));
    const notBefore = new Date(now.getTime() - 48 * HOUR);
    const notAfter = new Date(notBefore.getTime() + 87600 * HOUR);
    // The CA carries its Common Name alone, as the cert-manager method's CA does; leaves add the organization.
    const ca = await makeCa({ commonName: 'basic', key: caKey, notBefore, notAfter });
    const otherCa = await makeCa({ commonName: 'basic', key: otherCaKey, notBefore, notAfter });
    return new TestPki(now, ca, otherCa, { leafKey, otherKey, weakKey, ecKey });
  }

  private constructor(
    public readonly now: Date,
    /** The cluster's CA. */
    public readonly ca: TestCa,
    /** Another CA with the same subject and another key. */
    public readonly otherCa: TestCa,
    /** Keys: the leaves' key, another RSA 2048 key, an RSA 1024 key, an ECDSA P-256 key. */
    public readonly keys: { readonly leafKey: TestKey; readonly otherKey: TestKey; readonly weakKey: TestKey; readonly ecKey: TestKey },
  ) {}

  /** The usual start of a leaf's validity: a day before `now`. */
  public get leafNotBefore(): Date {
    return new Date(this.now.getTime() - 24 * HOUR);
  }

  /** Makes another CA (for example an expired one, or one without the CA flag). */
  public async makeCa(o: Partial<CaOptions>): Promise<TestCa> {
    return makeCa({
      commonName: 'basic', key: this.keys.otherKey,
      notBefore: this.ca.certificate.notBefore, notAfter: this.ca.certificate.notAfter, ...o,
    });
  }

  /** The Secrets of a plan, good unless a fault is injected. */
  public async secrets(plan: TlsPlan, options: SecretsOptions = {}): Promise<SecretListJson> {
    const items: any[] = [];
    const type = options.cfssl ? 'Opaque' : 'kubernetes.io/tls';
    const keyPem = (key: TestKey) => (options.cfssl ? key.legacyPem : key.pem);
    if (options.caSecret && plan.ca !== undefined) {
      items.push(secretObject(plan.ca.secretName, plan.namespace, { 'tls.crt': this.ca.pem, 'tls.key': keyPem(this.ca.key), 'ca.crt': this.ca.pem }, type));
    }
    for (const s of plan.secrets) {
      if (options.omit?.includes(s.name)) {
        continue;
      }
      const f = options.faults?.[s.name] ?? {};
      const key = f.key ?? this.keys.leafKey;
      const notBefore = f.notBefore ?? this.leafNotBefore;
      const cert = await issueLeaf({
        commonName: f.commonName ?? plan.commonName,
        subject: f.subject,
        organization: plan.organization,
        dnsNames: f.dnsNames ?? s.dnsNames,
        ipAddresses: f.ipAddresses ?? s.ipAddresses,
        usages: f.usages === undefined ? s.usages : f.usages,
        notBefore,
        notAfter: f.notAfter ?? new Date(notBefore.getTime() + parseDuration(plan.duration)!),
        key,
        signer: f.signer ?? this.ca,
        authorityKeyId: f.authorityKeyId,
      });
      let data: Record<string, string> = { 'tls.crt': cert, 'tls.key': keyPem(f.tlsKey ?? key), 'ca.crt': (f.caCrt ?? this.ca).pem };
      if (f.edit) {
        data = f.edit(data);
      }
      items.push(secretObject(s.name, plan.namespace, data, type));
    }
    return { apiVersion: 'v1', kind: 'List', items };
  }
}
