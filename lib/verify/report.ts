/**
 * The human output of `cluster-tls verify`: one row per Secret, each failed check spelled out
 * below its row, and a summary line.
 */
import { boundedLine, listed } from './text';
import type { SecretReport, VerifyReport } from './types';
import { USER_SECRET_CHECKS, USER_SECRET_UNCHECKED } from './user-secrets';

/** The CERTIFICATE cell of a Secret's row: whose certificate it is. */
function certificateCell(s: SecretReport): string {
  return s.sqlTls !== undefined ? `mysql ${s.sqlTls}` : s.role === 'user' ? `yours: ${s.usedBy}` : s.role === 'server' ? `server: ${s.component}` : `client: ${s.cluster}`;
}

/** Pads the columns of rows to their widest cell. */
function columns(rows: readonly string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '));
}

/** Renders a report as text: a header per plan, the table, the failures and the summary line. */
export function formatReport(report: VerifyReport): string {
  const out: string[] = [];
  for (const plan of report.plans) {
    const of = plan.output === undefined ? '' : ` of Kubernetes cluster ${plan.output.kubernetesCluster} (--dist ${plan.output.dist})`;
    out.push(`plan ${plan.namespace}/${plan.clusterName}${of}: ${plan.file}, issued with ${plan.method}${plan.issuer ? ` through ${plan.issuer}` : ''}, checked at ${report.now}`);
    const lists = plan.allowedCommonNames;
    const files = [...new Set(lists.map((a) => a.source.split(' ')[0]))];
    out.push(lists.length
      ? `allowed Common Names: the lists of ${listed([...new Set(lists.map((a) => a.component))], 'component')} in ${listed(files, 'file')}`
      : 'allowed Common Names: no list in the output; the Common Name must be the plan\'s');
    if (plan.notInInput !== undefined) {
      out.push(`not checked, their namespaces are not in the input: ${listed(plan.notInInput, 'Secret')}`);
    }
    const yours = report.secrets.filter((s) => s.role === 'user' && s.namespace === plan.namespace && s.clusterName === plan.clusterName
      && s.kubernetesCluster === plan.output?.kubernetesCluster);
    if (yours.length > 0) {
      const checked = USER_SECRET_CHECKS.filter((c) => c !== 'expiry');
      out.push(`Secrets you create: ${listed(yours.map((s) => s.name), 'Secret')}, checked for ${checked.join(', ')}, expiry with --min-days and loaded with pods alone; `
        + `not for ${USER_SECRET_UNCHECKED.checks.join(', ')}: ${USER_SECRET_UNCHECKED.why}`);
    }
  }
  for (const u of report.unchecked ?? []) {
    out.push(`not checked: ${u.namespace}/${u.clusterName} in Kubernetes cluster ${u.kubernetesCluster} (${u.clusterDomain}), of the span, whose output no --dist gives: `
      + 'give it too, followed by --secrets with the Secrets read there');
  }
  out.push('');
  const header = ['SECRET', 'CLUSTER', 'CERTIFICATE', 'RESULT'];
  const rows = report.secrets.map((s) => [
    s.name, `${s.namespace}/${s.clusterName}${s.kubernetesCluster === undefined ? '' : ` in ${s.kubernetesCluster}`}`, certificateCell(s), s.ok ? 'PASS' : 'FAIL',
  ]);
  const lines = columns([header, ...rows]);
  out.push(lines[0]);
  report.secrets.forEach((s, i) => {
    out.push(lines[i + 1]);
    for (const c of s.checks.filter((x) => !x.ok)) {
      out.push(`  - ${c.check}: expected ${c.expected}; found ${c.found}`);
    }
  });
  out.push('');
  const { checked, passed, failed, missingUserSecrets } = report.summary;
  // A Secret you create that is missing: named here too, since no issuing step will ever write it.
  const missing = missingUserSecrets === undefined ? ''
    : `; missing Secrets you create: ${listed(missingUserSecrets.map((m) => `${m.name} in namespace ${m.namespace} (for ${m.usedBy})`), 'Secret')}`;
  const unchecked = report.unchecked?.length ? `; not checked: ${listed(report.unchecked.map((u) => `${u.namespace}/${u.clusterName} in ${u.kubernetesCluster}`), 'cluster')} (no --dist)` : '';
  out.push(`${checked} secret${checked === 1 ? '' : 's'} checked: ${passed} passed, ${failed} failed${missing}${unchecked}`);
  // Every line bounded, whatever a value in it holds.
  return `${out.map(boundedLine).join('\n')}\n`;
}
