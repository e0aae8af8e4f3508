/**
 * What every issuing method implements: it is told about each cluster kind and each server
 * certificate as the plan grows, declares the objects or files that issue them, and says in the
 * runbook how they are issued. Each method owns both, so a method is one module.
 */
import { ClusterKind } from '../model/catalog';
import type { ManagedCertificate } from '../model/expiry';
import type { RunbookStep } from '../documents/runbook';
import type { ServerCertificatePlan } from '../plan/certificate-options';

/** Adds what one issuing method needs for a cluster kind and for a server certificate. */
export interface CertificateRenderer {
  /** Called once per cluster kind, when its first component is added. */
  addKind(kind: ClusterKind): void;
  /** Called once per server certificate, after the kind of its component. */
  addServer(plan: ServerCertificatePlan): void;
  /**
   * The runbook steps that bring the Secrets into being with this method, before any cluster that
   * loads them is deployed (commands run from the output folder). Called at synth.
   */
  issuanceSteps(): RunbookStep[];
  /** The certificates cert-manager issues and renews for this method, as declared so far: none but with cert-manager. */
  managedCertificates(): ManagedCertificate[];
}
