/**
 * The layers of lib/, checked by dependency-cruiser (`npx depcruise --config .dependency-cruiser.cjs lib`,
 * and test/layers.test.ts). Imports run one way, down this list: a folder of lib/ imports only the
 * folders of the layers below its own, never one beside it on its layer, and none imports lib/index.ts.
 * Type-only imports count (tsPreCompilationDeps), since a type that crosses a layer upward ties the
 * two folders as surely as a value does. The order is explained in docs/development/layout.md.
 */

/** Bottom to top; the folders of one layer are siblings, and import none of each other. */
const LAYERS = [
  ['yaml'],
  ['model'],
  ['plan'],
  ['documents', 'scripts', 'app'],
  ['certificates'],
  ['clusters'],
  ['synth'],
  ['verify', 'validation'],
];

/** One rule per folder: nothing of its own layer but itself, nothing above it, never the entry point. */
const layerRules = LAYERS.flatMap((layer, level) => layer.map((folder) => {
  const notBelow = LAYERS.slice(level).flat().filter((other) => other !== folder);
  return {
    name: `layer-${folder}`,
    comment: `lib/${folder}/ imports only the folders below its layer: ${LAYERS.slice(0, level).flat().join(', ') || 'none'}`,
    severity: 'error',
    from: { path: `^lib/${folder}/` },
    to: { path: `^lib/(?:(?:${notBelow.join('|')})/|index\\.ts$)` },
  };
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import circle, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^lib/',
  },
};
