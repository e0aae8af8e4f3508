//go:build tools

// etcdctl, the same release's command line, which the TLS enablement runbook copies into the
// coordinator pod to store a member's https peer URL (scripts/build-control-plane.sh).
package main

import _ "go.etcd.io/etcd/etcdctl/v3"
