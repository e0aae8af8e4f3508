#!/usr/bin/env node
/**
 * `npm run synth`: builds the TypeScript sources with `tsc -b` only when one of them changed since
 * the last successful build, then runs the compiled app in this same process.
 *
 * Plain JavaScript, so that it runs before anything is compiled. The type check is never skipped
 * for a changed source: every file `tsc -b` reads from the project (the folders and files of
 * tsconfig.json's `include`, tsconfig.json, package.json and the installed packages' lock file) is
 * fingerprinted by path, size and modification time; the fingerprint is stored in `build/` after
 * a build that succeeded, and removed before every build, so a failed or interrupted build leaves
 * none. When the fingerprint matches, `tsc -b` would have nothing to do and is not started; when it
 * does not, `tsc -b` runs and a type error stops here with its exit code.
 *
 * Usage: node scripts/synth.js [--force] [--build-only] [<compiled entry, default build/main.js> [args…]]
 *   --force       run `tsc -b` even when nothing changed
 *   --build-only  build when needed, run nothing
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');
/** Outside the project's `include`, but they change what `tsc -b` does. */
const EXTRA_INPUTS = ['tsconfig.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'];
/** Folders never walked for inputs. */
const SKIP = new Set(['node_modules', 'build', 'dist', 'cluster-tls', '.git', '.jest-cache', 'coverage']);
const DEFAULT_ENTRY = 'build/main.js';

/** The project's compiler options and inputs, or undefined when tsconfig.json is not plain JSON. */
function readTsconfig() {
  try {
    return JSON.parse(fs.readFileSync(TSCONFIG, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The folders and files to fingerprint: for each `include` pattern its part before the first
 * wildcard, walked whole (every file, whatever its extension, and every folder's own time, which
 * changes when an entry is added, removed or renamed).
 */
function inputRoots(tsconfig) {
  const patterns = [...(tsconfig.include ?? ['**/*']), ...(tsconfig.files ?? [])];
  const roots = patterns.map((p) => {
    const parts = p.split('/');
    const wild = parts.findIndex((s) => /[*?[{]/.test(s));
    return (wild < 0 ? parts : parts.slice(0, wild)).join('/') || '.';
  });
  return [...new Set([...roots, ...EXTRA_INPUTS])].sort();
}

/** Adds `path size mtime` lines for a file or a folder tree to `lines`. */
function collect(rel, lines) {
  let stat;
  try {
    stat = fs.statSync(path.join(ROOT, rel));
  } catch {
    lines.push(`${rel} missing`);
    return;
  }
  lines.push(`${rel} ${stat.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`);
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(path.join(ROOT, rel)).sort()) {
      if (!SKIP.has(entry)) {
        collect(rel === '.' ? entry : `${rel}/${entry}`, lines);
      }
    }
  }
}

/** The fingerprint of every input of the build, or undefined when it cannot be known. */
function fingerprint(tsconfig) {
  // A configuration that extends or references another one has inputs this script does not follow.
  if (!tsconfig || tsconfig.extends !== undefined || tsconfig.references !== undefined) {
    return undefined;
  }
  const lines = [`node ${process.version}`];
  for (const rel of inputRoots(tsconfig)) {
    collect(rel, lines);
  }
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** Runs `tsc -b` in a child process, with its own output; returns its exit code. */
function build() {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-b'], { cwd: ROOT, stdio: 'inherit' });
  if (result.error) {
    throw result.error;
  }
  return result.status ?? 1;
}

function main(argv) {
  // Options come first; everything from the entry on belongs to the entry.
  const options = [];
  while (argv.length > 0 && argv[0].startsWith('--')) {
    options.push(argv.shift());
  }
  const unknown = options.filter((o) => o !== '--force' && o !== '--build-only');
  if (unknown.length > 0) {
    process.stderr.write(`scripts/synth.js: unknown option ${unknown[0]}; expected --force or --build-only before the entry\n`);
    process.exitCode = 2;
    return;
  }
  const force = options.includes('--force');
  const buildOnly = options.includes('--build-only');
  const entry = path.resolve(ROOT, argv[0] ?? DEFAULT_ENTRY);

  const tsconfig = readTsconfig();
  const outDir = path.resolve(ROOT, tsconfig?.compilerOptions?.outDir ?? 'build');
  const stampFile = path.join(outDir, '.synth-fingerprint');
  const before = fingerprint(tsconfig);
  let stamp;
  try {
    stamp = fs.readFileSync(stampFile, 'utf8');
  } catch {
    stamp = undefined;
  }
  const upToDate = !force && before !== undefined && stamp === before && (buildOnly || fs.existsSync(entry));
  if (!upToDate) {
    fs.rmSync(stampFile, { force: true });
    const status = build();
    if (status !== 0) {
      process.exitCode = status;
      return;
    }
    if (before !== undefined) {
      // Taken before the build: a source edited while tsc ran makes the next run build again.
      fs.writeFileSync(stampFile, before);
    }
  }
  if (buildOnly) {
    return;
  }
  // Run the entry as the main module, as `node <entry> [args…]` would.
  process.argv = [process.argv[0], entry, ...argv.slice(1)];
  require('node:module').runMain();
}

main(process.argv.slice(2));
