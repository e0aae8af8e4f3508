/**
 * One database cluster across Kubernetes clusters (`span`), checked over its outputs in one run:
 * each output against the Secrets of its own Kubernetes cluster, as `verify` checks one, then the
 * `across` check of every Secret against those of the other clusters. The members of each
 * Kubernetes cluster reach the others' by the fully qualified names of the server's own domain,
 * and each side verifies the other with its own `ca.crt`: what no single output can show, since a
 * cluster whose leaves trust its intermediate alone passes its own checks and is rejected by all
 * the others.
 */
import { HandshakeOutcome, HandshakeServer, describeOutcome, dialedNames } from './handshake';
import type { PodData, SecretData } from './input';
import { VerifyInputError } from './input';
import { isPeer, shakesHands, tlsMaterial } from './peers';
import type { LoadedPlan } from './plans';
import type { TlsPlan, TlsPlanSecret } from '../certificates/certificate-options';
import { listed, oneLine } from './text';
import { CheckResult, SecretReport, VerifyOptions, VerifyReport, verify } from './verify';

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

/** One Kubernetes cluster's part in a database cluster of the span: its plan, and the Secrets' reports. */
interface Member {
  readonly output: VerifyOutput;
  readonly plan: TlsPlan;
  readonly kubernetesCluster: string;
  readonly domain: string;
}

/** A Secret of a member that got as far as its handshakes. */
interface Party {
  readonly member: Member;
  readonly required: TlsPlanSecret;
  readonly secret: SecretData;
  readonly peer: boolean;
}

/** One handshake across: a server Secret of one Kubernetes cluster dialed by a Secret of another. */
interface Crossing {
  readonly server: Party;
  readonly dialer: Party;
  readonly outcome: HandshakeOutcome;
}

/**
 * Checks the outputs of the Kubernetes clusters of a span: each output as {@link verify} checks
 * it, against its own cluster's Secrets (and Pods), then the `across` check of each Secret that
 * had its handshakes: a server Secret is dialed by every Secret of each other Kubernetes cluster
 * that passed the checks a peer needs, by the server's names in its own cluster's domain, and a
 * Secret dials every such server Secret of the others, each side verifying the other with its own
 * `ca.crt`. Each output's plans and Secrets are listed with the Kubernetes cluster they are of.
 * Given one output, it is {@link verify}.
 * @throws VerifyInputError when an output's plan is not of a span, or two outputs are of one
 * Kubernetes cluster or one domain
 */
export async function verifyOutputs(outputs: readonly VerifyOutput[], options: Omit<VerifyOptions, 'pods'> = {}): Promise<VerifyReport> {
  if (outputs.length === 1) {
    return verify(outputs[0].plans, outputs[0].secrets, { ...options, pods: outputs[0].pods });
  }
  // One time for every output, so that the reports agree on it.
  const now = options.now ?? new Date();
  const verified: { output: VerifyOutput; report: VerifyReport; members: Member[] }[] = [];
  for (const output of outputs) {
    const report = await verify(output.plans, output.secrets, { ...options, now, pods: output.pods });
    verified.push({ output, report, members: report.plans.map((p) => memberOf(output, p.namespace, p.clusterName)) });
  }
  const across = new Map<SecretReport, CheckResult>();
  // A database cluster only one output holds has nothing to be checked across.
  for (const group of groups(verified.flatMap((v) => v.members)).filter((g) => g.length > 1)) {
    const parties = group.flatMap((member) => partiesOf(member, verified.find((v) => v.output === member.output)!.report));
    const crossings = await crossAll(parties);
    for (const [report, party] of parties.map((p) => [reportOf(p, verified), p] as const)) {
      across.set(report, acrossCheck(party, crossings, group));
    }
  }
  const secrets = verified.flatMap(({ report, members }) => report.secrets.map((s) => {
    const kubernetesCluster = members.find((m) => m.plan.namespace === s.namespace && m.plan.clusterName === s.clusterName)!.kubernetesCluster;
    const checks = [...s.checks, ...(across.has(s) ? [across.get(s)!] : [])];
    return { ...s, kubernetesCluster, ok: checks.every((c) => c.ok), checks };
  }));
  const passed = secrets.filter((r) => r.ok).length;
  return {
    ok: passed === secrets.length,
    now: verified[0].report.now,
    plans: verified.flatMap(({ output, report, members }) => report.plans.map((p, i) => ({ ...p, span: { kubernetesCluster: members[i].kubernetesCluster, dist: output.dist } }))),
    secrets,
    summary: { checked: secrets.length, passed, failed: secrets.length - passed },
  };
}

/** The plan of a database cluster in an output, which must be of a span. */
function memberOf(output: VerifyOutput, namespace: string, clusterName: string): Member {
  const { plan } = output.plans.find((p) => p.plan.namespace === namespace && p.plan.clusterName === clusterName)!;
  if (plan.span === undefined) {
    throw new VerifyInputError('--dist', 'plan', `${output.dist}: ${namespace}/${clusterName}, which spans no Kubernetes clusters`,
      'with several --dist, the outputs of one database cluster across Kubernetes clusters (span), one per Kubernetes cluster; check any other output with a --dist of its own');
  }
  return { output, plan, kubernetesCluster: plan.span.kubernetesCluster, domain: plan.span.clusterDomain };
}

/**
 * The members of each database cluster (namespace and name), each of another Kubernetes cluster
 * and another domain, as one declaration of the span makes them.
 */
function groups(members: readonly Member[]): Member[][] {
  const byCluster = new Map<string, Member[]>();
  for (const member of members) {
    const key = `${member.plan.namespace}/${member.plan.clusterName}`;
    const group = byCluster.get(key) ?? [];
    const same = group.find((m) => m.kubernetesCluster === member.kubernetesCluster);
    if (same !== undefined) {
      throw new VerifyInputError('--dist', 'folder', member.output.dist,
        `the output of a Kubernetes cluster no other --dist is for: ${same.output.dist} is Kubernetes cluster ${member.kubernetesCluster}'s output of ${key} too`);
    }
    const domain = group.find((m) => m.domain === member.domain);
    if (domain !== undefined) {
      throw new VerifyInputError('--dist', 'span', `${member.output.dist}: Kubernetes cluster ${member.kubernetesCluster} in ${member.domain}`,
        `a domain no other output of ${key} has (${domain.output.dist}, Kubernetes cluster ${domain.kubernetesCluster}, is in it too): synthesize every output of the span from one declaration`);
    }
    byCluster.set(key, [...group, member]);
  }
  return [...byCluster.values()];
}

/** The Secrets of a member's plan that had their handshakes (the Secrets of TLS for MySQL clients stay within their Kubernetes cluster). */
function partiesOf(member: Member, report: VerifyReport): Party[] {
  return member.plan.secrets.flatMap((required) => {
    const checked = report.secrets.find((s) => s.sqlTls === undefined && s.name === required.name
      && s.namespace === member.plan.namespace && s.clusterName === member.plan.clusterName)!;
    const secret = member.output.secrets.find((s) => s.name === required.name && (s.namespace === undefined || s.namespace === member.plan.namespace));
    return secret !== undefined && shakesHands(checked.checks) ? [{ member, required, secret, peer: isPeer(checked.checks) }] : [];
  });
}

/** The report of a party's Secret in its output's report. */
function reportOf(party: Party, verified: readonly { output: VerifyOutput; report: VerifyReport }[]): SecretReport {
  const { report } = verified.find((v) => v.output === party.member.output)!;
  return report.secrets.find((s) => s.sqlTls === undefined && s.name === party.required.name
    && s.namespace === party.member.plan.namespace && s.clusterName === party.member.plan.clusterName)!;
}

/** The server's names the members of another Kubernetes cluster dial: those of its own cluster's domain. */
function namesAcross(server: Party): string[] {
  return dialedNames(server.required).filter((name) => name.endsWith(`.svc.${server.member.domain}`));
}

/**
 * Every handshake across the Kubernetes clusters whose outcome tells something of one side: a
 * server Secret dialed by a Secret of another Kubernetes cluster, one of the two a peer.
 */
async function crossAll(parties: readonly Party[]): Promise<Crossing[]> {
  const crossings: Crossing[] = [];
  for (const server of parties.filter((p) => p.required.role === 'server')) {
    const dialers = parties.filter((d) => d.member !== server.member && (d.peer || server.peer));
    if (dialers.length === 0) {
      continue;
    }
    const names = namesAcross(server);
    if (names.length === 0) {
      const failure = `${server.required.name} names no host in ${server.member.domain}`;
      crossings.push(...dialers.map((dialer) => ({ server, dialer, outcome: { ok: false, failure, server: { ok: false }, client: { ok: false } } })));
      continue;
    }
    let listening: HandshakeServer;
    try {
      listening = await HandshakeServer.start(tlsMaterial(server.secret));
    } catch (e) {
      const failure = oneLine((e as Error).message);
      crossings.push(...dialers.map((dialer) => ({ server, dialer, outcome: { ok: false, failure, server: { ok: false }, client: { ok: false } } })));
      continue;
    }
    try {
      for (const dialer of dialers) {
        crossings.push({ server, dialer, outcome: await listening.handshake(tlsMaterial(dialer.secret), { alsoNames: names }) });
      }
    } finally {
      await listening.close();
    }
  }
  return crossings;
}

/** The `across` check of one Secret: its handshakes with the peers of the other Kubernetes clusters. */
function acrossCheck(party: Party, crossings: readonly Crossing[], group: readonly Member[]): CheckResult {
  const others = group.filter((m) => m !== party.member).map((m) => m.kubernetesCluster);
  const mine = crossings.filter((c) => (c.server === party && c.dialer.peer) || (c.dialer === party && c.server.peer));
  const failures = mine.filter((c) => !c.outcome.ok).map((c) => {
    const other = c.server === party ? c.dialer : c.server;
    const direction = c.server === party ? `dialed by ${other.member.kubernetesCluster}'s ${other.required.name}` : `dialing ${other.member.kubernetesCluster}'s ${other.required.name}`;
    return `${direction}: ${describeOutcome(c.outcome)}`;
  });
  const clusters = listed(others, 'cluster');
  const expected = party.required.role === 'server'
    ? `mutual handshakes with the Secrets of Kubernetes clusters ${clusters}: each dials it by its names in ${party.member.domain}, and it dials their server Secrets by theirs, each side accepting the other`
    : `mutual handshakes with every server Secret of Kubernetes clusters ${clusters}, by their names in their own domains, each side accepting the other`;
  return {
    check: 'across',
    ok: failures.length === 0,
    expected,
    found: mine.length === 0 ? 'no Secret of the other Kubernetes clusters passed its own checks to shake hands with'
      : failures.length === 0 ? `${mine.length} handshakes, all accepted`
      : `${failures.length} of ${mine.length} rejected: ${failures.slice(0, 2).join('; ')}${failures.length > 2 ? '; …' : ''}`,
  };
}
