import { Testing } from 'cdk8s';
import { DatabaseMonitor, ImagePullPolicy } from '../lib';
import { expectValidAgainstCrds } from './_crds';
import { findObject } from './_find';

const basic = { clusterName: 'basic', namespace: 'demo', sqlHost: 'basic-sqlserver.demo.svc', sqlPort: 4000 };

describe('DatabaseMonitor', () => {
  test('monitors several clusters; those of other namespaces are named with their namespace', () => {
    const chart = Testing.chart();
    new DatabaseMonitor(chart, 'm', {
      clusters: [basic, { ...basic, clusterName: 'other', namespace: 'prod' }],
      name: 'shared-monitor',
      imagePullPolicy: ImagePullPolicy.ALWAYS,
    });
    const objects = Testing.synth(chart);
    const monitor = findObject(objects, 'DatabaseMonitor', 'shared-monitor');
    expect(monitor.metadata.namespace).toBe('demo');
    expect(monitor.spec.clusters).toEqual([{ name: 'basic' }, { name: 'other', namespace: 'prod' }]);
    expect(monitor.spec.imagePullPolicy).toBe('Always');
    expectValidAgainstCrds(objects);
  });

  test('needs at least one cluster', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [] }))
      .toThrow('test/m: clusters: received []; expected at least one database cluster');
  });

  test('its name is a DNS label', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [basic], name: 'Monitor' }))
      .toThrow('test/m: name: received "Monitor"; expected a DNS-1123 label');
  });

  test('an image needs its name and a pinned version', () => {
    expect(() => new DatabaseMonitor(Testing.chart(), 'm', { clusters: [basic], reloader: { baseImage: '', version: 'v1' } }))
      .toThrow('test/m: reloader: received {"baseImage":"","version":"v1"}; expected a baseImage and a pinned version other than "latest"');
  });
});
