# clrotel: a CoreCLR profiler that turns managed calls into OpenTelemetry spans.
#
#   make demo    install what is missing, build, trace the example app, print its traces
#   make test    the whole suite (unit, end to end in the real runtimes, fuzzing, the soak)
#   make build   build/libclrotel.so and build/clrotel
#   make deps    install the .NET runtimes and the C# compiler under .deps/ (idempotent)
#   make backends  build an OpenTelemetry Collector and Jaeger into .deps/backends/

GO      ?= go
BUILD   := build
LIB     := $(BUILD)/libclrotel.so
CLI     := $(BUILD)/clrotel
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
DOTNET  := .deps/dotnet/dotnet
GOSRC   := $(shell find . \( -path ./.deps -o -path ./build -o -path ./tests -o -path ./.git \) -prune -o \( -name '*.go' -o -name '*.c' -o -name '*.h' -o -name '*.S' \) -print 2>/dev/null) go.mod go.sum

export CGO_ENABLED := 1

.PHONY: all build deps backends demo test unit csan e2e vet fuzz soak bench clean

all: build

build: $(LIB) $(CLI)

$(LIB): $(GOSRC)
	@mkdir -p $(BUILD)
	$(GO) build -buildmode=c-shared -trimpath -tags grpcnotrace -ldflags "-s -w -X main.version=$(VERSION) -extldflags=-Wl,-T,$(CURDIR)/profiler/golazy.ld" -o $@ ./profiler
	@rm -f $(BUILD)/libclrotel.h

$(CLI): $(GOSRC)
	@mkdir -p $(BUILD)
	$(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o $@ ./cmd/clrotel

deps:
	./scripts/deps.sh

# A real OpenTelemetry Collector and Jaeger, built once from the Go module
# proxy into .deps/backends/ (minutes the first time) for the path tests.
backends:
	./scripts/backends.sh

# The example app, compiled with mcs and given a runtimeconfig for the
# installed runtime.
SHOP := $(BUILD)/examples/shop/Shop.exe
$(SHOP): examples/shop/Shop.cs | deps
	@mkdir -p $(dir $@)
	mcs -nologo -optimize+ -out:$@ $<
	./scripts/runtimeconfig.sh .deps/dotnet > $(dir $@)/Shop.runtimeconfig.json

demo: deps build $(SHOP)
	$(CLI) run --service shop -- $(DOTNET) $(SHOP)

vet:
	$(GO) vet ./...

# Every package's tests but the end-to-end suite's: a new package is in
# without being listed.
unit:
	$(GO) test $$($(GO) list ./... | grep -v '/tests/e2e$$')

# The C layer's unit tests (value reader, sampler, metadata wrappers) under
# AddressSanitizer, then UndefinedBehaviorSanitizer, with stack protection
# and fortified libc calls.
# Every C test package (profiler/internal/c*): a new one is in without being listed.
CSAN_PKGS := $(patsubst %,./%,$(wildcard profiler/internal/c*/))
CSAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fstack-protector-strong -D_FORTIFY_SOURCE=2
csan:
	CGO_CFLAGS="$(CSAN_CFLAGS)" $(GO) test -count=1 -asan $(CSAN_PKGS)
	CGO_CFLAGS="$(CSAN_CFLAGS) -fsanitize=undefined -fno-sanitize-recover=undefined" CGO_LDFLAGS="-fsanitize=undefined" \
		$(GO) test -count=1 $(CSAN_PKGS)

e2e: deps backends build
	CLROTEL_LIB=$(abspath $(LIB)) $(GO) test -count=1 -timeout 30m ./tests/e2e/

test: deps backends build vet
	CLROTEL_LIB=$(abspath $(LIB)) $(GO) test -count=1 -timeout 60m ./...
	$(MAKE) csan
	$(MAKE) fuzz
	$(MAKE) soak

# Third-party IL programs (mcs.exe, Cecil, dnlib, NRefactory, NUnit 2.6,
# SharpZipLib, ikdasm, ilasm, pythonnet) untraced and traced on every runtime
# (tests/e2e/realprograms_test.go); `make test` runs them too.
.PHONY: realprograms
realprograms: deps build
	CLROTEL_LIB=$(abspath $(LIB)) $(GO) test -count=1 -timeout 20m -run '^TestRealPrograms$$' -v ./tests/e2e/

# Ten minutes of traced steady load: flat RSS, no growing table, every call
# accounted for (tests/e2e/soak_test.go).
soak: deps build
	CLROTEL_SOAK=1 CLROTEL_LIB=$(abspath $(LIB)) $(GO) test -count=1 -timeout 30m -run '^TestSoak$$' -v ./tests/e2e/

# Each fuzz target from its committed seeds (go test runs the seeds alone as
# part of the suite) for a set number of calls of its function, about 10 s
# each on a 2-core machine: the same work however loaded the machine is, and
# no deadline, whose expiry go1.26's coordinator can report as a failure
# ("context deadline exceeded", no input saved: golang/go#75804).
# FUZZTIME=5m or FUZZTIME=1000000x sets one limit for every target.
FUZZTIME ?=
FUZZ_TARGETS := naming:FuzzParseMethodSig:400000x naming:FuzzParseTypeSpec:200000x naming:FuzzMatch:500000x \
	values:FuzzDecode:300000x config:FuzzParseFile:100000x config:FuzzSamplingRule:300000x config:FuzzFromEnv:200000x
fuzz:
	@mkdir -p $(BUILD); set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; t=$${t#*:}; name=$${t%%:*}; limit=$(or $(FUZZTIME),$${t#*:}); \
		echo "fuzz $$pkg:$$name for $$limit"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $$limit ./$$pkg/ >$(BUILD)/fuzz.log 2>&1 || \
		{ cat $(BUILD)/fuzz.log; echo "fuzz $$pkg:$$name failed (the input is saved under ./$$pkg/testdata/fuzz)"; exit 1; }; \
	done

# The overhead benchmark: prints a table of ratios measured in one run and
# keeps the raw numbers in bench/results/. Asserts nothing.
bench: deps build
	$(GO) run ./bench -dotnet .deps/dotnet $(BENCH_FLAGS)

# A differential campaign over N programs from the generator (tests/csgen),
# J at a time: each compiled, run untraced and traced (capture on and off)
# on both runtimes and compared. Failing seeds are kept under
# build/campaign/<seed>/; exits non-zero on any failure. Works under nice.
# CAMPAIGN_FLAGS=-vary varies the profiler's settings per seed.
N ?= 100
J ?= 2
FIRST ?= 1
.PHONY: campaign
campaign: deps build
	$(GO) run ./cmd/csgen-campaign -n $(N) -j $(J) -first $(FIRST) -lib $(abspath $(LIB)) -out $(BUILD)/campaign $(CAMPAIGN_FLAGS)

clean:
	rm -rf $(BUILD)
