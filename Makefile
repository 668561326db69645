# make release: hookd for linux/amd64 and linux/arm64, statically linked
# (cgo, SQLite with FTS5 inside), in tar.gz archives, .deb and .rpm
# packages, and SHA256SUMS, all in dist/. The same commit gives the same
# bytes: -trimpath, no build id, and every date is the commit's
# (SOURCE_DATE_EPOCH). docs/install.md says what it needs (Go, gcc,
# Debian's gcc-aarch64-linux-gnu and libc6-dev-arm64-cross).

GO      ?= go
DIST    := dist
ARCHES  ?= amd64 arm64
# nfpm is a build tool, run from the module proxy at a pinned version:
# it is not one of hookd's dependencies (go.mod).
NFPM    ?= $(GO) run github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2

COMMIT  := $(shell git rev-parse HEAD)$(if $(shell git status --porcelain --untracked-files=no),-dirty)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct)
export SOURCE_DATE_EPOCH
DATE    := $(shell date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ)
# A v1.2.3 tag on the commit gives 1.2.3; otherwise 0.1.0-dev.<commit>.
VERSION ?= $(or $(patsubst v%,%,$(shell git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null)),0.1.0-dev.$(shell git rev-parse --short=12 HEAD))

# The licence. The repository has none yet: choosing one is the owner's
# decision. Adding the file LICENSE at the top of the tree and its SPDX id
# here (LICENSE_SPDX = MIT, say) is all it takes: the archives then carry
# LICENSE, the .deb installs it as /usr/share/doc/hookd/copyright (Debian's
# name; a .deb has no licence field), the .rpm as its %license file
# /usr/share/licenses/hookd/LICENSE with this id in its License tag.
# Without LICENSE, make release warns that they carry no licence; one
# without the other is an error.
LICENSE_SPDX =

CC_amd64 ?= gcc
CC_arm64 ?= aarch64-linux-gnu-gcc
# osusergo, netgo: Go's own user and DNS lookups, so that the static
# binary never calls glibc's NSS (getpwnam, getaddrinfo), which a static
# glibc cannot load. sqlite_omit_load_extension: no dlopen either.
TAGS    := sqlite_fts5 sqlite_omit_load_extension osusergo netgo
LDFLAGS := -s -w -buildid= -linkmode=external -extldflags=-static \
	-X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildDate=$(DATE)

.PHONY: release binaries packages clean-dist license-check
release: license-check clean-dist binaries packages

# make packages: the archives, .deb, .rpm and SHA256SUMS from the binaries
# already in dist/ (make release builds them first).
packages: license-check
	@set -e; stage=$(DIST)/stage; rm -rf $$stage; mkdir -p $$stage; \
	if [ -f LICENSE ]; then \
	  sed -e 's/^  #LICENSE /  /' -e 's|^license: .*|license: "$(LICENSE_SPDX)"|' packaging/nfpm.yaml >$$stage/nfpm.yaml; \
	else cp packaging/nfpm.yaml $$stage/nfpm.yaml; fi; \
	$(DIST)/hookd_linux_amd64/hookd __man >$$stage/hookd.1; \
	touch -d @$(SOURCE_DATE_EPOCH) $$stage/hookd.1; gzip -9 -n -c $$stage/hookd.1 >$$stage/hookd.1.gz; \
	for arch in $(ARCHES); do \
	  name=hookd_$(VERSION)_linux_$$arch; dir=$$stage/$$name; \
	  mkdir -p $$dir/completions; \
	  cp $(DIST)/hookd_linux_$$arch/hookd $$dir/hookd; \
	  cp README.md $$stage/hookd.1 $$dir/; cp scripts/completions/* $$dir/completions/; \
	  if [ -f LICENSE ]; then cp LICENSE $$dir/; fi; \
	  rm -f $$dir/completions/README.md; \
	  chmod -R u=rwX,go=rX $$dir; chmod 0755 $$dir/hookd; \
	  tar --sort=name --mtime=@$(SOURCE_DATE_EPOCH) --owner=0 --group=0 --numeric-owner \
	    -C $$stage -cf - $$name | gzip -9 -n >$(DIST)/$$name.tar.gz; \
	  cp $(DIST)/hookd_linux_$$arch/hookd $$stage/hookd; \
	  for fmt in deb rpm; do \
	    ARCH=$$arch VERSION=$(VERSION) $(NFPM) package --config $$stage/nfpm.yaml --packager $$fmt --target $(DIST)/ >/dev/null; \
	  done; \
	done; \
	rm -rf $$stage; \
	cd $(DIST) && sha256sum *.tar.gz *.deb *.rpm >SHA256SUMS && cat SHA256SUMS

# Before anything is built: LICENSE and LICENSE_SPDX go together; neither
# is a warning (the packages carry no licence), one alone an error.
license-check:
	@if [ -f LICENSE ] && [ -z "$(LICENSE_SPDX)" ]; then \
	  echo "make release: LICENSE exists, but the Makefile's LICENSE_SPDX (its SPDX id) is empty" >&2; exit 1; \
	elif [ ! -f LICENSE ] && [ -n "$(LICENSE_SPDX)" ]; then \
	  echo "make release: LICENSE_SPDX is $(LICENSE_SPDX), but there is no LICENSE file" >&2; exit 1; \
	elif [ ! -f LICENSE ]; then \
	  echo "warning: no LICENSE file: the archives, .deb and .rpm carry no licence (docs/install.md, \"The licence\")" >&2; \
	fi

binaries: $(addprefix $(DIST)/hookd_linux_,$(addsuffix /hookd,$(ARCHES)))

$(DIST)/hookd_linux_%/hookd: FORCE
	CGO_ENABLED=1 GOOS=linux GOARCH=$* CC=$(CC_$*) \
	  $(GO) build -trimpath -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $@ ./cmd/hookd

# make mcpb: an MCP bundle for each architecture (.mcpb, the format of
# github.com/modelcontextprotocol/mcpb: a zip of packaging/mcp/manifest.json
# and bin/hookd, which runs hookd mcp), and dist/server.json for the
# official MCP registry, whose packages point at the bundles on the
# release's page, with their SHA-256 (docs/coding-agents.md).
.PHONY: mcpb
mcpb: binaries
	@set -e; for arch in $(ARCHES); do \
	  name=hookd_$(VERSION)_linux_$$arch; dir=$(DIST)/mcpb/$$name; \
	  rm -rf $$dir; mkdir -p $$dir/bin; \
	  sed 's/"version": "0.0.0"/"version": "$(VERSION)"/' packaging/mcp/manifest.json >$$dir/manifest.json; \
	  cp $(DIST)/hookd_linux_$$arch/hookd $$dir/bin/hookd; chmod 0755 $$dir/bin/hookd; \
	  find $$dir -exec touch -d @$(SOURCE_DATE_EPOCH) {} +; \
	  rm -f $(DIST)/$$name.mcpb; (cd $$dir && zip -X -q -r ../../$$name.mcpb manifest.json bin); \
	done; \
	sed 's/0\.0\.0/$(VERSION)/g' packaging/mcp/server.json >$(DIST)/server.json; \
	for arch in $(ARCHES); do \
	  sum=$$(sha256sum $(DIST)/hookd_$(VERSION)_linux_$$arch.mcpb | cut -d' ' -f1); \
	  sed -i "/linux_$$arch.mcpb/,/fileSha256/ s/0\{64\}/$$sum/" $(DIST)/server.json; \
	done; \
	rm -rf $(DIST)/mcpb; cat $(DIST)/server.json

clean-dist:
	rm -rf $(DIST)

.PHONY: FORCE
FORCE:
