/**
 * What every issuing method implements: it is told about each cluster kind and each server
 * certificate as the plan grows, and declares the objects or files that issue them.
 */
import { ClusterKind } from '../spec/catalog';
import type { ServerCertificatePlan } from './certificate-options';

/** Adds what one issuing method needs for a cluster kind and for a server certificate. */
export interface CertificateRenderer {
  /** Called once per cluster kind, when its first component is added. */
  addKind(kind: ClusterKind): void;
  /** Called once per server certificate, after the kind of its component. */
  addServer(plan: ServerCertificatePlan): void;
}
