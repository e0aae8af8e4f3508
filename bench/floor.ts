/**
 * The floor of the benchmark: the same manifests and files as the library writes, built as plain
 * objects and serialized directly with the `yaml` package, with no constructs in between.
 *
 * One rendered deployment (tenant 0) is turned into a template: every manifest and every file,
 * parsed back into plain data, with the tenant's namespace as the only variable. The floor then
 * stamps out N deployments from it. Parts of a template that do not mention the namespace are
 * shared between tenants rather than copied, so the floor does as little work per object as a
 * hand-written generator could. This module loads neither cdk8s nor the library.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';
import type { RenderedApp, RenderedFile } from '../lib/synth/synthesize';

/** Serializer options of one YAML file, found by trying each until one reproduces the file. */
const YAML_VARIANTS: readonly YAML.ToStringOptions[] = [{}, { lineWidth: 0 }];

/** How cdk8s serializes each manifest document (`Yaml.stringify`). */
const MANIFEST_OPTIONS = { keepUndefined: true, lineWidth: 0, version: '1.1' } as const;

/** One file of a template. */
export type TemplateFile =
  | { readonly kind: 'manifest'; readonly path: string; readonly docs: unknown[] }
  | { readonly kind: 'yaml'; readonly path: string; readonly header: string; readonly value: unknown; readonly variant: number; readonly executable: boolean }
  | { readonly kind: 'json'; readonly path: string; readonly value: unknown; readonly executable: boolean }
  | { readonly kind: 'text'; readonly path: string; readonly content: string; readonly executable: boolean };

/** A deployment as plain data; `token` (the namespace of tenant 0) is what changes per tenant. */
export interface Template {
  readonly token: string;
  readonly files: TemplateFile[];
}

/** One deployment rendered by the library, and its namespace. */
export interface Sample {
  readonly rendered: RenderedApp;
  readonly namespace: string;
}

/**
 * Turns a rendered deployment into a template, with the namespace of the first sample as the
 * variable. Each file is parsed back into data and kept as data only when serializing that data
 * reproduces the file byte for byte, for every sample (a sample with a long namespace tells apart
 * serializer options that agree on short lines); otherwise it stays text. Throws unless the
 * template reproduces every sample exactly.
 */
export function makeTemplate(samples: readonly Sample[]): Template {
  const [{ rendered, namespace: token }] = samples;
  const contentOf = (sample: Sample, p: string) => sample.rendered.files.find((f) => f.path === p.split(token).join(sample.namespace))?.content;
  const files = rendered.files.map((file): TemplateFile => {
    const docs = rendered.objects.filter((o) => o.file === file.path).map((o) => o.manifest);
    if (docs.length > 0) {
      return { kind: 'manifest', path: file.path, docs };
    }
    return dataFile(file, token, samples.map((sample) => ({ namespace: sample.namespace, content: contentOf(sample, file.path) })));
  });
  const template: Template = { token, files };
  // Checked after a round trip through JSON, the form the floor's processes load it in.
  const compiled = compileTemplate(JSON.parse(JSON.stringify(template)));
  for (const sample of samples) {
    const again = new Map(compiled(sample.namespace).map((f) => [f.path, f]));
    for (const f of sample.rendered.files) {
      const g = again.get(f.path);
      if (g === undefined || g.content !== f.content || g.executable !== f.executable) {
        throw new Error(`the floor does not reproduce ${f.path}`);
      }
    }
    if (again.size !== sample.rendered.files.length) {
      throw new Error(`the floor writes ${again.size} files for ${sample.namespace}, the library ${sample.rendered.files.length}`);
    }
  }
  return template;
}

function dataFile(file: RenderedFile, token: string, samples: readonly { namespace: string; content?: string }[]): TemplateFile {
  const { path: p, content, executable } = file;
  if (p.endsWith('.json')) {
    try {
      const value = JSON.parse(content);
      if (`${JSON.stringify(value, undefined, 2)}\n` === content) {
        return { kind: 'json', path: p, value, executable };
      }
    } catch {
      // not JSON after all: kept as text
    }
  } else if (p.endsWith('.yaml') || p.endsWith('.yml')) {
    const header = /^(#[^\n]*\n)*\n?/.exec(content)![0];
    try {
      const value = stamp(YAML.parse(content.slice(header.length)), token);
      const headerOf = stamp(header, token) as (ns: string) => string;
      const variant = YAML_VARIANTS.findIndex((o) => samples.every((s) => headerOf(s.namespace) + YAML.stringify(value(s.namespace), o) === s.content));
      if (variant >= 0) {
        return { kind: 'yaml', path: p, header, value: value(token), variant, executable };
      }
    } catch {
      // not YAML after all: kept as text
    }
  }
  return { kind: 'text', path: p, content, executable };
}

/** A value with the namespace substituted: shared as it is when it does not mention it. */
type Stamp = (namespace: string) => unknown;

/** Compiles a value into a function of the namespace; parts without the token are shared. */
function compileValue(value: unknown, token: string): Stamp | undefined {
  if (typeof value === 'string') {
    if (!value.includes(token)) {
      return undefined;
    }
    const parts = value.split(token);
    return (ns) => parts.join(ns);
  }
  if (Array.isArray(value)) {
    const items = value.map((v) => compileValue(v, token));
    if (items.every((s) => s === undefined)) {
      return undefined;
    }
    return (ns) => value.map((v, i) => (items[i] ? items[i]!(ns) : v));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, v, compileValue(v, token)] as const);
    if (entries.every(([, , s]) => s === undefined)) {
      return undefined;
    }
    return (ns) => {
      const out: Record<string, unknown> = {};
      for (const [k, v, s] of entries) {
        out[k] = s ? s(ns) : v;
      }
      return out;
    };
  }
  return undefined;
}

function stamp(value: unknown, token: string): Stamp {
  const compiled = compileValue(value, token);
  return compiled ?? (() => value);
}

/** A template compiled for repeated stamping. */
export type CompiledTemplate = (namespace: string) => RenderedFile[];

/** Compiles a template: one function that writes one tenant's files. */
export function compileTemplate(template: Template): CompiledTemplate {
  const { token } = template;
  const makers = template.files.map((f): ((ns: string) => RenderedFile) => {
    const filePath = stamp(f.path, token) as (ns: string) => string;
    switch (f.kind) {
      case 'manifest': {
        const docs = f.docs.map((d) => stamp(d, token));
        return (ns) => ({
          path: filePath(ns),
          content: docs.map((d) => YAML.stringify(d(ns), MANIFEST_OPTIONS)).join('---\n'),
          executable: false,
        });
      }
      case 'yaml': {
        const header = stamp(f.header, token) as (ns: string) => string;
        const value = stamp(f.value, token);
        const options = YAML_VARIANTS[f.variant];
        return (ns) => ({ path: filePath(ns), content: header(ns) + YAML.stringify(value(ns), options), executable: f.executable });
      }
      case 'json': {
        const value = stamp(f.value, token);
        return (ns) => ({ path: filePath(ns), content: `${JSON.stringify(value(ns), undefined, 2)}\n`, executable: f.executable });
      }
      default: {
        const content = stamp(f.content, token) as (ns: string) => string;
        return (ns) => ({ path: filePath(ns), content: content(ns), executable: f.executable });
      }
    }
  });
  return (ns) => makers.map((m) => m(ns));
}

/**
 * Writes files as the library's writer did when the floor was made: into a staging folder beside
 * `outdir`, which then replaces it, with a chmod per file and the previous output deleted by
 * `fs.rmSync`. It stays so, as the fixed reference, though the library's writer has since dropped
 * both costs. (The library's `writeOutput` is not imported, so that the floor loads no cdk8s.)
 */
export function writeFloor(outdir: string, files: readonly RenderedFile[]): void {
  const target = path.resolve(outdir);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.staging-`));
  const folders = new Set<string>([staging]);
  for (const file of files) {
    const dest = path.join(staging, ...file.path.split('/'));
    const folder = path.dirname(dest);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    fs.writeFileSync(dest, file.content, { mode: file.executable ? 0o755 : 0o644 });
    fs.chmodSync(dest, file.executable ? 0o755 : 0o644);
  }
  if (fs.existsSync(target)) {
    fs.rmSync(target, { recursive: true, force: true });
  }
  fs.renameSync(staging, target);
}
