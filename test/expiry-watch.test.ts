/**
 * The expiry watch: which certificates its rules watch, and through which metrics, for every
 * issuing method; the monitor's rules ConfigMap; the exporter's values and install step; the one
 * line of each refused option. The rules themselves are judged by the real promtool: `check rules`
 * on every rule file, and `test rules` with synthetic series of certificates that expire in 20
 * and 60 days, of a Certificate not Ready and of a certificate nothing reports.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import { App, Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { CertificateRotation, ClusterCertificates, DatabaseMonitor, ExpiryWatch, IssuingMethod, OutputFile, RotationPhase, TlsDatabaseCluster, TlsMigrationCluster, renderApp } from '../lib';
import { EXPIRY_ALERTS } from '../lib/model/expiry';
import { addDeployment } from '../main';
import { expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';
import { describeWithPromtool, promtool } from './_promtool';

const DAY = 86_400;
const MONITOR = {
  initializer: { baseImage: 'registry.example.com/monitor-initializer', version: 'v4.0.5' },
  reloader: { baseImage: 'registry.example.com/monitor-reloader', version: 'v1.0.1' },
};

/** A database cluster "basic" in namespace demo with the given certificates' props, watched. */
function watched(props: Partial<ConstructorParameters<typeof ClusterCertificates>[2]> = {}, options: Parameters<ClusterCertificates['watchExpiry']>[0] = {}) {
  const app = new App({ outdir: 'unused' });
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', ...props });
  const database = new TlsDatabaseCluster(chart, 'db', {
    clusterName: props.clusterName ?? 'basic', version: 'v4.0.5', certificates: certs,
    coordinator: { baseImage: 'c', storage: '1Gi' }, store: { baseImage: 's', storage: '1Gi' }, sqlserver: { baseImage: 'q' },
  });
  const watch = certs.watchExpiry(options);
  database.addMonitor({ ...MONITOR, expiryWatch: watch });
  const objects = Testing.synth(chart);
  const files = new Map(chart.node.findAll().filter(OutputFile.isOutputFile).filter((f) => f.isWritten()).map((f) => [f.path, f]));
  const rules = objects.find((o) => o.kind === 'PrometheusRule' && o.metadata.name === `${certs.clusterName}-certificate-expiry`);
  return { certs, watch, database, objects, files, rules };
}

/**
 * The errors of chart values against x509-certificate-exporter's values schema (crds/), as Helm
 * judges them once it has merged them over the chart's defaults: the chart's defaults hold every
 * required key, so only the requirements of list items, which have no defaults, remain.
 */
function exporterValuesErrors(values: unknown): string[] {
  const withoutDefaultsRequired = (schema: any, inItem = false): any => {
    if (Array.isArray(schema)) {
      return schema.map((s) => withoutDefaultsRequired(s, inItem));
    }
    if (schema === null || typeof schema !== 'object') {
      return schema;
    }
    return Object.fromEntries(Object.entries(schema).filter(([k]) => inItem || k !== 'required')
      .map(([k, v]) => [k, withoutDefaultsRequired(v, inItem || k === 'items')]));
  };
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'crds', 'x509-certificate-exporter', 'values.schema.json'), 'utf8'));
  const validate = new Ajv({ strict: false, allErrors: true }).compile(withoutDefaultsRequired(schema));
  return validate(values) ? [] : validate.errors!.map((e) => `${e.instancePath}: ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
}

/** The alerts of a rule group, as `<alert> <what it watches>`. */
const alertsOf = (rules: any) => rules.spec.groups[0].rules.map((r: any) => `${r.alert} ${/\{(.*?)\}/.exec(r.expr)![1]}`);

describe('which certificates the rules watch', () => {
  test('with cert-manager: every Certificate, CA included, through cert-manager\'s metrics, three alerts each', () => {
    const { objects, rules, files } = watched();
    const certificates = objects.filter((o) => o.kind === 'Certificate').map((o) => o.metadata.name);
    expect(certificates).toHaveLength(6); // the CA, the client, four servers (the pump comes with the sqlserver)
    expect(alertsOf(rules)).toEqual([`${EXPIRY_ALERTS.metricsMissing} exported_namespace="demo",name=~"${certificates.join('|')}"`, ...certificates.flatMap((name) => [
      `${EXPIRY_ALERTS.expiring} exported_namespace="demo",name="${name}"`,
      `${EXPIRY_ALERTS.notReady} exported_namespace="demo",name="${name}",condition!="True"`,
      `${EXPIRY_ALERTS.unwatched} exported_namespace="demo",name="${name}"`,
      // Each leaf, against the one CA: issued before the CA's last renewal?
      ...(name === 'basic-ca' ? [] : [`${EXPIRY_ALERTS.outdatedCaCopy} exported_namespace="demo",name="${name}"`]),
    ])]);
    // The Certificate's namespace is read as cert-manager's ServiceMonitor relabels it, and as it is without it.
    const metric = (name: string) => `certmanager_certificate_expiration_timestamp_seconds{exported_namespace="demo",name="${name}"} `
      + `or certmanager_certificate_expiration_timestamp_seconds{namespace="demo",exported_namespace="",name="${name}"}`;
    expect(rules.spec.groups[0].rules.find((r: any) => r.alert === EXPIRY_ALERTS.outdatedCaCopy).expr).toBe(
      `min(${metric('basic-cluster-client-secret')}) - 31536000 < min(${metric('basic-ca')}) - 315360000`);
    // Nothing for the exporter: no values file, no install step.
    expect([...files.keys()].filter((p) => p.includes('x509'))).toEqual([]);
    expect(files.get('demo/basic/database-runbook.md')!.render()).not.toMatch(/x509-certificate-exporter/);
    expectValidAgainstCrds(objects);
  });

  test.each([IssuingMethod.CFSSL, IssuingMethod.USER_PROVIDED])('with %s: the tls.crt and ca.crt of every Secret of the plan, through the exporter', (method) => {
    const { certs, rules, files, objects } = watched({ method });
    const secrets = certs.plan().secrets.map((s) => s.name);
    expect(secrets).toHaveLength(5);
    expect(alertsOf(rules)).toEqual([`${EXPIRY_ALERTS.metricsMissing} secret_namespace="demo",secret_name=~"${secrets.join('|')}"`,
      ...secrets.flatMap((name) => ['tls.crt', 'ca.crt'].flatMap((key) => [
        `${EXPIRY_ALERTS.expiring} secret_namespace="demo",secret_name="${name}",secret_key="${key}"`,
        `${EXPIRY_ALERTS.unwatched} secret_namespace="demo",secret_name="${name}",secret_key="${key}"`,
      ]))]);
    const values = YAML.parse(files.get('demo/basic/x509-certificate-exporter-values.yaml')!.render());
    expect(exporterValuesErrors(values)).toEqual([]);
    expect(values).toEqual({
      fullnameOverride: 'demo-basic-cert-expiry',
      secretsExporter: {
        includeNamespaces: ['demo'],
        includeSecrets: secrets,
        secretTypes: [
          { type: 'Opaque', key: 'tls.crt' }, { type: 'Opaque', key: 'ca.crt' },
          { type: 'kubernetes.io/tls', key: 'tls.crt' }, { type: 'kubernetes.io/tls', key: 'ca.crt' },
        ],
      },
      prometheusServiceMonitor: { create: true },
      prometheusRules: { create: false },
    });
    expect(files.get('demo/basic/database-runbook.md')!.render()).toContain(
      'helm upgrade --install basic-cert-expiry oci://quay.io/enix/charts/x509-certificate-exporter --version 4.2.0 --namespace demo -f ../cluster-tls/demo/basic/x509-certificate-exporter-values.yaml');
    expectValidAgainstCrds(objects);
  });

  test('with cfssl and TLS for MySQL clients: the exporter also reads the SQL Secrets, each in its namespace', () => {
    const app = new App({ outdir: 'unused' });
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: IssuingMethod.CFSSL });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs, tlsClient: {} }).addSqlClient('orders-api', { namespace: 'orders' });
    certs.watchExpiry();
    const rules = findObject(Testing.synth(chart), 'PrometheusRule', 'basic-certificate-expiry');
    expect(alertsOf(rules)).toEqual(expect.arrayContaining([
      `${EXPIRY_ALERTS.expiring} secret_namespace="orders",secret_name="orders-api-demo-basic-sql-client",secret_key="tls.crt"`,
      `${EXPIRY_ALERTS.expiring} secret_namespace="demo",secret_name="basic-sqlserver-server-secret",secret_key="ca.crt"`,
    ]));
    // A leaf renewal renews an application's certificate; a CA renewal or replacement the SQL CA.
    const runbook = (name: string, key: string) => rules.spec.groups[0].rules
      .find((r: any) => r.alert === EXPIRY_ALERTS.expiring && r.expr.includes(`secret_name="${name}",secret_key="${key}"`)).annotations.runbook;
    expect(runbook('orders-api-demo-basic-sql-client', 'tls.crt')).toMatch(/Nothing renews it on its own: declare the next rotation of ClusterCertificates basic as \{ id, kind: "leaf-renewal" \}/);
    expect(runbook('orders-api-demo-basic-sql-client', 'ca.crt')).toMatch(/Nothing renews it on its own: declare the next rotation of ClusterCertificates basic as \{ id, kind: "ca-renewal" \} \(the same key\) or \{ id, kind: "ca-replacement" \}/);
    // The source's presence reads every namespace it watches.
    const missing = rules.spec.groups[0].rules.find((r: any) => r.alert === EXPIRY_ALERTS.metricsMissing);
    expect(missing.expr).toMatch(/^absent\(x509_cert_not_after\{secret_namespace="demo",secret_name=~"[^"]*basic-sqlserver-client-secret"\} or x509_cert_not_after\{secret_namespace="orders",secret_name=~"orders-api-demo-basic-sql-client"\}\)$/);
    const file = chart.node.findAll().filter(OutputFile.isOutputFile).find((f) => f.path === 'demo/basic/x509-certificate-exporter-values.yaml')!;
    const values = YAML.parse(file.render());
    expect(exporterValuesErrors(values)).toEqual([]);
    expect(values.secretsExporter.includeNamespaces).toEqual(['demo', 'orders']);
    expect(values.secretsExporter.includeSecrets).toEqual(expect.arrayContaining(['basic-sqlserver-server-secret', 'basic-sqlserver-client-secret', 'orders-api-demo-basic-sql-client']));
  });

  test('a migration target handed the Secret the library issues for it (addSqlClient) is watched once, as the plan\'s, not as a Secret you create', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', method: IssuingMethod.CFSSL });
    const database = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs, tlsClient: {} });
    const client = database.addSqlClient('copier');
    new TlsMigrationCluster(chart, 'mig', {
      clusterName: 'basic', version: 'v2.0.7', certificates: certs,
      sources: [{ sourceId: 'a', host: 'mysql.example.com', user: 'copier', tlsSecretName: 'basic-a-tls' }],
      target: { database, user: 'copier', tlsSecretName: client.secretName }, task: { name: 'copy' },
    });
    const rules = certs.watchExpiry().ruleGroup().rules;
    const about = (secret: string) => rules.filter((r) => r.alert === EXPIRY_ALERTS.expiring && r.labels.secret === secret).map((r) => r.annotations.summary);
    expect(about(client.secretName)).toHaveLength(2);
    expect(about(client.secretName).join('\n')).not.toContain('a Secret you create');
    expect(about('basic-a-tls').join('\n')).toContain('a Secret you create for migration source a');
  });

  test('the exporter\'s values are checked against its chart\'s values schema: a key the chart does not have is refused', () => {
    expect(exporterValuesErrors({ secretsExporter: { includeSecret: ['a'] } })).toEqual(['/secretsExporter: must NOT have additional properties (includeSecret)']);
    expect(exporterValuesErrors({ secretsExporter: { secretTypes: [{ type: 'Opaque' }] } })).toEqual(expect.arrayContaining(['/secretsExporter/secretTypes/0: must match exactly one schema in oneOf']));
  });

  test('during a CA replacement with cert-manager, the Secrets a script writes are watched through the exporter, the CAs through cert-manager', () => {
    const rotations: CertificateRotation[] = [{ id: '2026-11', phase: RotationPhase.TRUST_BOTH }];
    const { rules, files } = watched({ rotations });
    const alerts = alertsOf(rules).filter((a: string) => a.startsWith(EXPIRY_ALERTS.expiring));
    expect(alerts.filter((a: string) => a.includes('name="basic-ca'))).toEqual([
      `${EXPIRY_ALERTS.expiring} exported_namespace="demo",name="basic-ca"`, `${EXPIRY_ALERTS.expiring} exported_namespace="demo",name="basic-ca-2026-11"`,
    ]);
    expect(alerts.filter((a: string) => a.includes('secret_name="basic-store-cluster-secret"'))).toHaveLength(2);
    expect(files.has('demo/basic/x509-certificate-exporter-values.yaml')).toBe(true);
    // Two CAs: which one a leaf holds is the rotation's business, not the renewal's.
    expect(alertsOf(rules).filter((a: string) => a.startsWith(EXPIRY_ALERTS.outdatedCaCopy))).toEqual([]);
  });

  test('the monitor loads the same rule group from a ConfigMap whose key ends in .rules.yml', () => {
    const { objects, rules } = watched();
    const monitor = findObject(objects, 'DatabaseMonitor', 'basic-monitor');
    expect(monitor.spec.prometheus).toEqual({ baseImage: 'prom/prometheus', version: 'v2.53.1', config: { ruleConfigRef: { name: 'basic-certificate-expiry-rules' } } });
    const configMap = findObject(objects, 'ConfigMap', 'basic-certificate-expiry-rules');
    expect(Object.keys(configMap.data)).toEqual(['basic-certificate-expiry.rules.yml']);
    expect(YAML.parse(configMap.data['basic-certificate-expiry.rules.yml'])).toEqual({ groups: rules.spec.groups });
  });

  test('thresholds: 21 days for leaves and 60 for the CA by default; with cert-manager, never before its own renewal time', () => {
    const thresholds = (rules: any) => Object.fromEntries(rules.spec.groups[0].rules.filter((r: any) => r.alert === EXPIRY_ALERTS.expiring)
      .map((r: any) => [/name="([^"]+)"(,secret_key="([^"]+)")?/.exec(r.expr)!.slice(1).filter((x) => x && !x.startsWith(',')).join(' '), Number(/time\(\) \+ (\d+)$/.exec(r.expr)![1]) / DAY]));
    expect(thresholds(watched({ method: IssuingMethod.CFSSL }).rules)).toMatchObject({ 'basic-store-cluster-secret tls.crt': 21, 'basic-store-cluster-secret ca.crt': 60 });
    // renewBefore 360h and caRenewBefore 720h: cert-manager renews 15 and 30 days ahead.
    expect(thresholds(watched().rules)).toMatchObject({ 'basic-store-cluster-secret': 15, 'basic-ca': 30 });
    expect(thresholds(watched({ renewBefore: '720h' }, { leafThreshold: '240h', caThreshold: '2000h' }).rules)).toMatchObject({ 'basic-store-cluster-secret': 10, 'basic-ca': 30 });
  });

  test('without prometheus-operator: no PrometheusRule, the monitor\'s rules only', () => {
    const chart = new Chart(new App({ outdir: 'unused' }), 'demo', { namespace: 'demo' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', components: ['store'] });
    const watch = certs.watchExpiry({ prometheusRule: false });
    expect(watch.resource).toBeUndefined();
    watch.addRulesConfigMap();
    expect(Testing.synth(chart).filter((o) => o.kind === 'PrometheusRule' || o.kind === 'ConfigMap').map((o) => o.kind)).toEqual(['ConfigMap']);
    expect(() => new ClusterCertificates(new Chart(new App({ outdir: 'unused' }), 'other', { namespace: 'demo' }), 'certs', { clusterName: 'basic' })
      .watchExpiry({ prometheusRule: false, ruleLabels: { a: 'b' } })).toThrow('other/certs/ExpiryWatch: ruleLabels: received {"a":"b"}; expected no rule labels with prometheusRule false: they label the PrometheusRule');
  });

  test('the exporter gets the rule labels on its ServiceMonitor, and none where prometheus-operator does not run', () => {
    const values = (options: Parameters<ClusterCertificates['watchExpiry']>[0]) => {
      const { files } = watched({ method: IssuingMethod.CFSSL }, options);
      return YAML.parse(files.get('demo/basic/x509-certificate-exporter-values.yaml')!.render());
    };
    expect(values({ ruleLabels: { release: 'main' } }).prometheusServiceMonitor).toEqual({ create: true, extraLabels: { release: 'main' } });
    const without = values({ prometheusRule: false });
    expect(without.prometheusServiceMonitor).toEqual({ create: false });
    expect(exporterValuesErrors(without)).toEqual([]);
  });

  test('alert labels and rule labels are added as given', () => {
    const { rules } = watched({}, { alertLabels: { team: 'databases' }, ruleLabels: { 'prometheus.io/rules': 'main' } });
    expect(rules.metadata.labels).toEqual({ 'prometheus.io/rules': 'main' });
    const caExpiring = rules.spec.groups[0].rules.find((r: any) => r.alert === EXPIRY_ALERTS.expiring && r.labels.secret === 'basic-ca-secret');
    expect(caExpiring.labels).toEqual({
      team: 'databases', tls_cluster: 'basic', tls_cluster_namespace: 'demo', namespace: 'demo', secret: 'basic-ca-secret', certificate: 'ca', severity: 'critical',
    });
  });
});

describe('refused options, one line each', () => {
  test.each([
    [{ leafThreshold: '30m' }, 'demo/certs/ExpiryWatch: leafThreshold: received "30m"; expected at least 1h: an alert closer to expiry leaves no time to act'],
    [{ caThreshold: '10 days' }, 'demo/certs/ExpiryWatch: caThreshold: received "10 days"; expected a positive Go duration such as "8760h" or "1h30m" (units h, m, s, ms)'],
    [{ leafThreshold: '8760h' }, 'demo/certs/ExpiryWatch: leafThreshold: received "8760h"; expected less than the certificates\' duration (8760h): a longer one alerts from the moment a certificate is issued'],
    [{ caThreshold: '90000h' }, 'demo/certs/ExpiryWatch: caThreshold: received "90000h"; expected less than the certificates\' caDuration (87600h)'],
    [{ alertLabels: { severity: 'page' } }, 'demo/certs/ExpiryWatch: alertLabels.severity: received "page"; expected no value: the library sets "tls_cluster", "tls_cluster_namespace", "namespace", "secret", "certificate", "source", "severity" on every alert'],
    [{ alertLabels: { 'team-name': 'db' } }, 'demo/certs/ExpiryWatch: alertLabels: received "team-name"; expected Prometheus label names: letters, digits and \'_\', not starting with a digit or \'__\''],
    [{ ruleLabels: { release: 'a b' } }, 'demo/certs/ExpiryWatch: ruleLabels.release: received "a b"; expected a label value: at most 63 letters'],
  ])('%j', (options, message) => {
    expect(() => watched({}, options as any)).toThrow(message);
  });

  test('a second watch with other options', () => {
    const certs = new ClusterCertificates(new Chart(new App({ outdir: 'unused' }), 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic' });
    expect(certs.watchExpiry()).toBe(certs.watchExpiry({}));
    expect(() => certs.watchExpiry({ leafThreshold: '100h' })).toThrow('demo/certs: watchExpiry: received {"leafThreshold":"100h"}; expected the options of its first call ({}): a cluster\'s certificates have one expiry watch');
  });

  /** The watch of a cluster alone, rendered as synthesize renders it: its validations run. */
  const render = (props: Partial<ConstructorParameters<typeof ClusterCertificates>[2]>, options: Parameters<ClusterCertificates['watchExpiry']>[0] = {}) => () => {
    const app = new App({ outdir: 'unused' });
    const certs = new ClusterCertificates(new Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic', components: ['store'], ...props });
    certs.watchExpiry(options);
    return renderApp(app);
  };

  test('a cluster name too long for the exporter\'s Helm release, only when the exporter is needed', () => {
    const long = 'a'.repeat(42);
    expect(render({ clusterName: long, method: IssuingMethod.CFSSL }))
      .toThrow(`demo/certs/ExpiryWatch: certificates.clusterName: received "${long}"; expected at most 41 characters when x509-certificate-exporter watches its Secrets: its Helm release "${long}-cert-expiry" must be at most 53`);
    expect(render({ clusterName: long })).not.toThrow();
    // The chart's objects are named <namespace>-<release>: at most 63 characters.
    const app = new App({ outdir: 'unused' });
    new ClusterCertificates(new Chart(app, 'c', { namespace: 'n'.repeat(30) }), 'certs', { clusterName: 'c'.repeat(25), components: ['store'], method: IssuingMethod.CFSSL }).watchExpiry();
    expect(() => renderApp(app)).toThrow(`c/certs/ExpiryWatch: certificates.namespace: received "${'n'.repeat(30)}"; expected a namespace and cluster name of at most 50 characters together`);
  });

  test('rules nothing loads: no PrometheusRule and no monitor', () => {
    expect(render({}, { prometheusRule: false })).toThrow(
      'demo/certs/ExpiryWatch: prometheusRule: received false; expected true, or the watch handed to addMonitor({ expiryWatch }): without either, no Prometheus loads its rules');
  });

  test('a monitor handed the watch of a cluster it does not monitor', () => {
    const app = new App({ outdir: 'unused' });
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    const other = new ClusterCertificates(chart, 'other-certs', { clusterName: 'other', components: ['store'] });
    const { database } = watched();
    expect(() => new DatabaseMonitor(chart, 'm', { clusters: [database], ...MONITOR, expiryWatch: other.watchExpiry() })).toThrow(
      'demo/m: expiryWatch: received "demo/other"; expected the expiry watch of a cluster the monitor monitors: its rules name that cluster\'s certificates');
  });

  test.each([
    [{ alertLabels: { team: 7 } }, 'demo/certs/ExpiryWatch: alertLabels.team: received 7; expected a string'],
    [{ ruleLabels: { 'bad key!': 'x' } }, 'demo/certs/ExpiryWatch: ruleLabels: received "bad key!"; expected label keys: an optional DNS subdomain and \'/\', then at most 63 letters'],
  ])('label values and keys: %j', (options, message) => {
    expect(() => watched({}, options as any)).toThrow(message);
  });

  test('the wrong things handed over: certificates that are not a ClusterCertificates, a monitor\'s expiryWatch that is not an ExpiryWatch', () => {
    const chart = new Chart(new App({ outdir: 'unused' }), 'demo', { namespace: 'demo' });
    expect(() => new ExpiryWatch(chart, 'w', { certificates: { clusterName: 'basic' } as any })).toThrow('demo/w: certificates: received a value of type object; expected a ClusterCertificates');
    const { database } = watched();
    expect(() => new DatabaseMonitor(chart, 'm', { clusters: [database], ...MONITOR, expiryWatch: {} as any }))
      .toThrow('demo/m: expiryWatch: received a value of type object; expected an ExpiryWatch, as ClusterCertificates.watchExpiry() returns it');
  });
});

describeWithPromtool('the expiry rules under the real promtool')('the real promtool', () => {
  let work: string;
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'expiry-rules-'));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /** The rule group of a chart, written as the rules file prometheus-operator mounts for a PrometheusRule. */
  function rulesFile(name: string, objects: readonly any[]): { file: string; rules: any[] } {
    const groups = findObject(objects, 'PrometheusRule', 'basic-certificate-expiry').spec.groups;
    const file = path.join(work, `${name}.rules.yml`);
    fs.writeFileSync(file, YAML.stringify({ groups }));
    return { file, rules: groups[0].rules };
  }

  /** The reference app's namespace: its objects, and the plan's Secrets (TLS for MySQL clients' too, all in that namespace). */
  function reference(namespace: string, method: IssuingMethod): any[] & { secrets?: string[] } {
    const app = new App({ outdir: 'unused' });
    addDeployment(app, namespace, method);
    const certs = app.node.findAll().find((c): c is ClusterCertificates => c instanceof ClusterCertificates)!;
    const plan = certs.plan();
    // The Secrets of the plan, and those the user creates that the cluster loads.
    return Object.assign(Testing.synth(app.node.findChild(namespace) as Chart), {
      secrets: [...plan.secrets, ...(plan.sqlTls?.secrets ?? []), ...certs.externalTlsSecrets()].map((s) => s.name),
    });
  }

  test.each([['demo', IssuingMethod.CERT_MANAGER], ['demo-cfssl', IssuingMethod.CFSSL]] as const)(
    'promtool check rules accepts the PrometheusRule and the monitor\'s rules file of the reference app (%s)', (namespace, method) => {
      const objects = reference(namespace, method);
      const { file } = rulesFile(namespace, objects);
      const monitorFile = path.join(work, `${namespace}-monitor.rules.yml`);
      fs.writeFileSync(monitorFile, findObject(objects, 'ConfigMap', 'basic-certificate-expiry-rules').data['basic-certificate-expiry.rules.yml']);
      for (const f of [file, monitorFile]) {
        const checked = promtool(['check', 'rules', f], work);
        expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
        expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
      }
    });

  /** Runs `promtool test rules` on one test case against the rules file; returns its output when it fails. */
  function testRules(name: string, rulesFilePath: string, testCase: object): string {
    const file = path.join(work, `${name}.test.yml`);
    fs.writeFileSync(file, YAML.stringify({ rule_files: [path.basename(rulesFilePath)], evaluation_interval: '1m', tests: [{ interval: '1m', ...testCase }] }));
    const result = promtool(['test', 'rules', path.basename(file)], work);
    return result.status === 0 ? '' : `${result.stdout}${result.stderr}`;
  }

  /** A constant series for three hours. */
  const constant = (series: string, value: number) => ({ series, values: `${value}x180` });

  /**
   * The alert promtool must see from the rule of `alert` on the Secret `secret` (its `ca.crt`
   * when `ca`): the rule's labels (each expression aggregates its series, so they carry none of
   * theirs, but `absent()` of one selector keeps its equality matchers), and its annotations with the expiry time as Prometheus's templates render it
   * (`humanizeTimestamp`), given here as text.
   */
  function expected(rules: readonly any[], alert: string, secret: string, ca: boolean, expiry?: string, seriesLabels: object = {}) {
    const rule = rules.find((r) => r.alert === alert && r.labels.secret === secret && r.labels.certificate === (ca ? 'ca' : 'leaf'));
    if (!rule) {
      throw new Error(`no ${alert} rule on Secret ${secret}`);
    }
    const rendered = (text: string) => text.replace(/\{\{ \$value \| humanizeTimestamp \}\}|\{\{ with query .*?\{\{ end \}\}/, expiry ?? '');
    return {
      exp_labels: { ...seriesLabels, ...rule.labels },
      exp_annotations: Object.fromEntries(Object.entries(rule.annotations as Record<string, string>).map(([k, v]) => [k, rendered(v)])),
    };
  }

  test('cfssl: a certificate that expires in 20 days fires, one in 60 days does not, a CA in 50 days fires; each names its Secret, expiry time and rotation', () => {
    const { file, rules } = rulesFile('demo-cfssl', reference('demo-cfssl', IssuingMethod.CFSSL));
    const series = (name: string, key: string) => `x509_cert_not_after{secret_namespace="demo-cfssl",secret_name="${name}",secret_key="${key}",subject_CN="basic"}`;
    const store = expected(rules, EXPIRY_ALERTS.expiring, 'basic-store-cluster-secret', false, '1970-01-21 00:00:00 +0000 UTC');
    // The words a user reads, once in full.
    expect(store.exp_annotations).toEqual({
      summary: 'The tls.crt of Secret basic-store-cluster-secret (cluster demo-cfssl/basic) expires at 1970-01-21 00:00:00 +0000 UTC.',
      runbook: 'Nothing renews it on its own: declare the next rotation of ClusterCertificates basic as { id, kind: "leaf-renewal" }, synthesize, and follow cluster-tls/demo-cfssl/basic/rotation-runbook.md.',
    });
    const failures = testRules('cfssl', file, {
      input_series: [
        constant(series('basic-store-cluster-secret', 'tls.crt'), 20 * DAY),
        constant(series('basic-coordinator-cluster-secret', 'tls.crt'), 60 * DAY),
        constant(series('basic-coordinator-cluster-secret', 'ca.crt'), 50 * DAY),
      ],
      alert_rule_test: [
        {
          eval_time: '2h',
          alertname: EXPIRY_ALERTS.expiring,
          exp_alerts: [store, expected(rules, EXPIRY_ALERTS.expiring, 'basic-coordinator-cluster-secret', true, '1970-02-20 00:00:00 +0000 UTC')],
        },
        // Before the hour an expiry must last, nothing fires.
        { eval_time: '30m', alertname: EXPIRY_ALERTS.expiring, exp_alerts: [] },
      ],
    });
    expect(failures).toBe('');
  });

  test('two clusters of one name in two namespaces, in one Prometheus: two distinct alerts for their two expiring Secrets of one name, and for their missing series', () => {
    const groups = ['demo-cfssl', 'demo-second'].map((namespace) => findObject(reference(namespace, IssuingMethod.CFSSL), 'PrometheusRule', 'basic-certificate-expiry').spec.groups[0]);
    expect(groups[0].name).not.toBe(groups[1].name);
    const file = path.join(work, 'two-namespaces.rules.yml');
    fs.writeFileSync(file, YAML.stringify({ groups }));
    const series = (namespace: string) => `x509_cert_not_after{secret_namespace="${namespace}",secret_name="basic-store-cluster-secret",secret_key="tls.crt",subject_CN="basic"}`;
    const alertOf = (index: number) => expected(groups[index].rules, EXPIRY_ALERTS.expiring, 'basic-store-cluster-secret', false, '1970-01-21 00:00:00 +0000 UTC');
    const both = [alertOf(0), alertOf(1)];
    // Their labels differ by namespace alone: without it, Alertmanager would keep one of the two.
    expect(both.map((a) => a.exp_labels.namespace)).toEqual(['demo-cfssl', 'demo-second']);
    expect({ ...both[0].exp_labels, namespace: '', tls_cluster_namespace: '' }).toEqual({ ...both[1].exp_labels, namespace: '', tls_cluster_namespace: '' });
    const failures = testRules('two-namespaces', file, {
      input_series: [constant(series('demo-cfssl'), 20 * DAY), constant(series('demo-second'), 20 * DAY)],
      alert_rule_test: [{ eval_time: '2h', alertname: EXPIRY_ALERTS.expiring, exp_alerts: both }],
    });
    expect(failures).toBe('');
    // No series at all: one MetricsMissing alert per cluster, apart.
    const missing = testRules('two-namespaces-missing', file, {
      input_series: [],
      alert_rule_test: [{
        eval_time: '2h',
        alertname: EXPIRY_ALERTS.metricsMissing,
        exp_alerts: groups.map((g, i) => {
          const rule = g.rules.find((r: any) => r.alert === EXPIRY_ALERTS.metricsMissing);
          return { exp_labels: { ...rule.labels, secret_namespace: ['demo-cfssl', 'demo-second'][i] }, exp_annotations: rule.annotations };
        }),
      }],
    });
    expect(missing).toBe('');
  });

  test.each([['demo-cfssl', IssuingMethod.CFSSL], ['demo', IssuingMethod.CERT_MANAGER]] as const)(
    'an expiring Secret the user creates that the cluster loads (the upstream database\'s client certificate) raises an alert that says so (%s)', (namespace, method) => {
      const { file, rules } = rulesFile(`${namespace}-external`, reference(namespace, method));
      const alert = expected(rules, EXPIRY_ALERTS.expiring, 'basic-source1-tls', false, '1970-01-21 00:00:00 +0000 UTC');
      expect(alert.exp_annotations.summary)
        .toBe(`The tls.crt of Secret basic-source1-tls (cluster ${namespace}/basic), a Secret you create for migration source source1, expires at 1970-01-21 00:00:00 +0000 UTC.`);
      expect(alert.exp_annotations.runbook).toMatch(/^You create this Secret, and migration source source1 loads it: renew its certificate with the PKI that issued it/);
      // The changefeed's sink Secret is watched too.
      expect(rules.filter((r) => r.labels.secret === 'basic-sink-tls').map((r) => `${r.alert} ${r.labels.certificate}`).sort())
        .toEqual([`${EXPIRY_ALERTS.expiring} ca`, `${EXPIRY_ALERTS.expiring} leaf`, `${EXPIRY_ALERTS.unwatched} ca`, `${EXPIRY_ALERTS.unwatched} leaf`]);
      const failures = testRules(`${namespace}-external`, file, {
        input_series: [
          constant(`x509_cert_not_after{secret_namespace="${namespace}",secret_name="basic-source1-tls",secret_key="tls.crt",subject_CN="copier"}`, 20 * DAY),
          constant(`x509_cert_not_after{secret_namespace="${namespace}",secret_name="basic-source1-tls",secret_key="ca.crt",subject_CN="upstream-ca"}`, 900 * DAY),
        ],
        alert_rule_test: [{ eval_time: '2h', alertname: EXPIRY_ALERTS.expiring, exp_alerts: [alert] }],
      });
      expect(failures).toBe('');
    });

  test('a span: each Kubernetes cluster\'s intermediate (tls.crt) and the root in its ca.crt, each expiring, raise their alerts there, naming the CA Issuer that loads them', () => {
    const namespace = 'demo-span';
    const clusters = [{ name: 'east', clusterDomain: 'east.example.com' }, { name: 'west', clusterDomain: 'west.example.com' }];
    for (const { name } of clusters) {
      const app = Testing.app();
      const chart = new Chart(app, namespace, { namespace });
      const certificates = new ClusterCertificates(chart, 'certificates', { clusterName: 'basic', span: { clusters, current: name } });
      certificates.watchExpiry();
      new TlsDatabaseCluster(chart, 'database', {
        clusterName: 'basic', version: 'v8.5.0', operatorVersion: 'v1.6.6', certificates,
        coordinator: { baseImage: 'r/coordinator', storage: '10Gi' }, store: { baseImage: 'r/store', storage: '10Gi' }, sqlserver: { baseImage: 'r/sqlserver' },
      });
      const { file, rules } = rulesFile(`span-${name}`, Testing.synth(chart));
      const secret = `basic-${name}-intermediate-ca-secret`;
      const intermediate = expected(rules, EXPIRY_ALERTS.expiring, secret, false, '1970-01-21 00:00:00 +0000 UTC');
      expect(intermediate.exp_annotations.summary)
        .toBe(`The tls.crt of Secret ${secret} (cluster ${namespace}/basic), a Secret you create for cert-manager's CA Issuer of Kubernetes cluster ${name}, expires at 1970-01-21 00:00:00 +0000 UTC.`);
      const root = expected(rules, EXPIRY_ALERTS.expiring, secret, true, '1970-02-20 00:00:00 +0000 UTC');
      // No other cluster's intermediate is watched here: each cluster's output watches its own.
      expect(rules.filter((r) => /intermediate/.test(r.labels.secret ?? '') && r.labels.secret !== secret)).toEqual([]);
      const series = (key: string, cn: string) => `x509_cert_not_after{secret_namespace="${namespace}",secret_name="${secret}",secret_key="${key}",subject_CN="${cn}"}`;
      const failures = testRules(`span-${name}`, file, {
        input_series: [constant(series('tls.crt', 'basic'), 20 * DAY), constant(series('ca.crt', 'basic'), 50 * DAY)],
        alert_rule_test: [{ eval_time: '2h', alertname: EXPIRY_ALERTS.expiring, exp_alerts: [intermediate, root] }],
      });
      expect(failures).toBe('');
    }
  });

  test('cfssl: every certificate of the plan without a series fires as unwatched, and only those', () => {
    const objects = reference('demo-cfssl', IssuingMethod.CFSSL);
    const { file, rules } = rulesFile('demo-cfssl-unwatched', objects);
    const missing = objects.secrets!.flatMap((name) => [false, true].map((ca) => [name, ca] as const))
      .filter(([name, ca]) => !(name === 'basic-store-cluster-secret' && !ca));
    expect(missing.length).toBeGreaterThan(10);
    const failures = testRules('cfssl-unwatched', file, {
      input_series: [constant('x509_cert_not_after{secret_namespace="demo-cfssl",secret_name="basic-store-cluster-secret",secret_key="tls.crt"}', 400 * DAY)],
      alert_rule_test: [{
        eval_time: '2h',
        alertname: EXPIRY_ALERTS.unwatched,
        exp_alerts: missing.map(([name, ca]) => expected(rules, EXPIRY_ALERTS.unwatched, name, ca, undefined,
          { secret_namespace: 'demo-cfssl', secret_name: name, secret_key: ca ? 'ca.crt' : 'tls.crt' })),
      }],
    });
    expect(failures).toBe('');
  });

  test('no series at all from a source: one alert says so, and no certificate repeats it', () => {
    for (const [namespace, method, source] of [['demo-cfssl', IssuingMethod.CFSSL, 'x509-certificate-exporter'], ['demo', IssuingMethod.CERT_MANAGER, 'cert-manager']] as const) {
      const { file, rules } = rulesFile(`${namespace}-nothing`, reference(namespace, method));
      const missing = rules.find((r) => r.alert === EXPIRY_ALERTS.metricsMissing && r.labels.source === source);
      expect(missing.labels).toEqual({ tls_cluster: 'basic', tls_cluster_namespace: namespace, namespace, source, severity: 'warning' });
      // With cert-manager, the exporter still reads the Secrets the user creates (the upstream database's, the sink's): its own alert too.
      const others = rules.filter((r) => r.alert === EXPIRY_ALERTS.metricsMissing && r.labels.source !== source);
      expect(others.map((r) => r.labels.source)).toEqual(source === 'cert-manager' ? ['x509-certificate-exporter'] : []);
      const failures = testRules(`${namespace}-nothing`, file, {
        // A series of another cluster's Secret, which must not count.
        input_series: [constant(`x509_cert_not_after{secret_namespace="${namespace}",secret_name="other-store-cluster-secret",secret_key="tls.crt"}`, 400 * DAY)],
        alert_rule_test: [
          {
            eval_time: '2h',
            alertname: EXPIRY_ALERTS.metricsMissing,
            // absent() of one selector keeps its equality matchers: the exporter's namespace label.
            exp_alerts: [missing, ...others].map((r) => ({
              exp_labels: { ...r.labels, ...(r.labels.source === 'cert-manager' ? {} : { secret_namespace: namespace }) }, exp_annotations: r.annotations,
            })),
          },
          { eval_time: '2h', alertname: EXPIRY_ALERTS.unwatched, exp_alerts: [] },
        ],
      });
      expect({ namespace, failures }).toEqual({ namespace, failures: '' });
    }
  });

  /** cert-manager's metric of a Certificate, as its ServiceMonitor scrapes it (namespace relabelled) or as it is. */
  const certManager = (metric: string, name: string, scraped: 'service-monitor' | 'as-is', extra = '') => (scraped === 'service-monitor'
    ? `${metric}{namespace="cert-manager",exported_namespace="demo",name="${name}",pod="cert-manager-7c9f"${extra}}`
    : `${metric}{namespace="demo",name="${name}"${extra}}`);

  test('cert-manager: with a renewal window of 30 days a leaf expiring in 20 days fires and one in 60 does not; a Certificate not Ready fires after 15 minutes; both scrapes of its metrics are read', () => {
    // cert-manager should have renewed a leaf 30 days ahead.
    const chart = new Chart(new App({ outdir: 'unused' }), 'demo', { namespace: 'demo' });
    new ClusterCertificates(chart, 'certs', { clusterName: 'basic', components: ['store', 'coordinator'], renewBefore: '720h' }).watchExpiry();
    const { file, rules } = rulesFile('renew-720h', Testing.synth(chart));
    const expiry = (name: string, scraped: 'service-monitor' | 'as-is') => certManager('certmanager_certificate_expiration_timestamp_seconds', name, scraped);
    const ready = (name: string, condition: string) => certManager('certmanager_certificate_ready_status', name, 'service-monitor', `,condition="${condition}"`);
    const failures = testRules('cert-manager', file, {
      input_series: [
        constant(expiry('basic-store-cluster-secret', 'service-monitor'), 20 * DAY),
        constant(expiry('basic-coordinator-cluster-secret', 'as-is'), 60 * DAY),
        constant(expiry('basic-cluster-client-secret', 'service-monitor'), 60 * DAY),
        constant(expiry('basic-ca', 'as-is'), 3000 * DAY),
        constant(ready('basic-coordinator-cluster-secret', 'True'), 0),
        constant(ready('basic-coordinator-cluster-secret', 'False'), 1),
        constant(ready('basic-store-cluster-secret', 'True'), 1),
        constant(ready('basic-store-cluster-secret', 'False'), 0),
      ],
      alert_rule_test: [
        { eval_time: '2h', alertname: EXPIRY_ALERTS.expiring, exp_alerts: [expected(rules, EXPIRY_ALERTS.expiring, 'basic-store-cluster-secret', false, '1970-01-21 00:00:00 +0000 UTC')] },
        { eval_time: '10m', alertname: EXPIRY_ALERTS.notReady, exp_alerts: [] },
        {
          eval_time: '20m',
          alertname: EXPIRY_ALERTS.notReady,
          exp_alerts: [expected(rules, EXPIRY_ALERTS.notReady, 'basic-coordinator-cluster-secret', false, '1970-03-02 00:00:00 +0000 UTC')],
        },
        { eval_time: '2h', alertname: EXPIRY_ALERTS.unwatched, exp_alerts: [] },
        // Every leaf was issued after the CA: no outdated copy.
        { eval_time: '2h', alertname: EXPIRY_ALERTS.outdatedCaCopy, exp_alerts: [] },
      ],
    });
    expect(failures).toBe('');
  });

  test('cert-manager: the certificates for MySQL clients are watched in their own namespaces, the SQL CA in cert-manager\'s', () => {
    const chart = new Chart(new App({ outdir: 'unused' }), 'demo', { namespace: 'demo' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', renewBefore: '720h' });
    new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', version: 'v4.0.5', certificates: certs, tlsClient: {} }).addSqlClient('orders-api', { namespace: 'orders' });
    certs.watchExpiry();
    const { file, rules } = rulesFile('sql-namespaces', Testing.synth(chart));
    const expiry = (namespace: string, name: string) =>
      `certmanager_certificate_expiration_timestamp_seconds{namespace="cert-manager",exported_namespace="${namespace}",name="${name}",pod="cert-manager-7c9f"}`;
    const failures = testRules('sql-namespaces', file, {
      input_series: [
        constant(expiry('orders', 'orders-api-demo-basic-sql-client'), 20 * DAY),
        // A Certificate of the same name in another namespace, far from expiring, is not the application's.
        constant(expiry('demo', 'orders-api-demo-basic-sql-client'), 400 * DAY),
        constant(expiry('cert-manager', 'demo-basic-sql-ca'), 3000 * DAY),
        constant(expiry('demo', 'basic-sqlserver-server-secret'), 300 * DAY),
      ],
      alert_rule_test: [
        { eval_time: '2h', alertname: EXPIRY_ALERTS.expiring, exp_alerts: [expected(rules, EXPIRY_ALERTS.expiring, 'orders-api-demo-basic-sql-client', false, '1970-01-21 00:00:00 +0000 UTC')] },
      ],
    });
    expect(failures).toBe('');
    const summary = (secret: string) => rules.find((r) => r.alert === EXPIRY_ALERTS.expiring && r.labels.secret === secret).annotations.summary;
    expect(summary('orders-api-demo-basic-sql-client')).toMatch(/^Certificate orders\/orders-api-demo-basic-sql-client \(Secret orders-api-demo-basic-sql-client\) of cluster demo\/basic expires/);
    expect(summary('demo-basic-sql-ca')).toMatch(/^Certificate cert-manager\/demo-basic-sql-ca /);
    // The remedies are the cluster's: the rotations move the certificates for MySQL clients and the SQL CA too.
    const runbook = (secret: string) => rules.find((r) => r.alert === EXPIRY_ALERTS.expiring && r.labels.secret === secret).annotations.runbook;
    expect(runbook('orders-api-demo-basic-sql-client')).toMatch(/To renew it by hand, declare the next rotation of ClusterCertificates basic as \{ id, kind: "leaf-renewal" \}/);
    expect(runbook('demo-basic-sql-ca')).toMatch(/^cert-manager renews it on its own, with the same key, and has not: .*Once it is renewed, declare the next rotation of ClusterCertificates basic as \{ id, kind: "leaf-renewal" \}/);
    // Each leaf's ca.crt is compared with the CA that signs it: the SQL CA for those of TLS for MySQL clients.
    const outdated = rules.filter((r) => r.alert === EXPIRY_ALERTS.outdatedCaCopy && r.labels.secret === 'orders-api-demo-basic-sql-client');
    expect(outdated.map((r) => r.expr)).toEqual([expect.stringContaining('name="demo-basic-sql-ca"')]);
  });

  test('cert-manager: a leaf issued before the CA\'s renewal holds the replaced CA in its ca.crt, and fires until it is renewed', () => {
    const objects = reference('demo', IssuingMethod.CERT_MANAGER);
    const { file, rules } = rulesFile('demo-outdated', objects);
    const expiry = (name: string) => certManager('certmanager_certificate_expiration_timestamp_seconds', name, 'service-monitor');
    // The CA renewed at day 3000 (its certificate runs 87600h from then); the store's leaf was
    // issued 100 days before that, the sqlserver's 10 days after; everything else is unwatched here.
    const renewal = 3000 * DAY;
    const failures = testRules('cert-manager-outdated', file, {
      input_series: [
        constant(expiry('basic-ca'), renewal + 87_600 * 3600),
        constant(expiry('basic-store-cluster-secret'), renewal - 100 * DAY + 8760 * 3600),
        constant(expiry('basic-sqlserver-cluster-secret'), renewal + 10 * DAY + 8760 * 3600),
      ],
      alert_rule_test: [{
        eval_time: '2h',
        alertname: EXPIRY_ALERTS.outdatedCaCopy,
        // The replaced CA certificate expired 720h after the renewal: day 3030 since the epoch.
        exp_alerts: [expected(rules, EXPIRY_ALERTS.outdatedCaCopy, 'basic-store-cluster-secret', false, '1978-04-19 00:00:00 +0000 UTC')],
      }],
    });
    expect(failures).toBe('');
  });
});
