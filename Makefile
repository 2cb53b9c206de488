# healthetl — build, test, demo and benchmark entry points.
# `make demo` and `make test` install the Debian packages they need when they are missing.

SWIFT       ?= swift
# libcurl4-openssl-dev: the release build links Foundation's networking statically, and that links libcurl.
APT_PACKAGES = libsqlite3-dev libxml2-dev libzstd-dev zlib1g-dev libjemalloc-dev libisal-dev libssl-dev \
               libcurl4-openssl-dev pkg-config postgresql
# Only the tests need these: the report is rendered in a real browser.
TEST_APT_PACKAGES = chromium
STRICT       = -Xswiftc -warnings-as-errors
# Release builds (install, bench) link the Swift runtime and Foundation into the binary: calls into
# the runtime (retain, release, …) are direct rather than through the dynamic linker's tables, and
# nothing is looked up at start. An import of the bench export is about 4 % faster, a command starts in
# 9 ms rather than 13. (The system's C libraries stay shared.)
RELEASE      = -c release --static-swift-stdlib
DEMO_STORE  ?= $(CURDIR)/.demo-store
BIN          = .build/debug/healthetl
# The public real exports the RealExportTests suites read ($HEALTHETL_REAL_EXPORTS overrides, as in the tests).
REAL_EXPORTS ?= $(or $(HEALTHETL_REAL_EXPORTS),../shared/real-exports)
REAL_EXPORTS_SKIP = $(if $(wildcard $(REAL_EXPORTS)/.),,--skip RealExportTests)
# The shared reference documents the SharedDocsTests suites read ($HEALTHETL_SHARED_DOCS overrides).
SHARED_DOCS ?= $(or $(HEALTHETL_SHARED_DOCS),../shared/docs)
SHARED_SKIP = $(REAL_EXPORTS_SKIP) $(if $(wildcard $(SHARED_DOCS)/.),,--skip SharedDocsTests)

# `make install`: where the release build goes (DESTDIR stages it for a package).
PREFIX      ?= /usr/local
SYSTEMD_USER_DIR ?= $(PREFIX)/lib/systemd/user
FORMATTED    = Package.swift Sources Plugins Tests Benchmarks Fuzz
# `make fuzz`: minutes each libFuzzer target runs.
FUZZ_MINUTES ?= 10

.PHONY: deps test-deps build install docs test lint api-fuzz fuzz demo demo-postgres bench bench-report format clean

## deps: install the missing system libraries (apt), as root or through sudo
deps:
	@./scripts/apt-install-missing.sh $(APT_PACKAGES)

## test-deps: what only the tests need (Debian's chromium, for the report's browser test); the
##            Python tools install themselves into .build/test-venv on first use (Tests/tools/test-venv.sh)
test-deps:
	@./scripts/apt-install-missing.sh $(TEST_APT_PACKAGES)

## build: compile everything, warnings as errors
build: deps
	$(SWIFT) build $(STRICT)

## install: a release build, installed as $(DESTDIR)$(PREFIX)/libexec/healthetl/ (the binary beside the
##          catalog and sample resources it reads) with $(PREFIX)/bin/healthetl linking to it, and the
##          systemd user units of systemd/ in $(DESTDIR)$(SYSTEMD_USER_DIR), their ExecStart on that binary
install: deps
	$(SWIFT) build $(RELEASE) $(STRICT) --product healthetl
	install -d -m 0755 "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/libexec/healthetl" "$(DESTDIR)$(SYSTEMD_USER_DIR)"
	install -m 0755 .build/release/healthetl "$(DESTDIR)$(PREFIX)/libexec/healthetl/healthetl"
	for bundle in .build/release/*.resources; do \
		rm -rf "$(DESTDIR)$(PREFIX)/libexec/healthetl/$$(basename "$$bundle")" && \
		cp -R "$$bundle" "$(DESTDIR)$(PREFIX)/libexec/healthetl/" && \
		chmod -R u=rwX,go=rX "$(DESTDIR)$(PREFIX)/libexec/healthetl/$$(basename "$$bundle")" || exit 1; \
	done
	ln -sf ../libexec/healthetl/healthetl "$(DESTDIR)$(PREFIX)/bin/healthetl"
	for unit in systemd/*.service systemd/*.timer; do \
		sed 's|/usr/local/bin/healthetl|$(PREFIX)/bin/healthetl|' "$$unit" > "$(DESTDIR)$(SYSTEMD_USER_DIR)/$$(basename "$$unit")" && \
		chmod 0644 "$(DESTDIR)$(SYSTEMD_USER_DIR)/$$(basename "$$unit")" || exit 1; \
	done
	@echo "Installed $(PREFIX)/bin/healthetl and the systemd user units in $(SYSTEMD_USER_DIR);"
	@echo "enable one with: systemctl --user enable --now healthetl-upload.timer (Docs/operations.md)"

## docs: regenerate Docs/commands.md from the command line's own help (`make test` fails while it is stale)
docs: build
	$(SWIFT) build --build-tests $(STRICT)
	HEALTHETL_UPDATE_DOCS=1 $(SWIFT) test --skip-build --filter DocsTruthTests.commandReferenceIsTheCommandLinesOwnHelp

## test: lint, build, then run every test (unit, store, end-to-end against the built binary), then the API fuzz run,
##       then every libFuzzer target for 30 s (built first, in .build-fuzz; fails on any crash).
##       Without ../shared beside the clone the suites that read it (RealExportTests, SharedDocsTests)
##       are skipped, said in one line; generated fixtures and the bundled source lists cover the same paths.
##       The end-to-end suites run the built binary and wait on it synchronously, which holds
##       Swift's cooperative threads; they run in a second pass, so the in-process collectors of
##       the first pass always have threads to answer on.
test: lint build test-deps
	@$(if $(strip $(SHARED_SKIP)),echo "Skipping the tests that read ../shared ($(strip $(SHARED_SKIP))): not found beside the clone (CI has it); ExportQuirksFixture and the bundled source lists cover the same paths.")
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build --skip HealthETLEndToEndTests $(SHARED_SKIP)
	$(SWIFT) test --skip-build --filter HealthETLEndToEndTests $(SHARED_SKIP)
	HEALTHETL_BIN=$(BIN) ./Tests/api-fuzz/run.sh
	API_FUZZ_POSTGRES=1 HEALTHETL_BIN=$(BIN) ./Tests/api-fuzz/run.sh
	./Fuzz/build.sh
	FUZZ_SECONDS=30 ./Fuzz/run.sh

## api-fuzz: bounded schemathesis run of Docs/openapi.yaml against the built collector, on SQLite and on a throwaway
##           PostgreSQL cluster (fails on a 5xx or a schema mismatch)
api-fuzz: build
	HEALTHETL_BIN=$(BIN) ./Tests/api-fuzz/run.sh
	API_FUZZ_POSTGRES=1 HEALTHETL_BIN=$(BIN) ./Tests/api-fuzz/run.sh

## fuzz: every parser of untrusted bytes under libFuzzer with AddressSanitizer, FUZZ_MINUTES (default 10) per target:
##       built in .build-fuzz (Fuzz/build.sh), run from the seeds in Fuzz/<target>/corpus (Fuzz/run.sh); fails on
##       any crash, keeping the input in .build-fuzz/artifacts/<target>/ (Docs/fuzzing.md)
fuzz: deps
	./Fuzz/build.sh
	FUZZ_SECONDS=$$(( $(FUZZ_MINUTES) * 60 )) ./Fuzz/run.sh

## demo: the main job — import the bundled sample exports (Apple Health, Health Connect) into a throwaway store in .demo-store,
##       then ship it to a throwaway local collector, print a week of daily rollups, and write
##       the HTML report to .demo-store/report.html
demo: build
	@rm -rf "$(DEMO_STORE)"
	$(BIN) --store "$(DEMO_STORE)" import SampleExports/apple-health-sample.zip
	@echo
	$(BIN) --store "$(DEMO_STORE)" import "SampleExports/health-connect/Health Connect.zip"
	@echo
	$(BIN) --store "$(DEMO_STORE)" status
	@echo
	@echo "Store files (private to you):"
	@ls -la "$(DEMO_STORE)"
	@echo
	./scripts/demo-upload.sh $(BIN) "$(DEMO_STORE)"
	@echo
	$(BIN) --store "$(DEMO_STORE)" report --out "$(DEMO_STORE)/report.html"

## demo-postgres: the demo with the collector on PostgreSQL: a throwaway cluster (initdb into a temporary
##                 directory), stopped and removed at the end
demo-postgres: build
	@rm -rf "$(DEMO_STORE)"
	$(BIN) --store "$(DEMO_STORE)" import SampleExports/apple-health-sample.zip
	@echo
	./scripts/demo-postgres.sh $(BIN) "$(DEMO_STORE)"

## bench: release-build benchmarks, each writing its figures and target verdicts into .build/bench-json; then
##        Benchmarks/verdict.py prints ok / MISSED / FAILED per bench, and a missed target or a failed bench
##        makes `make bench` exit non-zero (every bench still runs). The build includes healthetl-ingest-bench.
BENCH_SCRIPTS = run.sh import-bench.sh ingest-bench.sh feed-bench.sh upload-bench.sh health-connect-bench.sh \
                health-auto-export-bench.sh fit-bench.sh postgres-bench.sh export-bench.sh mcp-bench.sh
BENCH_NAMES   = components import ingest feed upload health-connect health-auto-export fit postgres export mcp
bench: deps
	$(SWIFT) build $(RELEASE) $(STRICT)
	@rm -rf .build/bench-json && mkdir -p .build/bench-json
	@failed=0; for script in $(BENCH_SCRIPTS); do \
		BENCH_JSON_DIR=$(CURDIR)/.build/bench-json ./Benchmarks/$$script || failed=1; \
	done; \
	echo; echo "bench verdicts (each bench's targets: Benchmarks/*.sh; figures in one place: Docs/bench-report.md):"; \
	./Benchmarks/verdict.py .build/bench-json $(BENCH_NAMES) && [ $$failed = 0 ]

## bench-report: the same release build, then every benchmark (the scale bench, linear to 4 GB, too) with its
##               figures, into bench-report.md and bench-report.json at the repository root: the machine, the
##               versions, every figure and target verdict, the peers beside healthetl (Benchmarks/bench-report.sh;
##               BENCH_REPORT=prefix writes them elsewhere). A failed bench, or one that missed a target, is in the
##               report's summary as FAILED or MISSED (never "ok") and fails the target; BENCH_RENDER=1 renders
##               the report again from its JSON without running anything.
bench-report: deps
	$(SWIFT) build $(RELEASE) $(STRICT)
	./Benchmarks/bench-report.sh

## lint: the committed .swift-format, strictly: any finding fails; and the targets' layering
##       (scripts/check-targets.py: every import declared, only HealthETLSQLite on SQLite's C API,
##       plugins on the plugin API, no server code under HealthETLRuntime)
lint:
	$(SWIFT) format lint --strict --parallel --recursive $(FORMATTED)
	./scripts/check-targets.py

## format: rewrite the same sources with the committed .swift-format
format:
	$(SWIFT) format --in-place --parallel --recursive $(FORMATTED)

clean:
	rm -rf .build .build-fuzz "$(DEMO_STORE)"
