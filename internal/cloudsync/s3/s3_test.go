package s3_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/cloudsync/s3"
	"github.com/hookd/hookd/internal/cloudsync/s3test"
)

func client(t *testing.T, srv *s3test.Server, bucket, secret string) *s3.Client {
	t.Helper()
	c, err := s3.New(s3.Config{Endpoint: srv.Endpoint, Bucket: bucket, PathStyle: true,
		Creds: s3.Credentials{AccessKey: s3test.AccessKey, SecretKey: secret}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAgainstRealStore runs every operation against versitygw: the
// signature, conditional creation, listing with start-after and a
// delimiter, and the errors sync tells apart.
func TestAgainstRealStore(t *testing.T) {
	srv := s3test.Start(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c := client(t, srv, srv.Bucket("bucket1"), s3test.SecretKey)
	if err := c.CheckBucket(ctx); err != nil {
		t.Fatalf("CheckBucket: %v", err)
	}
	keys := []string{"p/h/aa/000000000001-000000000001", "p/h/aa/000000000002-000000000002", "p/h/bb/000000000001-000000000001", "p/odd name+=&?ü"}
	for _, k := range keys {
		if err := c.Put(ctx, k, []byte("v:"+k), true); err != nil {
			t.Fatalf("Put(%q): %v", k, err)
		}
	}
	if err := c.Put(ctx, keys[0], []byte("other"), true); !errors.Is(err, s3.ErrExists) {
		t.Errorf("second conditional Put = %v; want ErrExists", err)
	}
	for _, k := range keys {
		b, err := c.Get(ctx, k, 1<<20)
		if err != nil || string(b) != "v:"+k {
			t.Errorf("Get(%q) = %q, %v; want the first content", k, b, err)
		}
	}
	if _, err := c.Get(ctx, "p/none", 1<<20); !errors.Is(err, s3.ErrNotFound) {
		t.Errorf("Get(missing) = %v; want ErrNotFound", err)
	}
	l, err := c.List(ctx, "p/h/", "", "/")
	if err != nil || !reflect.DeepEqual(l.Prefixes, []string{"p/h/aa/", "p/h/bb/"}) || len(l.Objects) != 0 {
		t.Errorf("List with delimiter = %+v, %v", l, err)
	}
	l, err = c.List(ctx, "p/h/aa/", "p/h/aa/000000000001-~", "")
	if err != nil || len(l.Objects) != 1 || l.Objects[0].Key != keys[1] {
		t.Errorf("List after the first = %+v, %v; want only %s", l, err, keys[1])
	}
	if err := c.Delete(ctx, keys[0]); err != nil {
		t.Errorf("Delete: %v", err)
	}
	if _, err := c.Get(ctx, keys[0], 1<<20); !errors.Is(err, s3.ErrNotFound) {
		t.Errorf("Get after Delete = %v; want ErrNotFound", err)
	}

	if err := client(t, srv, "bucket1", "wrong-secret").CheckBucket(ctx); !errors.Is(err, s3.ErrAuth) {
		t.Errorf("wrong secret: %v; want ErrAuth", err)
	}
	if err := client(t, srv, "nosuchbucket", s3test.SecretKey).CheckBucket(ctx); !errors.Is(err, s3.ErrNoBucket) {
		t.Errorf("missing bucket: %v; want ErrNoBucket", err)
	}
	srv.Stop()
	if err := c.CheckBucket(ctx); !errors.Is(err, s3.ErrUnreachable) {
		t.Errorf("server stopped: %v; want ErrUnreachable", err)
	}
}

// TestListPages lists more keys than one page holds.
func TestListPages(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	c := client(t, srv, srv.Bucket("bucket2"), s3test.SecretKey)
	const n = 1100
	for i := 0; i < n; i++ {
		os.WriteFile(filepath.Join(srv.Root, "bucket2", "k"+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))), []byte("x"), 0o600)
	}
	l, err := c.List(ctx, "", "", "")
	if err != nil || len(l.Objects) != n {
		t.Fatalf("List = %d objects, %v; want %d", len(l.Objects), err, n)
	}
}

func TestResolve(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".aws"), 0o700)
	os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[default]\naws_access_key_id = AK1\naws_secret_access_key = SK1\n[work]\naws_access_key_id=AK2\naws_secret_access_key=SK2\naws_session_token=TOK\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".aws", "config"), []byte("[default]\nregion = eu-west-1\n[profile work]\nregion = us-west-2\n[profile cfgonly]\naws_access_key_id = AK3\naws_secret_access_key = SK3\n"), 0o600)
	env := func(kv ...string) s3.Env {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return s3.Env{Getenv: func(k string) string { return m[k] }, Home: home}
	}
	tests := []struct {
		env          s3.Env
		ak, tok, rgn string
		wantErr      bool
	}{
		{env(), "AK1", "", "eu-west-1", false},
		{env("AWS_PROFILE", "work"), "AK2", "TOK", "us-west-2", false},
		{env("AWS_PROFILE", "cfgonly"), "AK3", "", "", false},
		{env("AWS_ACCESS_KEY_ID", "E", "AWS_SECRET_ACCESS_KEY", "S", "AWS_REGION", "ap-south-1"), "E", "", "ap-south-1", false},
		{env("AWS_ACCESS_KEY_ID", "E"), "", "", "", true},
		{env("AWS_PROFILE", "none"), "", "", "", true},
	}
	for i, tt := range tests {
		c, rgn, err := s3.Resolve(tt.env)
		if (err != nil) != tt.wantErr || c.AccessKey != tt.ak || c.SessionToken != tt.tok || (!tt.wantErr && rgn != tt.rgn) {
			t.Errorf("%d: Resolve = %+v, %q, %v; want %s/%s/%s err %v", i, c, rgn, err, tt.ak, tt.tok, tt.rgn, tt.wantErr)
		}
	}
}
