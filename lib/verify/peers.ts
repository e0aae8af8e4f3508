/**
 * What the checks of one output (`verify.ts`) and those across a span's outputs (`across.ts`)
 * share: finding a Secret of the input, which Secrets serve as peers in the handshakes, the
 * material a handshake loads from a Secret, and how the handshakes' outcome is told.
 */
import { SECRET_KEYS } from '../model/catalog-certificates';
import type { TlsMaterial } from './handshake';
import type { SecretData } from './input';

/** A Secret by name in a namespace (any, when the input names none). */
export function findSecret(secrets: readonly SecretData[], name: string, namespace: string): SecretData | undefined {
  return secrets.find((s) => s.name === name && (s.namespace === undefined || s.namespace === namespace));
}

/** The checks a Secret must pass to serve as a peer in the handshakes of the others. */
const PEER_CHECKS: readonly string[] = ['chain', 'same-ca', 'key-match', 'usage'];

/** Whether a Secret got as far as its chain check, which the handshakes need its material parsed for. */
export function shakesHands(checks: readonly { readonly check: string }[]): boolean {
  return checks.some((r) => r.check === 'chain');
}

/** Whether a Secret with these checks serves as a peer: its chain was checked and every check a peer needs passed. */
export function isPeer(checks: readonly { readonly check: string; readonly ok: boolean }[]): boolean {
  return shakesHands(checks) && checks.every((r) => r.ok || !PEER_CHECKS.includes(r.check));
}

/** A Secret's certificate, key and CA, as a handshake loads them. */
export function tlsMaterial(secret: SecretData): TlsMaterial {
  const pem = (key: string) => secret.data[key].toString('utf8');
  return { cert: pem(SECRET_KEYS.certificate), key: pem(SECRET_KEYS.privateKey), ca: pem(SECRET_KEYS.ca) };
}

/** What a handshake check found: how many it tried and, when some were rejected, the first two of them. */
export function handshakesFound(tried: number, failures: readonly string[], none: string): string {
  return tried === 0 ? none
    : failures.length === 0 ? `${tried} handshakes, all accepted`
    : `${failures.length} of ${tried} rejected: ${failures.slice(0, 2).join('; ')}${failures.length > 2 ? '; …' : ''}`;
}
