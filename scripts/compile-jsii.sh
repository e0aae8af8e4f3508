#!/usr/bin/env bash
# Compiles the library with jsii (tsconfig.jsii.json) into build/jsii/, which the npm package and
# the Python, Go and Java packages are made of, and writes jsii's assembly, .jsii. Nothing is done
# when the inputs are those of the last successful compile (a digest of every source file's path
# and content, kept in build/jsii/.inputs, written only once jsii succeeded), so that the tests,
# which load build/jsii/ (the validation plugin, through the package's main) while others build
# packages, never see it rewritten: `npm test` runs this before jest. Otherwise build/jsii/ and
# .jsii are deleted first, so no module removed from the sources is left in them.
set -euo pipefail
cd "$(dirname "$0")/.."
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION="${JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION:-1}"

inputs="$( { git ls-files -co --exclude-standard -- lib bin imports; echo package.json package-lock.json tsconfig.json tsconfig.jsii.json README.md; } \
  | sort | while read -r f; do if [ -f "$f" ]; then printf '%s %s\n' "$f" "$(sha256sum < "$f" | cut -d' ' -f1)"; fi; done | sha256sum | cut -d' ' -f1)"
if [ -f .jsii ] && [ "$(cat build/jsii/.inputs 2>/dev/null)" = "$inputs" ]; then
  exit 0
fi
rm -rf build/jsii .jsii
npx --no-install jsii --silence-warnings=reserved-word
echo "$inputs" > build/jsii/.inputs
