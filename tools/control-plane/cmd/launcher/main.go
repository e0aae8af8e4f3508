// Command launcher starts the tests' control plane, etcd and the real kube-apiserver built by
// scripts/build-control-plane.sh, with controller-runtime's envtest, which is made for exactly
// this: it gives both their flags, certificates and ports, installs CRDs and makes an admin
// user. It writes that user's kubeconfig, prints "ready" and runs until its standard input
// closes or it gets SIGTERM, then stops both.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"cdk8s-cluster-tls/tools/control-plane/internal/parent"
)

func main() {
	assets := flag.String("assets", "", "folder holding the etcd and kube-apiserver binaries")
	crds := flag.String("crds", "", "comma-separated folders of CRD manifests to install")
	kubeconfig := flag.String("kubeconfig-out", "", "where to write the admin kubeconfig")
	flag.Parse()
	if err := run(*assets, *crds, *kubeconfig); err != nil {
		fmt.Fprintf(os.Stderr, "launcher: %v\n", err)
		os.Exit(1)
	}
}

func run(assets, crds, kubeconfig string) error {
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		ErrorIfCRDPathMissing: true,
	}
	if crds != "" {
		env.CRDDirectoryPaths = strings.Split(crds, ",")
	}
	if _, err := env.Start(); err != nil {
		// envtest leaves etcd and kube-apiserver running when a later step of its start fails
		// (installing a CRD the API server refuses): stop them, or they outlive the test.
		if stopErr := env.Stop(); stopErr != nil {
			fmt.Fprintf(os.Stderr, "launcher: stopping after a failed start: %v\n", stopErr)
		}
		return fmt.Errorf("starting etcd and kube-apiserver: %w", err)
	}
	defer func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "launcher: stopping: %v\n", err)
		}
	}()
	user, err := env.ControlPlane.AddUser(envtest.User{Name: "cluster-tls-tests", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fmt.Errorf("adding the admin user: %w", err)
	}
	config, err := user.KubeConfig()
	if err != nil {
		return fmt.Errorf("making the admin kubeconfig: %w", err)
	}
	if err := os.WriteFile(kubeconfig, config, 0o600); err != nil {
		return fmt.Errorf("writing the admin kubeconfig: %w", err)
	}
	fmt.Println("ready")
	done := make(chan struct{})
	parent.OnExit(func() { close(done) })
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	select {
	case <-done:
	case <-signals:
	}
	return nil
}
