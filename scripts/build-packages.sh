#!/usr/bin/env bash
# Builds the library's packages for Python, Go and Java with jsii and jsii-pacmak, as a release
# would publish them, into build/packages/<language>/:
#
#   python   the wheel (cdk8s_cluster_tls-<version>-py3-none-any.whl)
#   go       the generated module (build/packages/go/clustertls)
#   java     the jar, in a Maven repository layout (build/packages/java)
#
# The packages are made of jsii's build of the library (scripts/compile-jsii.sh: build/jsii/, apart
# from build/ of `tsc -b`), as it is: npm's scripts are off while jsii-pacmak packs it, so that its
# prepack does not compile it again under the tests that load it.
#
# The cdk8s, cdk8s-plus-27 and constructs packages this library builds on are published for Go and
# Java too, but the module proxy and Maven Central this project reaches do not serve the versions
# its lock file pins (no cdk8s Go module at all; no cdk8s-plus-27 jar). For those two languages
# jsii-pacmak generates them from the very npm packages the TypeScript build uses, into each
# package's own jsii output folder (node_modules/<package>/dist/<language>), where jsii-pacmak and
# the language tests find them; constructs comes from Maven Central and the module proxy. A
# dependency is generated again only when its folder does not record the installed version (the
# file .cluster-tls-built there), so only the first build after `npm install` pays for them:
# about a minute for Java on 2 cores, 15 seconds for Go. Only their jars' classes are compiled
# against, so Maven leaves out their javadoc and source jars: Java's build of both took 93 CPU-s
# (69 s) without them, Maven's repository empty, against 123 CPU-s (94 s) with them, the
# repository already full.
# The library's own package is built anew every time, as a release makes it, javadoc and sources
# included, into a folder emptied first (jsii-pacmak leaves files of removed types behind).
#
# Usage: scripts/build-packages.sh [python] [go] [java]   (default: all three)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
languages=("$@")
if [ "${#languages[@]}" -eq 0 ]; then languages=(python go java); fi

# jsii and jsii-pacmak warn that Node.js 20 is past its end of life; the versions pinned here run on it.
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION="${JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION:-1}"

for language in "${languages[@]}"; do
  case "$language" in
    python | go | java) ;;
    *) echo "scripts/build-packages.sh: received \"$language\"; expected python, go or java" >&2; exit 2 ;;
  esac
done

out="$root/build/packages"
mkdir -p "$out"
scripts/compile-jsii.sh
export npm_config_ignore_scripts=true

# The packages of the dependencies a language needs generated here (see above).
dependencies() {
  case "$1" in
    go | java) echo cdk8s cdk8s-plus-27 ;;
  esac
}

for language in "${languages[@]}"; do
  for dep in $(dependencies "$language"); do
    built="node_modules/$dep/dist/$language/.cluster-tls-built"
    version="$(node -p "require('./node_modules/$dep/package.json').version")"
    if [ "$(cat "$built" 2>/dev/null)" != "$version" ]; then
      # Only the classes of a dependency's jar are compiled against (see the header).
      skip=''
      [ "$language" != java ] || skip='-Dmaven.javadoc.skip=true -Dmaven.source.skip=true'
      MAVEN_OPTS="${MAVEN_OPTS:-} $skip" npx --no-install jsii-pacmak "node_modules/$dep" --targets "$language"
      echo "$version" > "$built"
      # npm trusts its record of node_modules (node_modules/.package-lock.json) only while the record
      # is newer than every package's folder, and the generated folder made this package's newer.
      # Without the record npm reads the tree from disk, and `npm pack` run in a folder whose
      # node_modules links to this one then leaves out what the bundled dependencies need (ajv's
      # fast-deep-equal): the tutorial's test packs so, after the language tests in CI's order.
      # Nothing the record holds changed, so it is made current again.
      [ ! -f node_modules/.package-lock.json ] || touch node_modules/.package-lock.json
    fi
  done
  rm -rf "${out:?}/$language"
  npx --no-install jsii-pacmak . --outdir "$out" --targets "$language"
done
