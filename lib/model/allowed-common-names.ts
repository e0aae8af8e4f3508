/**
 * Where a cluster resource lists the Common Names its components accept, read through the catalog:
 * one entry per component of the resource's kind that checks peers' Common Names.
 */
import * as TOML from 'smol-toml';
import { COMPONENTS, ComponentEntry, clusterKind } from './catalog';

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
    const read = { ...part, config: readConfig(part.config) };
    const at = (path: readonly string[]) => path.reduce((node: any, key) => (node !== null && typeof node === 'object' ? node[key] : undefined), read);
    out.push({ entry, key: check.key, path: ['spec', entry.specKey, ...check.path], value: at(check.path), optional: false });
    for (const mirror of check.mirrors ?? []) {
      out.push({ entry, key: mirror.key, path: ['spec', entry.specKey, ...mirror.path], value: at(mirror.path), optional: true });
    }
  }
  return out;
}

/**
 * A component's configuration as a map: a TOML document (the form the operator keeps a
 * changefeed's in, see `ComponentEntry.configDocument`) parsed; a map as it is; a document that does
 * not parse as nothing (its lists are then missing, which the rules report).
 */
export function readConfig(config: unknown): unknown {
  if (typeof config !== 'string') {
    return config;
  }
  try {
    return TOML.parse(config);
  } catch {
    return undefined;
  }
}

/** A component's configuration in the form its catalog row says the operator keeps it whole: a map, or a TOML document. */
export function configDocument(entry: ComponentEntry, config: Record<string, unknown> | undefined): Record<string, unknown> | string | undefined {
  return entry.configDocument === 'toml' && config !== undefined ? TOML.stringify(config) : config;
}
