package ssrf

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		ip   string
		want Class
	}{
		{"8.8.8.8", Public},
		{"1.1.1.1", Public},
		{"2606:4700:4700::1111", Public},
		{"127.0.0.1", Loopback},
		{"127.255.0.9", Loopback},
		{"::1", Loopback},
		{"10.1.2.3", Private},
		{"172.16.0.1", Private},
		{"172.31.255.255", Private},
		{"172.32.0.1", Public},
		{"192.168.1.1", Private},
		{"100.64.0.1", Private},
		{"169.254.169.254", LinkLocal},
		{"fe80::1", LinkLocal},
		{"fd00::1", Private},
		{"0.0.0.0", Unspecified},
		{"::", Unspecified},
		{"224.0.0.1", Multicast},
		{"ff02::1", Multicast},
		{"::ffff:127.0.0.1", Loopback},
		{"::ffff:169.254.169.254", LinkLocal},
		{"::ffff:8.8.8.8", Public},
		{"64:ff9b::a9fe:a9fe", LinkLocal}, // NAT64 of 169.254.169.254
		{"2002:7f00:1::", Loopback},       // 6to4 of 127.0.0.1
		{"::7f00:1", Loopback},            // IPv4-compatible 127.0.0.1
		{"fe80::1%eth0", LinkLocal},
		{"198.51.100.7", Reserved},
	}
	for _, tt := range tests {
		if got := Classify(netip.MustParseAddr(tt.ip)); got != tt.want {
			t.Errorf("Classify(%s) = %v, want %v", tt.ip, got, tt.want)
		}
	}
}

func TestTransportRefusesLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()

	blocked := &http.Client{Transport: Policy{}.Transport(time.Second)}
	_, err := blocked.Get(srv.URL)
	var be *BlockedError
	if !errors.As(err, &be) || !errors.Is(err, ErrBlocked) || be.Class != Loopback {
		t.Fatalf("default policy: err = %v, want a loopback *BlockedError", err)
	}

	allowed := &http.Client{Transport: Policy{AllowPrivate: true}.Transport(time.Second)}
	resp, err := allowed.Get(srv.URL)
	if err != nil {
		t.Fatalf("AllowPrivate: %v", err)
	}
	resp.Body.Close()
}
