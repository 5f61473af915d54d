// Package ssrf keeps outbound HTTP away from addresses a caller must not
// reach through sezzlee: loopback, private, link-local (cloud metadata
// included), carrier-grade NAT, multicast and the other special-purpose
// ranges, and IPv6 forms that embed them.
//
// The check runs on the resolved IP at dial time, through the dialer's
// Control hook, so the address vetted is the address connected to: a DNS
// answer that changes between a check and the dial (rebinding) cannot slip
// through.
package ssrf

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// Class is the category of an IP address.
type Class int

// The address classes. Only Public is allowed by default.
const (
	Public Class = iota
	Loopback
	Private
	LinkLocal
	Unspecified
	Multicast
	Reserved
)

var classNames = [...]string{"public", "loopback", "private", "link-local", "unspecified", "multicast", "reserved"}

// String returns the class name, such as "loopback".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "unknown"
}

// special lists the non-public prefixes and their classes.
var special = []struct {
	prefix netip.Prefix
	class  Class
}{
	{netip.MustParsePrefix("0.0.0.0/8"), Unspecified},
	{netip.MustParsePrefix("10.0.0.0/8"), Private},
	{netip.MustParsePrefix("100.64.0.0/10"), Private}, // carrier-grade NAT
	{netip.MustParsePrefix("127.0.0.0/8"), Loopback},
	{netip.MustParsePrefix("169.254.0.0/16"), LinkLocal}, // cloud metadata lives here
	{netip.MustParsePrefix("172.16.0.0/12"), Private},
	{netip.MustParsePrefix("192.0.0.0/24"), Reserved},
	{netip.MustParsePrefix("192.0.2.0/24"), Reserved},
	{netip.MustParsePrefix("192.88.99.0/24"), Reserved},
	{netip.MustParsePrefix("192.168.0.0/16"), Private},
	{netip.MustParsePrefix("198.18.0.0/15"), Reserved},
	{netip.MustParsePrefix("198.51.100.0/24"), Reserved},
	{netip.MustParsePrefix("203.0.113.0/24"), Reserved},
	{netip.MustParsePrefix("224.0.0.0/4"), Multicast},
	{netip.MustParsePrefix("240.0.0.0/4"), Reserved},
	{netip.MustParsePrefix("::/128"), Unspecified},
	{netip.MustParsePrefix("::1/128"), Loopback},
	{netip.MustParsePrefix("64:ff9b:1::/48"), Reserved},
	{netip.MustParsePrefix("100::/64"), Reserved},
	{netip.MustParsePrefix("2001::/23"), Reserved},
	{netip.MustParsePrefix("2001:db8::/32"), Reserved},
	{netip.MustParsePrefix("fc00::/7"), Private},
	{netip.MustParsePrefix("fe80::/10"), LinkLocal},
	{netip.MustParsePrefix("fec0::/10"), Private}, // deprecated site-local
	{netip.MustParsePrefix("ff00::/8"), Multicast},
}

// Classify returns the class of ip. IPv4-mapped (::ffff:a.b.c.d),
// NAT64 (64:ff9b::/96), 6to4 (2002::/16) and IPv4-compatible addresses are
// classified by the IPv4 address they embed.
func Classify(ip netip.Addr) Class {
	ip = ip.WithZone("")
	if v4, ok := embeddedV4(ip); ok {
		ip = v4
	}
	for _, s := range special {
		if s.prefix.Contains(ip) {
			return s.class
		}
	}
	return Public
}

var (
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
	sixTo = netip.MustParsePrefix("2002::/16")
	v4cmp = netip.MustParsePrefix("::/96")
)

func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	if ip.Is4() {
		return ip, true
	}
	if ip.Is4In6() {
		return ip.Unmap(), true
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixTo.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	case v4cmp.Contains(ip) && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	}
	return ip, false
}

// BlockedError reports a connection refused because of its address class.
type BlockedError struct {
	Addr  netip.Addr
	Class Class
}

// Error says which address was refused and why.
func (e *BlockedError) Error() string {
	return fmt.Sprintf("ssrf: address %s is %s and not allowed", e.Addr, e.Class)
}

// ErrBlocked matches every *BlockedError with errors.Is.
var ErrBlocked = errors.New("ssrf: address not allowed")

// Is makes errors.Is(err, ErrBlocked) true.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// Policy decides which address classes may be dialled. The zero Policy
// allows only Public addresses.
type Policy struct {
	// AllowPrivate allows every class (an operator's explicit choice, for
	// a backend on the same host or network).
	AllowPrivate bool
}

// Check returns a *BlockedError when the policy refuses ip.
func (p Policy) Check(ip netip.Addr) error {
	if p.AllowPrivate {
		return nil
	}
	if c := Classify(ip); c != Public {
		return &BlockedError{Addr: ip.WithZone(""), Class: c}
	}
	return nil
}

// Control is a net.Dialer Control function that enforces the policy on the
// address actually being dialled.
func (p Policy) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("ssrf: unparsable dial address %q", address)
	}
	return p.Check(ap.Addr())
}

// Dialer returns a dialer that enforces the policy.
func (p Policy) Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: p.Control}
}

// Transport returns an http.Transport that enforces the policy, takes no
// proxy from the environment, and bounds connection set-up.
func (p Policy) Transport(connectTimeout time.Duration) *http.Transport {
	d := p.Dialer(connectTimeout)
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
	}
}

// CheckHost resolves host and refuses it when any of its addresses is
// refused by the policy; useful to fail early with a clear message before a
// request is built. The dial-time check stays authoritative.
func (p Policy) CheckHost(ctx context.Context, host string) error {
	if p.AllowPrivate {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.Check(ip)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if err := p.Check(a); err != nil {
			return err
		}
	}
	return nil
}
