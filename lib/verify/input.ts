/// <reference types="node" preserve="true" />
/**
 * The Secrets `cluster-tls verify` checks, as `kubectl get secrets -o json` prints them, with the
 * Pods when the input is `kubectl get secrets,pods -o json --show-managed-fields`, and the error
 * of input it cannot read. The plans it checks them against are read by `plans.ts`.
 */
import { secretsOfPodSpec } from '../model/pod-secrets';
import { ClusterTlsError, Description, describeType, inputErrorMessage } from '../model/errors';
import { brief, oneLine } from './text';

/**
 * Input that `cluster-tls verify` cannot read: a file that is not JSON, not Secrets, base64 that
 * does not decode, a PEM that does not parse, a missing or malformed plan. The message is one
 * line: where, what was received, what is expected.
 * @jsii ignore
 */
export class VerifyInputError extends ClusterTlsError {
  constructor(where: string, field: string, received: unknown, expected: string) {
    super(inputErrorMessage(where, field, received, expected));
    this.name = 'VerifyInputError';
  }
}

/**
 * One Secret of the input, with its data decoded.
 * @jsii ignore
 */
export interface SecretData {
  /** `metadata.name`. */
  readonly name: string;
  /** `metadata.namespace`, when the input carries it. */
  readonly namespace?: string;
  /** `type`, when the input carries it. */
  readonly type?: string;
  /** The data, decoded from base64 (and `stringData`, when present, as the API server merges it). */
  readonly data: Readonly<Record<string, Buffer>>;
  /** `metadata.creationTimestamp`, when the input carries it. */
  readonly createdAt?: Date;
  /**
   * `metadata.managedFields[].time`, one per entry that has a time: when each field manager last
   * wrote the Secret. Absent when the input has no `managedFields` (kubectl prints them only with
   * `--show-managed-fields`).
   */
  readonly writtenAt?: readonly Date[];
  /**
   * The field managers of `metadata.managedFields` that give no time (their `manager`, or their
   * place): when they last wrote the Secret cannot be told. Absent when every entry has a time.
   */
  readonly untimedWriters?: readonly string[];
  /** The input the Secret was read from, for messages: a file name or `standard input`. */
  readonly source: string;
}

/**
 * One container of a Pod, from `status.containerStatuses[]`.
 * @jsii ignore
 */
export interface ContainerStart {
  /** `name`. */
  readonly name: string;
  /** `state.running.startedAt`: when the running container started; absent when it is not running. */
  readonly startedAt?: Date;
  /**
   * Its state, in words, when it is not running: `waiting (CrashLoopBackOff)`,
   * `terminated (Error, exit code 1)`, or `in no state` when the input gives none.
   */
  readonly notRunning?: string;
}

/**
 * One Pod of the input: the Secrets its volumes mount, and when its containers started.
 * @jsii ignore
 */
export interface PodData {
  /** `metadata.name`. */
  readonly name: string;
  /** `metadata.namespace`, when the input carries it. */
  readonly namespace?: string;
  /** `status.phase` (`Pending`, `Running`, …), when the input carries it. */
  readonly phase?: string;
  /** `metadata.labels`; empty when it has none. */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * The Secrets it loads, each once: those its volumes mount (`secret`, `projected`) and those its
   * containers read into their environment (`model/pod-secrets.ts`).
   */
  readonly secretNames: readonly string[];
  /** `status.containerStatuses`, in order; empty when no container has a status yet. */
  readonly containers: readonly ContainerStart[];
  /** The input the Pod was read from, for messages: a file name or `standard input`. */
  readonly source: string;
}

/**
 * The objects of the `--secrets` input, kept apart by kind.
 * @jsii ignore
 */
export interface SecretsAndPods {
  /** The Secrets, in the order of the input. */
  readonly secrets: SecretData[];
  /** The Pods, in the order of the input; empty when it holds none. */
  readonly pods: PodData[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 3339 with seconds, as the API server writes times; fractions and offsets are read too. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const KUBECTL_HINT = 'the output of kubectl get secrets -n <namespace> -o json (a List of Secrets, or one Secret)';

/**
 * Parses the Secrets input: a `List` (or `SecretList`) of Secrets, or a single Secret. A List may
 * hold Pods too (`kubectl get secrets,pods -o json`): they are read, checked and set aside, see
 * {@link parseSecretsAndPods}. `source` names the input in messages (a file name, or
 * `standard input`).
 * @throws VerifyInputError when the text is not JSON, not Secrets, or holds data that is not base64
 */
export function parseSecrets(text: string, source = 'secrets'): SecretData[] {
  return parseSecretsAndPods(text, source).secrets;
}

/**
 * Parses the `--secrets` input into its Secrets and its Pods: a `List` (or `SecretList`) of
 * Secrets and Pods, as `kubectl get secrets,pods -n <namespace> -o json --show-managed-fields`
 * prints it, or a single Secret. An item without a `kind` is read as a Secret.
 * @throws VerifyInputError when the text is not JSON, holds something other than Secrets and Pods,
 * or a Secret or Pod that is malformed
 */
export function parseSecretsAndPods(text: string, source = 'secrets'): SecretsAndPods {
  if (text.trim().length === 0) {
    throw new VerifyInputError(source, 'content', '', `${KUBECTL_HINT}; it is empty, as when the command that feeds it fails (kubectl may not read that namespace)`);
  }
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
    return { secrets: [parseSecret(doc, source, 'Secret')], pods: [] };
  }
  if (doc.kind !== 'List' && doc.kind !== 'SecretList') {
    throw new VerifyInputError(source, 'kind', doc.kind, `"List" or "Secret": ${KUBECTL_HINT}`);
  }
  if (!Array.isArray(doc.items)) {
    throw new VerifyInputError(source, 'items', brief(doc.items), 'an array of Secrets, and Pods if any');
  }
  const secrets: SecretData[] = [];
  const pods: PodData[] = [];
  doc.items.forEach((item: unknown, i: number) => {
    const field = `items[${i}]`;
    const kind = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as any).kind : null;
    if (kind === 'Pod') {
      pods.push(parsePod(item, source, field));
    } else if (kind === undefined || kind === 'Secret') {
      secrets.push(parseSecret(item, source, field));
    } else {
      // Worded to keep the start that scripts match ("Secret": the list must hold only Secrets).
      throw new VerifyInputError(source, `${field}.kind`, brief(kind ?? item),
        '"Secret": the list must hold only Secrets and Pods, as kubectl get secrets,pods -n <namespace> -o json prints them');
    }
  });
  return { secrets, pods };
}

/**
 * The objects of the `--secrets` inputs as one, in the order given: each Secret and Pod once. A
 * second copy of one (two lists of one namespace, or one list given twice) is refused in one line
 * naming both inputs, since which copy is checked could not be told.
 * @throws VerifyInputError at the second copy of a Secret or Pod of one namespace and name
 */
export function combineInputs(inputs: readonly SecretsAndPods[]): SecretsAndPods {
  const seen = new Map<string, string>();
  const once = (kind: string, o: { name: string; namespace?: string; source: string }) => {
    const key = `${kind}/${o.namespace ?? ''}/${o.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const named = o.namespace === undefined ? o.name : `${o.namespace}/${o.name}`;
      throw new VerifyInputError(o.source, `${kind} ${named}`, new Description(`a second copy of it (the first is in ${first})`),
        'each Secret and Pod once: give one --secrets per namespace, each listed once');
    }
    seen.set(key, o.source);
  };
  for (const input of inputs) {
    input.secrets.forEach((secret) => once('Secret', secret));
    input.pods.forEach((pod) => once('Pod', pod));
  }
  return { secrets: inputs.flatMap((i) => i.secrets), pods: inputs.flatMap((i) => i.pods) };
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
      // A Secret's data is never repeated, whatever its key: a tls.key or a password that is no base64 is still one.
      if (typeof value !== 'string') {
        throw new VerifyInputError(source, `${where} ${field}["${key}"]`, describeType(value), 'a string');
      }
      if (field === 'stringData') {
        data[key] = Buffer.from(value, 'utf8');
        continue;
      }
      const compact = value.replace(/\s+/g, '');
      if (!BASE64.test(compact)) {
        throw new VerifyInputError(source, `${where} data["${key}"]`, new Description(`a value of ${value.length} characters that is not base64 (not shown: Secret data)`), 'base64, as kubectl prints Secret data');
      }
      data[key] = Buffer.from(compact, 'base64');
    }
  }
  return { name, namespace, type: typeof doc.type === 'string' ? doc.type : undefined, data, ...secretTimes(doc.metadata, source, where), source };
}

/**
 * Whether the fields of an RFC 3339 time are in the ranges Go's time.Parse (the API server's)
 * takes, as go1.26 checks them: a month of 1 to 12, a day the month has (`2026-02-31` is none,
 * where JavaScript's Date would roll it over into March), hours to 23, minutes and seconds to 59 (no
 * leap second), an offset's hours to 24 and its minutes to 60.
 */
function inRange(text: string): boolean {
  const [year, month, day, hour, minute, second] = [0, 5, 8, 11, 14, 17].map((at, i) => Number(text.slice(at, at + (i === 0 ? 4 : 2))));
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59
    && (offset === null || (Number(offset[2]) <= 24 && Number(offset[3]) <= 60));
}

/** Reads an RFC 3339 time as the API server writes the times of an object (`2026-11-24T10:00:05Z`). */
function parseTime(value: unknown, source: string, field: string): Date {
  const date = typeof value === 'string' && RFC3339.test(value) && inRange(value) ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new VerifyInputError(source, field, brief(value), 'an RFC 3339 time as kubectl prints it, such as 2026-11-24T10:00:05Z');
  }
  return date;
}

/** The times a Secret was written: its creation, and every field manager's last write. */
function secretTimes(metadata: any, source: string, where: string): Pick<SecretData, 'createdAt' | 'writtenAt' | 'untimedWriters'> {
  const created = metadata?.creationTimestamp;
  const createdAt = created === undefined || created === null ? undefined : parseTime(created, source, `${where} metadata.creationTimestamp`);
  const managers = metadata?.managedFields;
  if (managers === undefined || managers === null) {
    return { createdAt };
  }
  const writtenAt: Date[] = [];
  const untimedWriters: string[] = [];
  arrayAt(managers, source, `${where} metadata.managedFields`, 'an array of field managers, as kubectl --show-managed-fields prints it')
    .forEach((entry, i) => {
      const field = `${where} metadata.managedFields[${i}]`;
      const { time, manager } = objectAt(entry, source, field, 'a field manager entry (manager, operation, time)');
      if (time === undefined || time === null) {
        untimedWriters.push(typeof manager === 'string' && manager !== '' ? oneLine(manager) : `metadata.managedFields[${i}]`);
      } else {
        writtenAt.push(parseTime(time, source, `${field}.time`));
      }
    });
  return { createdAt, writtenAt, ...(untimedWriters.length > 0 ? { untimedWriters } : {}) };
}

/** An array, or none when the value is absent. */
function arrayAt(value: unknown, source: string, field: string, expected: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new VerifyInputError(source, field, brief(value), expected);
  }
  return value;
}

/** An object (not an array), or an empty one when the value is absent. */
function objectAt(value: unknown, source: string, field: string, expected: string): any {
  if (value === undefined || value === null) {
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new VerifyInputError(source, field, brief(value), expected);
  }
  return value;
}

/** A non-empty string. */
function nameAt(value: unknown, source: string, field: string, expected: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new VerifyInputError(source, field, brief(value), expected);
  }
  return value;
}

function parsePod(doc: any, source: string, label: string): PodData {
  const name = nameAt(doc.metadata?.name, source, `${label}.metadata.name`, 'the Pod\'s name');
  const where = `Pod ${name}`;
  const namespace = doc.metadata?.namespace;
  if (namespace !== undefined && typeof namespace !== 'string') {
    throw new VerifyInputError(source, `${where} metadata.namespace`, brief(namespace), 'a namespace name');
  }
  const spec = objectAt(doc.spec, source, `${where} spec`, 'the Pod\'s spec, an object');
  const status = objectAt(doc.status, source, `${where} status`, 'the Pod\'s status, an object');
  if (status.phase !== undefined && typeof status.phase !== 'string') {
    throw new VerifyInputError(source, `${where} status.phase`, brief(status.phase), 'a Pod phase such as "Running"');
  }
  checkVolumes(spec.volumes, source, where);
  const labels = objectAt(doc.metadata?.labels, source, `${where} metadata.labels`, 'an object of label names and values');
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value !== 'string') {
      throw new VerifyInputError(source, `${where} metadata.labels["${key}"]`, brief(value), 'a string');
    }
  }
  return {
    name, namespace, phase: status.phase, labels: labels as Record<string, string>,
    secretNames: [...secretsOfPodSpec(spec)],
    containers: withUnstartedContainers(containerStarts(status.containerStatuses, source, where), spec.containers, source, where),
    source,
  };
}

/** The starts of a pod's containers, with every container of its spec that has no status yet counted as not started. */
function withUnstartedContainers(starts: ContainerStart[], containers: unknown, source: string, where: string): ContainerStart[] {
  const known = new Set(starts.map((c) => c.name));
  const missing = arrayAt(containers, source, `${where} spec.containers`, 'an array of containers')
    .map((entry, i) => nameAt(objectAt(entry, source, `${where} spec.containers[${i}]`, 'a container, an object').name, source, `${where} spec.containers[${i}].name`, 'the container\'s name'))
    .filter((name) => !known.has(name));
  return [...starts, ...missing.map((name) => ({ name, notRunning: 'without a status: not started' }))];
}

/**
 * Refuses, in one line, volumes that do not name their Secrets as kubectl prints them: a `secret`
 * without a `secretName`, a `projected` secret source without a `name`.
 */
function checkVolumes(volumes: unknown, source: string, where: string): void {
  arrayAt(volumes, source, `${where} spec.volumes`, 'an array of volumes').forEach((entry, i) => {
    const field = `${where} spec.volumes[${i}]`;
    const volume = objectAt(entry, source, field, 'a volume, an object');
    if (volume.secret !== undefined && volume.secret !== null) {
      nameAt(objectAt(volume.secret, source, `${field}.secret`, 'an object with secretName').secretName,
        source, `${field}.secret.secretName`, 'the name of the Secret the volume mounts');
    }
    const projected = objectAt(volume.projected, source, `${field}.projected`, 'an object with sources');
    arrayAt(projected.sources, source, `${field}.projected.sources`, 'an array of projected sources').forEach((item, j) => {
      const secret = objectAt(item, source, `${field}.projected.sources[${j}]`, 'a projected source, an object').secret;
      if (secret !== undefined && secret !== null) {
        nameAt(objectAt(secret, source, `${field}.projected.sources[${j}].secret`, 'an object with name').name,
          source, `${field}.projected.sources[${j}].secret.name`, 'the name of the Secret the volume projects');
      }
    });
  });
}

/** When each container of a Pod started, or, when it is not running, its state in words. */
function containerStarts(statuses: unknown, source: string, where: string): ContainerStart[] {
  return arrayAt(statuses, source, `${where} status.containerStatuses`, 'an array of container statuses').map((entry, i) => {
    const field = `${where} status.containerStatuses[${i}]`;
    const status = objectAt(entry, source, field, 'a container status, an object');
    const name = nameAt(status.name, source, `${field}.name`, 'the container\'s name');
    const state = objectAt(status.state, source, `${field}.state`, 'the container\'s state, an object such as {"running":{"startedAt":"2026-11-24T10:00:05Z"}}');
    if (state.running !== undefined && state.running !== null) {
      const running = objectAt(state.running, source, `${field}.state.running`, 'an object with startedAt');
      return { name, startedAt: parseTime(running.startedAt, source, `${field}.state.running.startedAt`) };
    }
    return { name, notRunning: stateInWords(state) };
  });
}

/** `waiting (CrashLoopBackOff)`, `terminated (Error, exit code 1)`, `in no state`. */
function stateInWords(state: any): string {
  for (const key of ['waiting', 'terminated'] as const) {
    const detail = state[key];
    if (detail !== undefined && detail !== null) {
      const words = [
        typeof detail.reason === 'string' ? oneLine(detail.reason) : '',
        key === 'terminated' && typeof detail.exitCode === 'number' ? `exit code ${detail.exitCode}` : '',
      ].filter(Boolean);
      return words.length ? `${key} (${words.join(', ')})` : key;
    }
  }
  return 'in no state';
}
