/**
 * The one-line errors of the library: `ClusterTlsError`, and the wording of a user mistake
 * (where, field, received, expected), which never shows a value that can hold a credential.
 */
import { IConstruct } from 'constructs';

/**
 * A mistake in the input of a construct: the message names the construct path, the field,
 * the value received and what is expected, on one line. Entry points print the message
 * alone (no stack trace) and exit with a non-zero code.
 */
export class ClusterTlsError extends Error {
  /** @param options.cause the error of the system behind this one, kept for a debugger, never printed by the entry points */
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'ClusterTlsError';
  }
}

/** Keys whose values never appear in an error message. */
const SECRET_KEY = /password|secret|token|private|key$/i;

/** What a message says it received in place of a value it must not show: printed as it is, unquoted. */
export class Description {
  constructor(public readonly text: string) {}

  public toString(): string {
    return this.text;
  }
}

/**
 * Formats a received value for an error message. Values under keys that look like credentials
 * (`password`, `privateKey`, …) are masked, so a message never repeats a secret.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  if (value instanceof Description) {
    return value.text;
  }
  return JSON.stringify(value, (key, v) => (key !== '' && SECRET_KEY.test(key) && typeof v === 'string' && !key.endsWith('Name') ? '***' : v));
}

/**
 * What a value is, without what it holds (`a value of type object`): for messages about fields that
 * can hold credentials, such as configurations and chart values.
 */
export function describeType(value: unknown): Description {
  return new Description(`a value of type ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`);
}

/**
 * Builds the one-line message of a user mistake:
 * `<construct path>: <field>: received <value>; expected <what>`.
 */
export function inputErrorMessage(scope: IConstruct | string, field: string, received: unknown, expected: string): string {
  const where = typeof scope === 'string' ? scope : scope.node.path;
  return `${where}: ${field}: received ${describeValue(received)}; expected ${expected}`;
}

/** Throws a {@link ClusterTlsError} for a user mistake (see {@link inputErrorMessage}). */
export function inputError(scope: IConstruct | string, field: string, received: unknown, expected: string): never {
  throw new ClusterTlsError(inputErrorMessage(scope, field, received, expected));
}
