import { allowedCommonNameLists } from '../lib/_allowed-common-names';

describe('allowed Common Name lists of a cluster resource, through the catalog', () => {
  test('database cluster: each configured component at its own key', () => {
    const lists = allowedCommonNameLists({
      kind: 'DatabaseCluster',
      spec: {
        coordinator: { config: { security: { 'cert-allowed-cn': ['a'] } } },
        sqlserver: { config: { security: { 'cluster-verify-cn': ['b'] } } },
        store: {},
      },
    });
    expect(lists.map((l) => [l.entry.token, l.path.join('.'), l.value])).toEqual([
      ['coordinator', 'spec.coordinator.config.security.cert-allowed-cn', ['a']],
      ['store', 'spec.store.config.security.cert-allowed-cn', undefined],
      ['sqlserver', 'spec.sqlserver.config.security.cluster-verify-cn', ['b']],
    ]);
  });

  test('migration cluster: master and worker under their spec keys', () => {
    const lists = allowedCommonNameLists({ kind: 'MigrationCluster', spec: { master: { config: { 'cert-allowed-cn': ['a'] } }, worker: {} } });
    expect(lists.map((l) => l.path.join('.'))).toEqual(['spec.master.config.cert-allowed-cn', 'spec.worker.config.cert-allowed-cn']);
  });

  test('other objects have none', () => {
    expect(allowedCommonNameLists({ kind: 'Certificate', spec: { coordinator: {} } })).toEqual([]);
  });
});
