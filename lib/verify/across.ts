/**
 * One database cluster across Kubernetes clusters (`span`), checked over its outputs in one run:
 * each output against the Secrets of its own Kubernetes cluster, as `verify` checks one, then the
 * `across` check of every Secret against those of the other clusters. The members of each
 * Kubernetes cluster reach the others' by the fully qualified names of the server's own domain,
 * and each side verifies the other with its own `ca.crt`: what no single output can show, since a
 * cluster whose intermediate another root signed (a second `--new-root`, another `ROOT_CA` folder)
 * passes its own checks and is rejected by every other cluster.
 */
import { SECRET_KEYS } from '../model/catalog-certificates';
import { ClusterTlsError, describeValue } from '../model/errors';
import { SpanDifference, SpanDiscrepancy, SpanMember, declareNamespacesHint, spanAgreement } from '../model/span-agreement';
import { HandshakeOutcome, HandshakeServer, describeOutcome, dialedNames, failedOutcome } from './handshake';
import type { PodData, SecretData } from './input';
import { VerifyInputError } from './input';
import { findSecret, handshakesFound, isPeer, shakesHands, tlsMaterial } from './peers';
import type { LoadedPlan } from './plans';
import type { TlsPlan, TlsPlanSecret, TlsPlanSpanCluster } from '../plan/certificate-options';
import { listed, oneLine } from './text';
import { describeCertificate } from './x509';
import { CheckResult, SecretReport, UncheckedCluster, VerifyOptions, VerifyReport, parseCertificates, summarize, verify } from './verify';

/**
 * One Kubernetes cluster's output, and what was read from that Kubernetes cluster.
 * @jsii ignore
 */
export interface VerifyOutput {
  /** The output folder as given (`--dist`): it names the output in messages and in the report. */
  readonly dist: string;
  /** The plans of the output (`loadPlans`). */
  readonly plans: readonly LoadedPlan[];
  /** The Secrets read from the output's Kubernetes cluster. */
  readonly secrets: readonly SecretData[];
  /**
   * The Pods read from the output's Kubernetes cluster.
   * @default - none: the `loaded` check is not run for this output
   */
  readonly pods?: readonly PodData[];
}

/** One Kubernetes cluster's part in a database cluster of the span: the output, its plan, the cluster's name and domain, and the span its plan declares. */
interface Member {
  readonly output: VerifyOutput;
  readonly plan: TlsPlan;
  readonly kubernetesCluster: string;
  readonly domain: string;
  readonly declared: readonly TlsPlanSpanCluster[];
}

/** A Secret of a member that got as far as its handshakes, with its report in the member's output. */
interface Party {
  readonly member: Member;
  readonly required: TlsPlanSecret;
  readonly secret: SecretData;
  readonly report: SecretReport;
  readonly peer: boolean;
}

/**
 * One server Secret of a Kubernetes cluster dialed by a Secret of another: `named` verifies the
 * server's names in its own domain (the server's check), `chained` only that each side accepts
 * the other's chain (the dialer's check: a server's missing name is the server's failure).
 */
interface Crossing {
  readonly server: Party;
  readonly dialer: Party;
  readonly named: HandshakeOutcome;
  readonly chained: HandshakeOutcome;
}

/**
 * Checks the outputs of the Kubernetes clusters of a span: each output as {@link verify} checks
 * it, against its own cluster's Secrets (and Pods), then the `across` check of each Secret that
 * had its handshakes: a server Secret is dialed by every Secret of each other Kubernetes cluster
 * that passed the checks a peer needs, by the server's names in its own cluster's domain, and a
 * Secret dials every such server Secret of the others, each side verifying the other with its own
 * `ca.crt`. The Secrets of TLS for MySQL clients keep a CA of each Kubernetes cluster's own and
 * are not checked across. Each output's plans and Secrets are listed with the Kubernetes cluster
 * they are of. The outputs of one database cluster are those of one cluster name whose spans share
 * a Kubernetes cluster, whatever namespace each gives it; the Kubernetes clusters of a span whose
 * output was not given are listed in `unchecked`, and the report is then not `ok`, though every
 * Secret given passed. Given one output, it is {@link verify}.
 * @throws VerifyInputError when no output is given, an output's plan is not of a span, two
 * outputs are of one Kubernetes cluster, the outputs of one database cluster declare its span
 * otherwise or give a Kubernetes cluster another namespace than its output is in, or a database
 * cluster is in one output alone
 */
export async function verifyOutputs(outputs: readonly VerifyOutput[], options: Omit<VerifyOptions, 'pods'> = {}): Promise<VerifyReport> {
  if (outputs.length === 0) {
    throw new VerifyInputError('--dist', 'outputs', 'none', 'at least one synthesized output folder');
  }
  if (outputs.length === 1) {
    return verify(outputs[0].plans, outputs[0].secrets, { ...options, pods: outputs[0].pods });
  }
  // One time for every output, so that the reports agree on it.
  const now = options.now ?? new Date();
  const verified: { output: VerifyOutput; report: VerifyReport; members: Member[] }[] = [];
  for (const output of outputs) {
    const report = await ofOutput(output, () => verify(output.plans, output.secrets, { ...options, now, pods: output.pods }));
    verified.push({ output, report, members: report.plans.map((p) => memberOf(output, p.namespace, p.clusterName)) });
  }
  const across = new Map<SecretReport, CheckResult>();
  const spans = groups(verified.flatMap((v) => v.members));
  for (const { members: group } of spans) {
    const parties = group.flatMap((member) => partiesOf(member, verified.find((v) => v.output === member.output)!.report));
    const crossings = await crossAll(parties);
    for (const party of parties) {
      across.set(party.report, acrossCheck(party, crossings, group));
    }
  }
  const secrets = verified.flatMap(({ report, members }) => report.secrets.map((s) => {
    const checks = [...s.checks, ...(across.has(s) ? [across.get(s)!] : [])];
    return { ...s, kubernetesCluster: memberOfReport(members, s).kubernetesCluster, ok: checks.every((c) => c.ok), checks };
  }));
  const summary = summarize(secrets);
  const unchecked = spans.flatMap(uncheckedOf);
  return {
    ok: summary.passed === secrets.length && unchecked.length === 0,
    now: verified[0].report.now,
    plans: verified.flatMap(({ output, report, members }) => report.plans.map((p, i) => ({ ...p, output: { kubernetesCluster: members[i].kubernetesCluster, dist: output.dist } }))),
    secrets,
    ...(unchecked.length > 0 ? { unchecked } : {}),
    summary,
  };
}

/** The Kubernetes clusters of a database cluster's span that no output given is for. */
function uncheckedOf({ members, missing }: Span): UncheckedCluster[] {
  return missing.map((c) => ({ namespace: c.namespace, clusterName: members[0].plan.clusterName, kubernetesCluster: c.name, clusterDomain: c.clusterDomain }));
}

/** Runs the checks of one output, a refusal of its input naming the output (every output's plans are named alike, `../cluster-tls/…`). */
async function ofOutput<T>(output: VerifyOutput, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ClusterTlsError) {
      throw new ClusterTlsError(`--dist ${describeValue(output.dist)}: ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** The plan of a database cluster in an output, which must be of a span. */
function memberOf(output: VerifyOutput, namespace: string, clusterName: string): Member {
  const { plan } = output.plans.find((p) => p.plan.namespace === namespace && p.plan.clusterName === clusterName)!;
  if (plan.span === undefined) {
    throw new VerifyInputError('--dist', 'plan', `${output.dist}: ${namespace}/${clusterName}, which spans no Kubernetes clusters`,
      'with several --dist, the outputs of one database cluster across Kubernetes clusters (span), one per Kubernetes cluster; check any other output with a --dist of its own');
  }
  const { kubernetesCluster, clusterDomain } = plan.span;
  const own = plan.span.clusters.find((c) => c.name === kubernetesCluster);
  if (own === undefined || own.namespace !== namespace || own.clusterDomain !== clusterDomain) {
    throw new VerifyInputError('--dist', 'span', `${output.dist}: ${namespace}/${clusterName}, Kubernetes cluster ${kubernetesCluster}'s output`,
      `a plan whose span.clusters gives ${kubernetesCluster} namespace ${namespace} and domain ${clusterDomain}, as the library writes it (this one `
        + `${own === undefined ? 'does not name it' : `gives namespace ${own.namespace} and domain ${own.clusterDomain}`}): synthesize again`);
  }
  return { output, plan, kubernetesCluster: plan.span.kubernetesCluster, domain: plan.span.clusterDomain, declared: plan.span.clusters };
}

/** The member a Secret's report is of: by its plan's cluster, in the plan's namespace or, for TLS for MySQL clients, in an application's. */
function memberOfReport(members: readonly Member[], report: SecretReport): Member {
  return members.find((m) => m.plan.clusterName === report.clusterName && (m.plan.namespace === report.namespace
    || (report.sqlTls !== undefined && (m.plan.sqlTls?.secrets ?? []).some((x) => x.name === report.name && x.namespace === report.namespace))))!;
}

/** The members of one database cluster, and the Kubernetes clusters of its span whose output was not given. */
interface Span {
  readonly members: Member[];
  readonly missing: readonly TlsPlanSpanCluster[];
}

/**
 * The members of each database cluster, by the span's rules (`model/span-agreement.ts`): one
 * cluster name, and a Kubernetes cluster the spans of their plans share, whatever namespace each
 * Kubernetes cluster gives it. Each member is of another Kubernetes cluster, in the namespace the
 * others' declaration gives it, and declares the span as they do; each database cluster is in two
 * outputs at least.
 */
function groups(members: readonly Member[]): Span[] {
  const declared: SpanMember[] = members.map((m) => ({ clusterName: m.plan.clusterName, namespace: m.plan.namespace, current: m.kubernetesCluster, clusters: m.declared }));
  const spans = spanAgreement(declared);
  for (const span of spans) {
    if (span.discrepancy !== undefined) {
      refuseDiscrepancy(members, span.members.map((k) => declared[k]), span.discrepancy);
    }
  }
  const alone = spans.find((g) => g.members.length === 1);
  if (alone !== undefined) {
    const { output, plan } = members[alone.members[0]];
    throw new VerifyInputError('--dist', 'plan', `${output.dist}: ${plan.namespace}/${plan.clusterName}, which no other --dist holds`,
      'a database cluster of the outputs of two Kubernetes clusters or more: give the output of each Kubernetes cluster it spans, or check this output with a --dist of its own');
  }
  return spans.map((g) => ({ members: g.members.map((k) => members[k]), missing: g.missing }));
}

/** Refuses the output that breaks a rule of its span: another's Kubernetes cluster, in another namespace than their declaration gives it, or of another declaration. */
function refuseDiscrepancy(members: readonly Member[], span: readonly SpanMember[], discrepancy: SpanDiscrepancy): never {
  const [member, other] = [members[discrepancy.member], members[discrepancy.other]];
  const { plan } = member;
  const namespaces = declareNamespacesHint(span, ', and synthesize again');
  switch (discrepancy.rule) {
    case 'current':
      throw new VerifyInputError('--dist', 'folder', member.output.dist,
        `the output of a Kubernetes cluster no other --dist is for: ${other.output.dist} is Kubernetes cluster ${member.kubernetesCluster}'s output of ${other.plan.namespace}/${other.plan.clusterName} too`);
    case 'namespace':
      throw new VerifyInputError('--dist', 'span', `${member.output.dist}: ${plan.namespace}/${plan.clusterName}, Kubernetes cluster ${member.kubernetesCluster}'s output in namespace ${plan.namespace}`,
        `the namespace ${other.output.dist} declares for ${member.kubernetesCluster}, ${discrepancy.expected}: ${namespaces}`);
    case 'declared-namespace':
      throw new VerifyInputError('--dist', 'span', `${member.output.dist}: ${plan.namespace}/${plan.clusterName}, which declares ${other.kubernetesCluster} in namespace ${discrepancy.received}`,
        `the namespace ${other.output.dist}, ${other.kubernetesCluster}'s output, is in, ${discrepancy.expected}: ${namespaces}`);
    case 'declaration': {
      const { received, expected } = difference(discrepancy.difference);
      throw new VerifyInputError('--dist', 'span', `${member.output.dist}: ${plan.namespace}/${plan.clusterName} ${received}`,
        `${expected}, as ${other.output.dist} declares it: synthesize every output of the span from one declaration`);
    }
  }
}

/** A field in which a span differs from the first's, as a message says what it received and expected. */
function difference(d: SpanDifference): { received: string; expected: string } {
  switch (d.field) {
    case 'clusters':
      return { received: `across ${listed(d.received, 'cluster')}`, expected: `the Kubernetes clusters ${listed(d.expected, 'cluster')}` };
    case 'clusterDomain':
      return { received: `with ${d.received.name} in ${d.received.clusterDomain}`, expected: `${d.expected.name} in ${d.expected.clusterDomain}` };
    case 'namespace':
      return { received: `with ${d.received.name} in namespace ${d.received.namespace}`, expected: `${d.expected.name} in namespace ${d.expected.namespace}` };
    default:
      // A plan records neither rootCluster nor the rotations' history: `groups` gives neither, so they never differ.
      throw new Error(`span members from plans differ in ${d.field}, which plans do not record`);
  }
}

/** The Secrets of a member's plan that had their handshakes (the Secrets of TLS for MySQL clients stay within their Kubernetes cluster). */
function partiesOf(member: Member, report: VerifyReport): Party[] {
  const { plan } = member;
  return plan.secrets.flatMap((required) => {
    const checked = report.secrets.find((s) => s.sqlTls === undefined && s.name === required.name && s.namespace === plan.namespace && s.clusterName === plan.clusterName)!;
    const secret = findSecret(member.output.secrets, required.name, plan.namespace);
    return secret !== undefined && shakesHands(checked.checks) ? [{ member, required, secret, report: checked, peer: isPeer(checked.checks) }] : [];
  });
}

/** The server's names the members of another Kubernetes cluster dial: those of its own cluster's domain. */
function namesAcross(server: Party): string[] {
  return dialedNames(server.required).filter((name) => name.endsWith(`.svc.${server.member.domain}`));
}

/**
 * Every handshake across the Kubernetes clusters whose outcome tells something of one side: a
 * server Secret dialed by a Secret of another Kubernetes cluster, one of the two a peer. Dialed
 * by the server's names first; only when that fails, once more verifying the chains alone.
 */
async function crossAll(parties: readonly Party[]): Promise<Crossing[]> {
  const crossings: Crossing[] = [];
  for (const server of parties.filter((p) => p.required.role === 'server')) {
    const dialers = parties.filter((d) => d.member !== server.member && (d.peer || server.peer));
    if (dialers.length === 0) {
      continue;
    }
    let listening: HandshakeServer;
    try {
      listening = await HandshakeServer.start(tlsMaterial(server.secret));
    } catch (e) {
      const failed = failedOutcome(oneLine((e as Error).message));
      crossings.push(...dialers.map((dialer) => ({ server, dialer, named: failed, chained: failed })));
      continue;
    }
    try {
      const names = namesAcross(server);
      for (const dialer of dialers) {
        const material = tlsMaterial(dialer.secret);
        const named = names.length === 0 ? failedOutcome(`${server.required.name} names no host in ${server.member.domain}`)
          : await listening.handshake(material, { alsoNames: names });
        crossings.push({ server, dialer, named, chained: named.ok ? named : await listening.handshake(material, { verifyServer: true }) });
      }
    } finally {
      await listening.close();
    }
  }
  return crossings;
}

/** The CA certificates of a Secret's `ca.crt`, as a set to compare. */
function caSet(secret: SecretData): string[] {
  return parseCertificates(secret, SECRET_KEYS.ca).map((c) => c.fingerprint256).sort();
}

/** What a rejection across comes from when the two sides trust other roots: each side's `ca.crt`, and what to do. */
function rootsHint(a: Party, b: Party): string {
  if (caSet(a.secret).join() === caSet(b.secret).join()) {
    return '';
  }
  const ca = (p: Party) => `${p.member.kubernetesCluster}'s ca.crt is ${parseCertificates(p.secret, SECRET_KEYS.ca).map(describeCertificate).join(' and ')}`;
  return ` (${ca(a)}, ${ca(b)}: sign every Kubernetes cluster's intermediate with the span's one root, issue-intermediate.sh with the same ROOT_CA)`;
}

/** The `across` check of one Secret: its handshakes with the peers of the other Kubernetes clusters. */
function acrossCheck(party: Party, crossings: readonly Crossing[], group: readonly Member[]): CheckResult {
  const others = group.filter((m) => m !== party.member).map((m) => m.kubernetesCluster);
  const served = crossings.filter((c) => c.server === party && c.dialer.peer);
  const dialed = crossings.filter((c) => c.dialer === party && c.server.peer);
  const failures = [
    ...served.filter((c) => !c.named.ok).map((c) => `dialed by ${c.dialer.member.kubernetesCluster}'s ${c.dialer.required.name}: ${describeOutcome(c.named)}${rootsHint(party, c.dialer)}`),
    ...dialed.filter((c) => !c.chained.ok).map((c) => `dialing ${c.server.member.kubernetesCluster}'s ${c.server.required.name}: ${describeOutcome(c.chained)}${rootsHint(party, c.server)}`),
  ];
  const clusters = `Kubernetes cluster${others.length === 1 ? '' : 's'} ${listed(others, 'cluster')}`;
  const expected = party.required.role === 'server'
    ? `mutual handshakes with the Secrets of ${clusters}: each dials it by its names in ${party.member.domain}, and it dials their server Secrets, each side accepting the other`
    : `mutual handshakes with every server Secret of ${clusters}, each side accepting the other`;
  return {
    check: 'across',
    ok: failures.length === 0,
    expected,
    found: handshakesFound(served.length + dialed.length, failures, `no Secret of ${clusters} passed the checks a peer needs (chain, same-ca, key-match, usage) to shake hands with`),
  };
}
