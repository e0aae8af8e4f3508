//go:build ignore

// Command cert-manager-webhook serves the admission webhook of the pinned cert-manager release
// (its validation and mutation of cert-manager's resources) for the tests' API server, and
// registers it there as the release's chart does: a ValidatingWebhookConfiguration for every
// cert-manager.io and acme.cert-manager.io resource on create and update, and a
// MutatingWebhookConfiguration for CertificateRequests on create, both failing closed.
//
// The webhook's code is internal to cert-manager's main module, and the module of its own
// command is not served by the Go module proxy, so scripts/build-control-plane.sh builds this
// file inside a copy of the release's main module (in the git-ignored cache). Unlike the
// release's command it serves a certificate it makes itself for 127.0.0.1, since the tests'
// API server reaches it by URL, not through a Service. It prints "ready" once registered and
// runs until SIGTERM or its standard input closes.
package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/cert-manager/cert-manager/internal/apis/config/shared"
	config "github.com/cert-manager/cert-manager/internal/apis/config/webhook"
	"github.com/cert-manager/cert-manager/internal/webhook"
	logf "github.com/cert-manager/cert-manager/pkg/logs"
)

const registration = "cert-manager-webhook"

func main() {
	// A flag set of its own: a package the webhook imports registers a global -kubeconfig flag.
	flags := flag.NewFlagSet("cert-manager-webhook", flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig of the API server")
	_ = flags.Parse(os.Args[1:])
	if err := run(*kubeconfig); err != nil {
		fmt.Fprintf(os.Stderr, "cert-manager-webhook: %v\n", err)
		os.Exit(1)
	}
}

func run(kubeconfig string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// The test holds standard input open; it closes when the test process ends, however it ends.
		// (The project's internal/parent does this for the other programs; this file is built in
		// cert-manager's module, which cannot import it.)
		reader := bufio.NewReader(os.Stdin)
		for {
			if _, err := reader.ReadByte(); err != nil {
				stop()
				return
			}
		}
	}()
	ctx = logf.NewContext(ctx, logf.Log, "webhook")

	dir, err := os.MkdirTemp("", "cert-manager-webhook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	caPEM, err := servingCertificate(dir)
	if err != nil {
		return fmt.Errorf("making the serving certificate: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	healthz, err := freePort()
	if err != nil {
		return err
	}
	server, err := webhook.NewCertManagerWebhookServer(logf.Log, config.WebhookConfiguration{
		SecurePort:           int32(port),
		HealthzPort:          int32(healthz),
		KubeConfig:           kubeconfig,
		MetricsListenAddress: "0",
		TLSConfig: shared.TLSConfig{Filesystem: shared.FilesystemServingConfig{
			CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key"),
		}},
	})
	if err != nil {
		return fmt.Errorf("building the webhook server: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- server.Run(ctx) }()
	if err := untilHealthy(ctx, healthz, served); err != nil {
		return err
	}
	if err := register(ctx, kubeconfig, port, caPEM); err != nil {
		return fmt.Errorf("registering the webhook: %w", err)
	}
	fmt.Println("ready")
	return <-served
}

// servingCertificate writes a key and a self-signed certificate for 127.0.0.1 into dir, and
// returns the certificate, which the API server trusts through the registrations' caBundle.
func servingCertificate(dir string) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "cert-manager-webhook"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(filepath.Join(dir, "tls.crt"), certPEM, 0o600); err != nil {
		return nil, err
	}
	return certPEM, os.WriteFile(filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// untilHealthy waits until the server answers on its healthz port, or fails if it stops first.
func untilHealthy(ctx context.Context, port int, served <-chan error) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-served:
			return fmt.Errorf("the webhook server stopped: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if response, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", port)); err == nil {
			response.Body.Close()
			if response.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("the webhook server did not become healthy within a minute")
}

// register writes the two webhook configurations of the release's chart, pointing at this server.
func register(ctx context.Context, kubeconfig string, port int, caPEM []byte) error {
	rest, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(rest)
	if err != nil {
		return err
	}
	url := func(path string) *string { u := fmt.Sprintf("https://127.0.0.1:%d%s", port, path); return &u }
	equivalent, fail, none := admissionv1.Equivalent, admissionv1.Fail, admissionv1.SideEffectClassNone
	// The chart's timeout: the API server's default of 10 s can refuse objects on a loaded machine.
	timeout := int32(30)
	validating := &admissionv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: registration},
		Webhooks: []admissionv1.ValidatingWebhook{{
			Name: "webhook.cert-manager.io",
			Rules: []admissionv1.RuleWithOperations{{
				Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
				Rule:       admissionv1.Rule{APIGroups: []string{"cert-manager.io", "acme.cert-manager.io"}, APIVersions: []string{"v1"}, Resources: []string{"*/*"}},
			}},
			AdmissionReviewVersions: []string{"v1"}, MatchPolicy: &equivalent, FailurePolicy: &fail, SideEffects: &none, TimeoutSeconds: &timeout,
			ClientConfig: admissionv1.WebhookClientConfig{URL: url("/validate"), CABundle: caPEM},
		}},
	}
	mutating := &admissionv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: registration},
		Webhooks: []admissionv1.MutatingWebhook{{
			Name: "webhook.cert-manager.io",
			Rules: []admissionv1.RuleWithOperations{{
				Operations: []admissionv1.OperationType{admissionv1.Create},
				Rule:       admissionv1.Rule{APIGroups: []string{"cert-manager.io"}, APIVersions: []string{"v1"}, Resources: []string{"certificaterequests"}},
			}},
			AdmissionReviewVersions: []string{"v1"}, MatchPolicy: &equivalent, FailurePolicy: &fail, SideEffects: &none, TimeoutSeconds: &timeout,
			ClientConfig: admissionv1.WebhookClientConfig{URL: url("/mutate"), CABundle: caPEM},
		}},
	}
	// A registration left by an earlier run points at a port nothing serves: replace it.
	hooks := client.AdmissionregistrationV1()
	if err := hooks.ValidatingWebhookConfigurations().Delete(ctx, registration, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if err := hooks.MutatingWebhookConfigurations().Delete(ctx, registration, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if _, err := hooks.ValidatingWebhookConfigurations().Create(ctx, validating, metav1.CreateOptions{}); err != nil {
		return err
	}
	_, err = hooks.MutatingWebhookConfigurations().Create(ctx, mutating, metav1.CreateOptions{})
	return err
}
