#!/usr/bin/env bash
# Compiles the library with jsii (tsconfig.jsii.json) into build/jsii/, which the npm package and
# the Python, Go and Java packages are made of, and writes jsii's assembly, .jsii. Nothing is done
# when the assembly is newer than every source it is made of, so that the tests, which load
# build/jsii/ (the validation plugin, through the package's main) while others build packages,
# never see it rewritten: `npm test` runs this before jest.
set -euo pipefail
cd "$(dirname "$0")/.."
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION="${JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION:-1}"
if [ -f .jsii ] && [ -f build/jsii/lib/index.js ] \
  && [ -z "$(find lib bin imports package.json tsconfig.json tsconfig.jsii.json README.md -newer .jsii -print -quit)" ]; then
  exit 0
fi
npx --no-install jsii --silence-warnings=reserved-word
