package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// pki is a throwaway certificate authority with a server certificate for
// 127.0.0.1 and a client certificate, written as PEM files.
type pki struct {
	dir                           string
	caFile, clientCert, clientKey string
	server                        tls.Certificate
	pool                          *x509.CertPool
}

func newPKI(t *testing.T, name string) *pki {
	t.Helper()
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name + " CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	issue := func(serial int64, cn string, usage x509.ExtKeyUsage, ips []net.IP) ([]byte, *ecdsa.PrivateKey) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: ips, DNSNames: []string{"localhost"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		return der, key
	}
	writePEM := func(file, typ string, der []byte) string {
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p := &pki{dir: dir, pool: x509.NewCertPool()}
	p.pool.AddCert(ca)
	p.caFile = writePEM("ca.pem", "CERTIFICATE", caDER)
	sDER, sKey := issue(2, "collector", x509.ExtKeyUsageServerAuth, []net.IP{net.IPv4(127, 0, 0, 1)})
	p.server = tls.Certificate{Certificate: [][]byte{sDER}, PrivateKey: sKey}
	cDER, cKey := issue(3, "clrotel", x509.ExtKeyUsageClientAuth, nil)
	p.clientCert = writePEM("client.pem", "CERTIFICATE", cDER)
	keyDER, _ := x509.MarshalPKCS8PrivateKey(cKey)
	p.clientKey = writePEM("client-key.pem", "PRIVATE KEY", keyDER)
	return p
}

// TLS to the collector, mutual TLS, and auth headers, against a TLS
// receiver; plain text is used only when asked for, and a failed handshake
// costs the app nothing.
func TestTLSAndHeaders(t *testing.T) {
	rt := runtimes[0]
	args := []string{"names", "5"}
	plain := runApp(t, rt, "Basic", args, runOpts{})
	ca, other := newPKI(t, "test"), newPKI(t, "other")
	tests := []struct {
		name      string
		tls       *tls.Config // nil: a plain-text receiver
		scheme    string
		env       map[string]string
		wantSpans bool
		headers   map[string]string
		wantLog   string
	}{
		{name: "server TLS, trusted CA", tls: &tls.Config{Certificates: []tls.Certificate{ca.server}}, scheme: "https",
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca.caFile}, wantSpans: true},
		{name: "mutual TLS", scheme: "https",
			tls: &tls.Config{Certificates: []tls.Certificate{ca.server}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.pool},
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca.caFile,
				"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": ca.clientCert, "OTEL_EXPORTER_OTLP_CLIENT_KEY": ca.clientKey},
			wantSpans: true},
		{name: "mutual TLS without a client certificate", scheme: "https",
			tls: &tls.Config{Certificates: []tls.Certificate{ca.server}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.pool},
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca.caFile}},
		{name: "headers for auth", tls: &tls.Config{Certificates: []tls.Certificate{ca.server}}, scheme: "https",
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca.caFile,
				"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20s3cret,x-tenant=acme"},
			wantSpans: true, headers: map[string]string{"authorization": "Bearer s3cret", "x-tenant": "acme"}},
		{name: "untrusted server certificate", tls: &tls.Config{Certificates: []tls.Certificate{ca.server}}, scheme: "https",
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": other.caFile}},
		{name: "https endpoint, plain-text receiver", scheme: "https",
			env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca.caFile}},
		{name: "http endpoint: plain text asked for", scheme: "http", wantSpans: true},
		// The exporter lets OTEL_EXPORTER_OTLP_INSECURE=true override an
		// https endpoint: asked for, so done, but said out loud.
		{name: "https endpoint, insecure asked for", scheme: "https",
			env: map[string]string{"OTEL_EXPORTER_OTLP_INSECURE": "true"}, wantSpans: true, wantLog: "without TLS, in plain text"},
		{name: "http endpoint, TLS receiver", tls: &tls.Config{Certificates: []tls.Certificate{ca.server}}, scheme: "http"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []otlpsink.Option
			if tt.tls != nil {
				opts = append(opts, otlpsink.WithTLS(tt.tls))
			}
			sink, err := otlpsink.Listen("127.0.0.1:0", opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer sink.Close()
			endpoint := sink.Addr()
			if tt.scheme != "" {
				endpoint = tt.scheme + "://" + endpoint
			}
			env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_SERVICE_NAME": "e2e-tls"}
			for k, v := range tt.env {
				env[k] = v
			}
			r := runApp(t, rt, "Basic", args, runOpts{profilerNoSink: true, env: env})
			if r.ExitCode != plain.ExitCode || r.Stdout != plain.Stdout {
				t.Fatalf("exit %d stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
			}
			if limit := plain.Wall + 3*time.Second; r.Wall > limit {
				t.Errorf("run took %v, untraced %v", r.Wall, plain.Wall)
			}
			time.Sleep(200 * time.Millisecond)
			got := len(sink.Spans())
			t.Logf("%d spans received; wall %v", got, r.Wall.Round(time.Millisecond))
			if tt.wantSpans != (got > 0) {
				t.Fatalf("%d spans received, want spans: %v\n%s", got, tt.wantSpans, r.Stderr)
			}
			if !tt.wantSpans && !strings.Contains(r.Stderr, "not exported") {
				t.Errorf("the failed export is not reported:\n%s", r.Stderr)
			}
			if !strings.Contains(r.Stderr, tt.wantLog) {
				t.Errorf("log does not say %q:\n%s", tt.wantLog, r.Stderr)
			}
			for k, want := range tt.headers {
				for _, md := range sink.Headers() {
					if v := md.Get(k); len(v) != 1 || v[0] != want {
						t.Errorf("header %s = %v, want %q", k, v, want)
					}
				}
			}
		})
	}
}

// listeners returns the inodes of the sockets that accept from the network
// in /proc/<pid>/net (TCP and TCP6 in LISTEN state, every bound UDP and
// UDP6 socket) and the process's own socket inodes.
func listeners(t *testing.T, pid int) (listening map[string]bool, own map[string]bool) {
	t.Helper()
	listening, own = map[string]bool{}, map[string]bool{}
	for _, table := range []struct {
		name    string
		listens func(state string) bool
	}{
		{"tcp", func(st string) bool { return st == "0A" }}, // TCP_LISTEN
		{"tcp6", func(st string) bool { return st == "0A" }},
		{"udp", func(string) bool { return true }},
		{"udp6", func(string) bool { return true }},
	} {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table.name))
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			fields := strings.Fields(line)
			if i > 0 && len(fields) > 9 && table.listens(fields[3]) {
				listening[fields[9]] = true
			}
		}
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			own[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	return listening, own
}

// The profiler opens no listening socket inside the traced process: while
// the traced app waits mid-run, having exported spans, none of its TCP/UDP
// sockets listens (the runtime's own diagnostics IPC is a Unix socket,
// left as it is).
func TestNoListeningSocket(t *testing.T) {
	a := startLive(t, runtimes[0], true, nil)
	// burst returns once the phase's spans have arrived; the app then
	// waits for its next command, running until told to quit.
	if al, be := a.burst(1, 100); al+be == 0 {
		t.Fatalf("no span exported: the check would see a profiler that was not working")
	}
	listening, own := listeners(t, a.cmd.Process.Pid)
	n := 0
	for inode := range own {
		n++
		if listening[inode] {
			t.Errorf("socket %s of the traced process is listening", inode)
		}
	}
	t.Logf("%d sockets open in the traced process, none listening; %d spans exported so far", n, a.sink.Count())
	a.quit()
}
