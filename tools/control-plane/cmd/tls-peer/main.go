// Command tls-peer is the Go peer of the tests' handshake matrix: the coordinator, sqlserver and
// changefeed are Go programs, so their TLS is Go's crypto/tls, not OpenSSL. It reads a JSON list
// of handshakes on standard input, runs each one over loopback TCP between a Go server that
// requires and verifies a client certificate and a Go client that verifies the server's name, and
// writes one JSON result per handshake.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// Handshake is one pair to try: PEM texts, and the name the client dials.
type Handshake struct {
	ServerCert string `json:"serverCert"`
	ServerKey  string `json:"serverKey"`
	// ServerTrust is what the server trusts for client certificates (its ca.crt).
	ServerTrust string `json:"serverTrust"`
	ClientCert  string `json:"clientCert"`
	ClientKey   string `json:"clientKey"`
	// ClientTrust is what the client trusts for server certificates (its ca.crt).
	ClientTrust string `json:"clientTrust"`
	// ServerName is the name the client dials and verifies; empty for the chain alone.
	ServerName string `json:"serverName"`
}

// Result says whether both sides accepted the handshake, and why not.
type Result struct {
	OK          bool   `json:"ok"`
	ServerError string `json:"serverError,omitempty"`
	ClientError string `json:"clientError,omitempty"`
}

func main() {
	var handshakes []Handshake
	if err := json.NewDecoder(os.Stdin).Decode(&handshakes); err != nil {
		fmt.Fprintf(os.Stderr, "tls-peer: reading the handshakes: %v\n", err)
		os.Exit(2)
	}
	results := make([]Result, len(handshakes))
	for i, h := range handshakes {
		results[i] = try(h)
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		os.Exit(2)
	}
}

func pool(pem string) (*x509.CertPool, error) {
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM([]byte(pem)) {
		return nil, errors.New("no certificate in the trust bundle")
	}
	return p, nil
}

func try(h Handshake) Result {
	serverPair, err := tls.X509KeyPair([]byte(h.ServerCert), []byte(h.ServerKey))
	if err != nil {
		return Result{ServerError: "server key pair: " + err.Error()}
	}
	clientPair, err := tls.X509KeyPair([]byte(h.ClientCert), []byte(h.ClientKey))
	if err != nil {
		return Result{ClientError: "client key pair: " + err.Error()}
	}
	serverTrust, err := pool(h.ServerTrust)
	if err != nil {
		return Result{ServerError: err.Error()}
	}
	clientTrust, err := pool(h.ClientTrust)
	if err != nil {
		return Result{ClientError: err.Error()}
	}
	// A loopback TCP connection, as between pods: the kernel buffers each side's writes (an
	// in-memory pipe would block the server's session tickets until the client reads).
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Result{ServerError: "listen: " + err.Error()}
	}
	defer listener.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		conn, err := listener.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- conn
	}()
	clientSide, err := net.Dial("tcp", listener.Addr().String())
	if err != nil {
		return Result{ClientError: "dial: " + err.Error()}
	}
	serverSide, ok := <-accepted
	if !ok {
		clientSide.Close()
		return Result{ServerError: "accept failed"}
	}
	deadline := time.Now().Add(10 * time.Second)
	_ = serverSide.SetDeadline(deadline)
	_ = clientSide.SetDeadline(deadline)
	server := tls.Server(serverSide, &tls.Config{
		Certificates: []tls.Certificate{serverPair},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    serverTrust,
		MinVersion:   tls.VersionTLS12,
	})
	clientConfig := &tls.Config{
		Certificates: []tls.Certificate{clientPair},
		RootCAs:      clientTrust,
		ServerName:   h.ServerName,
		MinVersion:   tls.VersionTLS12,
	}
	if h.ServerName == "" {
		// Dialed by a name no certificate can hold (a wildcard over one label): the chain alone is verified, as the tests' OpenSSL side does.
		clientConfig.InsecureSkipVerify = true
		clientConfig.VerifyConnection = func(state tls.ConnectionState) error {
			intermediates := x509.NewCertPool()
			for _, c := range state.PeerCertificates[1:] {
				intermediates.AddCert(c)
			}
			_, err := state.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: clientTrust, Intermediates: intermediates, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
			return err
		}
	}
	client := tls.Client(clientSide, clientConfig)
	serverDone := make(chan error, 1)
	go func() {
		err := server.Handshake()
		if err == nil {
			// A byte each way: with TLS 1.3 the client's certificate is checked after the client's handshake returns.
			buf := make([]byte, 1)
			if _, err = server.Read(buf); err == nil {
				_, err = server.Write(buf)
			}
		}
		serverDone <- err
		server.Close()
	}()
	clientErr := client.Handshake()
	if clientErr == nil {
		if _, clientErr = client.Write([]byte{1}); clientErr == nil {
			_, clientErr = client.Read(make([]byte, 1))
		}
	}
	client.Close()
	serverErr := <-serverDone
	r := Result{OK: clientErr == nil && serverErr == nil}
	if serverErr != nil {
		r.ServerError = serverErr.Error()
	}
	if clientErr != nil {
		r.ClientError = clientErr.Error()
	}
	return r
}
