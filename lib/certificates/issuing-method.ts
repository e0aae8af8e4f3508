/**
 * Which module issues a cluster's certificates: one renderer per issuing method, chosen once when
 * the certificates are created.
 */
import { Construct } from 'constructs';
import { inputError } from '../model/errors';
import { CertificateSettings, IssuingMethod, TlsPlan, TlsPlanSqlTls } from '../plan/certificate-options';
import { renderCertManager } from './cert-manager';
import { renderCfssl } from './cfssl';
import type { CertificateRenderer } from './renderer';
import { renderUserProvided } from './user-provided';

/** What a method's renderer reads of the certificates, each at synth. */
export interface IssuingInputs {
  readonly settings: CertificateSettings;
  /** TLS for MySQL clients' part of the plan, when a database cluster turns it on. */
  sqlPlan(): TlsPlanSqlTls | undefined;
  /** The whole plan (user-provided Secrets list what it requires). */
  plan(): TlsPlan;
}

/** The renderer of `method` for the certificates `scope`; an unknown method is refused, naming the field. */
export function issuingRenderer(scope: Construct, method: IssuingMethod, inputs: IssuingInputs): CertificateRenderer {
  switch (method) {
    case IssuingMethod.CERT_MANAGER:
      return renderCertManager(scope, inputs.settings, () => inputs.sqlPlan());
    case IssuingMethod.CFSSL:
      return renderCfssl(scope, inputs.settings, () => inputs.sqlPlan());
    case IssuingMethod.USER_PROVIDED:
      return renderUserProvided(scope, inputs.settings, () => inputs.plan());
    default:
      return inputError(scope, 'method', method, `one of ${Object.values(IssuingMethod).map((m) => `"${m}"`).join(', ')}`);
  }
}
