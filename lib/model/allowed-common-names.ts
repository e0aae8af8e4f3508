/**
 * Where a cluster resource lists the Common Names its components accept, read through the catalog:
 * one entry per component of the resource's kind that checks peers' Common Names.
 */
import { COMPONENTS, ComponentEntry, clusterKind } from './catalog';
import { readConfig } from './config-documents';

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
