package procserve

import "testing"

func TestCheckUpstream(t *testing.T) {
	tests := []struct {
		upstream string
		ok       bool
	}{
		{"http://127.0.0.1:8081", true},
		{"http://127.1.2.3", true},
		{"http://localhost:9000", true},
		{"https://127.0.0.1:8081", false},
		{"http://10.0.0.1", false},
		{"http://example.com", false},
		{"", false},
	}
	for _, tt := range tests {
		if err := CheckUpstream(tt.upstream); (err == nil) != tt.ok {
			t.Errorf("CheckUpstream(%q) = %v, want ok %v", tt.upstream, err, tt.ok)
		}
	}
}
