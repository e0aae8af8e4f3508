/**
 * Validates synthesized objects against the CRDs in crds/, as the API server's strict field
 * validation would: unknown fields are rejected except where a schema preserves them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import * as YAML from 'yaml';

const CRD_DIR = path.join(__dirname, '..', 'crds');

/** Turns an OpenAPI v3 structural schema into a JSON schema that rejects unknown fields. */
function toJsonSchema(schema: any, atRoot = false): any {
  if (schema === null || typeof schema !== 'object') {
    return schema;
  }
  const out: any = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-kubernetes-') || key === 'description') {
      continue;
    }
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] = typeof value === 'object' ? toJsonSchema(value) : value;
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as any[]).map((v) => toJsonSchema(v));
    } else {
      out[key] = value;
    }
  }
  if (schema['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  const open = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema.type === 'object' && !open && schema.additionalProperties === undefined && !atRoot) {
    out.additionalProperties = false;
  }
  if (atRoot && out.properties?.metadata) {
    out.properties.metadata = { type: 'object' };
    out.additionalProperties = false;
  }
  return out;
}

/**
 * A CRD's `pattern` as the API server reads it, in Go's syntax: `(?i)` (prometheus-operator's
 * enumerations write `^(?i)(abort|warn)?$`) is Go's case-insensitive flag for the rest of the
 * pattern, which JavaScript writes as the `i` flag; the patterns of crds/ set it after `^` only.
 */
function goPattern(pattern: string, flags: string): RegExp {
  return pattern.startsWith('^(?i)') ? new RegExp(`^${pattern.slice(5)}`, `${flags}i`) : new RegExp(pattern, flags);
}
goPattern.code = 'goPattern';

let validators: Map<string, ValidateFunction> | undefined;

function load(): Map<string, ValidateFunction> {
  if (validators) {
    return validators;
  }
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp: goPattern } });
  validators = new Map();
  for (const dir of fs.readdirSync(CRD_DIR)) {
    for (const file of fs.readdirSync(path.join(CRD_DIR, dir)).filter((f) => f.endsWith('.yaml'))) {
      for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(CRD_DIR, dir, file), 'utf8'))) {
        const crd = doc.toJSON();
        if (crd?.kind !== 'CustomResourceDefinition') {
          continue;
        }
        for (const version of crd.spec.versions) {
          const key = `${crd.spec.group}/${version.name}/${crd.spec.names.kind}`;
          validators.set(key, ajv.compile(toJsonSchema(version.schema.openAPIV3Schema, true)));
        }
      }
    }
  }
  return validators;
}

/** The kinds crds/ defines, as `<group>/<version>/<kind>`. */
export function crdKinds(): string[] {
  return [...load().keys()];
}

/**
 * Validates one object against its CRD. `apiGroup` maps a custom API group back to the group of
 * the CRD files. Returns the errors, empty when valid; throws when no CRD defines the kind.
 */
export function crdErrors(obj: any, groupAliases: Record<string, string> = {}): string[] {
  const [group, version] = String(obj.apiVersion).split('/');
  const key = `${groupAliases[group] ?? group}/${version}/${obj.kind}`;
  const validate = load().get(key);
  if (!validate) {
    throw new Error(`no CRD in crds/ for ${key}`);
  }
  if (validate(obj)) {
    return [];
  }
  return (validate.errors ?? []).map((e) => `${obj.kind}/${obj.metadata?.name}${e.instancePath} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${(e.params as any).additionalProperty})` : ''}`);
}

/**
 * Expects every custom object to be valid against its CRD. Objects of the core API group
 * (`apiVersion: v1`, such as the expiry watch's rules ConfigMap) have no CRD: the real API server
 * of control-plane.test.ts validates them strictly with the rest of the reference output.
 */
export function expectValidAgainstCrds(objects: readonly any[], groupAliases: Record<string, string> = {}): void {
  const errors = objects.filter((o) => String(o.apiVersion).includes('/')).flatMap((o) => crdErrors(o, groupAliases));
  expect(errors).toEqual([]);
}
