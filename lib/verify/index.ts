/**
 * The `cluster-tls verify` logic, re-exported.
 */
export * from './input';
export * from './plans';
export * from './verify';
export * from './loaded';
export * from './report';
export * from './across';
