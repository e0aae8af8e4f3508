import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { ClusterTlsError, describeType, describeValue, inputError, inputErrorMessage } from '../lib';

describe('input errors', () => {
  test('one line: construct path, field, value received, what is expected', () => {
    const chart = Testing.chart();
    expect(inputErrorMessage(chart, 'replicas', 0, 'a whole number of at least 1')).toBe('test: replicas: received 0; expected a whole number of at least 1');
    expect(() => inputError(chart, 'x', 'y', 'z')).toThrow(ClusterTlsError);
  });

  test('a field that can hold credentials is described by its type alone', () => {
    expect(String(describeType({ password: 'hunter2' }))).toBe('a value of type object');
    expect(String(describeType(['hunter2']))).toBe('a value of type array');
    expect(String(describeType(null))).toBe('a value of type null');
    expect(String(describeType('password = "hunter2"'))).toBe('a value of type string');
    // In a message it is printed as it is, not quoted as if the user had typed it.
    expect(describeValue(describeType({ password: 'hunter2' }))).toBe('a value of type object');
  });

  test('any value is one line, and one JSON cannot show faithfully is named by its type: never a function\'s source, never a credential in a URL', () => {
    const cycle: Record<string, unknown> = { name: 'x' };
    cycle.self = cycle;
    function leaky(): string {
      return 'MARKER-in-the-source';
    }
    expect(describeValue(10n)).toBe('a value of type bigint');
    expect(describeValue(cycle)).toBe('a value of type object');
    expect(describeValue(leaky)).toBe('a value of type function');
    expect(describeValue(Symbol('MARKER'))).toBe('a value of type symbol');
    expect(describeValue({ a: [1, 2n] })).toBe('a value of type object');
    expect(describeValue({ fn: leaky })).toBe('a value of type object');
    expect(describeValue('https://ci:MARKER@charts.example.com')).toBe('a value with a user name or password in it (not repeated here)');
    expect(describeValue({ endpoint: 'https://ci:MARKER@s3.example.com' })).toBe('{"endpoint":"a value with a user name or password in it (not repeated here)"}');
    expect(describeValue('line\nbreak')).toBe('"line\\nbreak"');
    // An image digest's '@' is not user information.
    expect(describeValue('registry.example.com/mig@sha256:00')).toBe('"registry.example.com/mig@sha256:00"');
    expect(describeValue('mig@sha256:00')).toBe('"mig@sha256:00"');
  });

  test('nothing received reads as "nothing"', () => {
    expect(describeValue(undefined)).toBe('nothing');
  });

  test('credentials are masked wherever they sit in the value', () => {
    const shown = describeValue({ host: 'db', user: 'root', password: 'hunter2', nested: [{ privateKey: 'PEM', clientSecret: 's3' }], tlsSecretName: 'keep-me' });
    expect(shown).not.toMatch(/hunter2|PEM|s3"/);
    expect(shown).toBe('{"host":"db","user":"root","password":"***","nested":[{"privateKey":"***","clientSecret":"***"}],"tlsSecretName":"keep-me"}');
  });
});

describe('a refusal nothing catches', () => {
  const errorsModule = require.resolve('../build/lib/model/errors');
  /** Runs a script in a process of its own, with the compiled errors module as `errors`. */
  const run = (script: string) => spawnSync(process.execPath, ['-e', `const errors = require(${JSON.stringify(errorsModule)});\n${script}`], { encoding: 'utf8' });

  beforeAll(() => {
    expect(spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b'], { cwd: path.join(__dirname, '..') }).status).toBe(0);
  });

  test('is printed as one line, error: <message>, with exit code 1 and no stack trace', () => {
    const uncaught = run(`throw new errors.ClusterTlsError('demo/db: version: received "four"; expected a release version');`);
    expect({ status: uncaught.status, stderr: uncaught.stderr }).toEqual({ status: 1, stderr: 'error: demo/db: version: received "four"; expected a release version\n' });
  });

  test('caught, it is the app\'s: nothing is printed, and a later error of another kind gets Node.js\'s own report', () => {
    const caught = run(`try { throw new errors.ClusterTlsError('x: y: received 1; expected 2'); } catch (e) { console.log('caught', e.name); }
setTimeout(() => { throw new Error('a fault of the app'); }, 10);`);
    expect(caught.stdout).toBe('caught ClusterTlsError\n');
    expect(caught.status).toBe(1);
    expect(caught.stderr).toMatch(/Error: a fault of the app\n\s+at /);
    expect(caught.stderr).not.toContain('error: x');
  });

  test('another error thrown in the same tick is left to Node.js too', () => {
    const other = run(`new errors.ClusterTlsError('made, not thrown');\nthrow new Error('a fault of the app');`);
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/Error: a fault of the app\n\s+at /);
    expect(other.stderr).not.toMatch(/^error: /m);
  });
});
