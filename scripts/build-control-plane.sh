#!/usr/bin/env bash
# Builds the real programs the control-plane tests run, from the Go modules of their pinned
# releases (tools/control-plane/*/go.mod), into a git-ignored cache:
#
#   etcd                      etcd's server module (tools/control-plane/etcd)
#   etcdctl                   the same release's command line (tools/control-plane/etcd), which the
#                             TLS enablement runbook runs in the coordinator pod
#   kube-apiserver            k8s.io/kubernetes/cmd/kube-apiserver (tools/control-plane/kube-apiserver)
#   kube-controller-manager   the same release's controller manager, run with its garbage collector
#                             only (what deletes a deleted Certificate's CertificateRequests)
#   kubectl                   the same release's kubectl, which the tests and the runbooks they run call
#   cert-manager-controller   cert-manager's controllers (tools/control-plane/cmd/cert-manager-controller)
#   launcher                  envtest, which starts etcd and kube-apiserver for a test
#   tls-peer                  Go's crypto/tls, the Go side of the handshake matrix
#   operator-peers            stand-in PD, TiDB, TiCDC and DM-master APIs over mutual TLS, for the real operator
#   duration                  Go's time.ParseDuration, which cert-manager reads durations with
#   yaml-read                 kubectl's and Helm's YAML 1.1 reader (sigs.k8s.io/yaml) and a YAML 1.2 one
#                             (go.yaml.in/yaml/v3), which the YAML writer's tests read its output with
#   mysql-client              the Go MySQL driver (tools/control-plane/mysql-client), the Go application
#                             of the application-TLS tests
#   quantity                  Kubernetes' quantity parser (k8s.io/apimachinery's resource.ParseQuantity,
#                             tools/control-plane/quantity), which the storage-size tests compare to
#   cert-manager-webhook      cert-manager's admission webhook (tools/control-plane/cert-manager-webhook),
#                             built inside a copy of the release's main module
#   cmctl                     cert-manager's command line, which the leaf-renewal script calls
#                             (tools/control-plane/cmctl: v2.2.0, the newest release whose
#                             checksum the module proxy's checksum database serves here)
#   helm                      helm, at the release that cmctl module pins, which renders the
#                             operator's drainer chart with the values the library writes
#   tidb-controller-manager   tidb-operator's controller manager (tools/control-plane/operator: the
#                             operator's release, with its nested pkg/apis and pkg/client modules)
#   dm-task-check             the migration tool's task and source decoding and checks (TiDB Data
#                             Migration's dm/config, tools/control-plane/dm-task-check), which the
#                             migration tests read the task files with
#   tidb-server               TiDB's SQL server (tools/control-plane/tidb-server: the pseudo-version of
#                             a TiDB release's commit, TIDB_RELEASE below)
#   crds/cert-manager         the CRDs of the pinned cert-manager release
#   crds/operator-<version>   the apiextensions v1 CRDs of the pinned operator release, one file each
#   charts/tidb-drainer       the operator's drainer chart, from its module at the release whose
#                             facts the library follows (DRAINER_CHART_MODULE below)
#
# Each program is built once per fingerprint (go version, build flags, package, and the hash of its
# module's go.mod, go.sum and Go files) into a store outside the clone, shared by every clone on the
# machine:
#
#   ${CLUSTER_TLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdk8s-cluster-tls}/control-plane/<program>/<fingerprint>/<program>
#
# and the clone's bin/<program> is a symbolic link to it, where the tests look. A second clone links
# what the first built and builds nothing. A build is written in a temporary folder and renamed into
# place, so a killed build leaves no half program; a signal stops its go build too. The store need
# not exist (it is made on first use); when it cannot be made, it is the cache folder's store/. Old
# fingerprints are never removed: delete the store to reclaim the space.
#
# The programs of one module built with the same flags (Kubernetes' three, the project's six
# commands, cmctl and helm) are built by one `go build`, which compiles what they share once and
# links them side by side, byte for byte the programs it builds one at a time: with Go's caches warm,
# Kubernetes' three took 35 s so against 45 to 73 s one after the other (2 cores, busy machine).
# Downloads are a small part of a cold build: with an empty module cache, the modules of every
# program came from the proxy in about 2.5 minutes (Kubernetes' three, 600 MB, in 17 s; TiDB's
# and the operator's in 91 s); the rest is compiling.
#
# On 2 cores with empty Go caches the whole build takes about 17 minutes, downloads included (half
# of it kube-apiserver), and tidb-controller-manager and tidb-server about 10 more (measured with an
# empty build cache on a busy machine: 4.5 and 5.7 minutes); with warm Go caches and an empty store,
# 3 to 5 minutes on a busy machine (linking); once the store holds them, a few seconds (the
# fingerprints are the time).
#
# Usage: scripts/build-control-plane.sh [--check] [cache folder, default .cache/control-plane]
# With --check it builds nothing: it names each program not built from the current sources, build
# flags and Go, and exits 1 if there is one (the tests skip, or fail under CI, on what it names).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi
stale=0
cache="${1:-$root/.cache/control-plane}"
mkdir -p "$cache/bin"
cache="$(cd "$cache" && pwd)"
bin="$cache/bin"
# -dwarf=false: the compiler writes no debug information, which -ldflags=-s -w drops at link anyway:
# the same programs, about a tenth less compile time (etcd with an empty build cache: 119 CPU-s
# with it, 108 without).
export GOFLAGS="-mod=readonly -trimpath -gcflags=all=-dwarf=false"
ldflags='-s -w'
# The compiler and linker collect no garbage until a process's memory reaches its limit: etcd with
# an empty build cache took 75 CPU-s with it against 80 without (2 cores, idle). go build runs a
# compiler per core, so the limit is a quarter of the memory per core, at most 3 GiB (3 GiB on the
# 2-core, 24 GiB machine CI runs on). Neither is in the fingerprint: they change the time, not the
# programs.
memory_kib="$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0)"
limit_kib=$(( memory_kib / $(nproc) / 4 ))
if [ "$limit_kib" -gt $((3 * 1024 * 1024)) ]; then limit_kib=$((3 * 1024 * 1024)); fi
if [ "$limit_kib" -gt 0 ]; then
  export GOGC=off GOMEMLIMIT="${limit_kib}KiB"
fi

# sources <folder> [folder to leave out]: the hash of the Go files, go.mod and go.sum under a folder,
# leaving out the folders of modules of their own (a go.mod below the top) and the one named.
sources() {
  local leave=() dir
  while IFS= read -r dir; do leave+=(-path "$dir" -prune -o); done < <(cd "$1" && find . -mindepth 2 -name go.mod -printf '%h\n')
  [ -z "${2:-}" ] || leave+=(-path "$2" -prune -o)
  (cd "$1" && find . "${leave[@]}" \( -name '*.go' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
}

# The store of built programs, shared by the clones; the cache folder's own when it cannot be made.
store="${CLUSTER_TLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdk8s-cluster-tls}/control-plane"
if ! mkdir -p "$store" 2>/dev/null || [ ! -w "$store" ]; then
  store="$cache/store"
  mkdir -p "$store"
fi
# While it builds, the script holds an exclusive lock on the cache folder's .build.lock (a second
# build of the clone waits for the first) and appends each program's name to .built once it is in
# bin/, and each file it reads before it: so the tests can start while it runs, each waiting for
# what it needs (tools/playground/programs.ts's awaitBuilt). --check takes no lock and marks nothing.
if ! $check; then
  exec {lock}>"$cache/.build.lock"
  flock "$lock"
  : > "$cache/.built"
fi
# mark <name>...: the programs are in bin/, for those who wait on .built.
mark() {
  $check || printf '%s\n' "$@" >> "$cache/.built"
}
# A build's temporary folder, removed if the script stops before its programs are renamed into place,
# and its go build, stopped with it (a signal ends the script through its EXIT trap).
partial='' building=''
trap '[ -z "$building" ] || kill "$building" 2>/dev/null; [ -z "$partial" ] || rm -rf "$partial"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# build <module folder, under tools/control-plane or absolute> <more -ldflags> <program>=<package>...
# Builds the programs not in the store, all of one module and flags in one `go build`, which
# compiles what they share once and links them side by side; a program's name is its package's
# last element, or its own when it is built alone.
build() {
  local module="$1" flags="$ldflags $2" wanted=() packages=() program name package fingerprint built
  shift 2
  [[ "$module" = /* ]] || module="$root/tools/control-plane/$module"
  local hash
  hash="$(sources "$module")"
  for program in "$@"; do
    name="${program%%=*}" package="${program#*=}"
    fingerprint="$(sha256sum <<<"$(go version; echo "$GOFLAGS $flags $package"; echo "$hash")" | cut -d' ' -f1)"
    built="$store/$name/$fingerprint/$name"
    if [ -x "$built" ] && [ "$(readlink "$bin/$name")" = "$built" ]; then
      $check || echo "build-control-plane: $name is up to date"
      mark "$name"
    elif $check; then
      echo "build-control-plane: $name is not built from the current sources"
      stale=1
    elif [ -x "$built" ]; then
      link "$built" "$bin/$name"
      echo "build-control-plane: $name is in $store"
      mark "$name"
    else
      wanted+=("$name=$built") packages+=("$package")
    fi
  done
  [ "${#wanted[@]}" -gt 0 ] || return 0
  local start=$SECONDS out
  partial="$(mktemp -d "$store/.partial.XXXXXX")"
  out="$partial/"
  [ "${#wanted[@]}" -gt 1 ] || out="$partial/${wanted[0]%%=*}"
  go -C "$module" build -ldflags="$flags" -o "$out" "${packages[@]}" &
  building=$!
  wait "$building"
  building=''
  for program in "${wanted[@]}"; do
    name="${program%%=*}" built="${program#*=}"
    [ -x "$partial/$name" ] || { echo "build-control-plane: go build made no $name in $partial" >&2; exit 1; }
    mkdir -p "${built%/*}"
    mv -f "$partial/$name" "$built"
    link "$built" "$bin/$name"
    mark "$name"
  done
  rm -rf "$partial"
  partial=''
  echo "build-control-plane: built ${wanted[*]%%=*} in $((SECONDS - start)) s"
}

# link <target> <link>: points the link at the target, replacing what was there in one rename.
link() {
  ln -sfn "$1" "$2.link"
  mv -Tf "$2.link" "$2"
  rm -f "$2.fingerprint"
}

# The order is the one the tests need them in: what a control plane runs first (etcd, Kubernetes'
# programs, cert-manager with its CRDs), then the small programs, cmctl and helm with the drainer
# chart, and last the operator, TiDB's SQL server and the migration tool's checks, which few suites
# need. A file is in place before the program that reads it is marked built (the CRDs before the
# launcher, the chart before helm, the operator's CRDs before the operator).
build etcd '' etcd=.
build etcd '' etcdctl=go.etcd.io/etcd/etcdctl/v3
# The Kubernetes programs say which release they are, as the release's own build makes them say.
kubernetes="$(cd "$root/tools/control-plane/kube-apiserver" && go list -m -f '{{.Version}}' k8s.io/kubernetes)"
minor="${kubernetes#v1.}"
release_flags="-X k8s.io/component-base/version.gitVersion=$kubernetes -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${minor%%.*} -X k8s.io/client-go/pkg/version.gitVersion=$kubernetes"
build kube-apiserver "$release_flags" kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver \
  kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager kubectl=k8s.io/kubernetes/cmd/kubectl

# moduleDir <module folder> <module path>: where the module of that path, at the version the folder's
# go.mod requires, is in Go's module cache, downloaded first if it is not there yet.
moduleDir() {
  local dir
  dir="$(cd "$1" && go mod download "$2" && go list -m -f '{{.Dir}}' "$2")"
  [ -n "$dir" ] || { echo "build-control-plane: no folder for $2 in Go's module cache" >&2; exit 1; }
  echo "$dir"
}

# The pinned cert-manager release's main module, as the module proxy serves it.
release="$(moduleDir "$root/tools/control-plane" github.com/cert-manager/cert-manager)"
# The CRDs of the pinned cert-manager release, as its own deploy/crds holds them: what a user's
# cluster has once cert-manager is installed (the project's crds/cert-manager are the ones the
# library validates its objects against). The launcher installs them.
if ! $check; then
  crds="$cache/crds/cert-manager"
  mkdir -p "$crds"
  cp "$release"/deploy/crds/*.yaml "$crds/"
  chmod u+w "$crds"/*.yaml
  echo "build-control-plane: cert-manager's CRDs in $crds"
fi
build . '' cert-manager-controller=./cmd/cert-manager-controller launcher=./cmd/launcher tls-peer=./cmd/tls-peer \
  operator-peers=./cmd/operator-peers duration=./cmd/duration yaml-read=./cmd/yaml-read

# cert-manager's webhook: its code is internal to the release's main module (a program outside the
# module cannot import it), and the module of the release's own webhook command is not served by
# the proxy. So the project's command is built inside a copy of the main module, made in the cache
# (never committed), and made again whenever it no longer holds exactly the release's files.
copy="$cache/src/$(basename "$release")"
if [ ! -d "$copy" ] || [ "$(sources "$copy" ./cmd/cert-manager-webhook)" != "$(sources "$release")" ]; then
  rm -rf "$copy" "$copy.partial"
  mkdir -p "$cache/src"
  cp -r "$release" "$copy.partial"
  chmod -R u+w "$copy.partial"
  mv "$copy.partial" "$copy"
fi
mkdir -p "$copy/cmd/cert-manager-webhook"
cp "$root/tools/control-plane/cert-manager-webhook/main.go" "$copy/cmd/cert-manager-webhook/main.go"
build "$copy" '' cert-manager-webhook=./cmd/cert-manager-webhook/main.go

# The operator's drainer chart, as the module proxy serves the operator's module of that release:
# what helm renders the library's chart values with in the tests.
if ! $check; then
  DRAINER_CHART_MODULE=github.com/pingcap/tidb-operator@v1.6.6
  operator="$(GOFLAGS= go mod download -json "$DRAINER_CHART_MODULE" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [ -d "$operator/charts/tidb-drainer" ] || { echo "build-control-plane: no charts/tidb-drainer in $DRAINER_CHART_MODULE" >&2; exit 1; }
  charts="$cache/charts"
  mkdir -p "$charts"
  rm -rf "$charts/tidb-drainer"
  cp -r "$operator/charts/tidb-drainer" "$charts/"
  chmod -R u+w "$charts/tidb-drainer"
  echo "build-control-plane: the drainer chart of $DRAINER_CHART_MODULE in $charts/tidb-drainer"
fi
build cmctl '' cmctl=github.com/cert-manager/cmctl/v2 helm=helm.sh/helm/v3/cmd/helm
build mysql-client '' mysql-client=.
build quantity '' quantity=.

# tidb-operator's controller manager and TiDB's SQL server, each saying which release it is as the
# release's own build makes it say (the operator's hack/version.sh, TiDB's Makefile.common).
operator_version="$(cd "$root/tools/control-plane/operator" && go list -m -f '{{.Version}}' github.com/pingcap/tidb-operator)"
# The CRDs of the pinned operator release (the module tidb-controller-manager is built from), as its
# own manifests/crd/v1 holds them, one file each: what a user's cluster has once the operator is
# installed.
if ! $check; then
  operator_module="$(moduleDir "$root/tools/control-plane/operator" github.com/pingcap/tidb-operator)"
  crds="$cache/crds/operator-$operator_version"
  rm -rf "$crds"
  mkdir -p "$crds"
  cp "$operator_module"/manifests/crd/v1/*.yaml "$crds/"
  chmod u+w "$crds"/*.yaml
  echo "build-control-plane: the operator's CRDs in $crds"
fi
operator_commit="$(GOFLAGS= go mod download -json "github.com/pingcap/tidb-operator@$operator_version" | sed -n 's/^\t\t"Hash": "\(.*\)",\{0,1\}$/\1/p')"
operator_flags="-X github.com/pingcap/tidb-operator/pkg/version.gitVersion=$operator_version -X github.com/pingcap/tidb-operator/pkg/version.gitCommit=${operator_commit:-unknown} -X github.com/pingcap/tidb-operator/pkg/version.gitTreeState=clean"
build operator "$operator_flags" tidb-controller-manager=github.com/pingcap/tidb-operator/cmd/controller-manager
# TiDB's releases are tags vN.x.y above v1, no version of its module: tools/control-plane/tidb-server
# pins the pseudo-version of the release's commit, which this names.
TIDB_RELEASE=v7.5.0
TIDB_RELEASE_COMMIT=069631e2ecfedc000ffb92c67207bea81380f020
tidb_version="$(cd "$root/tools/control-plane/tidb-server" && go list -m -f '{{.Version}}' github.com/pingcap/tidb)"
[ "${tidb_version##*-}" = "${TIDB_RELEASE_COMMIT:0:12}" ] || { echo "build-control-plane: github.com/pingcap/tidb $tidb_version is not the commit of $TIDB_RELEASE (TIDB_RELEASE_COMMIT)" >&2; exit 1; }
# -checklinkname=0: the release reads runtime.buildVersion through a go:linkname (pkg/util/printer),
# which the linker refuses since Go 1.23 unless told not to check.
tidb_flags="-checklinkname=0 -X github.com/pingcap/tidb/pkg/parser/mysql.TiDBReleaseVersion=$TIDB_RELEASE -X github.com/pingcap/tidb/pkg/util/versioninfo.TiDBGitHash=$TIDB_RELEASE_COMMIT -X github.com/pingcap/tidb/pkg/util/versioninfo.TiDBGitBranch=heads/refs/tags/$TIDB_RELEASE -X github.com/pingcap/tidb/pkg/util/versioninfo.TiDBEdition=Community"
build tidb-server "$tidb_flags" tidb-server=github.com/pingcap/tidb/cmd/tidb-server

# The migration tool's configuration package. Like tidb-server, the TiDB it pins reads
# runtime.buildVersion through a go:linkname. Measured on 2 cores shared with other builds: about
# 6 minutes with an empty module cache for it (downloads included), 7 s with warm caches.
build dm-task-check '-checklinkname=0' dm-task-check=.
if $check; then
  exit "$stale"
fi
echo "build-control-plane: done"
