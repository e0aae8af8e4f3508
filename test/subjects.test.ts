import { Testing } from 'cdk8s';
import { CertificateSettings, IssuingMethod, KeyAlgorithm, KeyRotationPolicy } from '../lib/plan/certificate-options';
import { caSubject, formatDistinguishedName, leafSubject, requireDistinctSubjects, sameDistinguishedName } from '../lib/plan/subjects';

const KEY = { algorithm: KeyAlgorithm.RSA, size: 2048, rotationPolicy: KeyRotationPolicy.ALWAYS };

function settings(subject: CertificateSettings['subject'], commonName = 'basic'): CertificateSettings {
  return {
    clusterName: 'basic', namespace: 'demo', commonName, subject, privateKey: KEY, caPrivateKey: KEY,
    caDuration: '87600h', caRenewBefore: '720h', duration: '8760h', renewBefore: '360h',
  };
}

const FULL = settings({ organization: 'demo', organizationalUnit: 'databases', country: 'US', state: 'California', locality: 'San Francisco' });

describe('subjects follow the spec\'s shapes', () => {
  test('cert-manager: the CA carries its Common Name alone; certificates the subject fields in Go\'s order, then the CN', () => {
    expect(formatDistinguishedName(caSubject(FULL, IssuingMethod.CERT_MANAGER))).toBe('CN=basic');
    expect(formatDistinguishedName(leafSubject(FULL, IssuingMethod.CERT_MANAGER)))
      .toBe('C=US, ST=California, L=San Francisco, O=demo, OU=databases, CN=basic');
  });

  test('cfssl: the CA carries names and CN; certificates their CN alone', () => {
    expect(formatDistinguishedName(caSubject(FULL, IssuingMethod.CFSSL)))
      .toBe('C=US, ST=California, L=San Francisco, O=demo, OU=databases, CN=basic');
    expect(formatDistinguishedName(leafSubject(FULL, IssuingMethod.CFSSL))).toBe('CN=basic');
  });

  test.each(Object.values(IssuingMethod))('%s: no certificate carries the CA\'s subject', (method) => {
    expect(sameDistinguishedName(caSubject(FULL, method), leafSubject(FULL, method))).toBe(false);
    expect(() => requireDistinctSubjects(Testing.chart(), FULL, method)).not.toThrow();
  });
});

describe('names are compared as OpenSSL compares them', () => {
  test('case and runs of spaces do not make two names different', () => {
    expect(sameDistinguishedName([{ type: 'O', value: 'Demo  Inc' }], [{ type: 'O', value: 'demo inc' }])).toBe(true);
    expect(sameDistinguishedName([{ type: 'O', value: 'demo' }], [{ type: 'OU', value: 'demo' }])).toBe(false);
    // OpenSSL folds ASCII case only
    expect(sameDistinguishedName([{ type: 'O', value: 'ÄRZTE' }], [{ type: 'O', value: 'ärzte' }])).toBe(false);
    expect(sameDistinguishedName([{ type: 'CN', value: 'basic' }], [{ type: 'O', value: 'x' }, { type: 'CN', value: 'basic' }])).toBe(false);
  });
});

test('settings under which a certificate would carry its CA\'s subject are refused with one line', () => {
  // Unreachable through the props (the organization is never empty), so the guard is tested alone.
  const bare = settings({} as CertificateSettings['subject']);
  expect(() => requireDistinctSubjects(Testing.chart(), bare, IssuingMethod.CERT_MANAGER))
    .toThrow(/: subject: received "CN=basic"; expected a certificate subject other than the CA's \(CN=basic\): OpenSSL takes a certificate whose subject equals its issuer's for self-signed and rejects every handshake; set subject.organization$/);
});
