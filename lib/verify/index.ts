/**
 * The `cluster-tls verify` logic, re-exported.
 */
export * from './input';
export * from './plans';
export { CHECKS, CHECK_DESCRIPTIONS, POD_CHECKS, SPAN_CHECKS } from './checks';
export type { CheckName, CheckResult } from './checks';
export * from './types';
export { parseCertificates, parsePrivateKey } from './material';
export { MIN_DAYS_RANGE } from './min-days';
export { summarize } from './summary';
export { USER_SECRET_CHECKS, USER_SECRET_UNCHECKED, verifyUserSecret } from './user-secrets';
export { verify, verifySecret } from './verify';
export type { VerifyOptions } from './verify';
export * from './loaded';
export * from './report';
export * from './across';
