/**
 * The shapes the checks of `cluster-tls verify` share: what the checks of one Secret are given
 * (the cluster's CA, the time, the allowed lists), and the report they make (`--json` writes it
 * as it is). Types alone, below every module that checks or reports, so that none of them imports
 * another for its types.
 */
import type { X509Certificate } from 'node:crypto';
import type { CHECKS, CheckResult, POD_CHECKS, SPAN_CHECKS } from './checks';
import type { AllowedCommonNames } from './plans';

/**
 * The reference CA of a cluster: every Secret's `ca.crt` must be this certificate.
 * @jsii ignore
 */
export interface ClusterCa {
  /** The CA certificate. */
  readonly certificate: X509Certificate;
  /** Where it was taken from, for messages. */
  readonly origin: string;
  /**
   * What the CA is, for messages.
   * @default "the cluster's CA"
   */
  readonly label?: string;
}

/**
 * What the checks of one Secret need besides the Secret and its plan.
 * @jsii ignore
 */
export interface VerifyContext {
  /** The time the certificates must be valid at. */
  readonly now: Date;
  /** The allowed Common Name lists configured for the cluster's components (any kind; filtered here). */
  readonly allowedCommonNames?: readonly AllowedCommonNames[];
  /** The cluster's CA; without it the `same-ca` check is not run. */
  readonly clusterCa?: ClusterCa;
  /** How many days every certificate must stay valid after `now`; without it the `expiry` check is not run. */
  readonly minDays?: number;
}

/**
 * The checks of one Secret.
 * @jsii ignore
 */
export interface SecretReport {
  /** The Secret name. */
  readonly name: string;
  /** The namespace. */
  readonly namespace: string;
  /** The cluster name. */
  readonly clusterName: string;
  /** The cluster kind (`database`, `migration`): for a Secret you create, that of the resource that loads it. */
  readonly cluster: string;
  /** `server` or `client`, the plan's certificates; `user` for a Secret you create that the cluster loads (the plan's `userSecrets`). */
  readonly role: 'server' | 'client' | 'user';
  /**
   * For a Secret you create (`role` `user`, or any Secret of a plan whose method is
   * `user-provided`): what loads it, such as `migration source source1` or `the store`.
   */
  readonly usedBy?: string;
  /**
   * For a Secret you create: the checks the plan's own Secrets get that it does not, since the
   * library knows neither its CA nor its Common Name.
   */
  readonly notChecked?: string[];
  /** The component, for server certificates. */
  readonly component?: string;
  /** For a Secret of TLS for MySQL clients: whose certificate it is. */
  readonly sqlTls?: 'server' | 'operator-client' | 'application';
  /** With the outputs of several Kubernetes clusters of one span: the Kubernetes cluster the Secret was read from. */
  readonly kubernetesCluster?: string;
  /** Whether every check passed. */
  readonly ok: boolean;
  /** The checks that ran, in the order of {@link CHECKS}, then {@link POD_CHECKS} and {@link SPAN_CHECKS}. */
  readonly checks: CheckResult[];
}

/**
 * One plan that was checked.
 * @jsii ignore
 */
export interface PlanReport {
  /** The plan file, relative to the output folder. */
  readonly file: string;
  /**
   * With the outputs of several Kubernetes clusters of one span: the output the plan was read
   * from, as given (`--dist`), and the Kubernetes cluster it is for.
   */
  readonly output?: {
    /** The Kubernetes cluster. */
    readonly kubernetesCluster: string;
    /** The output folder. */
    readonly dist: string;
  };
  /** The namespace the plan names. */
  readonly namespace: string;
  /** The cluster name the plan names. */
  readonly clusterName: string;
  /** The issuing method the plan names. */
  readonly method: string;
  /** The issuer of the user's that the plan names (`issuerRef`), as `<kind> <name>`. */
  readonly issuer?: string;
  /** The allowed Common Name lists found for the cluster. */
  readonly allowedCommonNames: readonly AllowedCommonNames[];
  /** Where the reference CA came from; absent when no Secret carried a CA. */
  readonly ca?: string;
  /** The rotation the plan declares, when it does: its id and phase. */
  readonly rotation?: {
    /** The rotation's id. */
    readonly id: string;
    /** The phase the plan declares. */
    readonly phase: string;
  };
  /** The TLS enablement the plan declares, when it does: its phase. */
  readonly enablement?: {
    /** The phase the plan declares. */
    readonly phase: string;
  };
  /**
   * Secrets of TLS for MySQL clients in namespaces the input holds no Secret of (an application's,
   * with `kubectl get secrets -n <cluster's namespace>`), as `namespace/name`: not checked.
   */
  readonly notInInput?: string[];
}

/**
 * Everything `cluster-tls verify` found.
 * @jsii ignore
 */
export interface VerifyReport {
  /** Whether every Secret passed every check, and, given the outputs of a span, every Kubernetes cluster of it was checked. */
  readonly ok: boolean;
  /** The time the certificates were checked at. */
  readonly now: string;
  /** The plans that were checked, in the order they were selected. */
  readonly plans: PlanReport[];
  /** One report per Secret of every plan checked, those of TLS for MySQL clients after each plan's others. */
  readonly secrets: SecretReport[];
  /**
   * With the outputs of several Kubernetes clusters of one span: the Kubernetes clusters of its
   * span whose output was not given, so whose Secrets were checked neither on their own nor across.
   * The report is not `ok` while any is listed.
   */
  readonly unchecked?: UncheckedCluster[];
  /** The counts of `secrets`. */
  readonly summary: VerifySummary;
}

/**
 * The counts of a report's Secrets, and the Secrets you create that the input lacks.
 * @jsii ignore
 */
export interface VerifySummary {
  /** How many Secrets were checked. */
  readonly checked: number;
  /** How many passed every check. */
  readonly passed: number;
  /** How many failed at least one check. */
  readonly failed: number;
  /**
   * The Secrets you create that a cluster loads and the input does not hold (those of `userSecrets`,
   * and with the `user-provided` method those of the plan too), with what loads each; absent when
   * there is none.
   */
  readonly missingUserSecrets?: {
    /** The Secret name. */
    readonly name: string;
    /** Its namespace. */
    readonly namespace: string;
    /** What loads it. */
    readonly usedBy: string;
  }[];
}

/**
 * A Kubernetes cluster of a span whose output `cluster-tls verify` was not given.
 * @jsii ignore
 */
export interface UncheckedCluster {
  /** The namespace of the database cluster there, as the span declares it. */
  readonly namespace: string;
  /** The cluster name. */
  readonly clusterName: string;
  /** The Kubernetes cluster. */
  readonly kubernetesCluster: string;
  /** Its cluster DNS domain. */
  readonly clusterDomain: string;
}
