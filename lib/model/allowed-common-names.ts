/**
 * Where a cluster resource lists the Common Names its components accept, read through the catalog:
 * one entry per component of the resource's kind that checks peers' Common Names.
 */
import * as TOML from 'smol-toml';
import type { IConstruct } from 'constructs';
import { COMPONENTS, ComponentEntry, clusterKind } from './catalog';
import { ClusterTlsError, describeType, inputErrorMessage } from './errors';

/** One component's allowed Common Name list in a cluster resource. */
export interface AllowedCommonNameList {
  /** The component's catalog row. */
  readonly entry: ComponentEntry;
  /** The configuration key, as the component spells it. */
  readonly key: string;
  /** The list's path in the resource, `spec.<component>.<config path>`. */
  readonly path: readonly string[];
  /** Whether the list may be left out (a mirror the operator fills from the main list). */
  readonly optional: boolean;
  /** What the resource holds there (not necessarily a list). */
  readonly value: unknown;
}

/**
 * The allowed Common Name lists of a `DatabaseCluster` or `MigrationCluster` manifest, for every
 * component of its kind that the resource configures; empty for any other object.
 */
export function allowedCommonNameLists(manifest: any): AllowedCommonNameList[] {
  const out: AllowedCommonNameList[] = [];
  for (const entry of COMPONENTS) {
    const check = entry.commonNameCheck;
    if (!check || !entry.specKey || clusterKind(entry.cluster).resourceKind !== manifest?.kind) {
      continue;
    }
    const part = manifest.spec?.[entry.specKey];
    if (part === undefined || part === null) {
      continue;
    }
    const read = { ...part, config: readConfig(entry, part.config) };
    const at = (path: readonly string[]) => path.reduce((node: any, key) => (node !== null && typeof node === 'object' ? node[key] : undefined), read);
    out.push({ entry, key: check.key, path: ['spec', entry.specKey, ...check.path], value: at(check.path), optional: false });
    for (const mirror of check.mirrors ?? []) {
      out.push({ entry, key: mirror.key, path: ['spec', entry.specKey, ...mirror.path], value: at(mirror.path), optional: true });
    }
  }
  return out;
}

/**
 * A component's configuration as a map, whichever form it is written in: a TOML document (the
 * form the operator keeps whole, and the one it stores back, see `ComponentEntry.configDocument`)
 * parsed; for a component of several documents, each one parsed; a map as it is. A document that
 * does not parse reads as nothing (its lists are then missing, which the rules report).
 */
export function readConfig(entry: ComponentEntry, config: unknown): unknown {
  if (entry.configDocument === 'toml-documents' && config !== null && typeof config === 'object' && !Array.isArray(config)) {
    return Object.fromEntries(Object.entries(config).map(([key, document]) => [key, parsedToml(document)]));
  }
  return parsedToml(config);
}

/** A TOML document parsed, nothing when it does not parse; anything else as it is. */
function parsedToml(document: unknown): unknown {
  if (typeof document !== 'string') {
    return document;
  }
  try {
    return TOML.parse(document);
  } catch {
    return undefined;
  }
}

/**
 * A cluster resource's JSON with each component's configuration in the form its catalog row says
 * the operator keeps it whole: a map, a TOML document, or a map of TOML documents. A configuration
 * already in that form, or of no form a TOML document can be made from (a user's escape hatch),
 * is left for the rules to judge; one that holds a value TOML cannot (a null an escape hatch put
 * there) is refused with one line naming the field.
 */
export function withConfigDocuments(scope: IConstruct, manifest: any): any {
  for (const entry of COMPONENTS) {
    const part = entry.specKey && clusterKind(entry.cluster).resourceKind === manifest?.kind ? manifest.spec?.[entry.specKey] : undefined;
    if (!isTable(part) || !isTable(part.config) || entry.configDocument === undefined || entry.configDocument === 'object') {
      continue;
    }
    const field = `spec.${entry.specKey}.config`;
    part.config = entry.configDocument === 'toml' ? tomlDocument(scope, field, part.config)
      : Object.fromEntries(Object.entries(part.config).map(([key, document]) => [key, isTable(document) ? tomlDocument(scope, `${field}.${key}`, document) : document]));
  }
  return manifest;
}

/** Whether a value holds a null anywhere, or an undefined in a list (an undefined entry of a map is left out). */
function holdsNull(value: unknown, inList = false): boolean {
  if (value === null || (inList && value === undefined)) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.some((v) => holdsNull(v, true));
  }
  return typeof value === 'object' && Object.values(value as object).some((v) => holdsNull(v));
}

function isTable(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A configuration as a TOML document; a value TOML cannot hold is refused with the field's name, never the value (a configuration may hold credentials). */
function tomlDocument(scope: IConstruct, field: string, config: Record<string, unknown>): string {
  try {
    // A writer of TOML leaves a null out without a word.
    if (holdsNull(config)) {
      throw new Error('null');
    }
    return TOML.stringify(config);
  } catch {
    throw new ClusterTlsError(inputErrorMessage(scope, field, describeType(config),
      'a configuration a TOML document can hold (no null anywhere in it): the operator keeps it as one'));
  }
}
