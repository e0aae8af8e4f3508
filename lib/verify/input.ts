/// <reference types="node" preserve="true" />
/**
 * The Secrets `cluster-tls verify` checks, as `kubectl get secrets -o json` prints them, and the
 * error of input it cannot read. The plans it checks them against are read by `plans.ts`.
 */
import { ClusterTlsError, inputErrorMessage } from '../spec/errors';
import { brief, oneLine } from './text';

/**
 * Input that `cluster-tls verify` cannot read: a file that is not JSON, not Secrets, base64 that
 * does not decode, a PEM that does not parse, a missing or malformed plan. The message is one
 * line: where, what was received, what is expected.
 */
export class VerifyInputError extends ClusterTlsError {
  constructor(where: string, field: string, received: unknown, expected: string) {
    super(inputErrorMessage(where, field, received, expected));
    this.name = 'VerifyInputError';
  }
}

/** One Secret of the input, with its data decoded. */
export interface SecretData {
  /** `metadata.name`. */
  readonly name: string;
  /** `metadata.namespace`, when the input carries it. */
  readonly namespace?: string;
  /** `type`, when the input carries it. */
  readonly type?: string;
  /** The data, decoded from base64 (and `stringData`, when present, as the API server merges it). */
  readonly data: Readonly<Record<string, Buffer>>;
  /** The input the Secret was read from, for messages: a file name or `standard input`. */
  readonly source: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KUBECTL_HINT = 'the output of kubectl get secrets -n <namespace> -o json (a List of Secrets, or one Secret)';

/**
 * Parses the Secrets input: a `List` (or `SecretList`) of Secrets, or a single Secret. `source`
 * names the input in messages (a file name, or `standard input`).
 * @throws VerifyInputError when the text is not JSON, not Secrets, or holds data that is not base64
 */
export function parseSecrets(text: string, source = 'secrets'): SecretData[] {
  let doc: any;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new VerifyInputError(source, 'content', text.trim().length === 0 ? '' : brief(text.trim()),
      `JSON: ${KUBECTL_HINT}; the JSON parser said: ${oneLine((e as Error).message)}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new VerifyInputError(source, 'content', brief(doc), KUBECTL_HINT);
  }
  if (doc.kind === 'Secret') {
    return [parseSecret(doc, source, 'Secret')];
  }
  if (doc.kind !== 'List' && doc.kind !== 'SecretList') {
    throw new VerifyInputError(source, 'kind', doc.kind, `"List" or "Secret": ${KUBECTL_HINT}`);
  }
  if (!Array.isArray(doc.items)) {
    throw new VerifyInputError(source, 'items', brief(doc.items), 'an array of Secrets');
  }
  return doc.items.map((item: unknown, i: number) => {
    const field = `items[${i}]`;
    if (item === null || typeof item !== 'object' || (item as any).kind !== undefined && (item as any).kind !== 'Secret') {
      throw new VerifyInputError(source, `${field}.kind`, brief((item as any)?.kind ?? item), '"Secret": the list must hold only Secrets');
    }
    return parseSecret(item, source, field);
  });
}

function parseSecret(doc: any, source: string, label: string): SecretData {
  const name = doc.metadata?.name;
  if (typeof name !== 'string' || name.length === 0) {
    throw new VerifyInputError(source, `${label}.metadata.name`, brief(name), 'the Secret\'s name');
  }
  const where = `Secret ${name}`;
  const namespace = doc.metadata?.namespace;
  if (namespace !== undefined && typeof namespace !== 'string') {
    throw new VerifyInputError(source, `${where} metadata.namespace`, brief(namespace), 'a namespace name');
  }
  const data: Record<string, Buffer> = {};
  for (const [field, raw] of [['data', doc.data], ['stringData', doc.stringData]] as const) {
    if (raw === undefined || raw === null) {
      continue;
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      throw new VerifyInputError(source, `${where} ${field}`, brief(raw), 'an object of keys and values');
    }
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') {
        throw new VerifyInputError(source, `${where} ${field}["${key}"]`, brief(value), 'a string');
      }
      if (field === 'stringData') {
        data[key] = Buffer.from(value, 'utf8');
        continue;
      }
      const compact = value.replace(/\s+/g, '');
      if (!BASE64.test(compact)) {
        throw new VerifyInputError(source, `${where} data["${key}"]`, brief(value), 'base64, as kubectl prints Secret data');
      }
      data[key] = Buffer.from(compact, 'base64');
    }
  }
  return { name, namespace, type: typeof doc.type === 'string' ? doc.type : undefined, data, source };
}
