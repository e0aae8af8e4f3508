/**
 * A migration cluster's controllers and its master's command-line tool, re-created around the
 * stand-in kubectl (test/_fake-kubectl.ts) so that a re-creation runbook runs as written:
 *
 * - the operator and the StatefulSet controller: for an applied `MigrationCluster`, one pod per
 *   member, each on a claim named as the StatefulSet names it (`data-<pod>`), created with the pod
 *   and kept when the cluster is deleted, as claims of a StatefulSet are; deleting the cluster
 *   removes its pods. A master stores its peer URL's scheme on its volume the first time it starts,
 *   as its embedded etcd does, and one started later with the other scheme never becomes ready (its
 *   peers, dialled at the stored URLs, cannot be reached): a controller error;
 * - the migration itself: the upstream's binlog moves on one event per tick; a task a ready master
 *   holds, with every worker ready, applies one event per tick and writes its checkpoint to the
 *   target database every {@link CHECKPOINT_EVERY} ticks (and when it stops); the target database
 *   and the upstream live outside the cluster and outlive it;
 * - `migctl` in a master pod (`kubectl exec`, through `FAKE_KUBECTL_EXEC`, directly or as
 *   `sh -c 'cd <folder> && migctl …'`): `list-member`, `stop-task`, `operate-source create`,
 *   `start-task` (from its checkpoint, unless `--remove-meta`) and `query-status`, the files read
 *   from standard input (`/dev/stdin`), in plain text against a
 *   plain master and only with the master's certificate set (the files where the operator mounts
 *   its Secret) against a TLS one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMPONENTS, ClusterKind, clusterKind } from '../lib/model/catalog';
import { MOUNT_PATHS } from '../lib/model/catalog-pods';
import * as names from '../lib/model/names';
import { FakeKubectl, FakeState, clockTime } from './_fake-kubectl';

/** How often a running task writes its checkpoint, in ticks. */
export const CHECKPOINT_EVERY = 5;

/** What lives outside the cluster: the upstream's binlog position and the target database's rows and checkpoints. */
export interface MigrationWorld {
  /** Events written upstream so far. */
  upstream: number;
  /** The position of each task's checkpoint, in the target database. */
  checkpoints: Record<string, number>;
  /** Each event the target applied, in order (a replayed event shows twice). */
  applied: number[];
  /** Each `start-task`: the task and the position it started from. */
  starts: { task: string; from: number }[];
}

/** The members, their tokens and spec keys. */
const MEMBERS = (['mig-master', 'mig-worker'] as const).map((token) => ({ token, specKey: COMPONENTS.find((c) => c.token === token)!.specKey! }));
const KIND = clusterKind(ClusterKind.MIGRATION).resourceKind;

/** The claim of a member pod, as a StatefulSet names it from its claim template `data`. */
export function claimName(pod: string): string {
  return `data-${pod}`;
}

/** The controllers of one migration cluster, ticking until {@link stop}. */
export class FakeMigration {
  public readonly errors: string[] = [];
  private timer?: NodeJS.Timeout;
  private uid = 0;

  constructor(private readonly kubectl: FakeKubectl, private readonly namespace: string, private readonly clusterName: string) {}

  /** The world outside the cluster, as it is now. */
  public world(): MigrationWorld {
    return this.kubectl.state().external?.migration ?? { upstream: 0, checkpoints: {}, applied: [], starts: [] };
  }

  /** Starts ticking every `ms` milliseconds. */
  public start(ms = 20): void {
    this.timer = setInterval(() => {
      try {
        this.kubectl.update((s) => this.tick(s));
      } catch (e) {
        this.errors.push(`controller: ${(e as Error).message}`);
      }
    }, ms);
  }

  public stop(): void {
    clearInterval(this.timer);
  }

  /** Seeds a task the plain-text cluster ran before the test: its source and task registered on the first master's volume. */
  public seedTask(state: FakeState, task: string, sources: string[]): void {
    const claim = state.pvcs?.find((c) => c.metadata.name === claimName(names.firstPodName(this.clusterName, 'mig-master')));
    if (claim === undefined) {
      throw new Error('seedTask: the first master has no volume yet');
    }
    claim.data.sources = sources;
    claim.data.tasks = { [task]: { sources } };
    claim.data.positions = { [task]: 0 };
  }

  /** One step of every controller. */
  private tick(state: FakeState): void {
    state.pvcs ??= [];
    state.pods ??= [];
    const world: MigrationWorld = (state.external ??= {}).migration ??= { upstream: 0, checkpoints: {}, applied: [], starts: [] };
    world.upstream += 1;
    const cluster = (state.objects ?? []).find((o) => o.kind === KIND && o.metadata.namespace === this.namespace && o.metadata.name === this.clusterName);
    const ours = (p: any) => p.metadata.namespace === this.namespace && p.metadata.labels?.['app.kubernetes.io/instance'] === this.clusterName
      && MEMBERS.some((m) => m.token === p.metadata.labels?.['app.kubernetes.io/component']);
    if (cluster === undefined) {
      state.pods = state.pods.filter((p) => !ours(p));
      return;
    }
    const tls = cluster.spec?.tlsCluster?.enabled === true;
    for (const { token, specKey } of MEMBERS) {
      for (let i = 0; i < (cluster.spec?.[specKey]?.replicas ?? 1); i++) {
        const pod = names.podName(this.clusterName, token, i);
        if (!state.pods.some((p) => p.metadata.namespace === this.namespace && p.metadata.name === pod)) {
          state.pods.push(this.startPod(state, token, pod, tls));
        }
      }
    }
    this.migrate(state, world);
  }

  /** A member pod, started on its claim (created with it the first time), ready unless a master finds another peer scheme stored. */
  private startPod(state: FakeState, token: 'mig-master' | 'mig-worker', pod: string, tls: boolean): any {
    const labels = { 'app.kubernetes.io/instance': this.clusterName, 'app.kubernetes.io/component': token };
    let claim = state.pvcs!.find((c) => c.metadata.namespace === this.namespace && c.metadata.name === claimName(pod));
    if (claim === undefined) {
      claim = { metadata: { name: claimName(pod), namespace: this.namespace, labels, uid: `claim-${++this.uid}-${Date.now()}` }, data: {} };
      state.pvcs!.push(claim);
    }
    const scheme = tls ? 'https' : 'http';
    let ready = true;
    if (token === 'mig-master') {
      claim.data.peerScheme ??= scheme;
      if (claim.data.peerScheme !== scheme) {
        ready = false;
        this.errors.push(`${pod} started with ${scheme} on a volume whose embedded etcd stores ${claim.data.peerScheme} peer URLs: it never joins its peers`);
      }
    }
    state.clock = (state.clock ?? 0) + 1;
    const secret = tls ? names.serverSecretName(this.clusterName, token) : undefined;
    return {
      apiVersion: 'v1', kind: 'Pod', workload: `StatefulSet/${this.clusterName}-${token}`, tls,
      metadata: { name: pod, namespace: this.namespace, labels },
      spec: { containers: [{ name: 'main' }], volumes: secret ? [{ name: 'tls', secret: { secretName: secret } }] : [] },
      status: {
        phase: 'Running', startTime: clockTime(state.clock), conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        containerStatuses: [{ name: 'main', ready, state: { running: { startedAt: clockTime(state.clock) } } }],
      },
    };
  }

  /** The tasks the first master holds move on while every member pod is ready. */
  private migrate(state: FakeState, world: MigrationWorld): void {
    const pods = state.pods!.filter((p) => p.metadata.namespace === this.namespace && p.metadata.labels?.['app.kubernetes.io/instance'] === this.clusterName);
    const master = state.pvcs!.find((c) => c.metadata.name === claimName(names.firstPodName(this.clusterName, 'mig-master')));
    const ready = (p: any) => p.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'True');
    if (master === undefined || pods.length === 0 || !pods.every(ready)) {
      return;
    }
    for (const task of Object.keys(master.data.tasks ?? {})) {
      const at: number = master.data.positions[task];
      if (at < world.upstream) {
        world.applied.push(at + 1);
        master.data.positions[task] = at + 1;
        if ((at + 1) % CHECKPOINT_EVERY === 0) {
          world.checkpoints[task] = at + 1;
        }
      }
    }
  }

  /**
   * The program that runs `kubectl exec`'s command as a master pod would: `migctl` against the
   * state the controllers keep, under the stand-in's lock.
   */
  public execHook(dir: string): string {
    const hook = path.join(dir, 'migration-pod-exec');
    const state = path.join(this.kubectl.dir, 'secrets.json');
    fs.writeFileSync(hook, `#!${process.execPath}
'use strict';
const fs = require('fs');
const YAML = require(${JSON.stringify(require.resolve('yaml'))});
const STATE = ${JSON.stringify(state)};
const CLUSTER = ${JSON.stringify(this.clusterName)};
const NAMESPACE = ${JSON.stringify(this.namespace)};
const MASTER = ${JSON.stringify(names.firstPodName(this.clusterName, 'mig-master'))};
const TLS_FOLDER = ${JSON.stringify(MOUNT_PATHS.migMasterTls)};
const CLAIM = ${JSON.stringify(claimName(names.firstPodName(this.clusterName, 'mig-master')))};
function fail(message) { process.stderr.write(message + '\\n'); process.exit(1); }
let [ns, pod, program, ...args] = process.argv.slice(2);
// 'sh -c "cd <folder> && migctl <args>"': migctl run from a folder, its relative paths read from there.
let cwd = '/';
if (program === 'sh' && args[0] === '-c' && args.length === 2) {
  const m = /^cd (\\/\\S+) && (migctl(?: \\S+)+)$/.exec(args[1]);
  if (!m) fail('migration-pod-exec: sh -c runs only "cd <folder> && migctl …" here');
  cwd = m[1];
  [program, ...args] = m[2].split(' ');
}
if (ns !== NAMESPACE || pod !== MASTER || program !== 'migctl') fail('migration-pod-exec: only migctl in ' + MASTER + ' is played');
const flags = {};
const words = [];
for (let i = 0; i < args.length; i++) {
  const m = /^--(ssl-ca|ssl-cert|ssl-key|master-addr)=(.*)$/.exec(args[i]);
  if (m) flags[m[1]] = m[1] === 'master-addr' || m[2].startsWith('/') ? m[2] : require('path').posix.join(cwd, m[2]);
  else if (args[i] === '--master-addr') flags['master-addr'] = args[++i];
  else words.push(args[i]);
}
const lock = STATE + '.lock';
for (let i = 0; ; i++) {
  try { fs.mkdirSync(lock); break; } catch (e) { if (e.code !== 'EEXIST' || i > 20000) throw e; Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2); }
}
let code = 0;
try {
  const state = JSON.parse(fs.readFileSync(STATE, 'utf8'));
  const p = (state.pods || []).find((x) => x.metadata.namespace === NAMESPACE && x.metadata.name === MASTER);
  if (!p || !p.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True')) throw new Error('dial tcp 127.0.0.1:8261: connect: connection refused');
  if (flags['master-addr'] !== '127.0.0.1:8261') throw new Error('migctl: --master-addr 127.0.0.1:8261 expected, got ' + flags['master-addr']);
  const auth = ['ssl-ca', 'ssl-cert', 'ssl-key'].filter((k) => flags[k] !== undefined);
  if (p.tls) {
    const wanted = { 'ssl-ca': TLS_FOLDER + '/ca.crt', 'ssl-cert': TLS_FOLDER + '/tls.crt', 'ssl-key': TLS_FOLDER + '/tls.key' };
    if (auth.length !== 3 || auth.some((k) => flags[k] !== wanted[k])) throw new Error('tls: the master asks for a client certificate its CA signed: pass the mounted ' + JSON.stringify(wanted));
  } else if (auth.length > 0) {
    throw new Error('tls: first record does not look like a TLS handshake (the master speaks plain text)');
  }
  const claim = (state.pvcs || []).find((c) => c.metadata.namespace === NAMESPACE && c.metadata.name === CLAIM);
  const data = claim.data;
  data.sources = data.sources || [];
  data.tasks = data.tasks || {};
  data.positions = data.positions || {};
  const world = state.external.migration;
  const [command, ...rest] = words;
  const stdin = () => YAML.parse(fs.readFileSync(0, 'utf8'));
  if (command === 'stop-task' && rest.length === 1) {
    if (!data.tasks[rest[0]]) throw new Error('task ' + rest[0] + ' has no source or not exist');
    world.checkpoints[rest[0]] = data.positions[rest[0]];
    delete data.tasks[rest[0]];
    delete data.positions[rest[0]];
    process.stdout.write(JSON.stringify({ op: 'Stop', result: true }) + '\\n');
  } else if (command === 'operate-source' && rest[0] === 'create' && rest[1] === '/dev/stdin' && rest.length === 2) {
    const source = stdin();
    if (!source || typeof source['source-id'] !== 'string') throw new Error('source config has no source-id');
    if (data.sources.includes(source['source-id'])) throw new Error('source ' + source['source-id'] + ' already exists');
    data.sources.push(source['source-id']);
    process.stdout.write(JSON.stringify({ result: true, sources: [{ result: true, source: source['source-id'] }] }) + '\\n');
  } else if (command === 'start-task' && rest.filter((a) => a !== '--remove-meta').join(' ') === '/dev/stdin') {
    const task = stdin();
    const sources = (task['mysql-instances'] || []).map((m) => m['source-id']);
    const missing = sources.filter((s) => !data.sources.includes(s));
    if (missing.length > 0) throw new Error('sources ' + missing.join(',') + ' haven\\'t been added');
    if (data.tasks[task.name]) throw new Error('task ' + task.name + ' already exists');
    const from = rest.includes('--remove-meta') ? 0 : (world.checkpoints[task.name] || 0);
    data.tasks[task.name] = { sources };
    data.positions[task.name] = from;
    world.starts.push({ task: task.name, from });
    process.stdout.write(JSON.stringify({ result: true, sources: sources.map((s) => ({ result: true, source: s })) }) + '\\n');
  } else if (command === 'list-member' && rest.length === 0) {
    const members = (state.pods || []).filter((x) => x.metadata.namespace === NAMESPACE && x.metadata.labels['app.kubernetes.io/instance'] === CLUSTER);
    const of = (token) => members.filter((x) => x.metadata.labels['app.kubernetes.io/component'] === token).map((x) => ({ name: x.metadata.name }));
    process.stdout.write(JSON.stringify({ result: true, members: [{ master: { members: of('mig-master') } }, { worker: { members: of('mig-worker') } }] }) + '\\n');
  } else if (command === 'query-status' && rest.length === 1) {
    if (!data.tasks[rest[0]]) throw new Error('task ' + rest[0] + ' not found');
    process.stdout.write(JSON.stringify({ result: true, sources: data.tasks[rest[0]].sources.map((s) => ({ source: s, stage: 'Running' })) }) + '\\n');
  } else {
    throw new Error('migration-pod-exec: migctl ' + words.join(' ') + ' is not played');
  }
  fs.writeFileSync(STATE, JSON.stringify(state, null, 2) + '\\n');
} catch (e) {
  process.stderr.write(e.message + '\\n');
  code = 1;
} finally {
  fs.rmdirSync(lock);
}
process.exit(code);
`, { mode: 0o755 });
    return hook;
  }
}
