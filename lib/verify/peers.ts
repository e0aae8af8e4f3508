/**
 * What the handshake checks share, within a plan (`handshake`) and across the outputs of a span
 * (`across`): which Secrets serve as peers, and the material a handshake loads from a Secret.
 */
import { SECRET_KEYS } from '../model/catalog';
import type { TlsMaterial } from './handshake';
import type { SecretData } from './input';

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
