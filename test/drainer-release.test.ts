import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import { renderApp } from '../lib/synth/synthesize';
import { registeredDrainers } from '../lib/app/registry';
import { DrainerRelease } from '../lib/clusters/drainer-release';
import { DrainerReleaseProps, GitOpsEngine } from '../lib/clusters/drainer-props';
import { TlsDatabaseCluster, TlsDatabaseClusterProps } from '../lib/clusters/tls-database-cluster';
import { expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';

/**
 * Synthesizes a cluster and its drainer. The drainer's scope is created before the cluster, so
 * that without a dependency its objects would come first.
 */
function synth(props: Partial<DrainerReleaseProps> = {}, clusterProps: Partial<TlsDatabaseClusterProps> = {}) {
  const chart = Testing.chart();
  const early = new Construct(chart, 'early');
  const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5', ...clusterProps });
  const drainer = new DrainerRelease(early, 'drainer', { cluster, releaseName: 'binlog', chart: { version: '1.1.0' }, ...props });
  const objects = Testing.synth(chart);
  const text = drainer.valuesFile.render();
  return { cluster, drainer, objects, text, values: YAML.parse(text), runbook: cluster.runbook.render() };
}

const REPO = 'https://charts.example.com/stable';
const FLUX = { chart: { repository: REPO, version: '1.1.0' }, gitOps: GitOpsEngine.FLUX };
const ARGO = { chart: { repository: REPO, version: '1.1.0' }, gitOps: GitOpsEngine.ARGO_CD };

describe('values file', () => {
  test('lives in the cluster folder, named after the release', () => {
    expect(synth().drainer.valuesFile.path).toBe('demo/basic/drainer-binlog-values.yaml');
  });

  test('defaults: cluster name, no drainerName (the chart\'s default applies), cluster version, 10Gi, TLS on with the certificates\' Common Name', () => {
    const { values, text } = synth();
    expect(values).toEqual({
      clusterName: 'basic',
      clusterVersion: 'v4.0.5',
      storage: '10Gi',
      tlsCluster: { enabled: true, certAllowedCN: ['basic'] },
    });
    expect(Object.keys(values)).toEqual(['clusterName', 'clusterVersion', 'storage', 'tlsCluster']);
    expect(values.version).toBeUndefined(); // the chart reads clusterVersion and ignores version
    expect(text).toMatch(/^# Values of the drainer chart, release binlog of database cluster demo\/basic\./);
  });

  test('every setting, in the documented key order', () => {
    const { values } = synth({
      drainerName: 'ledger',
      version: 'v4.0.6',
      storage: '50Gi',
      storageClassName: 'fast-ssd',
      extraAllowedCommonNames: ['replica-reader'],
      downstreamTls: { secretName: 'downstream-tls', allowedCommonNames: ['downstream-db'], checkpointSecretName: 'checkpoint-tls' },
      config: 'worker-count = 16\n[syncer]\ndb-type = "mysql"\n',
      extraValues: { resources: { requests: { cpu: '1' } } },
    }, { commonName: 'basic-cn' });
    expect(values).toEqual({
      clusterName: 'basic',
      drainerName: 'ledger',
      clusterVersion: 'v4.0.6',
      storage: '50Gi',
      storageClassName: 'fast-ssd',
      tlsCluster: { enabled: true, certAllowedCN: ['basic-cn', 'replica-reader'] },
      tlsSyncer: { tlsClientSecretName: 'downstream-tls', certAllowedCN: ['downstream-db'], checkpoint: { tlsClientSecretName: 'checkpoint-tls' } },
      config: 'worker-count = 16\n[syncer]\ndb-type = "mysql"\n',
      resources: { requests: { cpu: '1' } },
    });
    expect(Object.keys(values)).toEqual([
      'clusterName', 'drainerName', 'clusterVersion', 'storage', 'storageClassName', 'tlsCluster', 'tlsSyncer', 'config', 'resources',
    ]);
  });

  test('extra allowed Common Names are listed once, after the certificates\' own', () => {
    expect(synth({ extraAllowedCommonNames: ['basic', 'partner', 'partner'] }).values.tlsCluster)
      .toEqual({ enabled: true, certAllowedCN: ['basic', 'partner'] });
  });

  test('downstream TLS is the chart\'s tlsSyncer, key by key; no checkpoint Secret unless the checkpoint is another database', () => {
    const { values } = synth({ downstreamTls: { secretName: 'downstream-tls' } });
    expect(values.tlsSyncer).toEqual({ tlsClientSecretName: 'downstream-tls' });
    expect(values.tlsDownstream).toBeUndefined();
  });

  test('config is the TOML text the chart reads, written as a string', () => {
    const { text, values } = synth({ config: '[syncer]\ndb-type = "mysql"\n' });
    expect(values.config).toBe('[syncer]\ndb-type = "mysql"\n');
    expect(text).toContain('config: |\n  [syncer]\n  db-type = "mysql"\n');
  });

  test('holds no private key and no Secret', () => {
    const { text } = synth({ downstreamTls: { secretName: 'downstream-tls' } });
    expect(text).not.toMatch(/PRIVATE KEY|password/i);
  });

  test('values are a copy: changing what the construct returns changes nothing', () => {
    const { drainer } = synth();
    drainer.values.clusterName = 'other';
    expect(drainer.values.clusterName).toBe('basic');
  });
});

describe('drainer server certificate', () => {
  test('without drainerName: host names from ${cluster_name}-${release_name}-drainer', () => {
    const { objects, drainer } = synth();
    const cert = findObject(objects, 'Certificate', 'basic-drainer-cluster-secret');
    expect(cert.spec.secretName).toBe('basic-drainer-cluster-secret');
    expect(cert.spec.dnsNames).toEqual(['*.basic-binlog-drainer', '*.basic-binlog-drainer.demo', '*.basic-binlog-drainer.demo.svc']);
    expect(cert.spec.ipAddresses).toEqual(['127.0.0.1', '::1']);
    expect(cert.spec.usages).toEqual(['server auth', 'client auth']);
    expect(cert.spec.commonName).toBe('basic');
    expect(cert.spec.issuerRef).toEqual({ name: 'basic-db-issuer', kind: 'Issuer', group: 'cert-manager.io' });
    expect(drainer.drainerName).toBe('basic-binlog-drainer');
    expect(drainer.serverSecretName).toBe('basic-drainer-cluster-secret');
    expect(drainer.hostNames).toEqual(cert.spec.dnsNames);
  });

  test('with drainerName: host names from drainerName, and the release name plays no part', () => {
    const { objects, drainer, values } = synth({ drainerName: 'ledger' });
    expect(findObject(objects, 'Certificate', 'basic-drainer-cluster-secret').spec.dnsNames)
      .toEqual(['*.ledger', '*.ledger.demo', '*.ledger.demo.svc']);
    expect(drainer.drainerName).toBe('ledger');
    expect(values.drainerName).toBe('ledger');
  });

  test('every object validates against the CRDs in crds/', () => {
    expectValidAgainstCrds(synth({ drainerName: 'ledger' }).objects);
  });
});

describe('runbook (section C step 4)', () => {
  test('helm install with the release, namespace, chart version and values file', () => {
    const { runbook } = synth();
    expect(runbook).toMatch(/^## \d+\. Install the drainer \(release binlog\)$/m);
    expect(runbook).toContain('kubectl get secret basic-drainer-cluster-secret -n demo\n'
      + 'helm install binlog drainer --namespace=demo --version=1.1.0 -f ../cluster-tls/demo/basic/drainer-binlog-values.yaml\n'
      + 'kubectl rollout status statefulset/basic-binlog-drainer -n demo');
    expect(runbook).toContain('A running drainer cannot be renamed');
  });

  test('a chart repository is added first, and the chart is installed from it', () => {
    const { runbook, drainer } = synth({ chart: { repository: REPO, name: 'tls-drainer', version: 'v1.2.3' } });
    expect(runbook).toContain(`helm repo add binlog-charts ${REPO}\n`
      + 'helm install binlog binlog-charts/tls-drainer --namespace=demo --version=v1.2.3 -f ../cluster-tls/demo/basic/drainer-binlog-values.yaml');
    expect(drainer.installCommand).toBe('helm install binlog binlog-charts/tls-drainer --namespace=demo --version=v1.2.3 -f ../cluster-tls/demo/basic/drainer-binlog-values.yaml');
  });

  test('an OCI chart is installed by its reference, without helm repo add', () => {
    const { runbook } = synth({ chart: { repository: 'oci://registry.example.com/charts', version: '1.1.0' } });
    expect(runbook).toContain('helm install binlog oci://registry.example.com/charts/drainer --namespace=demo --version=1.1.0');
    expect(runbook).not.toContain('helm repo add');
  });

  test('the downstream Secrets are checked too, each once', () => {
    expect(synth({ downstreamTls: { secretName: 'downstream-tls' } }).runbook)
      .toContain('kubectl get secret basic-drainer-cluster-secret downstream-tls -n demo');
    expect(synth({ downstreamTls: { secretName: 'downstream-tls', checkpointSecretName: 'checkpoint-tls' } }).runbook)
      .toContain('kubectl get secret basic-drainer-cluster-secret downstream-tls checkpoint-tls -n demo');
  });

  test('the drainer\'s StatefulSet follows drainerName', () => {
    expect(synth({ drainerName: 'ledger' }).runbook).toContain('kubectl rollout status statefulset/ledger -n demo');
  });
});

describe('Flux', () => {
  const { objects, values, runbook } = synth({ ...FLUX, downstreamTls: { secretName: 'downstream-tls' } });

  test('HelmRepository with the chart repository\'s URL', () => {
    const repo = findObject(objects, 'HelmRepository', 'binlog-charts');
    expect(repo.apiVersion).toBe('source.toolkit.fluxcd.io/v1');
    expect(repo.metadata).toEqual({ name: 'binlog-charts', namespace: 'demo' });
    expect(repo.spec).toEqual({ interval: '10m', url: REPO });
  });

  test('HelmRelease with the release name, the pinned chart and the values of the values file', () => {
    const release = findObject(objects, 'HelmRelease', 'binlog');
    expect(release.apiVersion).toBe('helm.toolkit.fluxcd.io/v2');
    expect(release.metadata).toEqual({ name: 'binlog', namespace: 'demo' });
    expect(release.spec).toEqual({
      releaseName: 'binlog',
      interval: '10m',
      chart: { spec: { chart: 'drainer', version: '1.1.0', sourceRef: { kind: 'HelmRepository', name: 'binlog-charts' } } },
      values,
    });
    expect(release.spec.values.tlsCluster).toEqual({ enabled: true, certAllowedCN: ['basic'] });
  });

  test('applied after the database cluster, the release after its repository', () => {
    const order = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(order.indexOf('DatabaseCluster/basic')).toBeLessThan(order.indexOf('HelmRepository/binlog-charts'));
    expect(order.indexOf('HelmRepository/binlog-charts')).toBeLessThan(order.indexOf('HelmRelease/binlog'));
    expect(order.indexOf('Certificate/basic-drainer-cluster-secret')).toBeLessThan(order.indexOf('HelmRelease/binlog'));
  });

  test('an OCI repository has type oci; the interval is a setting', () => {
    const oci = synth({ ...FLUX, chart: { repository: 'oci://registry.example.com/charts', version: '1.1.0' }, gitOpsInterval: '1h' }).objects;
    expect(findObject(oci, 'HelmRepository', 'binlog-charts').spec).toEqual({ interval: '1h', url: 'oci://registry.example.com/charts', type: 'oci' });
    expect(findObject(oci, 'HelmRelease', 'binlog').spec.interval).toBe('1h');
  });

  test('the runbook checks the HelmRelease instead of running helm', () => {
    expect(runbook).toContain('kubectl get helmreleases.helm.toolkit.fluxcd.io binlog -n demo');
    expect(runbook).toContain('Flux installs the chart from the HelmRelease `binlog` in `test.k8s.yaml`');
    expect(runbook).not.toMatch(/^helm /m);
  });
});

describe('credentials in the drainer\'s configuration, with a GitOps engine', () => {
  const WITH_PASSWORD = '[syncer.to]\nhost = "downstream.example.com"\nuser = "drainer"\npassword = "s3cr3t-Pa55"\n';

  test('Flux takes the configuration from the Secret the user creates (valuesFrom): no credential reaches the manifests', () => {
    const { objects, values, runbook } = synth({ ...FLUX, configSecret: 'binlog-drainer-config' });
    const release = findObject(objects, 'HelmRelease', 'binlog');
    // A values document, not a targetPath: Flux sets a value at a path with Helm's --set syntax, which splits a TOML text at its commas.
    expect(release.spec.valuesFrom).toEqual([{ kind: 'Secret', name: 'binlog-drainer-config', valuesKey: 'values.yaml' }]);
    expect(release.spec.values.config).toBeUndefined();
    expect(values.config).toBeUndefined();
    expect(runbook).toContain('kubectl get secret basic-drainer-cluster-secret binlog-drainer-config -n demo');
    expect(runbook).toContain('`{ echo \'config: |\'; sed \'s/^/  /\' drainer.toml; } | kubectl create secret generic binlog-drainer-config -n demo --from-file=values.yaml=/dev/stdin`');
  });

  test('a configuration with a credential is refused in one line that names where it is, never the value', () => {
    for (const [engine, props] of [['flux', FLUX], ['argo-cd', ARGO]] as const) {
      for (const config of [WITH_PASSWORD, 'token = "abc"\n', '[syncer.to]\ndsn = "mysql://drainer:hunter2@db:3306/x"\n', 'password = 123456\n',
        '[syncer.to]\npassword = 123456\n', 'tokens = ["abc"]\n', 'Password = "x"\n', 'hosts = ["mysql://u:hunter2@db/x"]\n']) {
        let message = '';
        try {
          synth({ ...props, config });
        } catch (e) {
          message = (e as Error).message;
        }
        const what = engine === 'flux'
          ? 'the HelmRelease writes into the manifests: put the configuration in a Secret you create, as values (the runbook shows how), and name it in configSecret'
          : 'the Application writes into the manifests: Argo CD takes chart values from the Application only; install with Flux and configSecret, or with the runbook\'s helm install';
        expect({ engine, message: message.replace(/s3cr3t-Pa55|abc|hunter2|123456/g, 'LEAKED').replace(/at "[\w.]+"/, 'at KEY') })
          .toEqual({ engine, message: `test/early/drainer: config: received a configuration with a credential at KEY (not shown); expected no credential in a configuration ${what}` });
      }
    }
    // The runbook's helm install reads the values file, which a configuration with its password may go to, as given.
    expect(synth({ config: WITH_PASSWORD }).values.config).toBe(WITH_PASSWORD);
    // An empty credential is none: the drainer's chart default configuration has password = "".
    expect(findObject(synth({ ...FLUX, config: '[syncer.to]\npassword = ""\n' }).objects, 'HelmRelease', 'binlog').spec.values.config).toBe('[syncer.to]\npassword = ""\n');
    // A configuration with no credential still goes with the values.
    expect(findObject(synth({ ...FLUX, config: 'worker-count = 16\n' }).objects, 'HelmRelease', 'binlog').spec.values.config).toBe('worker-count = 16\n');
  });

  test('configSecret beside config, without Flux, or naming a Secret the library makes is refused, naming the field to change; a config that is no TOML too, unshown', () => {
    expect(() => synth({ ...FLUX, config: 'a = 1\n', configSecret: 'x' })).toThrow('test/early/drainer: config: received a configuration (not shown); expected nothing beside configSecret: the chart value config comes from one or the other');
    expect(() => synth({ ...ARGO, configSecret: 'x' })).toThrow('test/early/drainer: gitOps: received "argo-cd"; expected "flux" with configSecret: only Flux takes chart values from a Secret (valuesFrom); without Flux, give the configuration in config (it goes to the values file)');
    expect(() => synth({ configSecret: 'x' })).toThrow('test/early/drainer: gitOps: received nothing; expected "flux" with configSecret: only Flux takes chart values from a Secret (valuesFrom); without Flux, give the configuration in config (it goes to the values file)');
    expect(() => synth({ ...FLUX, configSecret: 'basic-cluster-client-secret' })).toThrow(/^test\/early\/drainer: configSecret: received "basic-cluster-client-secret"; expected /);
    expect(() => synth({ config: 'password = hunter2 [' })).toThrow('test/early/drainer: config: received a document that is not TOML (not shown: it may hold credentials); expected a TOML document, as the drainer reads its configuration');
  });
});

describe('Argo CD', () => {
  const { objects, values, runbook } = synth(ARGO);

  test('Application in Argo CD\'s namespace, installing the pinned chart into the cluster\'s namespace with the same values', () => {
    const app = findObject(objects, 'Application', 'demo-binlog');
    expect(app.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(app.metadata).toEqual({ name: 'demo-binlog', namespace: 'argocd' });
    expect(app.spec).toEqual({
      project: 'default',
      source: {
        repoURL: REPO,
        chart: 'drainer',
        targetRevision: '1.1.0',
        helm: { releaseName: 'binlog', valuesObject: values },
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'demo' },
      syncPolicy: { automated: { prune: false, selfHeal: true } },
    });
  });

  test('applied after the database cluster', () => {
    const order = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(order.indexOf('DatabaseCluster/basic')).toBeLessThan(order.indexOf('Application/demo-binlog'));
  });

  test('an OCI registry is named without its scheme; namespace and project are settings', () => {
    const app = findObject(synth({
      ...ARGO, chart: { repository: 'oci://registry.example.com/charts', version: '1.1.0' }, argoCdNamespace: 'gitops', argoCdProject: 'databases',
    }).objects, 'Application', 'demo-binlog');
    expect(app.metadata.namespace).toBe('gitops');
    expect(app.spec.project).toBe('databases');
    expect(app.spec.source.repoURL).toBe('registry.example.com/charts');
  });

  test('the runbook checks the Application instead of running helm', () => {
    expect(runbook).toContain('kubectl get applications.argoproj.io demo-binlog -n argocd');
    expect(runbook).not.toMatch(/^helm /m);
  });

  test('no GitOps objects unless asked for', () => {
    const kinds = synth({ chart: { repository: REPO, version: '1.1.0' } }).objects.map((o) => o.kind);
    expect(kinds).not.toContain('HelmRelease');
    expect(kinds).not.toContain('HelmRepository');
    expect(kinds).not.toContain('Application');
  });
});

describe('in a chart of its own', () => {
  test('no dependency across charts, so the manifest files keep their names', () => {
    const app = new App();
    const db = new Chart(app, 'db', { namespace: 'demo' });
    const cluster = new TlsDatabaseCluster(db, 'basic', { clusterName: 'basic', version: 'v4.0.5' });
    const gitops = new Chart(app, 'gitops', { namespace: 'demo' });
    new DrainerRelease(gitops, 'drainer', { cluster, releaseName: 'binlog', ...FLUX });
    const files = renderApp(app).files.map((f) => f.path);
    expect(files).toContain('db.k8s.yaml');
    expect(files).toContain('gitops.k8s.yaml');
    expect(files).toContain('demo/basic/drainer-binlog-values.yaml');
  });
});

describe('input errors', () => {
  test('the release name is a Helm release name', () => {
    expect(() => synth({ releaseName: 'Bin_log' })).toThrow('test/early/drainer: releaseName: received "Bin_log"; expected a Helm release name: lowercase letters, digits and \'-\', starting and ending with a letter or digit, at most 53 characters');
    expect(() => synth({ releaseName: 'a'.repeat(54), drainerName: 'ledger' })).toThrow(`test/early/drainer: releaseName: received "${'a'.repeat(54)}"; expected a Helm release name`);
  });

  test('the default drainer name must stay a DNS label (checked at the drainer, not the certificates it is added to)', () => {
    const release = 'r'.repeat(50);
    expect(() => synth({ releaseName: release }))
      .toThrow(`test/early/drainer: releaseName: received "${release}"; expected at most 49 characters, so that the derived name "basic-${release}-drainer" (64 characters) stays a DNS-1123 label of at most 63`);
    expect(() => synth({ releaseName: release, drainerName: 'ledger' })).not.toThrow();
  });

  test('drainerName is a DNS label (checked at the drainer, not the certificates it is added to)', () => {
    expect(() => synth({ drainerName: 'Ledger' })).toThrow('test/early/drainer: drainerName: received "Ledger"; expected a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending with a letter or digit, at most 63 characters');
  });

  test('the chart and its exact version are required', () => {
    expect(() => synth({ chart: undefined as any })).toThrow('test/early/drainer: chart: received nothing; expected the drainer chart, with at least its exact version: { version: "1.1.0" }');
    for (const version of ['^1.1.0', 'latest', '1.1']) {
      expect(() => synth({ chart: { version } })).toThrow(`test/early/drainer: chart.version: received "${version}"; expected an exact chart version such as "1.1.0" (SemVer, optionally prefixed with v): a range or "latest" makes the install unrepeatable`);
    }
  });

  test('a repository URL with credentials in it is refused without repeating them', () => {
    for (const repository of ['https://robot:t0ken@charts.example.com/stable', 'oci://user@registry.example.com/charts', 'ftp://u:p@x']) {
      expect(() => synth({ chart: { repository, version: '1.1.0' } })).toThrow('test/early/drainer: chart.repository: received a value with a user name or password in it (not repeated here); expected a URL or host without credentials: give them in the Secret the construct\'s documentation names');
      expect(() => synth({ chart: { repository, version: '1.1.0' } })).not.toThrow(/t0ken|robot|user@|u:p/);
    }
  });

  test('the repository is an https or oci URL', () => {
    for (const repository of ['http://charts.example.com', 'charts.example.com', 'https://charts.example.com/']) {
      expect(() => synth({ chart: { repository, version: '1.1.0' } })).toThrow(`test/early/drainer: chart.repository: received "${repository}"; expected a repository URL starting with https:// (or oci:// for an OCI registry), without a trailing '/'`);
    }
  });

  test('chart names', () => {
    expect(() => synth({ chart: { repository: REPO, name: 'repo/drainer', version: '1.1.0' } }))
      .toThrow('test/early/drainer: chart.name: received "repo/drainer"; expected the chart\'s name in the repository: lowercase letters, digits and \'-\'');
    expect(() => synth({ chart: { name: 'my chart', version: '1.1.0' } }))
      .toThrow('test/early/drainer: chart.name: received "my chart"; expected a chart reference for helm, such as "myrepo/drainer" or "./charts/drainer"');
    expect(() => synth({ chart: { name: 'myrepo/drainer', version: '1.1.0' } })).not.toThrow();
  });

  test('version, storage and storage class', () => {
    expect(() => synth({ version: '4.0.5' })).toThrow('test/early/drainer: version: received "4.0.5"; expected a release version of the form v<major>.<minor>.<patch>');
    expect(() => synth({ storage: '10 GB' })).toThrow('test/early/drainer: storage: received "10 GB"; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes');
    expect(() => synth({ storage: 10 as any })).toThrow('test/early/drainer: storage: received 10; expected a storage quantity greater than zero, such as "10Gi", ".5Gi" or "1e3" (an exponent of at most 99), or a cdk8s Size of whole kibibytes');
    expect(() => synth({ storageClassName: 'Fast SSD' })).toThrow('test/early/drainer: storageClassName: received "Fast SSD"; expected a DNS-1123 subdomain');
  });

  test('allowed Common Names are a list of non-empty Common Names of at most 64 characters', () => {
    expect(() => synth({ extraAllowedCommonNames: ['ok', ''] }))
      .toThrow('test/early/drainer: extraAllowedCommonNames[1]: received ""; expected a single line of 1 to 64 printable characters, without leading or trailing spaces');
    expect(() => synth({ extraAllowedCommonNames: ['c'.repeat(65)] }))
      .toThrow(`test/early/drainer: extraAllowedCommonNames[0]: received "${'c'.repeat(65)}" (65 characters); expected a single line of 1 to 64 printable characters, without leading or trailing spaces`);
    expect(() => synth({ extraAllowedCommonNames: 'partner' as any }))
      .toThrow('test/early/drainer: extraAllowedCommonNames: received "partner"; expected a list of Common Names');
  });

  test('config is TOML text and extraValues an object, neither repeated in a message; extraValues does not set what the construct sets', () => {
    expect(() => synth({ config: { syncer: { password: 'hunter2' } } as any }))
      .toThrow('test/early/drainer: config: received a value of type object; expected a TOML document as a string (the chart value config is text)');
    expect(() => synth({ extraValues: ['hunter2'] as any })).toThrow('test/early/drainer: extraValues: received a value of type array; expected an object of chart values');
    expect(() => synth({ extraValues: { tlsCluster: { enabled: false } } }))
      .toThrow('test/early/drainer: extraValues.tlsCluster: received a value, not shown since chart values may hold credentials; expected nothing: the construct sets "tlsCluster"; use the prop of that name');
    expect(() => synth({ extraValues: { drainerName: 'x' } })).toThrow('test/early/drainer: extraValues.drainerName: received a value, not shown since chart values may hold credentials; expected nothing');
  });

  test('downstream Secrets are not the cluster\'s own certificate Secrets', () => {
    expect(() => synth({ downstreamTls: { secretName: 'basic-ca-secret' } }))
      .toThrow('test/early/drainer: downstreamTls.secretName: received "basic-ca-secret"; expected a Secret you create, not one the library writes (basic-ca-secret holds the CA and its private key)');
    // With TLS for MySQL clients, the server's and the operator's Secrets for it, and the staging Secrets of a rotation.
    expect(() => synth({ downstreamTls: { secretName: 'basic-sqlserver-client-secret' } }, { tlsClient: {} })).toThrow(
      'test/early/drainer: downstreamTls.secretName: received "basic-sqlserver-client-secret"; expected a Secret you create, not one the library writes (basic-sqlserver-client-secret holds the operator\'s client certificate and key for MySQL clients)');
    expect(() => synth({ downstreamTls: { secretName: 'ok', checkpointSecretName: 'basic-cluster-client-secret' } }))
      .toThrow('test/early/drainer: downstreamTls.checkpointSecretName: received "basic-cluster-client-secret"; expected a Secret you create, not one the library writes (basic-cluster-client-secret holds the database cluster\'s client certificate and key)');
  });

  test('downstream Secrets are Secret names', () => {
    expect(() => synth({ downstreamTls: { secretName: 'Downstream TLS' } })).toThrow('test/early/drainer: downstreamTls.secretName: received "Downstream TLS"; expected a DNS-1123 subdomain');
    expect(() => synth({ downstreamTls: { secretName: 'ok', checkpointSecretName: '' } })).toThrow('test/early/drainer: downstreamTls.checkpointSecretName: received ""; expected a DNS-1123 subdomain');
  });

  test('GitOps needs the chart repository, a known engine and a valid interval', () => {
    expect(() => synth({ gitOps: GitOpsEngine.FLUX })).toThrow('test/early/drainer: chart.repository: received nothing; expected the chart repository\'s URL: flux fetches the chart itself');
    expect(() => synth({ ...FLUX, gitOps: 'jenkins' as any })).toThrow('test/early/drainer: gitOps: received "jenkins"; expected one of "flux", "argo-cd"');
    expect(() => synth({ ...FLUX, gitOpsInterval: 'hourly' })).toThrow('test/early/drainer: gitOpsInterval: received "hourly"; expected a positive Go duration');
  });

  test('Argo CD namespace, project and application name', () => {
    expect(() => synth({ ...ARGO, argoCdNamespace: 'Argo' })).toThrow('test/early/drainer: argoCdNamespace: received "Argo"; expected a DNS-1123 label');
    expect(() => synth({ ...ARGO, argoCdProject: 'My Project' })).toThrow('test/early/drainer: argoCdProject: received "My Project"; expected a DNS-1123 subdomain');
    const release = 'r'.repeat(53);
    expect(() => synth({ ...ARGO, releaseName: release, drainerName: 'ledger' }, { namespace: 'n'.repeat(10) }))
      .toThrow(`test/early/drainer: releaseName: received "${release}"; expected at most 52 characters, so that the derived name "${'n'.repeat(10)}-${release}" (64 characters) stays a DNS-1123 label of at most 63`);
    expect(() => synth({ ...ARGO, releaseName: release.slice(1), drainerName: 'ledger' }, { namespace: 'n'.repeat(10) })).not.toThrow();
  });

  test('a drainer refused for a GitOps prop registers nothing: the corrected one is accepted on the same cluster', () => {
    type GitOpsProps = Omit<Partial<DrainerReleaseProps>, 'cluster' | 'chart'>;
    const cases: [GitOpsProps, GitOpsProps][] = [
      [{ gitOps: GitOpsEngine.FLUX, gitOpsInterval: 'hourly' }, { gitOpsInterval: '1h' }],
      [{ gitOps: GitOpsEngine.ARGO_CD, argoCdNamespace: 'Argo' }, { argoCdNamespace: 'argo' }],
      [{ gitOps: GitOpsEngine.ARGO_CD, argoCdProject: 'My Project' }, { argoCdProject: 'my-project' }],
      [{ gitOps: GitOpsEngine.ARGO_CD, releaseName: 'r'.repeat(53), drainerName: 'ledger' }, { releaseName: 'r'.repeat(52) }],
    ];
    for (const [bad, fix] of cases) {
      const chart = Testing.chart();
      const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'n'.repeat(10), version: 'v4.0.5' });
      const props: DrainerReleaseProps = { cluster, releaseName: 'binlog', chart: { repository: REPO, version: '1.1.0' }, ...bad };
      expect(() => new DrainerRelease(chart, 'refused', props)).toThrow(/^test\/refused: /);
      expect(cluster.certificates.hasComponent('drainer')).toBe(false);
      expect(registeredDrainers(chart.node.root as App)).toEqual([]);
      expect(new DrainerRelease(chart, 'drainer', { ...props, ...fix }).releaseName).toBe(fix.releaseName ?? 'binlog');
    }
  });

  test('a cluster has one drainer: a second release is refused at its own path, even with the same names', () => {
    const chart = Testing.chart();
    const cluster = new TlsDatabaseCluster(chart, 'db', { clusterName: 'basic', namespace: 'demo', version: 'v4.0.5' });
    new DrainerRelease(chart, 'one', { cluster, releaseName: 'one', chart: { version: '1.1.0' } });
    expect(() => new DrainerRelease(chart, 'two', { cluster, releaseName: 'two', chart: { version: '1.1.0' } }))
      .toThrow('test/two: releaseName: received "two"; expected no second drainer for cluster demo/basic: one is already declared');
    expect(() => new DrainerRelease(chart, 'again', { cluster, releaseName: 'one', chart: { version: '1.1.0' } }))
      .toThrow('test/again: releaseName: received "one"; expected no second drainer for cluster demo/basic: one is already declared');
  });
});
