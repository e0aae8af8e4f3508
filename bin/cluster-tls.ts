#!/usr/bin/env node
/**
 * The `cluster-tls` command. `cluster-tls verify` checks certificate Secrets against the
 * synthesized certificate plans before a cluster starts, and, given the pods, that each pod has
 * loaded what its Secret holds. The logic lives in lib/verify; this file only parses arguments,
 * reads the inputs and prints.
 */
import { parseArgs } from 'node:util';
import { READ_LIMITS, TooLargeError, UnreadableInputError, readBounded, readStreamBounded } from '../lib/model/bounded-read';
import { ClusterTlsError, Description, describeValue, oneLine } from '../lib/model/errors';
import { displayPath } from '../lib/synth/display-path';
import { isSystemError } from '../lib/synth/machine-errors';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CHECKS, CHECK_DESCRIPTIONS, MIN_DAYS_RANGE, POD_CHECKS, SPAN_CHECKS, SecretsAndPods, VerifyInputError, VerifyOutput, VerifyReport, combineInputs, formatReport,
  loadPlans, parseSecretsAndPods, verifyOutputs,
} from '../lib/verify';
// The words of a refusal, not the library's API: the command's refusal says what verify()'s does.
import { MIN_DAYS_EXPECTED } from '../lib/verify/min-days';

/** Exit codes. */
export const EXIT = {
  /** Every Secret passed every check. */
  ok: 0,
  /** A check failed: the report is not ok for a reason other than clusters of a span left unchecked. */
  failed: 1,
  /** Bad input or usage. */
  usage: 2,
  /** Every check passed, but a Kubernetes cluster of a span was not checked: no output given was its own. */
  incomplete: 3,
} as const;

/** What the command reads and writes, replaceable in tests. */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads standard input to its end. */
  readStdin(): Promise<string>;
}

const USAGE = `Usage:
  cluster-tls verify --dist <folder> --secrets <file|-> [--secrets <file> ...]
                     [--dist <folder> --secrets <file> ...] [--json]
                     [--now <ISO date>] [--min-days <N>] [--namespace <namespace>] [--cluster <name>]
  cluster-tls help | --help | -h | verify --help
  cluster-tls --version | -v

verify  checks the Secrets (kubectl get secrets -n <namespace> -o json; - reads standard input)
        against the certificate plans (tls-plan.json) in the files folder beside a synthesized
        output folder (cluster-tls/ beside dist/), with every check listed below. With an issuer of
        yours (issuerRef), the CA is the one most of the cluster's Secrets carry, and only its
        validity is held to the plan. With TLS for MySQL clients, also its Secrets against the SQL
        CA; those of applications in other namespaces are checked only when the input holds their
        namespaces (one --secrets per namespace, or kubectl get secrets -A -o json).
        The Secrets you create that a cluster loads (a migration source's or target's, a
        changefeed sink's: the plan's userSecrets) must be there too, each with at least the
        three keys (others are left alone), a certificate and its key that parse and match,
        valid (and for --min-days days): the library knows neither their CA nor their Common
        Name, so they get no other check; a missing one, or one that does not parse, fails the run.
        With the pods in the same List (kubectl get secrets,pods -n <namespace> -o json
        --show-managed-fields), the loaded check also tells what the pods have loaded from
        what the Secrets hold: components read their Secret only when they start, so every
        container of every pod that mounts a Secret (a secret or projected volume) must be
        running and have started after the Secret's last write (its creation or a field
        manager's latest write; a start in the same second fails, as its order is unknown). It names each pod
        to restart. Without pods in the input, the check is not run.
        One database cluster across Kubernetes clusters (span): give each Kubernetes cluster's
        output folder, each followed by the Secrets read from that Kubernetes cluster, such as
          --dist east/dist --secrets <(kubectl --context=east get secrets -n orders -o json)
          --dist west/dist --secrets <(kubectl --context=west get secrets -n orders -o json)
        Each output is checked as above, then each Secret against the other clusters' Secrets
        (the across check). A Kubernetes cluster of the span whose output is not given is named
        as not checked, in the report and its summary line, with exit code 3.

Options:
  --dist <folder>      the synthesized output folder that holds the manifests (such as dist),
                       not the files folder beside it; once per Kubernetes cluster of a span,
                       each before its own --secrets
  --secrets <file|->   the Secrets, a List or one Secret as JSON, or the List of
                       kubectl get secrets,pods ... --show-managed-fields; - for standard input;
                       give it once per namespace to check several (an application's with the
                       cluster's: --secrets <(kubectl get secrets,pods -n <namespace> ...))
  --json               print the report as JSON
  --now <ISO date>     check validity at this time instead of now, such as 2030-01-01T00:00:00Z
  --min-days <N>       also fail when a certificate, CAs included, expires within N days
                       (the expiry check), for a CI job or a CronJob to gate on; N is a whole
                       number from ${MIN_DAYS_RANGE.min} to ${MIN_DAYS_RANGE.max} (10,000 years)
  --namespace <name>   check only the plans of this namespace (default: the Secrets' namespace)
  --cluster <name>     check only the plans of this cluster name
  -h, --help           show this help (also: cluster-tls help)
  -v, --version        print the version of cdk8s-cluster-tls

Checks, in the order they run:
${[...CHECKS, ...POD_CHECKS, ...SPAN_CHECKS].map((c) => `  ${c.padEnd(14)}${CHECK_DESCRIPTIONS[c]}`).join('\n')}

Exit codes: 0 every check passed, 1 a check failed, 2 bad input or usage.
With several --dist, 3 every check passed, but a Kubernetes cluster of a span was not checked:
no --dist gave its output.
`;

/**
 * Runs the command with its arguments (without `node` and the script) and returns the exit code.
 * Bad input is reported on standard error as one line, never as a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    if (e instanceof ClusterTlsError) {
      io.stderr(`error: ${oneLine(e.message)}\n`);
      return EXIT.usage;
    }
    if (isSystemError(e)) {
      // A folder it cannot read, say: one line naming the path, as every input error is.
      io.stderr(`error: ${oneLine(`${displayPath(e.path ?? '.')}: cannot ${e.syscall} (${e.code}): check that the path exists and this user may read it`)}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** Every option the command takes, as `parseArgs` reads them: the hostile-input suite tries each. */
export const OPTIONS = {
  'dist': { type: 'string', multiple: true },
  'secrets': { type: 'string', multiple: true },
  'json': { type: 'boolean' },
  'now': { type: 'string' },
  'min-days': { type: 'string' },
  'namespace': { type: 'string' },
  'cluster': { type: 'string' },
  'help': { type: 'boolean', short: 'h' },
  'version': { type: 'boolean', short: 'v' },
} as const;

/**
 * The options that take a number, each with the range it accepts and what a refusal expects: the
 * hostile-input suite tries every one at and beyond its bounds.
 */
export const NUMERIC_OPTIONS = {
  'min-days': { noun: 'days', ...MIN_DAYS_RANGE, expected: MIN_DAYS_EXPECTED },
} as const;

/**
 * The value of a numeric option: decimal digits alone (no sign, point, exponent, space or
 * hexadecimal), within the option's range.
 * @throws VerifyInputError naming the option, the value and the range
 */
function wholeNumber(option: keyof typeof NUMERIC_OPTIONS, value: string): number {
  const { noun, min, max, expected } = NUMERIC_OPTIONS[option];
  const n = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max)) {
    throw new VerifyInputError(`--${option}`, noun, value, expected);
  }
  return n;
}

/**
 * A mistake `parseArgs` found, in the words of the command's other errors: the option, what it
 * received and what it expects (`parseArgs` says `Option '--secrets <value>' argument missing`).
 */
function parseArgsMistake(e: unknown): string {
  const { code, message } = e as { code?: string; message: string };
  // The option as given, whatever it holds (a line break too: describeValue shows it escaped, on one line).
  const given = /'(-{1,2}[^']*?)(?: <value>)?'/.exec(message)?.[1];
  const option = given === undefined ? 'an option' : describeValue(given);
  const known = Object.entries(OPTIONS).map(([name, o]) => `--${name}${'short' in o ? ` (-${o.short})` : ''}`).join(', ');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return `${option}: received an option the command does not take; expected one of ${known}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /does not take an argument/.test(message)
      ? `${option}: received a value; expected none: it is a flag`
      : `${option}: received nothing; expected a value after it (to give one that starts with a dash, write ${given ?? '--option'}=<value>)`;
  }
  return message.split('. ')[0];
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: OPTIONS,
    });
  } catch (e) {
    return usageError(io, parseArgsMistake(e));
  }
  const { values, positionals, tokens } = parsed;
  // `--help`, `-h`, `verify --help`, `help` and `help verify` alike: verify is the one command.
  if (values.help || (positionals[0] === 'help' && positionals.length <= 2 && (positionals[1] === undefined || positionals[1] === 'verify'))) {
    io.stdout(USAGE);
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  if (positionals.length === 0) {
    return usageError(io, 'a command is required: verify');
  }
  if (positionals[0] !== 'verify' || positionals.length > 1) {
    return usageError(io, `unknown command ${JSON.stringify(positionals.join(' '))}; the command is verify`);
  }
  const inputs = values.secrets ?? [];
  if (values.dist === undefined || inputs.length === 0) {
    return usageError(io, `verify needs ${[values.dist === undefined ? '--dist <folder>' : '', inputs.length === 0 ? '--secrets <file|->' : ''].filter(Boolean).join(' and ')}`);
  }
  const grouped = groupOutputs(values.dist, inputs, tokens);
  if (typeof grouped === 'string') {
    return usageError(io, grouped);
  }
  const stdin = inputs.filter((f) => f === '-').length;
  if (stdin > 1) {
    return usageError(io, `--secrets: received "-" ${stdin} times; expected standard input once, and the other lists as files or <(kubectl get secrets,pods -n <namespace> …)`);
  }
  let now: Date | undefined;
  if (values.now !== undefined) {
    now = new Date(values.now);
    if (!/^\d{4}-\d{2}-\d{2}/.test(values.now) || Number.isNaN(now.getTime()) || !isCalendarDate(values.now.slice(0, 10))) {
      throw new VerifyInputError('--now', 'date', values.now, 'an ISO 8601 date or time, such as 2030-01-01 or 2030-01-01T12:00:00Z');
    }
  }

  const minDays = values['min-days'] === undefined ? undefined : wholeNumber('min-days', values['min-days']);

  const outputs: VerifyOutput[] = [];
  for (const output of grouped) {
    try {
      outputs.push(await readOutput(output, io));
    } catch (e) {
      // With several outputs, every one's plans are named alike (../cluster-tls/…): say whose input it is.
      throw grouped.length > 1 && e instanceof ClusterTlsError ? new ClusterTlsError(`--dist ${describeValue(output.dist)}: ${e.message}`, { cause: e }) : e;
    }
  }
  const report = await verifyOutputs(outputs, { now, namespace: values.namespace, clusterName: values.cluster, minDays });
  io.stdout(values.json ? `${JSON.stringify(report, undefined, 2)}\n` : formatReport(report));
  if (values.json && !report.ok) {
    // The JSON usually goes to a file (the runbooks' check): what fails goes to the terminal too.
    io.stderr(formatReport(report));
  }
  return exitCode(report);
}

/**
 * The exit code of a report, read from what it says: 0 when it is ok; 3 only when it lists
 * Kubernetes clusters of a span as unchecked and nothing failed; 1 for anything else that makes it
 * not ok (a Secret that failed, or any failure a later check adds), so that no failure is ever
 * taken for a check left incomplete.
 */
export function exitCode(report: VerifyReport): number {
  if (report.ok) {
    return EXIT.ok;
  }
  const failed = report.secrets.some((s) => !s.ok);
  return !failed && (report.unchecked?.length ?? 0) > 0 ? EXIT.incomplete : EXIT.failed;
}

/** One output folder given to the command, and the Secrets read for it (`--secrets`, in order). */
interface GivenOutput {
  readonly dist: string;
  readonly secrets: string[];
}

/**
 * The output folders and the Secrets read for each: with one --dist, every --secrets is its own;
 * with several, each --secrets belongs to the --dist before it. A string is the usage error.
 */
function groupOutputs(dists: readonly string[], inputs: readonly string[], tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>): GivenOutput[] | string {
  if (dists.length === 1) {
    return [{ dist: dists[0], secrets: [...inputs] }];
  }
  const outputs: GivenOutput[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option' || (token.name !== 'dist' && token.name !== 'secrets')) {
      continue;
    }
    if (token.name === 'dist') {
      const again = outputs.find((o) => path.resolve(o.dist) === path.resolve(token.value!));
      if (again !== undefined) {
        return `--dist: received ${describeValue(token.value)}, the folder of --dist ${describeValue(again.dist)} before it; expected each Kubernetes cluster's output folder once`;
      }
      outputs.push({ dist: token.value!, secrets: [] });
    } else if (outputs.length === 0) {
      return `--secrets: received ${describeValue(token.value)} before any --dist; expected, with several --dist, each output's --secrets after its own --dist`;
    } else {
      outputs[outputs.length - 1].secrets.push(token.value!);
    }
  }
  const bare = outputs.find((o) => o.secrets.length === 0);
  if (bare !== undefined) {
    return `--dist: received ${describeValue(bare.dist)} with no --secrets after it; expected the Secrets of its Kubernetes cluster (--secrets <file|->) after each --dist`;
  }
  return outputs;
}

/** Reads what one output's checks need: its plans, and its Secrets and Pods as kubectl listed them. */
async function readOutput(output: GivenOutput, io: CliIo): Promise<VerifyOutput> {
  const plans = loadPlans(output.dist);
  // Each input one namespace's list, read in the order given (an application's namespace beside the cluster's).
  const read: SecretsAndPods[] = [];
  for (const file of output.secrets) {
    read.push(parseSecretsAndPods(await readSecrets(file, io), file === '-' ? 'standard input' : file));
  }
  return { dist: output.dist, plans, ...combineInputs(read) };
}

/** The version of this package: its package.json, the nearest one above this file (in the sources and once built). */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      return JSON.parse(fs.readFileSync(file, 'utf8')).version;
    }
    if (path.dirname(dir) === dir) {
      return 'unknown';
    }
  }
}

/** Whether `YYYY-MM-DD` is a day of the calendar: Date() rolls 2030-02-31 over to 2030-03-03 silently. */
function isCalendarDate(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number);
  const at = new Date(Date.UTC(year, month - 1, date));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date;
}

function usageError(io: CliIo, message: string): number {
  io.stderr(`error: ${oneLine(message)}; run cluster-tls --help for usage\n`);
  return EXIT.usage;
}

async function readSecrets(file: string, io: CliIo): Promise<string> {
  if (file === '-') {
    return io.readStdin();
  }
  try {
    // A pipe is welcome here (--secrets <(kubectl get secrets,pods … -o json)): the user names it.
    return readBounded(file, READ_LIMITS.kubectlList, { regularOnly: false });
  } catch (e) {
    if (e instanceof TooLargeError) {
      throw new VerifyInputError('--secrets', 'file', file, `a list of Secrets (and pods) from kubectl of at most ${e.limit / 1024 / 1024} MiB; list one namespace`);
    }
    if (e instanceof UnreadableInputError) {
      throw new VerifyInputError('--secrets', 'file', file, `a file or a pipe holding a list of Secrets (and pods) from kubectl, not ${e.message}`);
    }
    throw new VerifyInputError('--secrets', 'file', file, `a readable file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); save kubectl get secrets -n <namespace> -o json to it, or pass - for standard input`);
  }
}

/** The process's standard streams. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      try {
        return await readStreamBounded(process.stdin, READ_LIMITS.kubectlList);
      } catch (e) {
        if (e instanceof TooLargeError) {
          throw new VerifyInputError('--secrets', 'standard input', new Description(e.message), `a list of Secrets (and pods) from kubectl of at most ${e.limit / 1024 / 1024} MiB; list one namespace`);
        }
        throw e;
      }
    },
  };
}

if (require.main === module) {
  main(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`error: unexpected failure: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}
