// Command cert-manager-controller runs the real cert-manager controllers of the pinned release,
// from the release's own Go packages, against the tests' API server.
//
// cert-manager publishes its controller command (cmd/controller, module
// github.com/cert-manager/cert-manager/controller-binary) as a module that points at its own tree
// with a replace line, so the Go module proxy does not serve it. Its controllers, issuers and
// certificate logic live in the main module, github.com/cert-manager/cert-manager, which the proxy
// does serve; this command starts those controllers as the release's command does (one context
// factory, every enabled controller's constructor, then the shared informers), with the options
// the tests need and the release's defaults for the rest. No leader election, metrics or health
// server: one controller per API server, stopped with the tests.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cert-manager/cert-manager/pkg/controller"
	ingresses "github.com/cert-manager/cert-manager/pkg/controller/certificate-shim/ingresses"
	"github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	crca "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	crselfsigned "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	"github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	"github.com/cert-manager/cert-manager/pkg/controller/issuers"
	logf "github.com/cert-manager/cert-manager/pkg/logs"

	"cdk8s-cluster-tls/tools/control-plane/internal/parent"

	// The issuer kinds the library declares register themselves with the issuers controller.
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
)

// controllers are the ones a cert-manager installation runs for CA and self-signed issuers, and the
// ingress-shim, on by default, which issues a Certificate for an Ingress that names an issuer in
// cert-manager's annotations (a way to obtain trust the library's trust rule refuses).
var controllers = []string{
	issuers.ControllerName,
	clusterissuers.ControllerName,
	trigger.ControllerName,
	issuing.ControllerName,
	keymanager.ControllerName,
	requestmanager.ControllerName,
	readiness.ControllerName,
	revisionmanager.ControllerName,
	approver.ControllerName,
	crca.CRControllerName,
	crselfsigned.CRControllerName,
	ingresses.ControllerName,
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the API server")
	// The release's binary defaults to kube-system; its Helm chart passes the namespace it installs into.
	clusterResourceNamespace := flag.String("cluster-resource-namespace", "kube-system", "namespace of the Secrets of ClusterIssuers")
	ownerRef := flag.Bool("enable-certificate-owner-ref", false, "set the Certificate as owner of its Secret, as --enable-certificate-owner-ref does")
	workers := flag.Int("workers", 5, "workers per controller")
	flag.Parse()
	if err := run(*kubeconfig, *clusterResourceNamespace, *ownerRef, *workers); err != nil {
		fmt.Fprintf(os.Stderr, "cert-manager-controller: %v\n", err)
		os.Exit(1)
	}
}

func run(kubeconfig, clusterResourceNamespace string, ownerRef bool, workers int) error {
	root, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	parent.OnExit(stop)
	root = logf.NewContext(root, logf.Log, "controller")
	factory, err := controller.NewContextFactory(root, controller.ContextOptions{
		Kubeconfig: kubeconfig,
		// The release's defaults (its controller configuration's kubernetesAPIQPS and kubernetesAPIBurst).
		KubernetesAPIQPS:   20,
		KubernetesAPIBurst: 50,
		IssuerOptions:      controller.IssuerOptions{ClusterResourceNamespace: clusterResourceNamespace},
		CertificateOptions: controller.CertificateOptions{
			EnableOwnerRef: ownerRef,
			// The release's defaults for a failed request's back-off.
			CertificateRequestMinimumBackoffDuration: time.Hour,
			CertificateRequestMaximumBackoffDuration: 32 * time.Hour,
		},
	})
	if err != nil {
		return fmt.Errorf("building the controller context: %w", err)
	}
	ctx, err := factory.Build()
	if err != nil {
		return fmt.Errorf("building the shared context of the controllers: %w", err)
	}
	group, groupCtx := errgroup.WithContext(root)
	known := controller.Known()
	for _, name := range controllers {
		constructor, ok := known[name]
		if !ok {
			return fmt.Errorf("the release registers no controller %q", name)
		}
		iface, err := constructor(factory)
		if err != nil {
			return fmt.Errorf("starting controller %s: %w", name, err)
		}
		group.Go(func() error { return iface.Run(workers, groupCtx) })
	}
	ctx.SharedInformerFactory.Start(groupCtx.Done())
	ctx.KubeSharedInformerFactory.Start(groupCtx.Done())
	ctx.HTTP01ResourceMetadataInformersFactory.Start(groupCtx.Done())
	fmt.Fprintf(os.Stderr, "cert-manager-controller: running %s\n", strings.Join(controllers, ", "))
	return group.Wait()
}
