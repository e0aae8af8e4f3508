import * as names from '../lib/model/names';
import { HELM_RELEASE_MAX } from '../lib/model/limits';
import {
  COMPONENTS, ClusterKind, OPERATOR_ROLL_ORDER, caCertificateName, caIssuerName, caSecretName, clientSecretName,
  component, componentsOf, drainerName, externalTlsMountPath, hostNames, selfSignedIssuerName, serverSecretName,
  tlsFilePaths,
} from '../lib';

const at = { clusterName: 'basic', namespace: 'demo' };

/** The nine names of a component with a service and a peer service, spelled out as in the spec. */
function withPeer(c: string): string[] {
  return [
    `basic-${c}`, `basic-${c}.demo`, `basic-${c}.demo.svc`,
    `basic-${c}-peer`, `basic-${c}-peer.demo`, `basic-${c}-peer.demo.svc`,
    `*.basic-${c}-peer`, `*.basic-${c}-peer.demo`, `*.basic-${c}-peer.demo.svc`,
  ];
}

describe('host-name table', () => {
  test.each(['mig-master', 'mig-worker', 'coordinator', 'store', 'sqlserver', 'changefeed', 'columnar'] as const)(
    '%s gets its service, its peer service and the peer wildcards', (token) => {
      expect(hostNames(token, at)).toEqual(withPeer(token));
    });

  test('pump gets only wildcards of its service', () => {
    expect(hostNames('pump', at)).toEqual(['*.basic-pump', '*.basic-pump.demo', '*.basic-pump.demo.svc']);
  });

  test('drainer with drainerName set uses the drainer name', () => {
    expect(hostNames('drainer', { ...at, releaseName: 'binlog', drainerName: 'my-drainer' }))
      .toEqual(['*.my-drainer', '*.my-drainer.demo', '*.my-drainer.demo.svc']);
  });

  test('drainer without drainerName uses cluster, release name and "drainer"', () => {
    expect(hostNames('drainer', { ...at, releaseName: 'binlog' }))
      .toEqual(['*.basic-binlog-drainer', '*.basic-binlog-drainer.demo', '*.basic-binlog-drainer.demo.svc']);
  });

  test('drainer without release name or drainerName is refused', () => {
    expect(() => hostNames('drainer', at)).toThrow(/release name or its drainerName/);
  });

  test('importer gets its service names and the same three as wildcards', () => {
    expect(hostNames('importer', at)).toEqual([
      'basic-importer', 'basic-importer.demo', 'basic-importer.demo.svc',
      '*.basic-importer', '*.basic-importer.demo', '*.basic-importer.demo.svc',
    ]);
  });

  test('lightning gets its service names only', () => {
    expect(hostNames('lightning', at)).toEqual(['basic-lightning', 'basic-lightning.demo', 'basic-lightning.demo.svc']);
  });

  test('a cluster domain appends the fully qualified form of every .svc name, after the table\'s names', () => {
    const names = hostNames('coordinator', { ...at, clusterDomain: 'cluster.local' });
    expect(names.slice(0, 9)).toEqual(withPeer('coordinator'));
    expect(names.slice(9)).toEqual([
      'basic-coordinator.demo.svc.cluster.local',
      'basic-coordinator-peer.demo.svc.cluster.local',
      '*.basic-coordinator-peer.demo.svc.cluster.local',
    ]);
  });
});

describe('Secret and issuer names', () => {
  test('server Secrets follow ${cluster_name}-<token>-cluster-secret', () => {
    expect(serverSecretName('basic', 'mig-master')).toBe('basic-mig-master-cluster-secret');
    expect(serverSecretName('basic', 'mig-worker')).toBe('basic-mig-worker-cluster-secret');
    for (const token of ['coordinator', 'store', 'sqlserver', 'pump', 'drainer', 'changefeed', 'columnar', 'importer', 'lightning'] as const) {
      expect(serverSecretName('basic', token)).toBe(`basic-${token}-cluster-secret`);
    }
  });

  test('client Secrets differ by cluster kind', () => {
    expect(clientSecretName('basic', ClusterKind.MIGRATION)).toBe('basic-mig-client-secret');
    expect(clientSecretName('basic', ClusterKind.DATABASE)).toBe('basic-cluster-client-secret');
  });

  test('CA, issuers', () => {
    expect(selfSignedIssuerName('basic')).toBe('basic-selfsigned-ca-issuer');
    expect(caCertificateName('basic')).toBe('basic-ca');
    expect(caSecretName('basic')).toBe('basic-ca-secret');
    expect(caIssuerName('basic', ClusterKind.MIGRATION)).toBe('basic-mig-issuer');
    expect(caIssuerName('basic', ClusterKind.DATABASE)).toBe('basic-db-issuer');
  });

  test('a span\'s intermediate CA Secrets, by generation, and the Secret that signs a generation\'s leaves', () => {
    expect(names.intermediateSecretName('orders', 'west')).toBe('orders-west-intermediate-ca-secret');
    expect(names.intermediateSecretName('orders', 'west', 'root-2')).toBe('orders-west-intermediate-ca-root-2-secret');
    expect(names.signingSecretName('orders', names.INITIAL_GENERATION)).toBe('orders-ca-secret');
    expect(names.signingSecretName('orders', '2026-11')).toBe('orders-ca-2026-11-secret');
    expect(names.signingSecretName('orders', 'root-2', 'west')).toBe('orders-west-intermediate-ca-root-2-secret');
  });

  test('drainer name defaults to ${cluster_name}-${release_name}-drainer', () => {
    expect(drainerName('basic', 'binlog')).toBe('basic-binlog-drainer');
    expect(drainerName('basic', 'binlog', 'custom')).toBe('custom');
  });

  test('drainer: chart repository and Argo CD application names', () => {
    expect(names.drainerChartRepositoryName('binlog')).toBe('binlog-charts');
    expect(names.drainerApplicationName('demo', 'binlog')).toBe('demo-binlog');
  });

  test('${cluster_name}-backup, ${cluster_name}-restore and the default prefix <namespace>/<cluster_name>', () => {
    expect(names.backupName('basic')).toBe('basic-backup');
    expect(names.restoreName('basic')).toBe('basic-restore');
    expect(names.backupPrefix('demo', 'basic')).toBe('demo/basic');
  });

  test('the expiry watch: its PrometheusRule, rule group, rules ConfigMap and file, and the exporter\'s Helm release', () => {
    expect(names.expiryRuleName('basic')).toBe('basic-certificate-expiry');
    expect(names.expiryRuleGroupName('demo', 'basic')).toBe('cluster-tls-demo-basic-certificate-expiry');
    expect(names.expiryRulesConfigMapName('basic')).toBe('basic-certificate-expiry-rules');
    expect(names.expiryRulesFileName('basic')).toMatch(/^basic-certificate-expiry\.rules\.yml$/);
    // Helm refuses release names over 53 characters: a cluster name of 41 is the longest that fits.
    expect(HELM_RELEASE_MAX).toBe(53);
    expect(names.expiryExporterRelease('a'.repeat(41))).toHaveLength(53);
  });

  test('every pod of a cluster is selected by the operator\'s instance label, a component\'s by its component label too', () => {
    expect(names.clusterPodSelector('basic')).toBe('app.kubernetes.io/instance=basic');
    expect(names.componentPodSelector('basic', 'coordinator')).toBe('app.kubernetes.io/instance=basic,app.kubernetes.io/component=coordinator');
  });

  test('pods are named by the StatefulSet of their component, with their ordinal', () => {
    expect(names.podName('basic', 'store', 2)).toBe('basic-store-2');
    expect(names.firstPodName('basic', 'coordinator')).toBe('basic-coordinator-0');
  });

  test('a coordinator member\'s https peer URL names its pod under the peer service, with the cluster domain when there is one', () => {
    expect(names.coordinatorPeerUrl('basic', 'demo', 0)).toBe('https://basic-coordinator-0.basic-coordinator-peer.demo.svc:2380');
    expect(names.coordinatorPeerUrl('basic', 'demo', 2, 'cluster.local')).toBe('https://basic-coordinator-2.basic-coordinator-peer.demo.svc.cluster.local:2380');
  });

  test('external database Secrets are mounted below /var/lib/source-tls', () => {
    expect(tlsFilePaths(externalTlsMountPath('mysql-tls'))).toEqual({
      ca: '/var/lib/source-tls/mysql-tls/ca.crt',
      certificate: '/var/lib/source-tls/mysql-tls/tls.crt',
      privateKey: '/var/lib/source-tls/mysql-tls/tls.key',
    });
  });
});

describe('catalog', () => {
  test('holds the eleven components of the spec, in its order, then the discovery server of operator v1.6.6', () => {
    expect(COMPONENTS.map((c) => c.token)).toEqual([
      'mig-master', 'mig-worker', 'coordinator', 'store', 'sqlserver', 'pump', 'drainer', 'changefeed', 'columnar', 'importer', 'lightning', 'discovery',
    ]);
    expect(componentsOf(ClusterKind.MIGRATION)).toEqual(['mig-master', 'mig-worker']);
  });

  test('sqlserver checks cluster-verify-cn; coordinator and mig-master accept one value', () => {
    expect(component('sqlserver').commonNameCheck).toEqual({ key: 'cluster-verify-cn', path: ['config', 'security', 'cluster-verify-cn'], singleValue: false });
    expect(component('coordinator').commonNameCheck?.singleValue).toBe(true);
    expect(component('mig-master').commonNameCheck).toEqual({ key: 'cert-allowed-cn', path: ['config', 'cert-allowed-cn'], singleValue: true });
    expect(COMPONENTS.filter((c) => c.commonNameCheck?.singleValue).map((c) => c.token)).toEqual(['mig-master', 'coordinator']);
  });

  test('versioning table', () => {
    expect(component('columnar')).toMatchObject({ minOperatorVersion: '1.1.4', minComponentVersion: '4.0.5' });
    expect(component('changefeed')).toMatchObject({ minOperatorVersion: '1.1.3', minComponentVersion: '4.0.3' });
    expect(component('mig-master').minOperatorVersion).toBe('1.2.0');
    expect(component('coordinator').minOperatorVersion).toBe('1.1.0');
  });

  test('the operator rolls every component it deploys, exactly once, in its release-1.6 order', () => {
    expect(OPERATOR_ROLL_ORDER).toEqual({
      [ClusterKind.DATABASE]: ['coordinator', 'columnar', 'store', 'pump', 'sqlserver', 'changefeed'],
      [ClusterKind.MIGRATION]: ['mig-master', 'mig-worker'],
    });
    for (const kind of [ClusterKind.DATABASE, ClusterKind.MIGRATION]) {
      expect([...OPERATOR_ROLL_ORDER[kind]].sort()).toEqual(COMPONENTS.filter((c) => c.cluster === kind && c.specKey !== undefined).map((c) => c.token).sort());
    }
  });

  test('an unknown token is refused with the list of tokens', () => {
    expect(() => component('tikv' as any)).toThrow('unknown component token "tikv"; expected one of mig-master, mig-worker');
  });
});
