/**
 * The rules of a span's outputs as data (`lib/model/span-agreement.ts`): which outputs are one span
 * and the first rule one breaks, named by index, field and what each side says. How synthesizeAll
 * and cluster-tls verify word them, on real apps and real outputs, is in test/span.test.ts,
 * test/span-kept-root.test.ts and test/verify-across.test.ts.
 */
import { SpanMember, declareNamespacesHint, spanAgreement } from '../lib/model/span-agreement';

const EAST = { name: 'east', clusterDomain: 'east.example.com', namespace: 'orders' };
const WEST = { name: 'west', clusterDomain: 'west.example.com', namespace: 'orders' };

/** The output of `current` in a span of east and west, with `change` applied. */
const member = (current: string, change: Partial<SpanMember> = {}): SpanMember => ({ clusterName: 'orders', namespace: 'orders', current, clusters: [EAST, WEST], ...change });

describe('spanAgreement', () => {
  test('one cluster name and a Kubernetes cluster in common make one span, whatever the namespaces; other Kubernetes clusters make another', () => {
    const staging = [{ ...EAST, name: 'staging-east' }, { ...WEST, name: 'staging-west' }];
    const groups = spanAgreement([member('east'), member('staging-east', { clusters: staging }), member('west'), member('east', { clusterName: 'billing' })]);
    expect(groups.map((g) => g.members)).toEqual([[0, 2], [1], [3]]);
    expect(groups.map((g) => g.missing.map((c) => c.name))).toEqual([[], ['staging-west'], ['west']]);
    expect(groups.map((g) => g.discrepancy)).toEqual([undefined, undefined, undefined]);
  });

  test.each([
    ['two outputs of one Kubernetes cluster', [member('east'), member('east')], { rule: 'current', member: 1, other: 0 }],
    ['an output in another namespace than the first declares for it', [member('east'), member('west', { namespace: 'orders-west' })],
      { rule: 'namespace', member: 1, other: 0, expected: 'orders', received: 'orders-west' }],
    ['a declaration that puts an earlier output in another namespace', [member('west'), member('east', { clusters: [EAST, { ...WEST, namespace: 'orders-west' }] })],
      { rule: 'declared-namespace', member: 1, other: 0, index: 1, expected: 'orders', received: 'orders-west' }],
    ['other Kubernetes clusters', [member('east'), member('west', { clusters: [WEST, EAST] })],
      { rule: 'declaration', member: 1, other: 0, difference: { field: 'clusters', expected: ['east', 'west'], received: ['west', 'east'] } }],
    ['another domain', [member('east'), member('west', { clusters: [{ ...EAST, clusterDomain: 'east.other.example.com' }, WEST] })],
      { rule: 'declaration', member: 1, other: 0, difference: { field: 'clusterDomain', index: 0, expected: EAST, received: { ...EAST, clusterDomain: 'east.other.example.com' } } }],
    ['another root', [member('east', { rootCluster: 'east' }), member('west')], { rule: 'declaration', member: 1, other: 0, difference: { field: 'rootCluster', expected: 'east' } }],
    ['other rotations', [member('east', { rotations: { phase: 'trust-both', history: [{ id: 'root-2', kind: 'ca-replacement' }] } }), member('west')],
      { rule: 'declaration', member: 1, other: 0, difference: { field: 'rotations', expected: { phase: 'trust-both', history: [{ id: 'root-2', kind: 'ca-replacement' }] } } }],
  ])('names the first rule broken, with both sides: %s', (_what, members, discrepancy) => {
    expect(spanAgreement(members).map((g) => g.discrepancy)).toEqual([discrepancy]);
  });

  test('a member is checked against every one before it, the first rule it breaks first', () => {
    // North's namespace is the one east declares; north's declaration puts west elsewhere, and its domains differ too.
    const north = { name: 'north', clusterDomain: 'north.example.com', namespace: 'orders' };
    const members = [member('east', { clusters: [EAST, WEST, north] }), member('west', { clusters: [EAST, WEST, north] }),
      member('north', { clusters: [{ ...EAST, clusterDomain: 'elsewhere.example.com' }, { ...WEST, namespace: 'orders-west' }, north] })];
    expect(spanAgreement(members)[0].discrepancy).toEqual({ rule: 'declared-namespace', member: 2, other: 1, index: 1, expected: 'orders', received: 'orders-west' });
  });

  test('the hint lists where each member is', () => {
    expect(declareNamespacesHint([member('east', { namespace: 'orders-east' }), member('west', { namespace: 'orders-west' })], ', and synthesize again'))
      .toBe('declare each Kubernetes cluster\'s namespace in span.clusters, the same in every app of the span, and synthesize again: east "orders-east", west "orders-west"');
  });
});
