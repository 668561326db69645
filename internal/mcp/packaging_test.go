package mcp

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackaging keeps packaging/mcp true to the server: the MCP bundle's
// manifest (github.com/modelcontextprotocol/mcpb, MANIFEST.md 0.3) lists
// the tools the server has, and runs hookd mcp; server.json (the official
// MCP registry's, schema 2025-12-11) holds what the registry requires of
// an mcpb package.
func TestPackaging(t *testing.T) {
	var manifest struct {
		ManifestVersion string `json:"manifest_version"`
		Name, Version   string
		Description     string
		Author          struct{ Name string }
		Server          struct {
			Type       string
			EntryPoint string `json:"entry_point"`
			MCPConfig  struct {
				Command string
				Args    []string
			} `json:"mcp_config"`
		}
		Tools            []struct{ Name, Description string }
		PromptsGenerated bool `json:"prompts_generated"`
	}
	var server struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Packages    []struct {
			RegistryType string
			Identifier   string
			FileSha256   string
			Transport    struct{ Type string }
		}
	}
	for path, v := range map[string]any{"../../packaging/mcp/manifest.json": &manifest, "../../packaging/mcp/server.json": &server} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		if err := dec.Decode(v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	cs := connect(t, newFixture(t).options())
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var have, listed []string
	for _, tl := range lt.Tools {
		have = append(have, tl.Name)
	}
	for _, tl := range manifest.Tools {
		listed = append(listed, tl.Name)
		if tl.Description == "" {
			t.Errorf("manifest.json: tool %s has no description", tl.Name)
		}
	}
	slices.Sort(have)
	slices.Sort(listed)
	if !slices.Equal(have, listed) {
		t.Errorf("manifest.json lists the tools %q; the server has %q", listed, have)
	}
	lp, err := cs.ListPrompts(context.Background(), nil)
	if err != nil || len(lp.Prompts) == 0 || !manifest.PromptsGenerated {
		t.Errorf("prompts: %v, %v; manifest.json's prompts_generated %v", lp, err, manifest.PromptsGenerated)
	}
	if manifest.ManifestVersion != "0.3" || manifest.Name != "hookd" || manifest.Version != "0.0.0" || manifest.Description == "" || manifest.Author.Name == "" ||
		manifest.Server.Type != "binary" || manifest.Server.EntryPoint != "bin/hookd" ||
		manifest.Server.MCPConfig.Command != "${__dirname}/bin/hookd" || !slices.Equal(manifest.Server.MCPConfig.Args, []string{"mcp"}) {
		t.Errorf("manifest.json: %+v", manifest)
	}
	// The registry's rules: a name with one slash, a description of at
	// most 100 characters, an mcpb package's URL on a GitHub release with
	// "mcp" in it, its SHA-256 (make mcpb fills it and the version in).
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(server.Name) || len(server.Description) > 100 ||
		server.Description != manifest.Description || server.Version != "0.0.0" || !strings.Contains(server.Schema, "server.schema.json") || len(server.Packages) != 2 {
		t.Errorf("server.json: %+v", server)
	}
	for i, p := range server.Packages {
		arch := []string{"amd64", "arm64"}[i]
		if p.RegistryType != "mcpb" || p.Transport.Type != "stdio" || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(p.FileSha256) ||
			p.Identifier != "https://github.com/hookd/hookd/releases/download/v0.0.0/hookd_0.0.0_linux_"+arch+".mcpb" {
			t.Errorf("server.json package %d: %+v", i, p)
		}
	}
}
