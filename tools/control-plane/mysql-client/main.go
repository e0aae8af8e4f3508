// Command mysql-client connects to a MySQL-protocol server with the Go MySQL driver
// (github.com/go-sql-driver/mysql), as a Go application does, over TLS with a client certificate,
// and reports what happened. The tests of application TLS run it against a real server.
//
// Input (JSON on stdin): addr (host:port), serverName (the name the client verifies on the server's
// certificate), user, and the PEM texts ca, cert and key. Output (JSON on stdout): ok, the user the
// server authenticated (CURRENT_USER()), the TLS version, or the driver's error.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"

	"github.com/go-sql-driver/mysql"
)

type input struct {
	Addr       string `json:"addr"`
	ServerName string `json:"serverName"`
	User       string `json:"user"`
	CA         string `json:"ca"`
	Cert       string `json:"cert"`
	Key        string `json:"key"`
}

type output struct {
	OK         bool   `json:"ok"`
	User       string `json:"user,omitempty"`
	TLSVersion string `json:"tlsVersion,omitempty"`
	Error      string `json:"error,omitempty"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintf(os.Stderr, "mysql-client: reading the input: %v\n", err)
		os.Exit(2)
	}
	out := connect(in)
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}

// connect opens one connection as an application would: the trust bundle as the only roots, the
// server's name verified, the client certificate presented.
func connect(in input) output {
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(in.CA)) {
		return output{Error: "the trust bundle holds no certificate"}
	}
	pair, err := tls.X509KeyPair([]byte(in.Cert), []byte(in.Key))
	if err != nil {
		return output{Error: fmt.Sprintf("client certificate: %v", err)}
	}
	if err := mysql.RegisterTLSConfig("app", &tls.Config{RootCAs: roots, ServerName: in.ServerName, Certificates: []tls.Certificate{pair}}); err != nil {
		return output{Error: err.Error()}
	}
	cfg := mysql.NewConfig()
	cfg.User = in.User
	cfg.Net = "tcp"
	cfg.Addr = in.Addr
	cfg.TLSConfig = "app"
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return output{Error: err.Error()}
	}
	defer db.Close()
	// One connection for both statements: the session's TLS version is the connection's.
	conn, err := db.Conn(context.Background())
	if err != nil {
		return output{Error: err.Error()}
	}
	defer conn.Close()
	var user, name, version string
	if err := conn.QueryRowContext(context.Background(), "SELECT CURRENT_USER()").Scan(&user); err != nil {
		return output{Error: err.Error()}
	}
	// SHOW STATUS, which MariaDB and the SQL server (tidb-server) both answer.
	if err := conn.QueryRowContext(context.Background(), "SHOW SESSION STATUS LIKE 'Ssl_version'").Scan(&name, &version); err != nil {
		return output{Error: err.Error()}
	}
	return output{OK: true, User: user, TLSVersion: version}
}
