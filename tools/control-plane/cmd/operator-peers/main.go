// Command operator-peers stands in for the servers tidb-operator's controller manager calls while
// it creates the StatefulSets of a new TidbCluster and DMCluster, so that the real operator renders
// every component without a kubelet: PD (its HTTP API and the etcd KV service PD serves on the same
// port, which the operator reads the Pump nodes and TiDB topology keys from), TiDB's status port,
// TiCDC's status port and DM-master's HTTP API. Each one answers about one cluster of one replica
// per component, every member healthy and every store Up, over mutual TLS: it requires a client
// certificate and verifies it against -ca, as the real servers do with tlsCluster enabled.
//
// It prints "ready" once it listens, logs every request (method, path, client certificate's
// subject, status), and runs until its standard input closes or it gets SIGTERM.
//
// The answers are the project's own, written from what the operator's v1.6.6 clients decode
// (pkg/pdapi, pkg/dmapi, pkg/controller/tidb_control.go, ticdc_control.go, pkg/binlog).
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"cdk8s-cluster-tls/tools/control-plane/internal/parent"
)

// Ports the members advertise, as the operator writes them into the components' start scripts.
const (
	pdClientPort   = 2379
	pdPeerPort     = 2380
	tikvPort       = 20160
	tiflashPort    = 3930
	pumpPort       = 8250
	tidbStatusPort = 10080
	dmMasterPort   = 8261
	dmMasterPeer   = 8291
	dmWorkerPort   = 8262
	clusterID      = 7300000000000000001
)

type config struct {
	cluster     string // TidbCluster name
	namespace   string // TidbCluster namespace
	dmCluster   string // DMCluster name
	dmNamespace string // DMCluster namespace
	version     string // release the members say they run
	pdMembers   int    // PD members reported, all healthy: the operator waits for a majority of the spec's replicas
	dmMasters   int    // DM-master members reported, all alive, likewise
}

func main() {
	pdAddr := flag.String("pd", "", "address to serve PD's HTTP API and etcd KV service on, e.g. 127.0.0.1:2379 (empty: off)")
	tidbAddr := flag.String("tidb", "", "address to serve TiDB's status API on, e.g. 127.0.0.1:10080 (empty: off)")
	ticdcAddr := flag.String("ticdc", "", "address to serve TiCDC's status API on, e.g. 127.0.0.1:8301 (empty: off)")
	dmMasterAddr := flag.String("dm-master", "", "address to serve DM-master's HTTP API on, e.g. 127.0.0.1:8261 (empty: off)")
	certFile := flag.String("cert", "", "PEM server certificate (its names must be the ones the operator dials)")
	keyFile := flag.String("key", "", "PEM key of -cert")
	caFile := flag.String("ca", "", "PEM CA bundle client certificates must chain to")
	cluster := flag.String("cluster", "basic", "name of the TidbCluster to answer about")
	namespace := flag.String("namespace", "default", "namespace of the TidbCluster")
	dmCluster := flag.String("dm-cluster", "", "name of the DMCluster to answer about (default: -cluster)")
	dmNamespace := flag.String("dm-namespace", "", "namespace of the DMCluster (default: -namespace)")
	version := flag.String("version", "v7.5.0", "release the members report")
	pdMembers := flag.Int("pd-members", 1, "PD members to report (the TidbCluster's spec.pd.replicas)")
	dmMasters := flag.Int("dm-masters", 1, "DM-master members to report (the DMCluster's spec.master.replicas)")
	flag.Parse()
	if *pdMembers < 1 || *dmMasters < 1 {
		fmt.Fprintln(os.Stderr, "operator-peers: -pd-members and -dm-masters must be at least 1")
		os.Exit(2)
	}
	cfg := config{cluster: *cluster, namespace: *namespace, dmCluster: *dmCluster, dmNamespace: *dmNamespace, version: *version, pdMembers: *pdMembers, dmMasters: *dmMasters}
	if cfg.dmCluster == "" {
		cfg.dmCluster = cfg.cluster
	}
	if cfg.dmNamespace == "" {
		cfg.dmNamespace = cfg.namespace
	}
	if err := run(cfg, *certFile, *keyFile, *caFile, map[string]string{
		"pd": *pdAddr, "tidb": *tidbAddr, "ticdc": *ticdcAddr, "dm-master": *dmMasterAddr,
	}); err != nil {
		fmt.Fprintf(os.Stderr, "operator-peers: %v\n", err)
		os.Exit(1)
	}
}

func run(cfg config, certFile, keyFile, caFile string, addrs map[string]string) error {
	if certFile == "" || keyFile == "" || caFile == "" {
		return errors.New("-cert, -key and -ca are required")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return fmt.Errorf("loading the server certificate: %w", err)
	}
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		return fmt.Errorf("reading the CA: %w", err)
	}
	clientCAs := x509.NewCertPool()
	if !clientCAs.AppendCertsFromPEM(caPEM) {
		return fmt.Errorf("no certificate in %s", caFile)
	}
	handlers := map[string]http.Handler{
		"pd":        pdHandler(cfg),
		"tidb":      tidbHandler(cfg),
		"ticdc":     ticdcHandler(cfg),
		"dm-master": dmMasterHandler(cfg),
	}
	var servers []*http.Server
	errs := make(chan error, len(addrs))
	for _, role := range []string{"pd", "tidb", "ticdc", "dm-master"} {
		addr := addrs[role]
		if addr == "" {
			continue
		}
		listener, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("%s: %w", role, err)
		}
		server := &http.Server{
			Handler: logged(role, handlers[role]),
			TLSConfig: &tls.Config{
				Certificates: []tls.Certificate{cert},
				ClientAuth:   tls.RequireAndVerifyClientCert,
				ClientCAs:    clientCAs,
				MinVersion:   tls.VersionTLS12,
				// h2 for the etcd client's gRPC, http/1.1 for the operator's HTTP clients.
				NextProtos: []string{"h2", "http/1.1"},
			},
			ErrorLog:          log.New(os.Stderr, "operator-peers: "+role+": ", 0),
			ReadHeaderTimeout: 10 * time.Second,
		}
		servers = append(servers, server)
		go func() { errs <- server.ServeTLS(listener, "", "") }()
		fmt.Fprintf(os.Stderr, "operator-peers: %s on %s\n", role, listener.Addr())
	}
	if len(servers) == 0 {
		return errors.New("no address to listen on: give -pd, -tidb, -ticdc or -dm-master")
	}
	fmt.Println("ready")
	done := make(chan struct{})
	parent.OnExit(func() { close(done) })
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	var failed error
	select {
	case <-done:
	case <-signals:
	case failed = <-errs:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, s := range servers {
		_ = s.Shutdown(ctx)
	}
	if failed != nil && !errors.Is(failed, http.ErrServerClosed) {
		return failed
	}
	return nil
}

// statusWriter remembers the status a handler wrote, for the log line.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func logged(role string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		subject := "-"
		if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
			subject = r.TLS.PeerCertificates[0].Subject.String()
		}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		status := fmt.Sprint(sw.status)
		if sw.status == 0 {
			status = "200"
		}
		if g := sw.Header().Get("Grpc-Status"); g != "" {
			status += " grpc-status=" + g
		}
		fmt.Fprintf(os.Stderr, "operator-peers: %s %s %s %s https://%s%s client=%q -> %s\n",
			time.Now().Format("15:04:05.000"), role, r.Proto, r.Method, r.Host, r.URL.RequestURI(), subject, status)
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// --- PD ---------------------------------------------------------------------------------------

type pdMember struct {
	Name       string   `json:"name"`
	MemberID   uint64   `json:"member_id"`
	PeerURLs   []string `json:"peer_urls"`
	ClientURLs []string `json:"client_urls"`
}

type storeLabel struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type store struct {
	Store struct {
		ID        uint64       `json:"id"`
		Address   string       `json:"address"`
		Labels    []storeLabel `json:"labels,omitempty"`
		Version   string       `json:"version"`
		StateName string       `json:"state_name"`
	} `json:"store"`
	Status struct {
		LeaderCount int `json:"leader_count"`
		RegionCount int `json:"region_count"`
	} `json:"status"`
}

type storesInfo struct {
	Count  int     `json:"count"`
	Stores []store `json:"stores"`
}

func newStore(id uint64, address, version string, labels ...storeLabel) store {
	var s store
	s.Store.ID = id
	s.Store.Address = address
	s.Store.Labels = labels
	s.Store.Version = version
	s.Store.StateName = "Up"
	return s
}

func pdHandler(cfg config) http.Handler {
	c, ns := cfg.cluster, cfg.namespace
	version := strings.TrimPrefix(cfg.version, "v")
	// Each member's client URL must match the operator's pattern <tc>-pd-N.<tc>-pd-peer.<ns>.svc:port
	// for the member to count as one of this cluster's (pdMemberLimitPattern).
	members := make([]pdMember, cfg.pdMembers)
	for i := range members {
		members[i] = pdMember{
			Name:       fmt.Sprintf("%s-pd-%d", c, i),
			MemberID:   uint64(i + 1),
			PeerURLs:   []string{fmt.Sprintf("https://%s-pd-%d.%s-pd-peer.%s.svc:%d", c, i, c, ns, pdPeerPort)},
			ClientURLs: []string{fmt.Sprintf("https://%s-pd-%d.%s-pd-peer.%s.svc:%d", c, i, c, ns, pdClientPort)},
		}
	}
	member := members[0]
	// One TiKV and one TiFlash store, both Up, at the addresses the operator's store patterns
	// (tikvStoreLimitPattern, tiflashStoreLimitPattern) take for this cluster's.
	stores := []store{
		newStore(1, fmt.Sprintf("%s-tikv-0.%s-tikv-peer.%s.svc:%d", c, c, ns, tikvPort), version),
		newStore(2, fmt.Sprintf("%s-tiflash-0.%s-tiflash-peer.%s.svc:%d", c, c, ns, tiflashPort), version,
			storeLabel{Key: "engine", Value: "tiflash"}),
	}
	// The keys the etcd KV service holds: one Pump node, online (what TiDB waits for).
	pumpID := fmt.Sprintf("%s-pump-0:%d", c, pumpPort)
	pumpStatus, _ := json.Marshal(map[string]any{
		"nodeId":      pumpID,
		"host":        fmt.Sprintf("%s-pump-0.%s-pump.%s.svc:%d", c, c, ns, pumpPort),
		"state":       "online",
		"maxCommitTS": 0,
		"updateTS":    0,
	})
	kv := map[string][]byte{"/tidb-binlog/v1/pumps/" + pumpID: pumpStatus}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /pd/api/v1/health", func(w http.ResponseWriter, r *http.Request) {
		health := make([]map[string]any, len(members))
		for i, m := range members {
			health[i] = map[string]any{"name": m.Name, "member_id": m.MemberID, "client_urls": m.ClientURLs, "health": true}
		}
		writeJSON(w, health)
	})
	mux.HandleFunc("GET /pd/api/v1/members", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{
			"header":      map[string]any{"cluster_id": uint64(clusterID)},
			"members":     members,
			"leader":      member,
			"etcd_leader": member,
		})
	})
	mux.HandleFunc("GET /pd/api/v1/leader", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, member) })
	mux.HandleFunc("GET /pd/api/v1/cluster", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"id": uint64(clusterID), "max_peer_count": 3})
	})
	mux.HandleFunc("GET /pd/api/v1/config", func(w http.ResponseWriter, r *http.Request) {
		// PD answers these three as strings. location-labels "" is no label: the operator then
		// sets no store or server labels (which would need the Pods and Nodes).
		writeJSON(w, map[string]any{
			"replication": map[string]any{
				"max-replicas":           3,
				"location-labels":        "",
				"strictly-match-label":   "false",
				"enable-placement-rules": "true",
			},
			"schedule": map[string]any{},
		})
	})
	mux.HandleFunc("POST /pd/api/v1/config/replicate", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, "The config is updated.")
	})
	mux.HandleFunc("GET /pd/api/v1/stores", func(w http.ResponseWriter, r *http.Request) {
		// ?state=2 is the Tombstone stores: none.
		if r.URL.Query().Get("state") != "" {
			writeJSON(w, storesInfo{Count: 0, Stores: []store{}})
			return
		}
		writeJSON(w, storesInfo{Count: len(stores), Stores: stores})
	})
	mux.HandleFunc("GET /pd/api/v1/store/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, s := range stores {
			if fmt.Sprint(s.Store.ID) == r.PathValue("id") {
				writeJSON(w, s)
				return
			}
		}
		http.Error(w, "store not found", http.StatusNotFound)
	})
	mux.HandleFunc("POST /pd/api/v1/store/{id}/label", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, "The store's label is updated.")
	})
	mux.HandleFunc("GET /pd/api/v1/schedulers", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, []string{})
	})
	mux.HandleFunc("GET /pd/api/v1/scheduler-config/evict-leader-scheduler/list", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"store-id-ranges": map[string]any{}})
	})
	mux.HandleFunc("GET /pd/api/v1/admin/cluster/markers/snapshot-recovering", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]bool{"marked": false})
	})
	mux.HandleFunc("GET /pd/api/v2/ready", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/etcdserverpb.KV/Range", func(w http.ResponseWriter, r *http.Request) {
		grpcUnary(w, r, func(req []byte) ([]byte, error) { return etcdRange(kv, req) })
	})
	mux.HandleFunc("/etcdserverpb.KV/Txn", func(w http.ResponseWriter, r *http.Request) {
		// Only the operator's delete-if-exists of stale TiDB topology keys, which never exist
		// here: the comparison fails and nothing is done.
		grpcUnary(w, r, func([]byte) ([]byte, error) {
			return append(pbBytes(1, etcdHeader()), pbVarint(2, 0)...), nil
		})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if isGRPC(r) {
			grpcUnary(w, r, nil)
			return
		}
		http.NotFound(w, r)
	})
	return mux
}

// --- etcd's KV service over gRPC, by hand -------------------------------------------------------

func isGRPC(r *http.Request) bool {
	return r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc")
}

// grpcUnary answers one unary gRPC call: a length-prefixed request message in, a length-prefixed
// response message and the grpc-status trailer out. A nil handle answers UNIMPLEMENTED (12).
func grpcUnary(w http.ResponseWriter, r *http.Request, handle func([]byte) ([]byte, error)) {
	if !isGRPC(r) {
		http.Error(w, "gRPC only", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/grpc+proto")
	w.Header().Set("Trailer", "Grpc-Status, Grpc-Message")
	status, message := 0, ""
	var reply []byte
	switch {
	case err != nil:
		status, message = 13, err.Error()
	case handle == nil:
		status, message = 12, "not served by operator-peers: "+r.URL.Path
	case len(body) < 5 || body[0] != 0 || int(binary.BigEndian.Uint32(body[1:5])) != len(body)-5:
		status, message = 13, "one uncompressed message expected"
	default:
		reply, err = handle(body[5:])
		if err != nil {
			status, message = 13, err.Error()
		}
	}
	w.WriteHeader(http.StatusOK)
	if status == 0 {
		frame := make([]byte, 5, 5+len(reply))
		binary.BigEndian.PutUint32(frame[1:], uint32(len(reply)))
		_, _ = w.Write(append(frame, reply...))
	}
	w.Header().Set("Grpc-Status", fmt.Sprint(status))
	w.Header().Set("Grpc-Message", message)
}

// etcdRange answers etcdserverpb.RangeRequest (key = 1, range_end = 2, count_only = 9) with a
// RangeResponse (header = 1, kvs = 2, count = 4) of the keys in [key, range_end), or key alone.
func etcdRange(kv map[string][]byte, req []byte) ([]byte, error) {
	fields, err := pbParse(req)
	if err != nil {
		return nil, err
	}
	key, end := string(fields[1]), string(fields[2])
	countOnly := len(fields[9]) > 0 && fields[9][0] != 0
	var keys []string
	for k := range kv {
		switch {
		case end == "":
			if k == key {
				keys = append(keys, k)
			}
		case end == "\x00":
			if k >= key {
				keys = append(keys, k)
			}
		default:
			if k >= key && k < end {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "operator-peers: etcd Range key=%q range_end=%q -> %d key(s) %q\n", key, end, len(keys), keys)
	out := pbBytes(1, etcdHeader())
	if !countOnly {
		for _, k := range keys {
			var item []byte
			item = append(item, pbBytes(1, []byte(k))...)
			item = append(item, pbVarint(2, 2)...) // create_revision
			item = append(item, pbVarint(3, 2)...) // mod_revision
			item = append(item, pbVarint(4, 1)...) // version
			item = append(item, pbBytes(5, kv[k])...)
			out = append(out, pbBytes(2, item)...)
		}
	}
	out = append(out, pbVarint(4, uint64(len(keys)))...)
	return out, nil
}

// etcdHeader is a ResponseHeader: cluster_id = 1, member_id = 2, revision = 3, raft_term = 4.
func etcdHeader() []byte {
	var h []byte
	h = append(h, pbVarint(1, clusterID)...)
	h = append(h, pbVarint(2, 1)...)
	h = append(h, pbVarint(3, 2)...)
	h = append(h, pbVarint(4, 1)...)
	return h
}

func pbVarint(field int, v uint64) []byte {
	b := binary.AppendUvarint(nil, uint64(field)<<3|0)
	return binary.AppendUvarint(b, v)
}

func pbBytes(field int, v []byte) []byte {
	b := binary.AppendUvarint(nil, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// pbParse reads a message's fields: length-delimited ones as their bytes, varints as one byte
// (0 or 1, enough for the booleans read here), the rest skipped.
func pbParse(b []byte) (map[int][]byte, error) {
	fields := map[int][]byte{}
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("bad tag")
		}
		b = b[n:]
		field, wire := int(tag>>3), tag&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errors.New("bad varint")
			}
			b = b[n:]
			if v != 0 {
				fields[field] = []byte{1}
			} else {
				fields[field] = []byte{0}
			}
		case 1:
			if len(b) < 8 {
				return nil, errors.New("short fixed64")
			}
			b = b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return nil, errors.New("bad length")
			}
			fields[field] = b[n : n+int(l)]
			b = b[n+int(l):]
		case 5:
			if len(b) < 4 {
				return nil, errors.New("short fixed32")
			}
			b = b[4:]
		default:
			return nil, fmt.Errorf("wire type %d", wire)
		}
	}
	return fields, nil
}

// --- TiDB and TiCDC -------------------------------------------------------------------------

func tidbHandler(cfg config) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"connections": 0, "version": "8.0.11-TiDB-" + cfg.version, "git_hash": ""})
	})
	mux.HandleFunc("/info", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"is_owner": true})
	})
	mux.HandleFunc("POST /labels", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, "success!")
	})
	mux.HandleFunc("POST /upgrade/{op}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, "success!")
	})
	return mux
}

func ticdcHandler(cfg config) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"version": cfg.version, "git_hash": "", "id": "capture-0", "pid": 1, "is_owner": true})
	})
	return mux
}

// --- DM-master --------------------------------------------------------------------------------

func dmMasterHandler(cfg config) http.Handler {
	c, ns := cfg.dmCluster, cfg.dmNamespace
	masters := make([]any, cfg.dmMasters)
	for i := range masters {
		masters[i] = map[string]any{
			"name":       fmt.Sprintf("%s-dm-master-%d", c, i),
			"memberID":   fmt.Sprint(i + 1),
			"alive":      true,
			"peerURLs":   []string{fmt.Sprintf("https://%s-dm-master-%d.%s-dm-master-peer.%s:%d", c, i, c, ns, dmMasterPeer)},
			"clientURLs": []string{fmt.Sprintf("https://%s-dm-master-%d.%s-dm-master-peer.%s:%d", c, i, c, ns, dmMasterPort)},
		}
	}
	worker := map[string]any{
		"name":  c + "-dm-worker-0",
		"addr":  fmt.Sprintf("%s-dm-worker-0.%s-dm-worker-peer.%s:%d", c, c, ns, dmWorkerPort),
		"stage": "free",
	}
	leader := map[string]any{
		"name": c + "-dm-master-0",
		"addr": fmt.Sprintf("%s-dm-master-0.%s-dm-master-peer.%s:%d", c, c, ns, dmMasterPort),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /apis/v1alpha1/members", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var member map[string]any
		switch {
		case q.Get("master") == "true":
			member = map[string]any{"master": map[string]any{"masters": masters}}
		case q.Get("worker") == "true":
			member = map[string]any{"worker": map[string]any{"workers": []any{worker}}}
		case q.Get("leader") == "true":
			member = map[string]any{"leader": leader}
		default:
			member = map[string]any{
				"master": map[string]any{"masters": masters},
				"worker": map[string]any{"workers": []any{worker}},
				"leader": leader,
			}
		}
		writeJSON(w, map[string]any{"result": true, "msg": "", "members": []any{member}})
	})
	mux.HandleFunc("PUT /apis/v1alpha1/leader/{op}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"result": true, "msg": ""})
	})
	mux.HandleFunc("DELETE /apis/v1alpha1/members/{kind}/{name}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"result": true, "msg": ""})
	})
	return mux
}
