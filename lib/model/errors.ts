/**
 * The one-line errors of the library: `ClusterTlsError`, and the wording of a user mistake
 * (where, field, received, expected), which never shows a value that can hold a credential.
 */
import { IConstruct } from 'constructs';
import { inspect } from 'node:util';

/**
 * A mistake in the input of a construct: the message names the construct path, the field,
 * the value received and what is expected, on one line. Entry points print the message
 * alone (no stack trace) and exit with a non-zero code.
 * @jsii ignore
 */
export class ClusterTlsError extends Error {
  /** @param options.cause the error of the system behind this one, kept for a debugger, never printed by the entry points */
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'ClusterTlsError';
    reportIfUncaught(this);
  }

  /**
   * The message alone, without the `ClusterTlsError: ` that `Error` puts before it: the one line
   * is the whole text of a refusal. The jsii kernel hands a refusal made in a method (`app.synth()`,
   * say) to a Python, Java or Go app as its own error, whose message is this text.
   */
  public toString(): string {
    return this.message;
  }
}

/** The refusals made in this turn of the event loop, until one is caught or the turn ends. */
const pending = new Set<Error>();

/**
 * Prints a refusal that nothing catches as the library's commands print one, `error: <message>`
 * with exit code 1, instead of Node.js's stack trace: an app ending in `app.synth()`, as
 * `cdk8s init` writes it, or building a construct with a mistake at module scope, gets the one
 * line too. Any other uncaught error is reported as Node.js reports it (its stack, exit code 1),
 * or left to the app's own listeners when it has some.
 */
function onUncaught(error: unknown): void {
  process.removeListener('uncaughtException', onUncaught);
  if (!pending.has(error as Error)) {
    // Node.js's own report, as it makes it when no listener is there: the error, exit code 1.
    if (process.listenerCount('uncaughtException') === 0) {
      process.stderr.write(`${inspect(error)}\n`);
      process.exit(1);
    }
    return;
  }
  pending.clear();
  process.stderr.write((error as Error).message.split('\n').map((line) => `error: ${oneLine(line)}\n`).join(''));
  process.exitCode = 1;
}

/**
 * Watches a refusal until the end of the turn of the event loop it was made in: an error thrown
 * and not caught reaches Node.js's `uncaughtException` before then, as does the rejection of an
 * async main that made it after an `await`. One listener at a time, removed with the turn; an app
 * that catches the error sees nothing of it.
 */
function reportIfUncaught(error: Error): void {
  if (typeof process === 'undefined' || typeof process.on !== 'function') {
    return;
  }
  if (pending.size === 0) {
    process.on('uncaughtException', onUncaught);
    // After the promise jobs of this turn, so that a refusal made after an `await` of an async
    // main, which reaches 'uncaughtException' as an unhandled rejection, is reported too.
    setImmediate(() => {
      pending.clear();
      process.removeListener('uncaughtException', onUncaught);
    }).unref();
  }
  pending.add(error);
}

/** Keys whose values never appear in an error message. */
const SECRET_KEY = /password|secret|token|private|key$/i;

/**
 * What a message says it received in place of a value it must not show: printed as it is, unquoted.
 * @jsii ignore
 */
export class Description {
  constructor(
    /** The words the message shows, as they are. */
    public readonly text: string,
  ) {}

  /** The `text`, so that a description reads as its words in a template string. */
  public toString(): string {
    return this.text;
  }
}

/**
 * Whether a text holds a URL's user information (`scheme://user[:password]@host`, in any of the
 * spellings a URL parser accepts) or a DSN's (`user:password@host`): an '@' before the first '/',
 * '\\', '?' or '#' after the scheme, other than the one of an image digest.
 */
export function hasCredentials(value: string): boolean {
  // User information ends at an '@' in a URL and in a DSN alike: with none there is none, and the
  // URL parser, the costly part, is not asked (most values checked are plain names and hosts).
  if (!value.includes('@')) {
    return false;
  }
  // An image's digest (`repo@sha256:…`) is not a host after user information.
  const authority = value.replace(/@sha(256|384|512):[0-9a-f]*$/i, '').replace(/^[a-z][a-z0-9+.-]*:/i, '').replace(/^[/\\]+/, '').split(/[/\\?#]/)[0];
  if (authority.includes('@')) {
    return true;
  }
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** What a message says it received in place of a text that holds credentials: the text itself is never repeated. */
export const WITH_CREDENTIALS = new Description('a value with a user name or password in it (not repeated here)');

/**
 * What a message may show of a received value: a string, number, boolean or null as it is, unless
 * it may hold a credential (see {@link hasCredentials}); anything else by its type alone (a function's source,
 * a symbol, a BigInt or a cycle is never printed).
 */
export function shown(value: unknown): unknown {
  if (typeof value === 'string') {
    return hasCredentials(value) ? WITH_CREDENTIALS : value;
  }
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'number' || value instanceof Description) {
    return value;
  }
  return describeType(value);
}

/** Thrown inside {@link describeValue}'s replacer at a value JSON cannot show faithfully. */
const NOT_JSON = Symbol('not JSON');

/**
 * Formats a received value for an error message, on one line. Values under keys that look like
 * credentials (`password`, `privateKey`, …) are masked, a text that holds a URL's user name or
 * password is not repeated, and a value JSON cannot show faithfully (a function, whose source it
 * would otherwise hold, a symbol, a BigInt, a cycle) is described by its type alone.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  if (value instanceof Description) {
    return value.text;
  }
  try {
    const text = JSON.stringify(value, (key, v) => {
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
        throw NOT_JSON;
      }
      if (typeof v === 'string' && hasCredentials(v)) {
        return WITH_CREDENTIALS.text;
      }
      return key !== '' && SECRET_KEY.test(key) && typeof v === 'string' && !key.endsWith('Name') ? '***' : v;
    });
    return text === undefined ? describeType(value).text : typeof value === 'string' && hasCredentials(value) ? WITH_CREDENTIALS.text : bounded(text);
  } catch {
    // A cycle (TypeError from JSON.stringify) or a value of NOT_JSON.
    return describeType(value).text;
  }
}

/** The most of a received value a message shows: a longer one is cut, with its length said. */
export const MAX_SHOWN = 200;

/** A value's text as a message shows it: at most {@link MAX_SHOWN} characters, a longer one cut with its length. */
function bounded(text: string): string {
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN - 40)}… (${text.length} characters in all)`;
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
  // A line break in a construct id, a field or a received value (a key, a name) would split the one line.
  return oneLine(`${where}: ${bounded(field)}: received ${describeValue(received)}; expected ${expected}`);
}

/** A message made one line: a line break or other control character in it is written as its escape (`\\n`). */
export function oneLine(message: string): string {
  return message.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** Throws a {@link ClusterTlsError} for a user mistake (see {@link inputErrorMessage}). */
export function inputError(scope: IConstruct | string, field: string, received: unknown, expected: string): never {
  throw new ClusterTlsError(inputErrorMessage(scope, field, received, expected));
}
