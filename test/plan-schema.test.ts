import Ajv from 'ajv';
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { COMPONENTS, ClusterKind } from '../lib/model/catalog';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { IssuingMethod, KeyAlgorithm, TLS_PLAN_VERSION } from '../lib/plan/certificate-options';
import { TLS_PLAN_FILE } from '../lib/model/output-layout';
import { renderApp } from '../lib/synth/synthesize';
import PLAN_SCHEMA from '../lib/plan/tls-plan.schema.json';
import { buildApp } from '../main';

/** The schema compiled as strictly as ajv can: an unknown keyword or a loose type is an error. */
const validate = new Ajv({ strict: true, allErrors: true }).compile(PLAN_SCHEMA);

describe('tls-plan.schema.json', () => {
  test('lists exactly the values the library can write', () => {
    const props = PLAN_SCHEMA.properties;
    const secret = PLAN_SCHEMA.definitions.secret.properties;
    expect({
      version: props.version.const,
      method: props.method.enum,
      algorithm: PLAN_SCHEMA.definitions.key.properties.algorithm.enum,
      cluster: secret.cluster.enum,
      component: secret.component.enum,
      userSecretCluster: props.userSecrets.items.properties.cluster.enum,
    }).toEqual({
      version: TLS_PLAN_VERSION,
      method: Object.values(IssuingMethod),
      algorithm: Object.values(KeyAlgorithm),
      cluster: Object.values(ClusterKind),
      component: COMPONENTS.map((c) => c.token),
      userSecretCluster: Object.values(ClusterKind),
    });
  });

  test('every plan the reference app writes is valid against it', () => {
    const plans = renderApp(buildApp()).files.filter((f) => f.path.endsWith(`/${TLS_PLAN_FILE}`));
    expect(plans.map((f) => f.path).sort()).toEqual(['demo-cfssl/basic/tls-plan.json', 'demo/basic/tls-plan.json']);
    for (const file of plans) {
      const plan = JSON.parse(file.content);
      expect({ file: file.path, errors: validate(plan) ? [] : validate.errors }).toEqual({ file: file.path, errors: [] });
      expect(plan.version).toBe(TLS_PLAN_VERSION);
    }
  });

  test('every plan of a random valid input is valid against it', () => {
    const key = fc.oneof(
      fc.record({ algorithm: fc.constant(KeyAlgorithm.RSA), size: fc.constantFrom(2048, 3072, 4096) }),
      fc.record({ algorithm: fc.constant(KeyAlgorithm.ECDSA), size: fc.constantFrom(256, 384, 521) }),
    );
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
    const servers = fc.subarray(COMPONENTS.filter((c) => c.token !== 'drainer').map((c) => c.token));
    fc.assert(fc.property(label, label, fc.constantFrom(...Object.values(IssuingMethod)), key, servers, (name, ns, method, privateKey, components) => {
      const plan = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: name, namespace: ns, method, privateKey, components }).plan();
      const copy = JSON.parse(JSON.stringify(plan));
      expect(validate(copy) ? [] : validate.errors).toEqual([]);
    }), { numRuns: 100 });
  });

  test('refuses what a reader could not rely on: a missing field, an unknown one, another version', () => {
    const plan = JSON.parse(renderApp(buildApp()).files.find((f) => f.path.endsWith(`/${TLS_PLAN_FILE}`))!.content);
    expect(validate(plan)).toBe(true);
    expect(validate({ ...plan, version: TLS_PLAN_VERSION + 1 })).toBe(false);
    expect(validate({ ...plan, secrets: [{ ...plan.secrets[0], extra: true }] })).toBe(false);
    const { commonName: _commonName, ...withoutCommonName } = plan;
    expect(validate(withoutCommonName)).toBe(false);
    // A Secret you create says what loads it; an empty list is written as none.
    expect(plan.userSecrets.map((s: any) => s.name)).toEqual(['basic-sink-tls', 'basic-source1-tls']);
    expect(validate({ ...plan, userSecrets: [{ ...plan.userSecrets[0], usedBy: undefined }] })).toBe(false);
    expect(validate({ ...plan, userSecrets: [] })).toBe(false);
    // A Secret of TLS for MySQL clients says what its role needs: an application's names it, the server's its names.
    const sqlSecret = (role: string) => plan.sqlTls.secrets.find((x: any) => x.role === role);
    const without = (role: string, field: string) => ({
      ...plan, sqlTls: { ...plan.sqlTls, secrets: plan.sqlTls.secrets.map((x: any) => (x === sqlSecret(role) ? { ...x, [field]: undefined } : x)) },
    });
    expect(validate(JSON.parse(JSON.stringify(without('application', 'application'))))).toBe(false);
    expect(validate(JSON.parse(JSON.stringify(without('server', 'dnsNames'))))).toBe(false);
    expect(validate(JSON.parse(JSON.stringify(without('operator-client', 'dnsNames'))))).toBe(true);
  });
});
