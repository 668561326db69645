package config

import "testing"

// TestS3URLSplit: the one check of sync.url's form, and the bucket and
// prefix sync uses.
func TestS3URLSplit(t *testing.T) {
	for _, c := range []struct {
		url, bucket, prefix string
		ok                  bool
	}{
		{"s3://b", "b", "", true},
		{"s3://b/", "b", "", true},
		{"s3://b/p/q/", "b", "p/q/", true},
		{"s3://b/p", "b", "p/", true},
		{"https://b/p", "", "", false},
		{"s3:///p", "", "", false},
		{"s3://b/p?x=1", "", "", false},
		{"s3://b/p#f", "", "", false},
	} {
		b, p, err := S3URL(c.url).Split()
		if (err == nil) != c.ok || b != c.bucket || p != c.prefix {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, ok %v", c.url, b, p, err, c.bucket, c.prefix, c.ok)
		}
	}
}
