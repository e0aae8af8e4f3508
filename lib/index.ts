export * from './catalog';
export * from './names';
export * from './duration';
export * from './errors';
export * from './settings';
export * from './cluster-certificates';
export * from './output-file';
export * from './synthesize';
