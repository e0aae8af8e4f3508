/**
 * A declared rotation of a cluster's certificates: which kind, which phase, and what every Secret
 * must hold in that phase. Pure data and functions: the issuing methods render a phase, the
 * cluster constructs restart their components with it, the guards compare it with the record.
 *
 * A rotation moves the cluster from one generation of certificates to the next. A generation is
 * named by the id of the rotation that made it; the certificates made at creation are generation
 * {@link INITIAL_GENERATION}. Replacing the CA takes three phases, each one commit of the app and
 * one rolling restart, so that at every moment every pair of pods that talk trusts the CA of the
 * other's certificate:
 *
 * | phase | `tls.crt` / `tls.key` | `ca.crt` |
 * |---|---|---|
 * | `trust-both` | previous generation | next CA, then previous CA |
 * | `switch-leaves` | next generation | next CA, then previous CA |
 * | `drop-old` | next generation | next CA |
 *
 * Renewing the leaves from the same CA, or renewing the CA certificate with the same key and
 * subject, needs one phase: every certificate then verifies against every CA certificate involved.
 *
 * A phase restarts a component only where it must: when `ca.crt` changes (no component re-reads
 * its CA), or when the certificate changes and the component's release does not re-read it for
 * each new connection (the catalog's `leafReload`). So on current releases a leaf renewal and the
 * `switch-leaves` phase restart none of the components that reload.
 */
import { IConstruct } from 'constructs';
import { CA_RELOAD, ClusterKind, ComponentToken, OPERATOR_ROLL_ORDER, component } from '../model/catalog';
import { SQL_PORT_RELOAD } from '../model/catalog-sql-tls';
import { isInRange } from '../model/versions';
import { inputError } from '../model/errors';
import { ShapeOf, oneOf } from '../model/props';
import { INITIAL_GENERATION } from '../model/names';

/** What a rotation replaces. */
export enum RotationKind {
  /** A new CA with a new key, and new leaves signed by it: three phases. */
  CA_REPLACEMENT = 'ca-replacement',
  /** New server and client certificates (new keys) from the same CA: one phase. */
  LEAF_RENEWAL = 'leaf-renewal',
  /** A new CA certificate with the same key and subject (before the old one expires): one phase. */
  CA_RENEWAL = 'ca-renewal',
}

/** A phase of a rotation. */
export enum RotationPhase {
  /** CA replacement, first commit: every Secret trusts the next CA and the previous one. */
  TRUST_BOTH = 'trust-both',
  /** CA replacement, second commit: every leaf is signed by the next CA; both CAs are still trusted. */
  SWITCH_LEAVES = 'switch-leaves',
  /** CA replacement, last commit: every Secret trusts only the next CA. */
  DROP_OLD = 'drop-old',
  /** The one phase of a leaf renewal or a CA renewal. */
  RENEW = 'renew',
}

/** The phases of each kind, in order. */
export const ROTATION_PHASES: Readonly<Record<RotationKind, readonly RotationPhase[]>> = {
  [RotationKind.CA_REPLACEMENT]: [RotationPhase.TRUST_BOTH, RotationPhase.SWITCH_LEAVES, RotationPhase.DROP_OLD],
  [RotationKind.LEAF_RENEWAL]: [RotationPhase.RENEW],
  [RotationKind.CA_RENEWAL]: [RotationPhase.RENEW],
};

/**
 * One rotation of a cluster's certificates, an entry of `rotations` on `ClusterCertificates`. The
 * last entry is the rotation under way (or the last one done); the entries before it are done,
 * and stay declared because they name the generations in use.
 */
export interface CertificateRotation {
  /**
   * The id of this rotation, which names the generation of certificates it makes (the new CA
   * Secret and certificate files carry it): lowercase letters, digits and `-`, at most 20
   * characters, for example `2026-11`.
   */
  readonly id: string;
  /**
   * What is replaced.
   * @default RotationKind.CA_REPLACEMENT
   */
  readonly kind?: RotationKind;
  /**
   * The phase this commit declares; advance it one step per commit. An earlier entry of
   * `rotations` is done: its phase is left out or is the kind's last.
   * @default - the kind's first phase for the last entry, its last phase for earlier ones
   */
  readonly phase?: RotationPhase;
}

/** The shape of an entry of the `rotations` prop. */
export const ROTATION_SHAPE = {
  id: { type: 'string', example: 'ca-2027' },
  kind: oneOf(Object.values(RotationKind)),
  phase: oneOf(Object.values(RotationPhase)),
} satisfies ShapeOf<CertificateRotation>;

/**
 * What every Secret of the plan holds in a phase, by generation.
 * @jsii ignore
 */
export interface PhaseContent {
  /** The generations of the CA certificates in `ca.crt`, in order. */
  readonly caCertificates: readonly string[];
  /** The generation of `tls.crt` and `tls.key`. */
  readonly leafGeneration: string;
  /** The generation of the CA certificate that signed `tls.crt`. */
  readonly signedBy: string;
}

/**
 * A rotation with every default applied.
 * @jsii ignore
 */
export interface ResolvedRotation {
  /** The rotation's id, which names the generation it makes. */
  readonly id: string;
  /** What the rotation replaces: the entry's `kind`, by default {@link RotationKind.CA_REPLACEMENT}. */
  readonly kind: RotationKind;
  /** The phase declared: the entry's `phase`, by default the kind's first. */
  readonly phase: RotationPhase;
  /** The generation in use before this rotation: the id of the entry before, or the initial one. */
  readonly previous: string;
  /**
   * The generation whose CA object (cert-manager) or CA files (cfssl) were in use before this
   * rotation: the id of the last CA replacement before it, or the initial one.
   */
  readonly previousCa: string;
  /** The phases of the kind, in order. */
  readonly phases: readonly RotationPhase[];
  /** What every Secret holds once this phase's Secrets are in place. */
  readonly content: PhaseContent;
  /** The generation of the CA that signs a leaf issued in this phase (a component added now). */
  readonly signingCa: string;
  /** Every rotation declared, in order, this one last. */
  readonly history: readonly {
    /** The rotation's id. */
    readonly id: string;
    /** What the rotation replaced, or replaces for the last one, with its default applied. */
    readonly kind: RotationKind;
  }[];
}

/** Ids name files and Kubernetes objects: a short DNS label. */
const ID_PATTERN = /^[a-z0-9]([a-z0-9-]{0,18}[a-z0-9])?$/;
const ID_EXPECTED = 'lowercase letters, digits and "-", at most 20 characters, starting and ending with a letter or digit (for example "2026-11")';

/** Checks one entry's id and phase, and returns its kind and phase with defaults applied. */
function resolveEntry(scope: IConstruct, at: string, entry: CertificateRotation, current: boolean): { kind: RotationKind; phase: RotationPhase } {
  if (!ID_PATTERN.test(entry.id) || entry.id === INITIAL_GENERATION) {
    inputError(scope, `${at}.id`, entry.id, `${ID_EXPECTED}, other than "${INITIAL_GENERATION}"`);
  }
  const kind = entry.kind ?? RotationKind.CA_REPLACEMENT;
  const phases = ROTATION_PHASES[kind];
  const phase = entry.phase ?? (current ? phases[0] : phases[phases.length - 1]);
  if (!phases.includes(phase)) {
    inputError(scope, `${at}.phase`, phase, `a phase of a ${kind}: ${phases.map((p) => `"${p}"`).join(', ')}`);
  }
  if (!current && phase !== phases[phases.length - 1]) {
    inputError(scope, `${at}.phase`, phase, `"${phases[phases.length - 1]}" or nothing: only the last entry of rotations can be under way; finish this one first`);
  }
  return { kind, phase };
}

/** Checks the declared rotations and resolves the last one; undefined when none is declared. */
export function resolveRotations(scope: IConstruct, rotations: readonly CertificateRotation[]): ResolvedRotation | undefined {
  let previous = INITIAL_GENERATION;
  let previousCa = INITIAL_GENERATION;
  const history: { id: string; kind: RotationKind }[] = [];
  for (const [i, entry] of rotations.entries()) {
    const at = `rotations[${i}]`;
    const { kind, phase } = resolveEntry(scope, at, entry, i === rotations.length - 1);
    if (history.some((h) => h.id === entry.id)) {
      inputError(scope, `${at}.id`, entry.id, 'an id no earlier rotation has');
    }
    history.push({ id: entry.id, kind });
    if (i === rotations.length - 1) {
      const content = phaseContent(kind, phase, previous, entry.id);
      const signingCa = kind === RotationKind.CA_REPLACEMENT && phase === RotationPhase.TRUST_BOTH ? previous : content.signedBy;
      return { id: entry.id, kind, phase, previous, previousCa, phases: ROTATION_PHASES[kind], content, signingCa, history };
    }
    previous = entry.id;
    previousCa = kind === RotationKind.LEAF_RENEWAL ? previousCa : entry.id;
  }
  return undefined;
}

/** What the Secrets hold in a phase (the table of this module's comment). */
function phaseContent(kind: RotationKind, phase: RotationPhase, previous: string, next: string): PhaseContent {
  switch (kind) {
    case RotationKind.LEAF_RENEWAL:
      return { caCertificates: [previous], leafGeneration: next, signedBy: previous };
    case RotationKind.CA_RENEWAL:
      return { caCertificates: [next], leafGeneration: previous, signedBy: previous };
    default:
      return {
        caCertificates: phase === RotationPhase.DROP_OLD ? [next] : [next, previous],
        leafGeneration: phase === RotationPhase.TRUST_BOTH ? previous : next,
        signedBy: phase === RotationPhase.TRUST_BOTH ? previous : next,
      };
  }
}

/** Whether the rotation is at its kind's last phase. */
export function isLastPhase(rotation: Pick<ResolvedRotation, 'phase' | 'phases'>): boolean {
  return rotation.phases.indexOf(rotation.phase) === rotation.phases.length - 1;
}

/** Whether a phase changes what `ca.crt` holds: then every component restarts, since none re-reads its CA. */
export function changesCa(kind: RotationKind, phase: RotationPhase): boolean {
  return kind === RotationKind.CA_RENEWAL || (kind === RotationKind.CA_REPLACEMENT && phase !== RotationPhase.SWITCH_LEAVES);
}

/**
 * How a component takes a new certificate at its declared version.
 * @jsii ignore
 */
export interface ComponentReload {
  /** Whether it takes a new `tls.crt` and `tls.key` without a restart: by itself for each new connection, or through {@link statement}. */
  readonly reloadsLeaf: boolean;
  /** Why, as the runbook says it: the release and the source that states it. */
  readonly reason: string;
  /**
   * The SQL server with `tlsClient.reloadUser`: the runbook has its MySQL port load the new
   * certificate with this statement, as that user.
   * @default - none: the component needs no statement
   */
  readonly statement?: { readonly sql: string; readonly user: string };
}

/**
 * How a component takes a new certificate, from the catalog's `leafReload` and the version its
 * cluster declares (undefined when no cluster declares one). The SQL server with TLS for MySQL
 * clients (`sqlPort`) restarts, since its MySQL port keeps the certificate it loaded, unless a
 * `reloadUser` can have that port load the new one with {@link SQL_PORT_RELOAD}'s statement, in a
 * release whose cluster side re-reads its own.
 */
export function componentReload(token: ComponentToken, version: string | undefined,
  options: { readonly sqlPort: boolean; readonly reloadUser?: string }): ComponentReload {
  const reload = component(token).leafReload;
  if (token === 'sqlserver' && options.sqlPort) {
    return mysqlPortReload(componentReload(token, version, { sqlPort: false }), version, options.reloadUser);
  }
  if (reload === undefined) {
    return { reloadsLeaf: false, reason: 'no source shows it re-reading its certificate' };
  }
  if (version === undefined) {
    return { reloadsLeaf: false, reason: `no construct declares its release (releases ${reload.versions} re-read their certificate: ${reload.source})` };
  }
  return isInRange(version, reload.versions)
    ? { reloadsLeaf: true, reason: `${version} re-reads its certificate for each new connection (${reload.source})` }
    : { reloadsLeaf: false, reason: `${version} does not re-read its certificate (releases ${reload.versions} do: ${reload.source})` };
}

/** How the SQL server with TLS for MySQL clients takes a new certificate: its cluster side as `cluster` says, its MySQL port by the statement or a restart. */
function mysqlPortReload(cluster: ComponentReload, version: string | undefined, reloadUser: string | undefined): ComponentReload {
  const kept = `its MySQL port keeps its certificate until \`${SQL_PORT_RELOAD.statement}\` or a restart (${SQL_PORT_RELOAD.source})`;
  if (reloadUser === undefined) {
    return { reloadsLeaf: false, reason: `${kept}; \`tlsClient.reloadUser\` would have the runbook run the statement instead` };
  }
  if (!cluster.reloadsLeaf || version === undefined || !isInRange(version, SQL_PORT_RELOAD.versions)) {
    return { reloadsLeaf: false, reason: `${kept}, and ${cluster.reloadsLeaf ? `releases ${SQL_PORT_RELOAD.versions} take the statement (${SQL_PORT_RELOAD.statementSource})` : `its cluster side does not re-read its own: ${cluster.reason}`}` };
  }
  return {
    reloadsLeaf: true,
    reason: `${cluster.reason}; its MySQL port loads the new one when the runbook runs \`${SQL_PORT_RELOAD.statement}\` as \`${reloadUser}\` (${SQL_PORT_RELOAD.statementSource})`,
    statement: { sql: SQL_PORT_RELOAD.statement, user: reloadUser },
  };
}

/** Why a component restarts in a phase that changes `ca.crt`. */
export const CA_CHANGE_REASON = `\`ca.crt\` changes, and no component re-reads its CA (${CA_RELOAD.source})`;

/** Whether a component restarts in a phase: when the phase changes `ca.crt`, or when it changes the certificate and the component does not re-read it. */
export function restartsIn(kind: RotationKind, phase: RotationPhase, reloadsLeaf: boolean): boolean {
  return changesCa(kind, phase) || !reloadsLeaf;
}

/**
 * The value of a component's restart annotation: that of the last phase, up to the declared one,
 * that restarts it; undefined when none has. A phase that does not restart the component leaves its
 * annotation as the phase before left it, so applying it rolls nothing.
 */
export function componentRestartValue(rotation: Pick<ResolvedRotation, 'phase' | 'history'>, reloadsLeaf: boolean): string | undefined {
  const steps = rotation.history.flatMap((h, i) => {
    const phases = ROTATION_PHASES[h.kind];
    return i < rotation.history.length - 1
      ? [{ id: h.id, kind: h.kind, phase: phases[phases.length - 1] }]
      : phases.slice(0, phases.indexOf(rotation.phase) + 1).map((phase) => ({ id: h.id, kind: h.kind, phase }));
  });
  const last = steps.reverse().find((step) => restartsIn(step.kind, step.phase, reloadsLeaf));
  return last === undefined ? undefined : restartValue(last);
}

/**
 * The order in which components restart to reload their certificates: each cluster kind in the
 * operator's own order ({@link OPERATOR_ROLL_ORDER}; the two kinds roll at the same time), then the
 * drainer, which its chart deploys, and the discovery server (with `enableDiscoveryMTLS`), whose
 * Deployment the operator keeps: the runbook restarts both. The clients of the client Secrets
 * restart after all of them.
 */
export const RESTART_ORDER: readonly ComponentToken[] = [
  ...OPERATOR_ROLL_ORDER[ClusterKind.DATABASE], ...OPERATOR_ROLL_ORDER[ClusterKind.MIGRATION], 'drainer', 'discovery',
];

/** The planned components in restart order; those not in {@link RESTART_ORDER} (a restore's jobs, which run no long-lived pod) are left out. */
export function restartOrder(components: readonly ComponentToken[]): ComponentToken[] {
  return RESTART_ORDER.filter((t) => components.includes(t));
}

/** The value of the restart annotation in a phase: it changes with every phase, so each phase restarts every component once. */
export function restartValue(rotation: Pick<ResolvedRotation, 'id' | 'phase'>): string {
  return `rotation-${rotation.id}-${rotation.phase}`;
}

/**
 * The generation of the CA object (cert-manager) that holds a generation's CA certificate: a leaf
 * renewal makes no CA, so its generation's CA is the one of the last CA replacement before it.
 */
export function caObjectOf(rotation: ResolvedRotation, generation: string): string {
  return rotation.kind === RotationKind.CA_REPLACEMENT && generation === rotation.id ? rotation.id : rotation.previousCa;
}

/** The generation of the CA object that signs new certificates: the initial one without a rotation. */
export function signingCaObject(rotation: ResolvedRotation | undefined): string {
  return rotation === undefined ? INITIAL_GENERATION : caObjectOf(rotation, rotation.signingCa);
}

/**
 * The generation of the newest CA object: the one a CA replacement makes from its first phase on,
 * else the one in use. A span's script signs that generation's intermediate.
 */
export function newestCaObject(rotation: ResolvedRotation | undefined): string {
  return rotation === undefined ? INITIAL_GENERATION : caObjectOf(rotation, rotation.id);
}

/** The CA objects a phase needs, previous first: both CAs until the leaves have switched, then one. */
export function caObjectsInUse(rotation: ResolvedRotation | undefined): string[] {
  if (rotation === undefined) {
    return [INITIAL_GENERATION];
  }
  return [...new Set(rotation.content.caCertificates.map((g) => caObjectOf(rotation, g)))].reverse();
}

/**
 * Where the leaves are during a phase with cert-manager: managed under their own names, taken out
 * of cert-manager's hands (the rotation script writes the Secrets), or issued into staging Secrets
 * that the rotation script copies from.
 */
export type LeafCustody = 'managed' | 'released' | 'staged';

/** The custody of the leaves in a phase (cert-manager). */
export function leafCustody(rotation: ResolvedRotation | undefined): LeafCustody {
  if (rotation?.kind !== RotationKind.CA_REPLACEMENT) {
    return 'managed';
  }
  return rotation.phase === RotationPhase.TRUST_BOTH ? 'released' : rotation.phase === RotationPhase.SWITCH_LEAVES ? 'staged' : 'managed';
}
