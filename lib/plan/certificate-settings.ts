/** Resolution and checks of the props of `ClusterCertificates`: keys, validity, Secret names. */
import { Construct } from 'constructs';
import {
  CertificateSettings, CertificateSubject, ExtraNames, IssuingMethod, KeyAlgorithm, KeyRotationPolicy, PrivateKeyOptions, ProvidedSecretNames,
} from './certificate-options';
import { ClusterKind, isComponentToken } from '../model/catalog';
import { CFSSL_CA_KEY, DEFAULT_KEY, VALIDITY } from '../model/catalog-certificates';
import { DurationValue, durationHours, durationText, formatDuration, parseDuration } from '../model/duration';
import { LifetimeBreak, LifetimeField, lifetimeBreaks } from '../model/lifetimes';
import { inputError } from '../model/errors';
import * as names from '../model/names';
import { PropShape, ShapeOf, checkProps } from '../model/props';
import { requireSubjectText } from '../model/validate';
import { RotationKind } from './rotation';

/** The upper bounds of the X.509 subject attributes (RFC 5280, appendix A). */
const SUBJECT_LIMITS: Readonly<Record<keyof CertificateSubject, number>> = {
  organization: 64, organizationalUnit: 64, locality: 128, state: 128, country: 2,
};

/** The subject props (their types checked by the props shape) with the organization defaulted to the cluster name, each field checked. */
export function resolveSubject(scope: Construct, subject: CertificateSubject | undefined, clusterName: string): CertificateSettings['subject'] {
  for (const [field, limit] of Object.entries(SUBJECT_LIMITS) as [keyof CertificateSubject, number][]) {
    const value = subject?.[field];
    if (value === undefined) {
      continue;
    }
    if (field === 'country') {
      if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) {
        inputError(scope, 'subject.country', value, 'a two-letter ISO 3166 country code in capitals, such as "US" (X.509 allows two characters)');
      }
    } else {
      requireSubjectText(scope, `subject.${field}`, value, limit);
    }
  }
  return { ...subject, organization: subject?.organization ?? clusterName };
}

/** The validity props. */
export interface ValidityProps {
  /** CA validity. */
  readonly caDuration?: DurationValue;
  /** How long before the CA expires it is renewed. */
  readonly caRenewBefore?: DurationValue;
  /** Server and client certificate validity. */
  readonly duration?: DurationValue;
  /** How long before a server or client certificate expires it is renewed. */
  readonly renewBefore?: DurationValue;
}

/**
 * Secret names stated with the user-provided method must be the names the operator loads; they
 * make no sense with the methods that create the Secrets themselves.
 */
export function checkSecretNames(scope: Construct & { readonly clusterName: string }, method: IssuingMethod, secretNames?: ProvidedSecretNames): void {
  if (secretNames === undefined) {
    return;
  }
  if (method !== IssuingMethod.USER_PROVIDED) {
    inputError(scope, 'secretNames', secretNames,
      `no secretNames with method "${method}", which creates the Secrets under their required names; secretNames goes with method "${IssuingMethod.USER_PROVIDED}"`);
  }
  const expectName = (field: string, received: unknown, expected: string) => {
    if (received !== expected) {
      inputError(scope, field, received, `"${expected}" (the operator only loads Secrets with this name; the deployment fails without it)`);
    }
  };
  for (const [token, name] of Object.entries(secretNames.servers ?? {})) {
    if (!isComponentToken(token)) {
      inputError(scope, 'secretNames.servers', token, 'a component token');
    }
    expectName(`secretNames.servers.${token}`, name, names.serverSecretName(scope.clusterName, token));
  }
  for (const [kind, name] of Object.entries(secretNames.clients ?? {})) {
    if (!Object.values<string>(ClusterKind).includes(kind)) {
      inputError(scope, 'secretNames.clients', kind, `a cluster kind: ${Object.values(ClusterKind).map((k) => `"${k}"`).join(' or ')}`);
    }
    expectName(`secretNames.clients.${kind}`, name, names.clientSecretName(scope.clusterName, kind as ClusterKind));
  }
}

/** Checks the extra DNS names and IP addresses of one component. */
export function checkExtraNames(scope: Construct, field: string, extra: ExtraNames,
  shape: PropShape = EXTRA_NAMES_SHAPE): void {
  checkProps(scope, extra, shape, `${field}.`);
}

/** The props of the extra names of one server certificate: each a DNS name for a certificate, or an IP address. */
export const EXTRA_NAMES_SHAPE = {
  extraDnsNames: { type: 'list', optional: true, rule: 'certificateDnsName' },
  extraIpAddresses: { type: 'list', optional: true, rule: 'ipAddress' },
} satisfies ShapeOf<ExtraNames>;

/** The options of one server certificate. */
export const SERVER_OPTIONS_SHAPE: PropShape = { ...EXTRA_NAMES_SHAPE, releaseName: 'string?', drainerName: 'string?' };

/** The keys of the certificates and of the CA, with their defaults. */
export function resolveKeys(scope: Construct, method: IssuingMethod, key: PrivateKeyOptions | undefined, caRotation: KeyRotationPolicy | undefined): Pick<CertificateSettings, 'privateKey' | 'caPrivateKey'> {
  const privateKey = resolvePrivateKey(scope, key);
  const rotationPolicy = caRotation ?? KeyRotationPolicy.NEVER;
  if (!Object.values(KeyRotationPolicy).includes(rotationPolicy)) {
    inputError(scope, 'caKeyRotationPolicy', caRotation, `one of ${Object.values(KeyRotationPolicy).map((p) => `"${p}"`).join(', ')}`);
  }
  if (rotationPolicy === KeyRotationPolicy.ALWAYS) {
    inputError(scope, 'caKeyRotationPolicy', caRotation, `"${KeyRotationPolicy.NEVER}": a CA renewed with a new key is an outage (certificates issued before `
      + 'the renewal stop chaining to the ca.crt of those issued after it, and pods that restart in between reject their peers); to replace the CA key, '
      + `declare a rotation of kind "${RotationKind.CA_REPLACEMENT}", whose three phases keep every connection up`);
  }
  const caPrivateKey = method === IssuingMethod.CFSSL
    ? { algorithm: KeyAlgorithm.RSA, size: CFSSL_CA_KEY.size, rotationPolicy }
    : { ...privateKey, rotationPolicy };
  return { privateKey, caPrivateKey };
}

function resolvePrivateKey(scope: Construct, key: PrivateKeyOptions = {}): CertificateSettings['privateKey'] {
  const algorithm = key.algorithm ?? KeyAlgorithm.RSA;
  const rotationPolicy = key.rotationPolicy ?? KeyRotationPolicy.ALWAYS;
  switch (algorithm) {
    case KeyAlgorithm.RSA: {
      const size = key.size ?? DEFAULT_KEY.size;
      if (!Number.isInteger(size) || size < 2048 || size > 8192) {
        inputError(scope, 'privateKey.size', key.size, 'an RSA key size from 2048 to 8192 bits');
      }
      return { algorithm, size, rotationPolicy };
    }
    case KeyAlgorithm.ECDSA: {
      const size = key.size ?? 256;
      if (![256, 384, 521].includes(size)) {
        inputError(scope, 'privateKey.size', key.size, 'an ECDSA key size of 256, 384 or 521 bits');
      }
      return { algorithm, size, rotationPolicy };
    }
    case KeyAlgorithm.ED25519:
      if (key.size !== undefined) {
        inputError(scope, 'privateKey.size', key.size, 'no size for Ed25519 keys');
      }
      return { algorithm, rotationPolicy };
    default:
      return inputError(scope, 'privateKey.algorithm', algorithm, `one of ${Object.values(KeyAlgorithm).join(', ')}`);
  }
}

/**
 * Resolves the validity props with their defaults and refuses, one line each, a window not shorter
 * than its certificate, a leaf that outlives its CA or does not nest in it (`leafRoom`) and,
 * with cert-manager, what its webhook refuses. With an issuer of the user's (`issuerOfUser`) the CA
 * is not the library's, and only the leaves' own settings are checked.
 */
export function resolveValidity(scope: Construct, props: ValidityProps, method: IssuingMethod, issuerOfUser = false) {
  const v = {
    caDuration: durationText(props.caDuration ?? VALIDITY.caDuration),
    caRenewBefore: durationText(props.caRenewBefore ?? VALIDITY.caRenewBefore),
    duration: durationText(props.duration ?? VALIDITY.leafDuration),
    renewBefore: durationText(props.renewBefore ?? VALIDITY.leafRenewBefore),
  };
  // Each a Go duration, by the props' shape or the catalog.
  const ms = {
    caDuration: parseDuration(v.caDuration)!,
    caRenewBefore: parseDuration(v.caRenewBefore)!,
    duration: parseDuration(v.duration)!,
    renewBefore: parseDuration(v.renewBefore)!,
  };
  // The CA of an issuer of the user's is not the library's: only the leaves' own settings are judged.
  const judged = issuerOfUser ? { duration: ms.duration, renewBefore: ms.renewBefore } : ms;
  const broken = lifetimeBreaks(judged, { certManager: method === IssuingMethod.CERT_MANAGER, nesting: !issuerOfUser })[0];
  if (broken !== undefined) {
    validityError(scope, broken, v, ms);
  }
  return v;
}

/** The one-line error of the first lifetime rule the props break, naming the prop to change. */
function validityError(scope: Construct, broken: LifetimeBreak, v: Record<LifetimeField, string>, ms: Record<LifetimeField, number>): never {
  switch (broken.rule) {
    case 'minimum':
      return inputError(scope, broken.field, v[broken.field], `at least ${broken.minimum}: cert-manager's webhook refuses less (its minimum, v1.21)`);
    case 'window': {
      const certificate = broken.field === 'caRenewBefore' ? 'caDuration' : 'duration';
      return inputError(scope, broken.field, v[broken.field], `a window shorter than ${certificate} (${v[certificate]})`);
    }
    case 'outlives-ca': {
      const hours = `${durationHours(ms.caDuration)}h`;
      return inputError(scope, 'duration', v.duration,
        `a validity shorter than the CA's (${v.caDuration}${v.caDuration === hours ? '' : ` = ${hours}`}), so that no certificate outlives the CA that signs it`);
    }
    case 'nesting': {
      const why = 'a leaf issued with its CA must end, with its own renewal window, before the CA\'s renewal window opens, which stays free for rotating the CA';
      // When no leaf the other rules accept would fit, a shorter leaf is no answer: the CA is too short.
      if (broken.caTooShort) {
        return inputError(scope, 'caDuration', v.caDuration,
          `at least ${formatDuration(ms.duration + ms.renewBefore + ms.caRenewBefore)} (duration ${v.duration} + renewBefore ${v.renewBefore} + caRenewBefore ${v.caRenewBefore}): ${why}`);
      }
      return inputError(scope, 'duration', v.duration, `at most ${formatDuration(broken.room)} (caDuration ${v.caDuration} - caRenewBefore ${v.caRenewBefore} - renewBefore ${v.renewBefore}): ${why}`);
    }
  }
}
