import { allowedCommonNameLists } from '../lib/model/allowed-common-names';

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

  test('columnar: the engine\'s list and its storage proxy\'s, the latter optional', () => {
    const lists = allowedCommonNameLists({
      kind: 'DatabaseCluster',
      spec: { columnar: { config: { config: { security: { cert_allowed_cn: ['a'] } }, proxy: { security: { 'cert-allowed-cn': ['b'] } } } } },
    });
    expect(lists.map((l) => [l.entry.token, l.key, l.path.join('.'), l.value, l.optional])).toEqual([
      ['columnar', 'cert_allowed_cn', 'spec.columnar.config.config.security.cert_allowed_cn', ['a'], false],
      ['columnar', 'cert-allowed-cn', 'spec.columnar.config.proxy.security.cert-allowed-cn', ['b'], true],
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
