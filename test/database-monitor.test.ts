import { Testing } from 'cdk8s';
import { DatabaseMonitor, MonitorImagePullPolicy } from '../lib';
import { DEFAULT_PROMETHEUS as DEFAULT } from '../lib/clusters/database-monitor';
import { crdErrors, expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';

const basic = { clusterName: 'basic', namespace: 'demo', sqlHost: 'basic-sqlserver.demo.svc', sqlPort: 4000 };
/** The two images the operator's DatabaseMonitor requires and no default can name. */
const REQUIRED = {
  initializer: { baseImage: 'registry.example.com/monitor-initializer', version: 'v4.0.5' },
  reloader: { baseImage: 'registry.example.com/monitor-reloader', version: 'v1.0.1' },
};

describe('DatabaseMonitor', () => {
  test('monitors several clusters; those of other namespaces are named with their namespace', () => {
    const chart = Testing.chart();
    new DatabaseMonitor(chart, 'm', {
      clusters: [basic, { ...basic, clusterName: 'other', namespace: 'prod' }],
      name: 'shared-monitor',
      imagePullPolicy: MonitorImagePullPolicy.ALWAYS,
      ...REQUIRED,
    });
    const objects = Testing.synth(chart);
    const monitor = findObject(objects, 'DatabaseMonitor', 'shared-monitor');
    expect(monitor.metadata.namespace).toBe('demo');
    expect(monitor.spec.clusters).toEqual([{ name: 'basic' }, { name: 'other', namespace: 'prod' }]);
    expect(monitor.spec.imagePullPolicy).toBe('Always');
    expectValidAgainstCrds(objects);
  });

  test('prometheus, initializer and reloader are always written, each with baseImage and version, as the operator requires', () => {
    const chart = Testing.chart();
    new DatabaseMonitor(chart, 'm', { clusters: [basic], ...REQUIRED });
    const spec = findObject(Testing.synth(chart), 'DatabaseMonitor', 'basic-monitor').spec;
    expect(spec.prometheus).toEqual({ baseImage: 'prom/prometheus', version: 'v2.53.1' });
    expect(spec.initializer).toEqual(REQUIRED.initializer);
    expect(spec.reloader).toEqual(REQUIRED.reloader);
  });

  test.each(['initializer', 'reloader'] as const)('without %s it is refused, naming the field', (field) => {
    const props = { clusters: [basic], ...REQUIRED, [field]: undefined } as any;
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', props))
      .toThrow(`test/m: ${field}: received nothing; expected the ${field} image as { baseImage, version }: the operator's DatabaseMonitor requires it`);
  });

  test('the CRDs in crds/ refuse a monitor without them', () => {
    const monitor = { apiVersion: 'db.operator.io/v1alpha1', kind: 'DatabaseMonitor', metadata: { name: 'm' }, spec: { clusters: [{ name: 'basic' }], prometheus: DEFAULT } };
    expect(crdErrors(monitor)).toEqual(["DatabaseMonitor/m/spec must have required property 'initializer'", "DatabaseMonitor/m/spec must have required property 'reloader'"]);
  });

  test('needs at least one cluster', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [], ...REQUIRED }))
      .toThrow('test/m: clusters: received []; expected at least one database cluster');
  });

  test('its name is a DNS label', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [basic], name: 'Monitor', ...REQUIRED }))
      .toThrow('test/m: name: received "Monitor"; expected a DNS-1123 label');
  });

  test('an image needs its name and a pinned version', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [basic], ...REQUIRED, reloader: { baseImage: '', version: 'v1' } }))
      .toThrow('test/m: reloader: received {"baseImage":"","version":"v1"}; expected a baseImage and a pinned version other than "latest"');
  });
});
