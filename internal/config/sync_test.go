package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSyncSection(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.yaml")
	os.WriteFile(p, []byte("sync:\n  url: s3://bucket/pre\n  endpoint: http://127.0.0.1:9000\n  path_style: false\n  outputs: all\n  interval: 30s\n"), 0o600)
	c, w := Load(p, dir)
	if len(w) != 0 || c.Sync.URL != "s3://bucket/pre" || c.Sync.Endpoint != "http://127.0.0.1:9000" || c.Sync.PathStyle == nil || *c.Sync.PathStyle ||
		c.Sync.Outputs != SyncOutputsAll || time.Duration(c.Sync.Interval) != 30*time.Second || c.Sync.OutputLimit != DefaultSyncOutputLimit {
		t.Errorf("Load = %+v, %v", c.Sync, w)
	}
	os.WriteFile(p, []byte("sync:\n  url: https://bucket\n  outputs: some\n"), 0o600)
	c, w = Load(p, dir)
	if len(w) != 2 || !strings.Contains(w[0].String(), "s3://BUCKET") || c.Sync.URL != "" || c.Sync.Outputs != SyncOutputsSmall {
		t.Errorf("bad values: %+v, %v", c.Sync, w)
	}
}
