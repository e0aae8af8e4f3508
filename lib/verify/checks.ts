/**
 * The checks of `cluster-tls verify` by name: the order they run and are reported in, what each
 * makes sure of, and the outcome of one check of one Secret. Every module of the verify folder
 * reads them from here.
 */
import { ENABLEMENT_CHECK, LOADED_CHECK, ROLLED_CHECK, ROTATION_CHECK } from '../model/verify-report';
import { SQL_CA_CHECK } from './sql';

/** The checks of the Secrets, in the order they are run and reported. Their names are stable (`--json`). */
export const CHECKS = [
  'present', 'keys', 'subject', 'chain', 'same-ca', 'key-match', 'san', 'usage', 'common-name', 'validity', 'renewal', 'ca-lifetime',
  'expiry', 'key-strength', ROTATION_CHECK, ENABLEMENT_CHECK, SQL_CA_CHECK, 'handshake',
] as const;

/**
 * The checks of what the pods loaded, run after {@link CHECKS} only when the input holds Pods
 * (`kubectl get secrets,pods`): `loaded` (see `loaded.ts`). Kept apart from `CHECKS`, which lists
 * what every input is checked for.
 */
export const POD_CHECKS = [ROLLED_CHECK, LOADED_CHECK] as const;

/**
 * The checks of a span's outputs against each other, run last and only when `cluster-tls verify`
 * is given the outputs of several Kubernetes clusters of one span (`across.ts`).
 */
export const SPAN_CHECKS = ['across'] as const;

/** The name of one check. */
export type CheckName = (typeof CHECKS)[number] | (typeof POD_CHECKS)[number] | (typeof SPAN_CHECKS)[number];

/** What each check makes sure of, in a few words, as `cluster-tls verify --help` lists them. */
export const CHECK_DESCRIPTIONS: Readonly<Record<CheckName, string>> = {
  'present': 'the Secret exists',
  'keys': 'exactly tls.crt, tls.key and ca.crt (a Secret you create: at least those, each of which parses)',
  'subject': 'the certificate\'s subject differs from its CA\'s (OpenSSL reads a match as self-signed)',
  'chain': 'tls.crt verifies against ca.crt, as OpenSSL verifies it',
  'same-ca': 'one CA for every Secret of a cluster',
  'key-match': 'tls.key is the key of tls.crt',
  'san': 'the host names and IP addresses of the plan',
  'usage': 'the extended key usages of the plan',
  'common-name': 'the Common Name, in every allowed list that checks it',
  'validity': 'tls.crt and ca.crt valid now (or at --now)',
  'renewal': 'neither tls.crt nor ca.crt inside its renewal window of the plan (ca.crt: the library\'s CA only)',
  'ca-lifetime': 'tls.crt expires no later than ca.crt',
  'expiry': 'with --min-days: nothing expires within that many days',
  'key-strength': 'the key algorithm and size of the plan (ca.crt: the library\'s CA only)',
  'rotation': 'during a rotation: the phase\'s CAs in ca.crt, and the phase\'s signer',
  'enablement': 'while TLS is turned on in place: the phase\'s allowed lists',
  'sql-ca': 'TLS for MySQL clients: its CA is not the cluster\'s',
  'handshake': 'real mutual TLS handshakes with the other Secrets of the set',
  'rolled': 'with pods, once TLS is on in place: every pod of the component mounts its Secret',
  'loaded': 'with pods: every pod that mounts the Secret started after its last write',
  'across': 'with the outputs of several Kubernetes clusters of one span: real mutual handshakes with the other clusters\' Secrets, by the server\'s own domain',
};

/**
 * The outcome of one check of one Secret.
 * @jsii ignore
 */
export interface CheckResult {
  /** Which check. */
  readonly check: CheckName;
  /** Whether it passed. */
  readonly ok: boolean;
  /** What the plan and the components need. */
  readonly expected: string;
  /** What the Secret holds. */
  readonly found: string;
}

/**
 * One check's outcome.
 * @internal
 */
export function result(check: CheckName, ok: boolean, expected: string, found: string): CheckResult {
  return { check, ok, expected, found };
}
