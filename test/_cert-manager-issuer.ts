/**
 * A faithful in-test re-creation of what cert-manager v1 does with the synthesized Issuer and
 * Certificate objects: the Secrets its self-signed and CA issuers write, built the way its
 * `pki.GenerateCSR` + `CertificateTemplateFromCSR` + Go's `x509.CreateCertificate` build them.
 *
 * Facts reproduced (cert-manager `pkg/util/pki`, `pkg/controller/certificaterequests/ca`, Go's
 * `crypto/x509`):
 * - the subject is built from `commonName` and `subject` only, in Go's `pkix.Name` order
 *   (C, ST, L, street, postal code, O, OU, CN), each value printable-string encoded when it can be;
 * - key usages come from `usages` (default `digital signature`, `key encipherment`), plus
 *   `cert sign` when `isCA`; no keyUsage extension when `usages` lists only extended usages;
 * - basic constraints always present and critical, `CA:TRUE` only with `isCA`;
 * - a Subject Key Identifier only on CA templates; an Authority Key Identifier (the parent's
 *   Subject Key Identifier) only when the subject differs from the issuer's;
 * - the signature algorithm follows the signer's key (cert-manager's `SignCertificate`: RSA ≥4096
 *   SHA-512, ≥3072 SHA-384, else SHA-256; ECDSA by curve). Web Crypto binds an RSA key to the hash
 *   it was made with, so here RSA keys sign with SHA-256 whatever their size: exact for the 2048-bit
 *   keys the tests use;
 * - the self-signed issuer signs with the certificate's own key; the CA issuer signs with the key
 *   of the Secret `spec.ca.secretName`, and writes exactly that CA into `ca.crt` (the self-signed
 *   root is left out of `tls.crt`);
 * - renewal keeps the private key only with `privateKey.rotationPolicy: Never`;
 * - a ClusterIssuer is cluster-wide and reads its CA Secret from the cluster resource namespace
 *   (the controller's `--cluster-resource-namespace`, the namespace its chart installs it in).
 */
import 'reflect-metadata';
import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { parseDuration } from '../lib/model/duration';

const x509: typeof X509 = require('@peculiar/x509');
x509.cryptoProvider.set(webcrypto as any);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** A Secret as cert-manager writes it: the three PEM values. */
export interface IssuedSecret {
  readonly 'tls.crt': string;
  readonly 'tls.key': string;
  readonly 'ca.crt': string;
}

interface KeySpec {
  readonly algorithm: 'RSA' | 'ECDSA';
  readonly size: number;
}

interface HeldKey {
  readonly spec: KeySpec;
  readonly pair: CryptoKeyPair;
  /** The PEM cert-manager writes with the default `encoding: PKCS1` (PKCS#1 for RSA, SEC1 for ECDSA). */
  readonly pem: string;
}

const CURVES: Record<number, string> = { 256: 'P-256', 384: 'P-384', 521: 'P-521' };
const ECDSA_HASH: Record<number, string> = { 256: 'SHA-256', 384: 'SHA-384', 521: 'SHA-512' };

/**
 * Keys are slow to make; every test process shares a pool. No two certificates of one issuer share
 * a key, but two issuers in one process draw the same keys: a test that needs two unrelated CAs
 * issues both from one issuer.
 */
const pool = new Map<string, HeldKey[]>();

async function generate(spec: KeySpec): Promise<HeldKey> {
  const algorithm = spec.algorithm === 'RSA'
    ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: spec.size }
    : { name: 'ECDSA', namedCurve: CURVES[spec.size] };
  const pair = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']) as CryptoKeyPair;
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  const pem = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
    .export({ format: 'pem', type: spec.algorithm === 'RSA' ? 'pkcs1' : 'sec1' }).toString();
  return { spec, pair, pem };
}

/** Signing parameters for a signer's key, as cert-manager's `signatureAlgorithmFromPublicKey` picks them. */
function signingAlgorithm(spec: KeySpec): webcrypto.Algorithm | webcrypto.EcdsaParams | webcrypto.RsaHashedImportParams {
  if (spec.algorithm === 'ECDSA') {
    return { name: 'ECDSA', hash: ECDSA_HASH[spec.size] } as webcrypto.EcdsaParams;
  }
  const hash = spec.size >= 4096 ? 'SHA-512' : spec.size >= 3072 ? 'SHA-384' : 'SHA-256';
  return { name: 'RSASSA-PKCS1-v1_5', hash } as webcrypto.RsaHashedImportParams;
}

/** Go's `pkix.Name.ToRDNSequence` order. */
const SUBJECT_ORDER: readonly [string, string][] = [
  ['countries', 'C'], ['provinces', 'ST'], ['localities', 'L'], ['streetAddresses', 'street'], ['postalCodes', 'postalCode'],
  ['organizations', 'O'], ['organizationalUnits', 'OU'],
];
const OIDS: Record<string, string> = {
  C: '2.5.4.6', ST: '2.5.4.8', L: '2.5.4.7', street: '2.5.4.9', postalCode: '2.5.4.17', O: '2.5.4.10', OU: '2.5.4.11', CN: '2.5.4.3',
};

/** The subject of a Certificate, as GenerateCSR builds it. */
function subjectOf(spec: any): X509.Name {
  const rdns: X509.JsonName = [];
  for (const [field, type] of SUBJECT_ORDER) {
    const values: string[] = spec.subject?.[field] ?? [];
    if (values.length > 0) {
      rdns.push({ [OIDS[type]]: values });
    }
  }
  if (spec.commonName) {
    rdns.push({ [OIDS.CN]: [spec.commonName] });
  }
  return new x509.Name(rdns);
}

const KEY_USAGES: Record<string, number> = {
  'signing': x509.KeyUsageFlags.digitalSignature,
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
};
const EXTENDED_USAGES: Record<string, string> = {
  'server auth': x509.ExtendedKeyUsage.serverAuth,
  'client auth': x509.ExtendedKeyUsage.clientAuth,
  'code signing': x509.ExtendedKeyUsage.codeSigning,
};

/** `KeyUsagesForCertificateOrCertificateRequest`. */
function usagesOf(spec: any): { keyUsage: number; extended: string[] } {
  let keyUsage = spec.isCA ? x509.KeyUsageFlags.keyCertSign : 0;
  const extended: string[] = [];
  const usages: string[] = spec.usages?.length ? spec.usages : ['digital signature', 'key encipherment'];
  for (const usage of usages) {
    if (KEY_USAGES[usage] !== undefined) {
      keyUsage |= KEY_USAGES[usage];
    } else if (EXTENDED_USAGES[usage] !== undefined) {
      extended.push(EXTENDED_USAGES[usage]);
    } else {
      throw new Error(`cert-manager rejects unknown key usage "${usage}"`);
    }
  }
  return { keyUsage, extended };
}

/** A positive serial number of up to 128 random bits, as Go makes one for a template without a serial. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}

/** Everything an issued certificate is: the Secret, and what the CA issuer needs of it. */
interface Issued {
  readonly certificate: X509.X509Certificate;
  readonly key: HeldKey;
  readonly secret: IssuedSecret;
}

/** The key prefix of cluster-wide issuers, which no namespace can take (a namespace is a DNS label). */
const CLUSTER_WIDE = '*';

/** Options of {@link CertManagerIssuer}. */
export interface IssuerOptions {
  /** The time certificates are issued at. @default - now */
  readonly now?: Date;
  /** Where ClusterIssuers' Secrets are read from. @default 'cert-manager' */
  readonly clusterResourceNamespace?: string;
  /**
   * Whether no two certificates in any namespace share a key, as in cert-manager, instead of none
   * in one namespace (the faster default, for tests that issue one namespace per deployment).
   * @default false
   */
  readonly distinctKeysAcrossNamespaces?: boolean;
}

/**
 * The Issuers and Certificates of a set of synthesized objects, and the Secrets cert-manager
 * would write for them. Certificates are issued in the order cert-manager can issue them: a
 * Certificate whose CA Secret does not exist yet waits for the Certificate that writes it.
 */
export class CertManagerIssuer {
  /** Issues every Certificate of `objects`. */
  public static async issueAll(objects: readonly any[], options: IssuerOptions = {}): Promise<CertManagerIssuer> {
    const issuer = new CertManagerIssuer(objects, options.now ?? new Date(), options.clusterResourceNamespace ?? 'cert-manager', options.distinctKeysAcrossNamespaces ?? false);
    const pending = [...issuer.certificates.values()];
    while (pending.length > 0) {
      const ready = pending.findIndex((c) => issuer.canIssue(c));
      if (ready < 0) {
        throw new Error(`cert-manager could never issue ${pending.map((c) => c.metadata.name).join(', ')}: their CA Secrets are never written`);
      }
      const next = pending.splice(ready, 1)[0];
      await issuer.issue(`${next.metadata.namespace}/${next.metadata.name}`);
    }
    return issuer;
  }

  private issuers = new Map<string, any>();
  private certificates = new Map<string, any>();
  /** The spec each Certificate was last issued with, by Certificate key. */
  private readonly issuedSpecs = new Map<string, string>();
  private readonly issued = new Map<string, Issued>();
  private readonly usedKeys = new Map<string, number>();

  private constructor(objects: readonly any[], private now: Date, private readonly clusterResourceNamespace = 'cert-manager', private readonly distinctKeys = false) {
    for (const o of objects) {
      if (o.apiVersion !== 'cert-manager.io/v1') {
        continue;
      }
      const key = `${o.metadata.namespace}/${o.metadata.name}`;
      if (o.kind === 'Issuer') {
        this.issuers.set(key, o);
      } else if (o.kind === 'ClusterIssuer') {
        this.issuers.set(`${CLUSTER_WIDE}/${o.metadata.name}`, o);
      } else if (o.kind === 'Certificate') {
        this.certificates.set(key, o);
      }
    }
  }

  /** The Secrets written so far, by `namespace/name`. */
  public get secrets(): ReadonlyMap<string, IssuedSecret> {
    const out = new Map<string, IssuedSecret>();
    for (const [name, issued] of this.issued) {
      out.set(name, issued.secret);
    }
    return out;
  }

  /** One written Secret. */
  public secret(namespace: string, name: string): IssuedSecret {
    const found = this.issued.get(`${namespace}/${name}`);
    if (!found) {
      throw new Error(`cert-manager has written no Secret ${namespace}/${name}`);
    }
    return found.secret;
  }

  /** Moves the clock, for renewals. */
  public advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }

  /**
   * Issues (or renews) the Certificate named `namespace/name` and rewrites its whole Secret, as
   * cert-manager does. The key is kept only with `rotationPolicy: Never`.
   */
  public async issue(certificateKey: string): Promise<IssuedSecret> {
    const cert = this.certificates.get(certificateKey);
    if (!cert) {
      throw new Error(`no Certificate ${certificateKey}`);
    }
    const { namespace } = cert.metadata;
    const spec = cert.spec;
    const secretKey = `${namespace}/${spec.secretName}`;
    const previous = this.issued.get(secretKey);
    const keySpec = this.keySpecOf(spec);
    const key = previous && spec.privateKey?.rotationPolicy === 'Never' ? previous.key : await this.freshKey(keySpec, namespace);

    const issuerRef = spec.issuerRef;
    if (!['Issuer', 'ClusterIssuer'].includes(issuerRef.kind ?? 'Issuer') || (issuerRef.group ?? 'cert-manager.io') !== 'cert-manager.io') {
      throw new Error(`Certificate ${certificateKey}: issuerRef ${JSON.stringify(issuerRef)} is not a cert-manager Issuer or ClusterIssuer`);
    }
    const { object: issuerObject, secretNamespace } = this.issuerOf(cert);
    if (!issuerObject) {
      throw new Error(`Certificate ${certificateKey}: no ${issuerRef.kind ?? 'Issuer'} ${issuerRef.name}`);
    }
    const subject = subjectOf(spec);
    let signer: { name: X509.Name; key: HeldKey; subjectKeyId?: string; caPem: string } | undefined;
    if (issuerObject.spec.ca) {
      const ca = this.issued.get(`${secretNamespace}/${issuerObject.spec.ca.secretName}`);
      if (!ca) {
        throw new Error(`Issuer ${issuerRef.name}: its CA Secret ${issuerObject.spec.ca.secretName} does not exist`);
      }
      const skid = ca.certificate.getExtension(x509.SubjectKeyIdentifierExtension);
      signer = { name: new x509.Name(ca.certificate.subjectName.toArrayBuffer()), key: ca.key, subjectKeyId: skid?.keyId, caPem: ca.certificate.toString('pem') };
    } else if (!issuerObject.spec.selfSigned) {
      throw new Error(`Issuer ${issuerRef.name}: neither selfSigned nor ca`);
    }

    const isCa = spec.isCA === true;
    const { keyUsage, extended } = usagesOf(spec);
    const subjectKeyId = isCa ? await x509.SubjectKeyIdentifierExtension.create(key.pair.publicKey) : undefined;
    const issuerName = signer?.name ?? subject;
    const sameName = Buffer.from(issuerName.toArrayBuffer()).equals(Buffer.from(subject.toArrayBuffer()));
    const parentKeyId = signer ? signer.subjectKeyId : subjectKeyId?.keyId;
    const sans = [
      ...(spec.dnsNames ?? []).map((value: string) => ({ type: 'dns' as const, value })),
      ...(spec.ipAddresses ?? []).map((value: string) => ({ type: 'ip' as const, value })),
    ];
    const notBefore = this.now;
    const notAfter = new Date(notBefore.getTime() + (parseDuration(spec.duration ?? '2160h') as number));
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject,
      issuer: issuerName,
      notBefore,
      notAfter,
      publicKey: key.pair.publicKey,
      signingKey: (signer?.key ?? key).pair.privateKey,
      signingAlgorithm: signingAlgorithm((signer?.key ?? key).spec),
      extensions: [
        ...(keyUsage !== 0 ? [new x509.KeyUsagesExtension(keyUsage, true)] : []),
        ...(extended.length > 0 ? [new x509.ExtendedKeyUsageExtension(extended)] : []),
        new x509.BasicConstraintsExtension(isCa, undefined, true),
        ...(subjectKeyId ? [subjectKeyId] : []),
        ...(!sameName && parentKeyId ? [new x509.AuthorityKeyIdentifierExtension(parentKeyId)] : []),
        ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans, subject.toArrayBuffer().byteLength <= 2)] : []),
      ],
    });
    const pem = certificate.toString('pem');
    const secret: IssuedSecret = { 'tls.crt': `${pem}\n`, 'tls.key': key.pem, 'ca.crt': `${signer ? signer.caPem : pem}\n` };
    this.issued.set(secretKey, { certificate, key, secret });
    this.issuedSpecs.set(certificateKey, JSON.stringify(spec));
    return secret;
  }

  /**
   * Applies a new set of objects, as a GitOps sync does (Certificates and Issuers no longer in the
   * set are gone; their Secrets stay), and issues what cert-manager then issues: every Certificate
   * whose Secret it has not written, whose spec changed, or that was absent from the last set (a
   * Certificate given back after a while out of its hands is issued anew, the more disruptive of
   * what cert-manager may do). An Issuer's change alone re-issues nothing, as in cert-manager.
   * @returns the Secrets written, by `namespace/name`
   */
  public async apply(objects: readonly any[]): Promise<Map<string, IssuedSecret>> {
    const before = new Set(this.certificates.keys());
    const next = new CertManagerIssuer(objects, this.now, this.clusterResourceNamespace, this.distinctKeys);
    this.issuers = next.issuers;
    this.certificates = next.certificates;
    const pending = [...this.certificates.entries()]
      .filter(([key, c]) => !before.has(key) || this.issuedSpecs.get(key) !== JSON.stringify(c.spec)
        || !this.issued.has(`${c.metadata.namespace}/${c.spec.secretName}`))
      .map(([, c]) => c);
    const written = new Map<string, IssuedSecret>();
    while (pending.length > 0) {
      const ready = pending.findIndex((c) => this.canIssue(c));
      if (ready < 0) {
        throw new Error(`cert-manager could never issue ${pending.map((c) => c.metadata.name).join(', ')}: their CA Secrets are never written`);
      }
      const c = pending.splice(ready, 1)[0];
      written.set(`${c.metadata.namespace}/${c.spec.secretName}`, await this.issue(`${c.metadata.namespace}/${c.metadata.name}`));
    }
    return written;
  }

  /** Forgets a Secret, as when it is deleted: its Certificate is issued anew, with a new key, at the next {@link apply}. */
  public deleteSecret(namespace: string, name: string): void {
    this.issued.delete(`${namespace}/${name}`);
  }

  private canIssue(cert: any): boolean {
    const { object, secretNamespace } = this.issuerOf(cert);
    return !object?.spec.ca || this.issued.has(`${secretNamespace}/${object.spec.ca.secretName}`);
  }

  /** A Certificate's issuer object, and the namespace its CA Secret is read from. */
  private issuerOf(cert: any): { object: any; secretNamespace: string } {
    const ref = cert.spec.issuerRef;
    return ref.kind === 'ClusterIssuer'
      ? { object: this.issuers.get(`${CLUSTER_WIDE}/${ref.name}`), secretNamespace: this.clusterResourceNamespace }
      : { object: this.issuers.get(`${cert.metadata.namespace}/${ref.name}`), secretNamespace: cert.metadata.namespace };
  }

  private keySpecOf(spec: any): KeySpec {
    const algorithm = spec.privateKey?.algorithm ?? 'RSA';
    if (algorithm !== 'RSA' && algorithm !== 'ECDSA') {
      throw new Error(`the in-test issuer makes RSA and ECDSA keys, not ${algorithm}`);
    }
    return { algorithm, size: spec.privateKey?.size ?? (algorithm === 'RSA' ? 2048 : 256) };
  }

  /** A key from the pool that no other certificate of this namespace (or, with distinct keys, of any namespace) holds. */
  private async freshKey(spec: KeySpec, namespace: string): Promise<HeldKey> {
    const kind = `${spec.algorithm}-${spec.size}`;
    const counter = this.distinctKeys ? kind : `${namespace}/${kind}`;
    const index = this.usedKeys.get(counter) ?? 0;
    this.usedKeys.set(counter, index + 1);
    const keys = pool.get(kind) ?? [];
    pool.set(kind, keys);
    while (keys.length <= index) {
      keys.push(await generate(spec));
    }
    return keys[index];
  }
}
