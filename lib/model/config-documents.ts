/**
 * The forms a component's configuration takes in a cluster resource: the map the props and escape
 * hatches give, and the TOML documents the operator keeps whole (see `ComponentEntry.configDocument`),
 * with the readers that take either back to a map.
 */
import * as TOML from 'smol-toml';
import type { IConstruct } from 'constructs';
import { COMPONENTS, ComponentEntry, clusterKind } from './catalog';
import { ClusterTlsError, inputErrorMessage } from './errors';

/** Whether the operator keeps the component's configuration as TOML documents (one, or one per key). */
export function keepsConfigAsToml(entry: ComponentEntry): boolean {
  return entry.configDocument === 'toml' || entry.configDocument === 'toml-documents';
}

/**
 * The path of the first null in a configuration (or `undefined` in a list), below `field`
 * (`store.config.log.level`, `store.config.hosts[1]`); undefined when it holds none. TOML has no
 * null, and a writer of TOML leaves such a key out without a word. An `undefined` entry of a map is
 * left out, as cdk8s leaves it out.
 */
export function firstNullPath(value: unknown, field: string, inList = false): string | undefined {
  if (value === null || (inList && value === undefined)) {
    return field;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNullPath(value[i], `${field}[${i}]`, true);
      if (found !== undefined) {
        return found;
      }
    }
  } else if (typeof value === 'object' && value !== undefined) {
    for (const [k, v] of Object.entries(value as object)) {
      const found = firstNullPath(v, /^[A-Za-z_][\w-]*$/.test(k) ? `${field}.${k}` : `${field}[…]`);
      if (found !== undefined) {
        return found;
      }
    }
  }
  return undefined;
}

/** What a null in a configuration is refused with: what to do instead. */
export const NULL_IN_CONFIG = 'a TOML value (a string, number, boolean, list or table): TOML has no null, and the operator keeps the component\'s '
  + 'configuration as a TOML document; leave the key out (with an escape hatch, JsonPatch.remove) instead of setting it to null';

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
 * there) is refused with one line naming where. The JSON is cdk8s's fresh rendering, changed in
 * place.
 */
export function withConfigDocuments(scope: IConstruct, manifest: any): any {
  for (const entry of COMPONENTS) {
    const part = entry.specKey && clusterKind(entry.cluster).resourceKind === manifest?.kind ? manifest.spec?.[entry.specKey] : undefined;
    if (!isTable(part) || !isTable(part.config) || !keepsConfigAsToml(entry)) {
      continue;
    }
    const field = `spec.${entry.specKey}.config`;
    part.config = entry.configDocument === 'toml' ? tomlDocument(scope, field, part.config)
      : Object.fromEntries(Object.entries(part.config).map(([key, document]) => [key, isTable(document) ? tomlDocument(scope, `${field}.${key}`, document) : document]));
  }
  return manifest;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A configuration as a TOML document; a null in it is refused naming where, never the value (a configuration may hold credentials). */
function tomlDocument(scope: IConstruct, field: string, config: Record<string, unknown>): string {
  const at = firstNullPath(config, field);
  if (at !== undefined) {
    throw new ClusterTlsError(inputErrorMessage(scope, at, null, NULL_IN_CONFIG));
  }
  return TOML.stringify(config);
}
