//go:build tools

// Package tools names the programs this module builds, so that go mod tidy keeps what they need:
// cmctl, and helm, whose release this module's cmctl already pins.
package tools

import (
	_ "github.com/cert-manager/cmctl/v2"
	_ "helm.sh/helm/v3/cmd/helm"
)
