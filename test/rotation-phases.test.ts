/**
 * What each phase of the reference app's rotation writes (synthesized from main.ts, as
 * `CLUSTER_TLS_ROTATION_PHASE` selects it), the guards that keep phases in order, and
 * `cluster-tls verify`'s check of a phase.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { addDeployment, buildApp, referenceRotations } from '../main';
import { IssuingMethod, RotationPhase, ClusterTlsError, loadPlans, parseSecrets, renderApp, synthesize, verify } from '../lib';
import { expectValidAgainstCrds } from './_crds';

const PHASES = [RotationPhase.TRUST_BOTH, RotationPhase.SWITCH_LEAVES, RotationPhase.DROP_OLD];

function manifestsOf(files: Map<string, string>, name: string): any[] {
  return YAML.parseAllDocuments(files.get(name)!).map((d) => d.toJS());
}

describe.each(PHASES)('the reference app at phase %s', (phase) => {
  const files = new Map(renderApp(buildApp(undefined, referenceRotations(phase))).files.map((f) => [f.path, f.content]));
  const certManager = manifestsOf(files, 'demo.k8s.yaml');
  const cfssl = manifestsOf(files, 'demo-cfssl.k8s.yaml');
  const certificates = certManager.filter((m) => m.kind === 'Certificate');
  const caSecretOfIssuer = certManager.find((m) => m.kind === 'Issuer' && m.metadata.name === 'basic-db-issuer').spec.ca.secretName;

  test('every component of both clusters carries the phase\'s restart annotation, and the objects fit the CRDs', () => {
    for (const m of [...certManager, ...cfssl].filter((o) => o.kind === 'DatabaseCluster' || o.kind === 'MigrationCluster')) {
      const parts = Object.values(m.spec).filter((v: any) => v && typeof v === 'object' && 'replicas' in v) as any[];
      expect(parts.length).toBeGreaterThanOrEqual(m.kind === 'DatabaseCluster' ? 6 : 2);
      parts.forEach((p) => expect(p.annotations).toEqual({ 'db.operator.io/restartedAt': `rotation-2026-11-${phase}` }));
    }
    expectValidAgainstCrds([...certManager, ...cfssl]);
  });

  test('cert-manager: the CAs, the issuers and the custody of the leaves of the phase', () => {
    const cas = certificates.filter((c) => c.spec.isCA).map((c) => c.metadata.name);
    const leaves = certificates.filter((c) => !c.spec.isCA).map((c) => c.metadata.name);
    const expected = {
      [RotationPhase.TRUST_BOTH]: { cas: ['basic-ca', 'basic-ca-2026-11'], issuerCa: 'basic-ca-secret', leaves: [] as string[] },
      [RotationPhase.SWITCH_LEAVES]: { cas: ['basic-ca', 'basic-ca-2026-11'], issuerCa: 'basic-ca-2026-11-secret', leaves: ['basic-coordinator-cluster-secret-2026-11'] },
      [RotationPhase.DROP_OLD]: { cas: ['basic-ca-2026-11'], issuerCa: 'basic-ca-2026-11-secret', leaves: ['basic-coordinator-cluster-secret'] },
    }[phase as string]!;
    expect(cas).toEqual(expected.cas);
    expect(caSecretOfIssuer).toBe(expected.issuerCa);
    expected.leaves.forEach((l) => expect(leaves).toContain(l));
    expect(leaves.length).toBe(expected.leaves.length === 0 ? 0 : 13);
    expect(files.has('demo/basic/rotate-certificates.sh')).toBe(true);
  });

  test('cfssl: the script writes every Secret whole from the phase\'s files and keeps the earlier generation', () => {
    const script = files.get('demo-cfssl/basic/cfssl/issue-certificates.sh')!;
    const ca = phase === RotationPhase.DROP_OLD ? '"$next/ca.pem"' : '"$next/ca-bundle.pem"';
    const leaf = phase === RotationPhase.TRUST_BOTH ? '$prev' : '$next';
    expect(script).toContain(`put_secret 'basic-store-cluster-secret' "${leaf}/store-server.pem" "${leaf}/store-server-key.pem" ${ca}`);
    expect(script).not.toMatch(/\brm\b(?! -rf -- "\$work")|kubectl[^\n]*delete/);
    expect(files.get('demo-cfssl/basic/rotation-runbook.md')).toContain(`phase ${phase} (${PHASES.indexOf(phase) + 1} of 3)`);
  });
});

describe('guards: one phase per synth, forward', () => {
  function synth(root: string, phase: RotationPhase | undefined, options: { verifyReport?: string } = {}): void {
    const app = new App();
    addDeployment(app, 'demo', IssuingMethod.USER_PROVIDED, phase ? [{ id: '2026-11', phase }] : []);
    synthesize(app, { outdir: path.join(root, 'dist'), acknowledgeRecreation: [], ...options });
  }

  test('skipping a phase, going back and dropping an unfinished rotation are refused; the next phase passes', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-guard-'));
    synth(root, undefined);
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES)).toThrow(/rotations: received 2026-11 at "switch-leaves"; expected no rotation or a new rotation at/);
    synth(root, RotationPhase.TRUST_BOTH);
    expect(() => synth(root, RotationPhase.DROP_OLD)).toThrow(/expected 2026-11 at "trust-both" or 2026-11 at "switch-leaves"/);
    synth(root, RotationPhase.SWITCH_LEAVES);
    expect(() => synth(root, RotationPhase.TRUST_BOTH)).toThrow(ClusterTlsError);
    expect(() => synth(root, undefined)).toThrow(/received no rotation/);
    synth(root, RotationPhase.DROP_OLD);
    synth(root, RotationPhase.DROP_OLD);
  });

  test('with a verify report, the next phase waits for every Secret to be in the phase in place', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rotation-report-'));
    synth(root, undefined);
    synth(root, RotationPhase.TRUST_BOTH);
    const plans = loadPlans(path.join(root, 'dist'));
    // No Secret written yet: verify reports every one as not in the phase.
    const report = await verify(plans, parseSecrets('{"apiVersion":"v1","kind":"List","items":[]}'));
    const file = path.join(root, 'report.json');
    fs.writeFileSync(file, JSON.stringify(report));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file }))
      .toThrow(/rotations phase: received the phase after "trust-both"; expected "trust-both" until every Secret of the cluster is in it, and .*report.json shows Secret basic-cluster-client-secret is not: not checked;/);
    fs.writeFileSync(file, JSON.stringify({ ...report, plans: report.plans.map((p) => ({ ...p, rotation: { id: '2026-11', phase: 'switch-leaves' } })) }));
    expect(() => synth(root, RotationPhase.SWITCH_LEAVES, { verifyReport: file })).toThrow(/is not a report of phase "trust-both"/);
  });
});
