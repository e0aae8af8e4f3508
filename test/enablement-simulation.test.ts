/**
 * What the users lose while TLS is turned on in place, measured pod by pod with real exchanges
 * (test/_enablement-simulator.ts): the reference app's phases as synthesized, their outage window
 * asserted exactly, and worse choices (no scale-in, the scale-out before the peer-URL update, the
 * drainer left plain, the operator's eviction timeout) shown to make it longer or endless.
 */
import { App } from 'cdk8s';
import { ComponentToken, IssuingMethod, TlsEnablementPhase, TlsPlan, parseDuration } from '../lib';
import { renderApp } from '../lib/synth/synthesize';
import { enablementRunbookPath, tlsPlanPath } from '../lib/model/output-layout';
import * as YAML from 'yaml';
import { addDeployment } from '../main';
import type { SecretPem } from './_handshakes';
import {
  CLIENT, EnablementChoices, EnablementSimulator, OPERATOR, OPERATOR_DEFAULT_EVICTION, closeExchanges, runEnablement,
} from './_enablement-simulator';
import { TestPki } from './_pki';

jest.setTimeout(120_000);

/** The reference deployment of namespace `demo` at a phase: its plan, every object, and the drainer's values. */
function referenceAt(phase: TlsEnablementPhase, replicas?: Partial<Record<ComponentToken, number>>) {
  const app = new App();
  addDeployment(app, 'demo', IssuingMethod.CERT_MANAGER, [], { phase }, replicas);
  const rendered = renderApp(app);
  const plan: TlsPlan = JSON.parse(rendered.files.find((f) => f.path === tlsPlanPath('demo', 'basic'))!.content);
  const cluster = rendered.objects.find((o) => o.manifest.kind === 'DatabaseCluster')!.manifest;
  const drainer = YAML.parse(rendered.files.find((f) => f.path.endsWith('drainer-binlog-values.yaml'))!.content);
  const runbook = rendered.files.find((f) => f.path === enablementRunbookPath('demo', 'basic'))!.content;
  return { plan, cluster, drainer, runbook };
}

/**
 * The choices the library's output makes, read from what each phase synthesizes (three coordinator
 * members declared): whether scale-in writes one member, whether the enable phase's runbook stores
 * the peer URL (scale-out is the phase after it), whether the flip turns the drainer's TLS on, and
 * the store's eviction timeout during the roll.
 */
function libraryChoices(): EnablementChoices {
  const replicas = { coordinator: 3 };
  const scaleIn = referenceAt(TlsEnablementPhase.SCALE_IN, replicas);
  const enable = referenceAt(TlsEnablementPhase.ENABLE, replicas);
  return {
    scaleIn: scaleIn.cluster.spec.coordinator.replicas === 1,
    peerUrlBeforeScaleOut: /member update "\$ID" --peer-urls=https:/.test(enable.runbook),
    drainerToTls: enable.drainer.tlsCluster.enabled === true,
    evictLeaderTimeout: enable.cluster.spec.store.evictLeaderTimeout ?? OPERATOR_DEFAULT_EVICTION,
  };
}

let LIBRARY_CHOICES: EnablementChoices;
beforeAll(() => {
  LIBRARY_CHOICES = libraryChoices();
});

/** The Secrets of a plan, as a pod loads them. */
async function secretsOf(plan: TlsPlan): Promise<Map<string, SecretPem>> {
  const pki = await TestPki.create(new Date());
  const list = await pki.secrets(plan);
  return new Map(list.items.map((s: any) => [s.metadata.name, Object.fromEntries(Object.entries(s.data).map(([k, v]) => [k, Buffer.from(v as string, 'base64').toString()])) as SecretPem]));
}

/** Simulates the enablement of the reference deployment with `choices`, the coordinator declared with `coordinators` members. */
async function simulate(choices: EnablementChoices, coordinators = 1) {
  const replicas = { coordinator: coordinators, store: coordinators, sqlserver: coordinators };
  const issue = referenceAt(TlsEnablementPhase.ISSUE, replicas);
  const declared = Object.fromEntries(['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar']
    .map((t) => [t, issue.cluster.spec[t]?.replicas ?? 1])) as Record<ComponentToken, number>;
  const sim = new EnablementSimulator(issue.plan, declared);
  await runEnablement(sim, await secretsOf(issue.plan), declared.coordinator, choices);
  return sim;
}

afterAll(closeExchanges);

describe('the phases as synthesized', () => {
  test('say what the simulated procedure does: plain text until enable, one coordinator from scale-in to enable, the drainer on TLS with the flip', () => {
    const at = (p: TlsEnablementPhase) => referenceAt(p, { coordinator: 3 });
    const rows = Object.values(TlsEnablementPhase).map((p) => {
      const { cluster, drainer } = at(p);
      return [p, cluster.spec.tlsCluster.enabled, cluster.spec.coordinator.replicas, cluster.spec.store.evictLeaderTimeout ?? null, drainer.tlsCluster.enabled];
    });
    expect(rows).toEqual([
      ['issue', false, 3, null, false],
      ['scale-in', false, 1, '3m', false],
      ['enable', true, 1, '3m', true],
      ['scale-out', true, 3, null, true],
    ]);
  });
});

describe('the reference deployment, as the library declares it', () => {
  let sim: EnablementSimulator;
  beforeAll(async () => {
    sim = await simulate(LIBRARY_CHOICES);
  });

  test('opens its window when the coordinator restarts and closes it with the last client, eight restarts and one eviction wait later', () => {
    expect(sim.stalled).toBeUndefined();
    expect(sim.window()).toEqual({
      opens: 'enable: restarted coordinator-0',
      closes: `enable: restarted ${CLIENT}`,
      restarts: 8,
      waitMs: parseDuration('3m'),
    });
  });

  test('loses nothing before the flip, and the operator only between the flip and the last restart', () => {
    const failing = (label: string) => sim.failures.filter((f) => f.step === sim.steps.find((s) => s.label === label)!.index);
    expect(failing('issue: Secrets written')).toEqual([]);
    expect(failing('enable: tlsCluster.enabled applied').map((f) => f.client)).toEqual(sim.pods.filter((p) => p.component).map(() => OPERATOR));
    expect(sim.steps.at(-1)!.failing).toBe(0);
    expect(failing(sim.steps.at(-1)!.label)).toEqual([]);
  });

  test('fails each mixed pair with the reason OpenSSL gives', () => {
    const reasons = new Set(sim.failures.map((f) => f.reason));
    expect([...reasons].sort()).toEqual(['TLS client to a plain-text server: wrong version number', 'plain-text client to a TLS server: http request']);
  });

  test('shows the sqlserver cut off from the coordinator from its restart to the sqlserver\'s own', () => {
    const steps = [...new Set(sim.failures.filter((f) => f.client === 'sqlserver-0' && f.server === 'coordinator-0').map((f) => sim.steps[f.step].label))];
    expect(steps).toEqual([
      'enable: restarted coordinator-0', 'peer URL of coordinator-0 stored as https', 'enable: restarted columnar-0', 'enable: restarted store-0', 'enable: restarted pump-0',
    ]);
  });
});

describe('worse choices, watched to be worse', () => {
  test('three coordinator members scaled in and out, as the library declares it, close the window', async () => {
    const sim = await simulate(LIBRARY_CHOICES, 3);
    expect(sim.window()?.closes).toBe(`enable: restarted ${CLIENT}`);
    expect(sim.steps.at(-1)!.label).toBe('scale-out: added coordinator-2');
    expect(sim.steps.at(-1)!.failing).toBe(0);
  });

  test('no scale-in: the operator cannot roll a coordinator of three plain members, and stays cut off', async () => {
    const sim = await simulate({ ...LIBRARY_CHOICES, scaleIn: false }, 3);
    expect(sim.stalled).toMatch(/refuses to roll/);
    expect(sim.steps.at(-1)!.label).toBe('enable: operator refuses to roll the coordinator');
    expect(sim.failures.filter((f) => f.step === sim.steps.length - 1 && f.client === OPERATOR)).toHaveLength(sim.pods.filter((p) => p.component).length);
  });

  test('the force-upgrade annotation instead: three members restarted together never reach a quorum to store their https peer URLs', async () => {
    const { plan } = referenceAt(TlsEnablementPhase.ISSUE, { coordinator: 3 });
    const sim = new EnablementSimulator(plan, { coordinator: 3 });
    sim.useSecrets(await secretsOf(plan));
    expect(await sim.coordinatorQuorum()).toBe(true);
    sim.podsOf('coordinator').forEach((p) => sim.restart(p, 'tls'));
    expect(await sim.coordinatorQuorum()).toBe(false);
  });

  test('scaled back before the peer-URL update: the first new member cannot reach the stored http URL, the quorum is lost and never comes back', async () => {
    const sim = await simulate({ ...LIBRARY_CHOICES, peerUrlBeforeScaleOut: false }, 3);
    const labels = sim.steps.map((s) => s.label);
    expect(labels.slice(-2)).toEqual(['scale-out: added coordinator-1', 'scale-out: adding coordinator-2 refused: no quorum']);
    expect(sim.window()!.closes).toBeUndefined();
    expect(sim.failures.some((f) => f.client === 'coordinator-1' && f.server === 'coordinator-0')).toBe(true);
  });

  test('the drainer left plain: its pairs fail to the end', async () => {
    const sim = await simulate({ ...LIBRARY_CHOICES, drainerToTls: false });
    expect(sim.window()!.closes).toBeUndefined();
    expect(new Set(sim.failures.filter((f) => f.step === sim.steps.length - 1).map((f) => [f.client, f.server].find((n) => n.startsWith('drainer'))))).toEqual(new Set(['drainer-0']));
  });

  test('the operator\'s eviction timeout: the same restarts, and 1500 minutes of waiting per store instead of 3', async () => {
    const library = (await simulate(LIBRARY_CHOICES, 3)).window()!;
    const operator = (await simulate({ ...LIBRARY_CHOICES, evictLeaderTimeout: OPERATOR_DEFAULT_EVICTION }, 3)).window()!;
    expect(operator.restarts).toBe(library.restarts);
    expect(library.waitMs).toBe(3 * parseDuration('3m')!);
    expect(operator.waitMs).toBe(3 * parseDuration('1500m')!);
  });
});
