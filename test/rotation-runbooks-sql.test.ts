/**
 * TLS for MySQL clients rotating with the cluster, each rotation runbook run as written as in
 * rotation-runbooks.test.ts (whose helpers it shares, test/_rotation-runbooks.ts), with the real
 * tidb-server judging every handshake between the application and the SQL server's MySQL port
 * (test/_tidb-judge.ts) where it is built. A file of its own so that the rest of the rotation
 * runbooks, which need no built program, run while CI builds tidb-server.
 */
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CertificateRotation, IssuingMethod, RotationKind, RotationPhase } from '../lib';
import { filesFolderOf, rotationRunbookPath, verifyReportFromOutputFolder } from '../lib/model/output-layout';
import { describeWithCfssl, requireCfssl } from './_cfssl-available';
import { missingTools } from './_control-plane';
import { hasMariaDb } from './_mariadb';
import { CLUSTER, NS, SQL_APPLICATION, SQL_APPLICATION_SECRET, certificates, created, project, report, rotate, synth } from './_rotation-runbooks';
import { formatOutages } from './_rotation-simulator';
import { bash, buildCommand, shellBlocks } from './_runbooks';
import { TidbJudge } from './_tidb-judge';

/**
 * Whether the real tidb-server judges the handshakes between applications and the SQL server (its
 * administrator client is MariaDB's): where it is built, as CI builds it; elsewhere OpenSSL through
 * `node:tls` does, and the tests' names say so.
 */
const REAL_SQL_SERVER = missingTools(['tidb-server']).length === 0 && hasMariaDb;

beforeAll(() => {
  // `npx cluster-tls` runs the built command: build it from the sources under test.
  buildCommand();
}, 120_000);

/**
 * A rotation with TLS for MySQL clients, run as written: the SQL Secrets of both namespaces move
 * with the cluster's (a leaf renewal from the SQL CA they had, a CA replacement to a new SQL CA),
 * the application's Deployment is restarted by the runbook onto what its Secret holds, every
 * handshake between the application and the sqlserver pods passes at every step, and the
 * application's Secret is in the report the next synth reads; without it there, the next rotation
 * is refused.
 */
async function rotationWithSqlClients(method: IssuingMethod, rotation: CertificateRotation): Promise<void> {
  if (!REAL_SQL_SERVER && process.env.CI === 'true') {
    throw new Error('CI=true but tidb-server is not built or MariaDB\'s client is missing (scripts/build-control-plane.sh and the Debian package mariadb-server; .ci/run installs both)');
  }
  const judge = REAL_SQL_SERVER ? new TidbJudge() : undefined;
  try {
    await rotationJudged(method, rotation, judge);
  } finally {
    await judge?.stop();
  }
  if (judge) {
    // The real SQL server judged the application's logins, serving each of the SQL server's certificates in turn.
    expect(judge.logins).toBeGreaterThan(0);
    expect(judge.reloads).toBeGreaterThan(0);
  }
}

async function rotationJudged(method: IssuingMethod, rotation: CertificateRotation, judge: TidbJudge | undefined): Promise<void> {
  const p = project();
  const { cluster, sim } = await created(p, method, { interleaving: 'alternate' }, true, judge?.judge);
  const inCluster = [`${CLUSTER}-sqlserver-server-secret`, `${CLUSTER}-sqlserver-client-secret`];
  const sqlSecrets = () => new Map([...cluster.secrets()].filter(([name]) => [...inCluster, SQL_APPLICATION_SECRET].includes(name)));
  const before = sqlSecrets();
  expect([...before.keys()].sort()).toEqual([...inCluster, SQL_APPLICATION_SECRET].sort());
  const application = sim.pods.find((pod) => pod.application !== undefined)!;
  expect(application.loaded!.key).toBe(before.get(SQL_APPLICATION_SECRET)!['tls.key']);
  const sqlCaSecrets = () => p.kubectl.secrets().filter((s) => s.namespace === 'cert-manager');
  const sqlCaBefore = sqlCaSecrets();
  await rotate(p, method, cluster, [], rotation, true);
  expect(formatOutages(sim.outages)).toBe('');
  expect(sim.pods.filter((pod) => pod.sqlServer !== undefined)).toHaveLength(2);
  const after = sqlSecrets();
  const initialSqlCa = certificates(before.get(inCluster[0])!['ca.crt'])[0];
  const kind = rotation.kind ?? RotationKind.CA_REPLACEMENT;
  const spki = (c: X509Certificate) => c.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  for (const [name, secret] of before) {
    const cas = certificates(after.get(name)!['ca.crt']);
    // A new key but for a CA renewal; the same SQL CA after a leaf renewal, a new certificate of it (with its key) after a CA
    // renewal, a new one alone after a CA replacement; that CA signed the certificate.
    expect([name, after.get(name)!['tls.key'] !== secret['tls.key'], cas.length, cas[0].fingerprint256 !== initialSqlCa.fingerprint256,
      spki(cas[0]) === spki(initialSqlCa), new X509Certificate(after.get(name)!['tls.crt']).verify(cas[0].publicKey)])
      .toEqual([name, kind !== RotationKind.CA_RENEWAL, 1, kind !== RotationKind.LEAF_RENEWAL, kind !== RotationKind.CA_REPLACEMENT, true]);
  }
  if (rotation.kind === RotationKind.LEAF_RENEWAL) {
    expect(sqlCaSecrets()).toEqual(sqlCaBefore);
  }
  // The runbook restarted the application, which loaded what its Secret holds now.
  const deployment = p.kubectl.calls().filter((c) => c[0] === 'rollout' && c[1] === 'restart' && c.includes(SQL_APPLICATION.namespace)).map((c) => c[2]);
  expect(deployment.length).toBeGreaterThan(0);
  expect(application.loaded!.key).toBe(after.get(SQL_APPLICATION_SECRET)!['tls.key']);
  // The report shows the application's Secret, in its namespace, loaded by its pod after the last write.
  const shown = report(p).secrets.find((x: any) => x.namespace === SQL_APPLICATION.namespace && x.name === SQL_APPLICATION_SECRET);
  expect(shown.checks.filter((c: any) => ['rotation', 'loaded', 'handshake'].includes(c.check)).map((c: any) => [c.check, c.ok]))
    .toEqual([['rotation', true], ['handshake', true], ['loaded', true]]);
  // A report of the cluster's namespace alone does not show it: the next rotation is refused.
  await bash(`kubectl get secrets,pods -n ${NS} -o json --show-managed-fields | npx cluster-tls verify --dist . --namespace ${NS} --cluster ${CLUSTER} --secrets - --json `
    + `> ${verifyReportFromOutputFolder(NS, CLUSTER)}`, p.outdir, p.env);
  expect(() => synth(p, method, [rotation, { id: 'leaves-2', kind: RotationKind.LEAF_RENEWAL }], true))
    .toThrow(`does not show Secret ${SQL_APPLICATION.namespace}/${SQL_APPLICATION_SECRET} there: it is not in the report`);
}

describe(`TLS for MySQL clients rotates with the cluster, run as written, ${REAL_SQL_SERVER ? 'the real tidb-server' : 'OpenSSL (no tidb-server built here)'} judging the applications' handshakes`, () => {
  test('cert-manager, leaf renewal: cmctl renew in each namespace, the SQL CA untouched, the application restarted', async () => {
    await rotationWithSqlClients(IssuingMethod.CERT_MANAGER, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL });
  }, 300_000);

  test('cert-manager, CA replacement: a new SQL CA in cert-manager\'s namespace, zero rejected handshakes between the application and the SQL server', async () => {
    await rotationWithSqlClients(IssuingMethod.CERT_MANAGER, { id: '2026-12' });
  }, 300_000);

  describeWithCfssl('TLS for MySQL clients rotating with cfssl')('cfssl', () => {
    test('leaf renewal: the script issues them in sql/<id>/ from the SQL CA and writes each Secret in its namespace', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: 'leaves-1', kind: RotationKind.LEAF_RENEWAL });
    }, 300_000);

    test('CA replacement: a new SQL CA in sql/<id>/, zero rejected handshakes between the application and the SQL server', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: '2026-12' });
    }, 300_000);

    test('turned on after a CA replacement, while its last phase is declared: the script makes the SQL CA of that generation, and every Secret holds it alone', async () => {
      requireCfssl();
      const p = project();
      const { cluster } = await created(p, IssuingMethod.CFSSL, { interleaving: 'alternate' });
      const rotations = [{ id: '2026-12' }];
      await rotate(p, IssuingMethod.CFSSL, cluster, [], rotations[0]);
      synth(p, IssuingMethod.CFSSL, [{ ...rotations[0], phase: RotationPhase.DROP_OLD }], true);
      // The runbook's first block, as written: copy the folder, run the script.
      const runbook = fs.readFileSync(path.join(filesFolderOf(p.outdir), rotationRunbookPath(NS, CLUSTER)), 'utf8');
      await bash(shellBlocks(runbook)[0], p.outdir, p.env);
      const copy = path.join(p.dir, 'home', `pki-${NS}-${CLUSTER}`);
      const sqlCa = new X509Certificate(fs.readFileSync(path.join(copy, 'sql', '2026-12', 'ca.pem')));
      for (const [namespace, name] of [[NS, `${CLUSTER}-sqlserver-server-secret`], [NS, `${CLUSTER}-sqlserver-client-secret`], [SQL_APPLICATION.namespace, SQL_APPLICATION_SECRET]]) {
        const secret = p.kubectl.secrets().find((x) => x.namespace === namespace && x.name === name)!;
        const cas = certificates(Buffer.from(secret.data['ca.crt'], 'base64').toString());
        const cert = new X509Certificate(Buffer.from(secret.data['tls.crt'], 'base64').toString());
        expect([name, cas.length, cas[0].fingerprint256 === sqlCa.fingerprint256, cert.verify(sqlCa.publicKey)]).toEqual([name, 1, true, true]);
      }
    }, 300_000);

    test('CA renewal: the SQL CA renewed with its key in sql/<id>/, the leaves kept', async () => {
      requireCfssl();
      await rotationWithSqlClients(IssuingMethod.CFSSL, { id: 'ca-1', kind: RotationKind.CA_RENEWAL });
    }, 300_000);
  });
});

