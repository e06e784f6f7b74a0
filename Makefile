# starlab: `make run` runs the main job on built-in defaults, `make test` runs the tests.
GO ?= go
BIN := bin/starlab
# The commit, for run manifests when Go's own VCS stamping is off.
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
LDFLAGS := -X starlab/runs.commit=$(COMMIT)

.PHONY: build run test test-integration test-slurm test-short bench lint fuzz pgo clean

# go build uses cmd/starlab/default.pgo (profile-guided optimisation) by
# itself; make pgo regenerates it from the search and match benchmarks.
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/starlab

# The main job: the default recipe end to end (train a net, collect and fit
# ChanceProbCut for it, the matches, the report), about a minute here.
# Run again after a kill, it finishes the same run.
run: build
	./$(BIN) run

# The race detector runs where the concurrency lives: the stages' packages
# (workers, pools, journals) and the outside engines' (their processes), and of the command's own
# tests those that cancel a stage while its workers run (Ctrl-C, a kill).
# The rest of the command's tests run once without it: they drive the same
# stages in one process, ten to thirty times slower under the detector. So
# does td's training of a backgammon features net (the features and the
# bear-off databases' build are ten times slower there too; the Dice tests
# give the detector the same workers).
# TEST_TIMEOUT bounds each package's tests: ten times the slowest
# package's 55 s (selfplay under the race detector) on a 2-core machine
# with an empty build cache.
TEST_TIMEOUT ?= 10m
RACE_CMD_TESTS := ^(TestMatchCtrlCReachesSearch|TestMatchKilledAndResumed|TestBenchCanceled|TestOutsideKilledAndResumed)$$

test:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) test -race -timeout $(TEST_TIMEOUT) -count=1 ./outside/... ./selfplay/... ./runs/... ./td/... ./regression/...
	$(GO) test -race -timeout $(TEST_TIMEOUT) -count=1 -run '$(RACE_CMD_TESTS)' ./cmd/starlab
	$(GO) test -timeout $(TEST_TIMEOUT) -count=1 ./cmd/... ./search/... ./nn/... ./cli/...
	$(GO) test -timeout $(TEST_TIMEOUT) -count=1 -run '^TestBackgammonFeatures$$' ./td
	@echo "make test: passed; the report's browser test and the Kubernetes manifests' tests are in make test-integration"

# The checks whose dependencies take long to build (chromedp for the report
# page in headless Chromium; the Kubernetes API types for the manifests,
# and the shard pods' own scripts run to a merged run; gnubg, Debian's,
# remaking backgammon's fixtures and playing matches; python3 running the
# protocol's Python example): test files with the build tag
# integration. Without Chromium on PATH the browser test fails
# here, unless STARLAB_SKIP_CHROMIUM is set, when it skips and says so.
test-integration:
	$(GO) vet -tags integration ./cmd/... ./runs/...
	$(GO) test -tags integration -count=1 -run 'TestReport$$|TestKubernetes|TestOutside(Gnubg|Python)|TestGnubgLuck|TestExportOpensInGnubg|TestAnalyzeGnubgJudge|TestAnalyzeAgreesWithGnubgHint|TestRollout' ./cmd/starlab ./runs/report
	$(GO) test -tags integration -count=1 -run 'TestFixturesRemade' ./search/backgammon

# The Slurm self-test (as root): a one-node cluster on this machine, with
# slurm-wlm and munge installed from Debian when missing; the example
# match of docs/scaling-out.md (fewer games) and a 4-shard collect go through
# deploy/slurm/submit.sh, and their merged runs are compared with unsharded
# ones.
test-slurm:
	bash deploy/slurm/localcluster.sh start
	STARLAB_SLURM=1 $(GO) test -count=1 -run '^TestSlurm$$' -v ./cmd/starlab

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzParseDPN -fuzztime=60s ./search/dice/

pgo:
	cd search/engine/dice && $(GO) test -run='^$$' -bench='Search|StarETC13' -benchtime=3x -cpuprofile=/tmp/starlab-pgo-search.prof . >/dev/null
	cd selfplay && $(GO) test -run='TestStrongerWins|TestRunMatchInterrupted|TestEnginesFromOne' -count=3 -cpuprofile=/tmp/starlab-pgo-selfplay.prof . >/dev/null
	$(GO) tool pprof -proto /tmp/starlab-pgo-search.prof /tmp/starlab-pgo-selfplay.prof > cmd/starlab/default.pgo

lint:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

clean:
	rm -rf bin
