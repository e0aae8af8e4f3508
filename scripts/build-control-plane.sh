#!/usr/bin/env bash
# Builds the real programs the control-plane tests run, from the Go modules of their pinned
# releases (tools/control-plane/*/go.mod), into a git-ignored cache:
#
#   etcd                      etcd's server module (tools/control-plane/etcd)
#   kube-apiserver            k8s.io/kubernetes/cmd/kube-apiserver (tools/control-plane/kube-apiserver)
#   kube-controller-manager   the same release's controller manager, run with its garbage collector
#                             only (what deletes a deleted Certificate's CertificateRequests)
#   cert-manager-controller   cert-manager's controllers (tools/control-plane/cmd/cert-manager-controller)
#   launcher                  envtest, which starts etcd and kube-apiserver for a test
#   tls-peer                  Go's crypto/tls, the Go side of the handshake matrix
#   cert-manager-webhook      cert-manager's admission webhook (tools/control-plane/cert-manager-webhook)
#   cmctl                     cert-manager's command line, which the leaf-renewal script calls
#                             (tools/control-plane/cmctl: v2.2.0, the newest release whose
#                             checksum the module proxy's checksum database serves here)
#   crds/cert-manager         the CRDs of the pinned cert-manager release
#
# A program is built again only when its module's go.mod, go.sum or Go files changed: each one's
# fingerprint is kept beside it. Cold, on 2 cores, the whole build takes about 20 minutes (most of
# it kube-apiserver); cached, it takes a second.
#
# Usage: scripts/build-control-plane.sh [cache folder, default .cache/control-plane]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${1:-$root/.cache/control-plane}"
bin="$cache/bin"
mkdir -p "$bin"
export GOFLAGS="-mod=readonly -trimpath"

# build <module folder, under tools/control-plane or absolute> <program name> <package>
build() {
  local module="$1" name="$2" package="$3"
  [[ "$module" = /* ]] || module="$root/tools/control-plane/$module"
  local fingerprint
  fingerprint="$(cd "$module" && { go version; find . -path ./etcd -prune -o -path ./kube-apiserver -prune -o -path ./cmctl -prune -o -path ./cert-manager-webhook -prune -o \( -name '*.go' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -d' ' -f1)"
  if [ -x "$bin/$name" ] && [ "$(cat "$bin/$name.fingerprint" 2>/dev/null)" = "$fingerprint" ]; then
    echo "build-control-plane: $name is up to date"
    return
  fi
  local start=$SECONDS
  rm -f "$bin/$name.fingerprint"
  (cd "$module" && go build -ldflags='-s -w' -o "$bin/$name.partial" "$package")
  mv "$bin/$name.partial" "$bin/$name"
  echo "$fingerprint" > "$bin/$name.fingerprint"
  echo "build-control-plane: built $name in $((SECONDS - start)) s"
}

build etcd etcd .
build kube-apiserver kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build kube-apiserver kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
build . cert-manager-controller ./cmd/cert-manager-controller
build . launcher ./cmd/launcher
build . tls-peer ./cmd/tls-peer
build cmctl cmctl github.com/cert-manager/cmctl/v2

# The pinned cert-manager release's main module, as the module proxy serves it.
release="$(cd "$root/tools/control-plane" && go list -m -f '{{.Dir}}' github.com/cert-manager/cert-manager)"

# cert-manager's webhook: its code is internal to the release's main module (a program outside the
# module cannot import it), and the module of the release's own webhook command is not served by
# the proxy. So the project's command is built inside a copy of the main module, made once per
# release in the cache and never committed.
copy="$cache/src/$(basename "$release")"
if [ ! -d "$copy" ]; then
  rm -rf "$copy.partial"
  mkdir -p "$cache/src"
  cp -r "$release" "$copy.partial"
  chmod -R u+w "$copy.partial"
  mv "$copy.partial" "$copy"
fi
mkdir -p "$copy/cmd/cluster-tls-webhook"
cp "$root/tools/control-plane/cert-manager-webhook/main.go" "$copy/cmd/cluster-tls-webhook/main.go"
build "$copy" cert-manager-webhook ./cmd/cluster-tls-webhook/main.go

# The CRDs of the pinned cert-manager release, as its own deploy/crds holds them: what a user's
# cluster has once cert-manager is installed (the project's crds/cert-manager are the ones the
# library validates its objects against).
crds="$cache/crds/cert-manager"
mkdir -p "$crds"
cp "$release"/deploy/crds/*.yaml "$crds/"
chmod u+w "$crds"/*.yaml
echo "build-control-plane: cert-manager's CRDs in $crds"
