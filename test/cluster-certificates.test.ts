import { App, Chart, Testing } from 'cdk8s';
import { ClusterCertificates, IssuingMethod, ClusterCertificatesProps, ClusterKind, KeyAlgorithm, KeyRotationPolicy, OutputFile, TlsDatabaseCluster, TlsMigrationCluster } from '../lib';
import { expectValidAgainstCrds } from './_crds';
import { findObject, namesOf } from './_find';

function synth(props: Partial<ClusterCertificatesProps> = {}, setup?: (c: ClusterCertificates) => void) {
  const chart = Testing.chart();
  const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', ...props });
  setup?.(certs);
  return { certs, objects: Testing.synth(chart) };
}

const DB = ['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning'] as const;

describe('CA and issuers', () => {
  const { objects } = synth({ components: ['coordinator', 'mig-master'] });

  test('self-signed Issuer with an empty selfSigned spec', () => {
    const issuer = findObject(objects, 'Issuer', 'basic-selfsigned-ca-issuer');
    expect(issuer.apiVersion).toBe('cert-manager.io/v1');
    expect(issuer.metadata.namespace).toBe('demo');
    expect(issuer.spec).toEqual({ selfSigned: {} });
  });

  test('CA Certificate: secret, CN, isCA, 87600h, renew 720h, signed by the self-signed Issuer', () => {
    const ca = findObject(objects, 'Certificate', 'basic-ca');
    expect(ca.metadata.namespace).toBe('demo');
    expect(ca.spec).toMatchObject({
      secretName: 'basic-ca-secret',
      commonName: 'basic',
      isCA: true,
      duration: '87600h',
      renewBefore: '720h',
      issuerRef: { name: 'basic-selfsigned-ca-issuer', kind: 'Issuer' },
    });
  });

  test('the CA carries its Common Name alone, whatever the subject props: the certificates it signs carry the subject', () => {
    const full = synth({ components: ['store'], subject: { organization: 'acme', organizationalUnit: 'db', country: 'DE', state: 'Berlin', locality: 'Berlin' } }).objects;
    expect(findObject(full, 'Certificate', 'basic-ca').spec.subject).toBeUndefined();
    expect(findObject(full, 'Certificate', 'basic-store-cluster-secret').spec.subject)
      .toEqual({ organizations: ['acme'], organizationalUnits: ['db'], countries: ['DE'], provinces: ['Berlin'], localities: ['Berlin'] });
  });

  test('one CA-type Issuer per cluster kind served, both on the CA Secret', () => {
    expect(findObject(objects, 'Issuer', 'basic-mig-issuer').spec).toEqual({ ca: { secretName: 'basic-ca-secret' } });
    expect(findObject(objects, 'Issuer', 'basic-db-issuer').spec).toEqual({ ca: { secretName: 'basic-ca-secret' } });
  });

  test('a kind with no component gets no issuer and no client certificate', () => {
    const only = synth({ components: ['coordinator'] }).objects;
    expect(namesOf(only, 'Issuer')).toEqual(['basic-db-issuer', 'basic-selfsigned-ca-issuer']);
    expect(namesOf(only, 'Certificate')).toEqual(['basic-ca', 'basic-cluster-client-secret', 'basic-coordinator-cluster-secret']);
  });

  test('objects come in apply order: issuer before the certificates it signs', () => {
    const order = objects.map((o) => o.metadata.name);
    expect(order.indexOf('basic-selfsigned-ca-issuer')).toBeLessThan(order.indexOf('basic-ca'));
    expect(order.indexOf('basic-ca')).toBeLessThan(order.indexOf('basic-db-issuer'));
    expect(order.indexOf('basic-db-issuer')).toBeLessThan(order.indexOf('basic-coordinator-cluster-secret'));
  });
});

describe('server Certificates', () => {
  const { objects } = synth({ components: [...DB, 'mig-master', 'mig-worker'], subject: { organization: 'acme' } });

  test.each([...DB, 'mig-master', 'mig-worker'])('%s: every field of the spec', (token) => {
    const name = `basic-${token}-cluster-secret`;
    const cert = findObject(objects, 'Certificate', name);
    expect(cert.apiVersion).toBe('cert-manager.io/v1');
    expect(cert.metadata).toEqual({ name, namespace: 'demo', labels: { 'cdk8s-cluster-tls/certificates': 'basic' } });
    const issuer = token.startsWith('mig-') ? 'basic-mig-issuer' : 'basic-db-issuer';
    expect(cert.spec).toMatchObject({
      secretName: name,
      duration: '8760h',
      renewBefore: '360h',
      subject: { organizations: ['acme'] },
      commonName: 'basic',
      usages: ['server auth', 'client auth'],
      ipAddresses: ['127.0.0.1', '::1'],
      issuerRef: { name: issuer, kind: 'Issuer', group: 'cert-manager.io' },
    });
  });

  test('dnsNames follow the host-name table', () => {
    expect(findObject(objects, 'Certificate', 'basic-store-cluster-secret').spec.dnsNames).toEqual([
      'basic-store', 'basic-store.demo', 'basic-store.demo.svc',
      'basic-store-peer', 'basic-store-peer.demo', 'basic-store-peer.demo.svc',
      '*.basic-store-peer', '*.basic-store-peer.demo', '*.basic-store-peer.demo.svc',
    ]);
    expect(findObject(objects, 'Certificate', 'basic-pump-cluster-secret').spec.dnsNames)
      .toEqual(['*.basic-pump', '*.basic-pump.demo', '*.basic-pump.demo.svc']);
  });

  test('the drainer certificate is named from its release', () => {
    const { objects: withDrainer } = synth({}, (c) => c.addComponent('drainer', { releaseName: 'binlog' }));
    expect(findObject(withDrainer, 'Certificate', 'basic-drainer-cluster-secret').spec.dnsNames)
      .toEqual(['*.basic-binlog-drainer', '*.basic-binlog-drainer.demo', '*.basic-binlog-drainer.demo.svc']);
  });

  test('every object validates against the CRDs in crds/', () => {
    expectValidAgainstCrds(objects);
  });
});

describe('client Certificates', () => {
  const { objects } = synth({ components: ['coordinator', 'mig-worker'] });

  test.each([
    ['basic-cluster-client-secret', 'basic-db-issuer'],
    ['basic-mig-client-secret', 'basic-mig-issuer'],
  ])('%s: client auth only, no host names, same CN and validity', (name, issuer) => {
    const cert = findObject(objects, 'Certificate', name);
    expect(cert.spec).toMatchObject({
      secretName: name,
      duration: '8760h',
      renewBefore: '360h',
      commonName: 'basic',
      subject: { organizations: ['basic'] },
      usages: ['client auth'],
      issuerRef: { name: issuer, kind: 'Issuer', group: 'cert-manager.io' },
    });
    expect(cert.spec.dnsNames).toBeUndefined();
    expect(cert.spec.ipAddresses).toBeUndefined();
  });
});

describe('one Common Name', () => {
  test('every Certificate of the cluster carries the same commonName', () => {
    const { certs, objects } = synth({ commonName: 'tls-basic', components: [...DB, 'mig-master'] });
    const cns = new Set(objects.filter((o) => o.kind === 'Certificate').map((o) => o.spec.commonName));
    expect([...cns]).toEqual(['tls-basic']);
    expect(certs.commonName).toBe('tls-basic');
  });
});

describe('exposed names', () => {
  test('Secret names for the cluster constructs to wire to', () => {
    const { certs } = synth({ components: ['coordinator', 'mig-master'] });
    expect(certs.serverSecretName('coordinator')).toBe('basic-coordinator-cluster-secret');
    expect(certs.clientSecretName(ClusterKind.DATABASE)).toBe('basic-cluster-client-secret');
    expect(certs.clientSecretName(ClusterKind.MIGRATION)).toBe('basic-mig-client-secret');
    expect(certs.caSecretName).toBe('basic-ca-secret');
    expect(certs.clusterKinds).toEqual([ClusterKind.DATABASE, ClusterKind.MIGRATION]);
  });

  test('asking for a component without a certificate names the ones there are', () => {
    const { certs } = synth({ components: ['coordinator'] });
    expect(() => certs.serverSecretName('store')).toThrow('test/certs: serverSecretName.token: received "store"; expected one of the components with a certificate: coordinator');
    expect(() => certs.clientSecretName(ClusterKind.MIGRATION)).toThrow('test/certs: clientSecretName.kind: received "migration"; expected a kind with certificates: database');
  });

  test('adding a component twice is one certificate', () => {
    const { objects } = synth({ components: ['store'] }, (c) => c.addComponent('store'));
    expect(namesOf(objects, 'Certificate').filter((n) => n === 'basic-store-cluster-secret')).toHaveLength(1);
  });

  test('namespace comes from the chart when not given', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'from-chart' });
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', components: ['store'] });
    expect(certs.namespace).toBe('from-chart');
    expect(chart.toJson().every((o: any) => o.metadata.namespace === 'from-chart')).toBe(true);
  });
});

describe('beyond the spec', () => {
  test('clusterDomain adds the fully qualified .svc names', () => {
    const { objects } = synth({ clusterDomain: 'cluster.local', components: ['pump'] });
    expect(findObject(objects, 'Certificate', 'basic-pump-cluster-secret').spec.dnsNames).toEqual([
      '*.basic-pump', '*.basic-pump.demo', '*.basic-pump.demo.svc', '*.basic-pump.demo.svc.cluster.local',
    ]);
  });

  test('extra DNS names and IP addresses per component, after the spec\'s', () => {
    const { objects } = synth({
      components: ['sqlserver'],
      extraNames: { sqlserver: { extraDnsNames: ['db.example.com'], extraIpAddresses: ['10.0.0.5'] } },
    });
    const spec = findObject(objects, 'Certificate', 'basic-sqlserver-cluster-secret').spec;
    expect(spec.dnsNames[spec.dnsNames.length - 1]).toBe('db.example.com');
    expect(spec.ipAddresses).toEqual(['127.0.0.1', '::1', '10.0.0.5']);
  });

  test('private key: RSA 2048 by default; rotated at renewal on every certificate, kept on the CA', () => {
    const { objects } = synth({ components: ['store'] });
    for (const cert of objects.filter((o) => o.kind === 'Certificate' && !o.spec.isCA)) {
      expect(cert.spec.privateKey).toEqual({ algorithm: 'RSA', size: 2048, rotationPolicy: 'Always' });
    }
    expect(findObject(objects, 'Certificate', 'basic-ca').spec.privateKey).toEqual({ algorithm: 'RSA', size: 2048, rotationPolicy: 'Never' });
  });

  test('private key algorithm, size and rotation are settings; the CA takes the algorithm and size, and its own rotation', () => {
    const { objects } = synth({ components: ['store'], privateKey: { algorithm: KeyAlgorithm.ECDSA, size: 384, rotationPolicy: KeyRotationPolicy.NEVER } });
    expect(findObject(objects, 'Certificate', 'basic-ca').spec.privateKey).toEqual({ algorithm: 'ECDSA', size: 384, rotationPolicy: 'Never' });
    expect(findObject(objects, 'Certificate', 'basic-store-cluster-secret').spec.privateKey).toEqual({ algorithm: 'ECDSA', size: 384, rotationPolicy: 'Never' });
    expectValidAgainstCrds(objects);
  });
});

describe('the Secrets you create, in the plan', () => {
  function deployment(target: 'library' | 'library-secret' | 'external') {
    const chart = Testing.chart();
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo' });
    const database = new TlsDatabaseCluster(chart, 'db', {
      clusterName: 'basic', version: 'v4.0.5', certificates: certs, changefeed: { sinkTlsSecretNames: ['basic-sink-tls', 'basic-sink2-tls'] }, tlsClient: {},
    });
    const targets = {
      'library': { database, user: 'copier' },
      'library-secret': { database, user: 'copier', tlsSecretName: database.addSqlClient('copier').secretName },
      'external': { host: 'mysql.example.com', user: 'copier', tlsSecretName: 'basic-target-tls' },
    };
    new TlsMigrationCluster(chart, 'mig', {
      clusterName: 'basic', version: 'v2.0.7', certificates: certs, task: { name: 'copy' }, target: targets[target],
      sources: [
        { sourceId: 'one', host: 'a.example.com', user: 'copier', tlsSecretName: 'basic-one-tls' },
        { sourceId: 'two', host: 'b.example.com', user: 'copier', tlsSecretName: 'basic-two-tls' },
      ],
    });
    return certs.plan();
  }

  test('userSecrets lists each one with the resource that loads it and what loads it, in the order the constructs declared them', () => {
    expect(deployment('external').userSecrets).toEqual([
      { name: 'basic-sink-tls', cluster: ClusterKind.DATABASE, usedBy: 'the changefeed\'s sink' },
      { name: 'basic-sink2-tls', cluster: ClusterKind.DATABASE, usedBy: 'the changefeed\'s sink' },
      { name: 'basic-one-tls', cluster: ClusterKind.MIGRATION, usedBy: 'migration source one' },
      { name: 'basic-two-tls', cluster: ClusterKind.MIGRATION, usedBy: 'migration source two' },
      { name: 'basic-target-tls', cluster: ClusterKind.MIGRATION, usedBy: 'the migration\'s target' },
    ]);
  });

  test('a Secret the library writes is not listed as one you create: the target handed the Secret of addSqlClient is the plan\'s', () => {
    for (const target of ['library', 'library-secret'] as const) {
      const plan = deployment(target);
      expect(plan.userSecrets!.map((s) => s.name)).toEqual(['basic-sink-tls', 'basic-sink2-tls', 'basic-one-tls', 'basic-two-tls']);
      expect(plan.sqlTls!.secrets.map((s) => s.name)).toContain('copier-demo-basic-sql-client');
    }
  });

  test('a cluster that loads no Secret of yours has no userSecrets', () => {
    const certs = new ClusterCertificates(Testing.chart(), 'certs', { clusterName: 'basic', namespace: 'demo', components: ['store'] });
    expect('userSecrets' in JSON.parse(JSON.stringify(certs.plan()))).toBe(false);
  });
});

describe('input errors', () => {
  const make = (props: Partial<ClusterCertificatesProps>) => () => synth(props);

  test('cluster name must be a DNS label', () => {
    expect(make({ clusterName: 'Basic_1' })).toThrow('test/certs: clusterName: received "Basic_1"; expected a DNS-1123 label');
  });

  test('the longest derived service name must stay within 63 characters', () => {
    const name = 'a'.repeat(48);
    expect(make({ clusterName: name, components: ['changefeed'] }))
      .toThrow(`test/certs: clusterName: received "${name}"; expected at most 47 characters, so that the derived name "${name}-changefeed-peer" (64 characters) stays a DNS-1123 label of at most 63`);
    expect(make({ clusterName: 'a'.repeat(47), components: ['changefeed'] })).not.toThrow();
  });

  test('a namespace is required, from the prop or the chart', () => {
    const app = new App();
    const chart = new Chart(app, 'nochart');
    expect(() => new ClusterCertificates(chart, 'certs', { clusterName: 'basic' }))
      .toThrow('nochart/certs: namespace: received nothing; expected a namespace, from this prop or from the enclosing chart');
  });

  test('durations must be well formed', () => {
    expect(make({ duration: '1y' })).toThrow('test/certs: duration: received "1y"; expected a positive Go duration');
  });

  test('no leaf certificate may outlive its CA', () => {
    expect(make({ duration: '90000h' })).toThrow('test/certs: duration: received "90000h"; expected a validity shorter than the CA\'s (87600h), so that no certificate outlives the CA that signs it');
  });

  test('a leaf nests in its CA with room for rotating the CA, whatever the method', () => {
    for (const method of Object.values(IssuingMethod)) {
      // 87600h - 720h - 360h: the defaults leave a leaf 86520h.
      expect(make({ method, duration: '86521h' })).toThrow('test/certs: duration: received "86521h"; expected at most 86520h (caDuration 87600h - caRenewBefore 720h - renewBefore 360h): '
        + 'a leaf issued with its CA must end, with its own renewal window, before the CA\'s renewal window opens, which stays free for rotating the CA');
      expect(make({ method, duration: '86520h' })).not.toThrow();
      expect(make({ method, caDuration: '3h', caRenewBefore: '30m', duration: '2h', renewBefore: '31m' })).toThrow('expected at most 1h59m (caDuration 3h - caRenewBefore 30m - renewBefore 31m)');
    }
  });

  test('when no leaf the other rules accept would nest, the CA is blamed, never a duration those rules refuse', () => {
    // cert-manager: 10m of room, under its 1h minimum.
    expect(make({ caDuration: '2h', caRenewBefore: '1h', duration: '1h', renewBefore: '50m' })).toThrow(
      'test/certs: caDuration: received "2h"; expected at least 2h50m (duration 1h + renewBefore 50m + caRenewBefore 1h): a leaf issued with its CA must end');
    // cfssl: no room at all.
    expect(make({ method: IssuingMethod.CFSSL, caDuration: '2h', caRenewBefore: '1h50m', duration: '30m', renewBefore: '20m' })).toThrow(
      'test/certs: caDuration: received "2h"; expected at least 2h40m (duration 30m + renewBefore 20m + caRenewBefore 1h50m)');
  });

  test('with cert-manager, what its webhook refuses: a certificate under an hour, a renewal window under five minutes', () => {
    expect(make({ duration: '59m', renewBefore: '10m' })).toThrow('test/certs: duration: received "59m"; expected at least 1h: cert-manager\'s webhook refuses less (its minimum, v1.21)');
    expect(make({ caDuration: '30m', caRenewBefore: '10m', duration: '20m', renewBefore: '10m' })).toThrow('test/certs: caDuration: received "30m"; expected at least 1h');
    expect(make({ renewBefore: '4m59s' })).toThrow('test/certs: renewBefore: received "4m59s"; expected at least 5m: cert-manager\'s webhook refuses less (its minimum, v1.21)');
    expect(make({ caRenewBefore: '1m' })).toThrow('test/certs: caRenewBefore: received "1m"; expected at least 5m');
    expect(make({ duration: '1h', renewBefore: '5m' })).not.toThrow();
    // cfssl issues what it is asked for: the minimums are cert-manager's.
    expect(make({ method: IssuingMethod.CFSSL, duration: '30m', renewBefore: '1m' })).not.toThrow();
  });

  test('renewal window shorter than validity', () => {
    expect(make({ renewBefore: '8760h' })).toThrow('test/certs: renewBefore: received "8760h"; expected a window shorter than duration (8760h)');
    expect(make({ caRenewBefore: '87600h' })).toThrow('test/certs: caRenewBefore: received "87600h"; expected a window shorter than caDuration (87600h)');
  });

  test('key sizes', () => {
    expect(make({ privateKey: { size: 1024 } })).toThrow('test/certs: privateKey.size: received 1024; expected an RSA key size from 2048 to 8192 bits');
    expect(make({ privateKey: { algorithm: KeyAlgorithm.ECDSA, size: 2048 } })).toThrow('expected an ECDSA key size of 256, 384 or 521 bits');
  });

  test('subject fields: one printable line within the X.509 limits, country two capitals, organization not empty', () => {
    expect(make({ subject: { country: 'United States' } }))
      .toThrow('test/certs: subject.country: received "United States"; expected a two-letter ISO 3166 country code in capitals, such as "US" (X.509 allows two characters)');
    expect(make({ subject: { organization: '' } }))
      .toThrow('test/certs: subject.organization: received ""; expected a single line of 1 to 64 printable characters, without leading or trailing spaces');
    expect(make({ subject: { organizationalUnit: 'a\nO=evil' } }))
      .toThrow('test/certs: subject.organizationalUnit: received "a\\nO=evil"; expected a single line of 1 to 64 printable characters, without leading or trailing spaces');
    expect(make({ subject: { locality: 'x'.repeat(129) } })).toThrow('expected a single line of 1 to 128 printable characters');
    expect(make({ subject: 'O=demo' as any })).toThrow('test/certs: subject: received "O=demo"; expected an object with organization, organizationalUnit, country, state and locality, each optional');
    expect(make({ subject: { org: 'demo' } as any })).toThrow('test/certs: subject: received "org"; expected only the props organization, organizationalUnit, country, state, locality');
    expect(make({ subject: { country: 'DE', state: 'Baden-Württemberg' } })).not.toThrow();
  });

  test('a Common Name is one printable line of at most 64 characters', () => {
    expect(make({ commonName: 'basic\nO=evil' })).toThrow('test/certs: commonName: received "basic\\nO=evil"; expected a single line of 1 to 64 printable characters, without leading or trailing spaces');
    expect(make({ commonName: 'x'.repeat(65) })).toThrow('expected a single line of 1 to 64 printable characters');
  });

  test('the CA key rotation policy is one of the two', () => {
    expect(make({ caKeyRotationPolicy: 'Sometimes' as any })).toThrow('test/certs: caKeyRotationPolicy: received "Sometimes"; expected one of "Always", "Never"');
    expect(make({ caKeyRotationPolicy: KeyRotationPolicy.ALWAYS })).toThrow('test/certs: caKeyRotationPolicy: received "Always"; expected "Never": a CA renewed with a new key is an outage '
      + '(certificates issued before the renewal stop chaining to the ca.crt of those issued after it, and pods that restart in between reject their peers); '
      + 'to replace the CA key, declare a rotation of kind "ca-replacement", whose three phases keep every connection up');
  });

  test('the drainer needs its release name', () => {
    expect(() => synth({}, (c) => c.addComponent('drainer'))).toThrow('test/certs: drainer releaseName: received nothing; expected the drainer chart\'s release name');
  });

  test('a component added again with other options is refused', () => {
    expect(() => synth({}, (c) => {
      c.addComponent('drainer', { releaseName: 'a' });
      c.addComponent('drainer', { releaseName: 'b' });
    })).toThrow('test/certs: addComponent.options: received {"releaseName":"b"}; expected the options drainer was first added with, {"releaseName":"a"}');
  });

  test('unknown tokens in extraNames', () => {
    expect(make({ extraNames: { tidb: {} } })).toThrow('test/certs: extraNames: received "tidb"; expected a component token');
  });
});

describe('certificate plan', () => {
  test('lists every Secret with what its certificate must hold, in <namespace>/<cluster>/tls-plan.json', () => {
    const { certs } = synth({ components: ['pump', 'mig-master'], commonName: 'cn' });
    const plan = certs.plan();
    expect(plan).toMatchObject({ clusterName: 'basic', namespace: 'demo', method: 'cert-manager', commonName: 'cn', duration: '8760h', renewBefore: '360h', ca: { secretName: 'basic-ca-secret', duration: '87600h' } });
    expect(plan.secrets.map((s) => [s.name, s.role, s.usages])).toEqual([
      ['basic-cluster-client-secret', 'client', ['client auth']],
      ['basic-mig-client-secret', 'client', ['client auth']],
      ['basic-pump-cluster-secret', 'server', ['server auth', 'client auth']],
      ['basic-mig-master-cluster-secret', 'server', ['server auth', 'client auth']],
    ]);
    expect(plan.secrets[2]).toMatchObject({ component: 'pump', dnsNames: ['*.basic-pump', '*.basic-pump.demo', '*.basic-pump.demo.svc'], ipAddresses: ['127.0.0.1', '::1'] });
    const file = certs.node.findAll().find(OutputFile.isOutputFile)!;
    expect(file.path).toBe('demo/basic/tls-plan.json');
    expect(JSON.parse(file.render())).toEqual(plan);
  });
});

describe('issuance steps for runbooks', () => {
  test('cert-manager: apply this cluster\'s issuers and certificates by label, then wait for them', () => {
    const [step] = synth({ components: ['store'] }).certs.issuanceSteps();
    expect(step.commands).toEqual([
      'kubectl apply -f test.k8s.yaml -l cdk8s-cluster-tls/certificates=basic',
      'kubectl wait --for=condition=Ready certificate -l cdk8s-cluster-tls/certificates=basic -n demo --timeout=5m',
    ]);
  });

  test('cert-manager: every issuer and certificate carries the label the steps select', () => {
    const { objects } = synth({ components: ['store', 'mig-master'] });
    const certManager = objects.filter((o) => o.apiVersion === 'cert-manager.io/v1');
    expect(certManager.length).toBe(8);
    for (const o of certManager) {
      expect(o.metadata.labels).toEqual({ 'cdk8s-cluster-tls/certificates': 'basic' });
    }
  });

  test('cfssl: copy the folder out of the output and run the script', () => {
    const [step] = synth({ method: IssuingMethod.CFSSL }).certs.issuanceSteps();
    expect(step.commands).toEqual(['mkdir -p ~/pki-demo-basic', 'cp -r ../cluster-tls/demo/basic/cfssl/. ~/pki-demo-basic/', '~/pki-demo-basic/issue-certificates.sh']);
  });

  test('user-provided: points at the list of required Secrets', () => {
    const [step] = synth({ method: IssuingMethod.USER_PROVIDED }).certs.issuanceSteps();
    expect(step.text?.join(' ')).toContain('`../cluster-tls/demo/basic/required-secrets.md`');
    expect(step.commands).toBeUndefined();
  });
});
