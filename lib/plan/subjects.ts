/**
 * The subjects (distinguished names) of the CA and of the certificates it signs, per issuing
 * method, following the shapes of the specification:
 *
 * | | CA | server and client certificates |
 * |---|---|---|
 * | cert-manager | `commonName` only | `subject` (organization first of all) and `commonName` |
 * | cfssl | `CN` and `names` (C, ST, L, O, OU) | `CN` only |
 *
 * A certificate whose subject equals its issuer's is self-issued: OpenSSL then looks for it among
 * the trusted certificates and rejects every handshake with "self-signed certificate". The shapes
 * above keep the two different by construction; {@link requireDistinctSubjects} refuses any
 * settings under which they would still be equal, before anything is written.
 */
import { IConstruct } from 'constructs';
import type { CertificateSettings, CertificateSubject } from './certificate-options';
import { IssuingMethod } from './certificate-options';
import { inputError } from '../model/errors';

/** The attribute types the library writes, as OpenSSL abbreviates them. */
export type AttributeType = 'C' | 'ST' | 'L' | 'O' | 'OU' | 'CN';

/** One attribute of a distinguished name. */
export interface SubjectAttribute {
  readonly type: AttributeType;
  readonly value: string;
}

/** A distinguished name, in the order the certificate encodes it (Go's and cfssl's: C, ST, L, O, OU, CN). */
export type DistinguishedName = readonly SubjectAttribute[];

/** The subject props in encoding order, with the attribute each becomes. */
const SUBJECT_FIELDS: readonly [keyof CertificateSubject, AttributeType][] = [
  ['country', 'C'], ['state', 'ST'], ['locality', 'L'], ['organization', 'O'], ['organizationalUnit', 'OU'],
];

/** The attributes of the `subject` props that are set, in encoding order. */
export function subjectAttributes(subject: CertificateSubject): SubjectAttribute[] {
  return SUBJECT_FIELDS
    .filter(([field]) => subject[field] !== undefined)
    .map(([field, type]) => ({ type, value: subject[field]! }));
}

/** The subject of the CA of a cluster issued with `method`. */
export function caSubject(settings: CertificateSettings, method: IssuingMethod): DistinguishedName {
  const cn: SubjectAttribute = { type: 'CN', value: settings.commonName };
  return method === IssuingMethod.CFSSL ? [...subjectAttributes(settings.subject), cn] : [cn];
}

/** The subject of every server and client certificate of a cluster issued with `method`. */
export function leafSubject(settings: CertificateSettings, method: IssuingMethod): DistinguishedName {
  const cn: SubjectAttribute = { type: 'CN', value: settings.commonName };
  return method === IssuingMethod.CFSSL ? [cn] : [...subjectAttributes(settings.subject), cn];
}

/** `C=US, O=demo, CN=basic`. */
export function formatDistinguishedName(name: DistinguishedName): string {
  return name.map((a) => `${a.type}=${a.value}`).join(', ');
}

/**
 * A value as OpenSSL's canonical name encoding compares it: ASCII letters folded to lower case,
 * leading and trailing spaces dropped, runs of spaces collapsed; other characters as they are.
 */
function canonical(value: string): string {
  return value.trim().replace(/\s+/g, ' ').replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whether two names are the same name to OpenSSL's name comparison. */
export function sameDistinguishedName(a: DistinguishedName, b: DistinguishedName): boolean {
  return a.length === b.length && a.every((attr, i) => attr.type === b[i].type && canonical(attr.value) === canonical(b[i].value));
}

/**
 * Throws unless the certificates the CA signs carry a subject other than the CA's, which OpenSSL
 * would take for a self-signed certificate and reject.
 */
export function requireDistinctSubjects(scope: IConstruct, settings: CertificateSettings, method: IssuingMethod): void {
  const ca = caSubject(settings, method);
  const leaf = leafSubject(settings, method);
  if (sameDistinguishedName(ca, leaf)) {
    inputError(scope, 'subject', formatDistinguishedName(leaf),
      `a certificate subject other than the CA's (${formatDistinguishedName(ca)}): OpenSSL takes a certificate whose subject equals its issuer's for self-signed and rejects every handshake; set subject.organization`);
  }
}
