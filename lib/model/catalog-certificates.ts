/**
 * The certificates of the specification as data: the keys of a certificate-set Secret, the
 * addresses, lifetimes, key sizes and usages of every certificate, and the cfssl profiles that
 * sign them. The renderers in `certificates/` read them; nothing here depends on a component.
 */

/** The three data keys of every certificate-set Secret. */
export const SECRET_KEYS = {
  /** The certificate (PEM). */
  certificate: 'tls.crt',
  /** The certificate's private key (PEM). */
  privateKey: 'tls.key',
  /** The certificate of the CA that signed it; during a rotation, the certificates of every CA to trust (PEM). */
  ca: 'ca.crt',
} as const;

/** IP addresses on every server certificate, in this order. */
export const SERVER_IP_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];

/** Validity periods and renewal windows of the specification's Limits table. */
export const VALIDITY = {
  /** CA validity. */
  caDuration: '87600h',
  /** Renewal of the CA starts this long before it expires. */
  caRenewBefore: '720h',
  /** Validity of server and client certificates. */
  leafDuration: '8760h',
  /** Renewal of a server or client certificate starts this long before it expires. */
  leafRenewBefore: '360h',
} as const;

/** The default size of every RSA key. */
export const DEFAULT_KEY = {
  /** The key size, in bits. */
  size: 2048,
} as const;

/** The CA key of the command-line method (the specification's Limits table): RSA, 2048 bits. */
export const CFSSL_CA_KEY = {
  /** The key algorithm, as cfssl spells it. */
  algo: 'rsa',
  /** The key size, in bits. */
  size: 2048,
} as const;

/** Extended key usages by certificate role. */
export const USAGES = {
  /** Server certificates (cert-manager spelling). */
  server: ['server auth', 'client auth'],
  /** The shared client certificate. */
  client: ['client auth'],
} as const;

/**
 * The cfssl signing profiles of `ca-config.json` (specification, section A): their names, and the
 * key usages cfssl puts before the extended key usages of {@link USAGES}.
 */
export const CFSSL_PROFILES = {
  /** Server certificates. */
  server: 'internal',
  /** The shared client certificate. */
  client: 'client',
  /** Key usages of both profiles, before the extended ones. */
  baseUsages: ['signing', 'key encipherment'],
} as const;
