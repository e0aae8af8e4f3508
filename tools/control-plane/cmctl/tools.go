//go:build tools

// Package tools names the program this module builds, so that go mod tidy keeps what it needs.
package tools

import _ "github.com/cert-manager/cmctl/v2"
