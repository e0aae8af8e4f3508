/**
 * The contract between `cluster-tls verify --json`, which writes a report, and the synth's
 * rotation guard, which reads one: the shape of the report as far as the guard reads it, and the
 * names of the two checks a phase must pass before it moves on. Both sides import it from here, so
 * renaming a check cannot silently switch the guard off.
 */

/** The check of what each Secret holds in the rotation phase of its plan. */
export const ROTATION_CHECK = 'rotation';

/** The check of a Secret against the TLS enablement phase of its plan: allowed Common Name lists only once TLS is on, then for every component. */
export const ENABLEMENT_CHECK = 'enablement';

/**
 * The check, during a TLS enablement once TLS is on, that every pod of a component was started
 * with TLS: it mounts the component's Secret, which a pod started before the flip does not.
 */
export const ROLLED_CHECK = 'rolled';

/** The check that every pod mounting a Secret started after the Secret's last write. */
export const LOADED_CHECK = 'loaded';

/** One check of a Secret, as the report lists it. */
export interface ReportedCheck {
  readonly check: string;
  readonly ok: boolean;
  readonly found: string;
}

/** A `cluster-tls verify --json` report, as the synth reads it. */
export interface VerifyReportFile {
  readonly file: string;
  readonly plans: readonly { readonly namespace: string; readonly clusterName: string; readonly rotation?: { readonly id: string; readonly phase: string };
    readonly enablement?: { readonly phase: string };
  }[];
  readonly secrets: readonly { readonly name: string; readonly namespace: string; readonly checks: readonly ReportedCheck[] }[];
}
