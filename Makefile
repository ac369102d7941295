# Attention, in Go — the course's commands. `make help` lists them.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# Every build of the course uses Go's simd experiment, without which GoMLX's
# compute module leaves out its AVX2/AVX-512 matrix kernels (the notebooks'
# setup cell and the grader set it too: internal/lesson.GoExperiment).
export GOEXPERIMENT := simd
# Go's asynchronous preemption restores a goroutine's vector registers and
# leaves their upper halves "dirty"; on Intel CPUs every later switch between
# SSE and AVX instructions (math.Exp makes a dozen per call) then costs
# about 150 ns: math.Exp goes from 6 ns to over 600 ns, lesson 11's
# attentions in Go ten times slower. Course programs run without it (the
# notebooks' setup cell sets it too: internal/lesson.GoDebug).
export GODEBUG := asyncpreemptoff=1
GOBIN := $(or $(shell go env GOBIN 2>/dev/null),$(shell go env GOPATH 2>/dev/null)/bin)
export PATH := $(GOBIN):$(PATH)
JUPYTER := $(or $(wildcard /usr/bin/jupyter),jupyter)
HOST ?= 127.0.0.1
PORT ?= 8888
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# How many notebooks test-notebooks, test-exercises, test-headless and test-kernels run at
# once: a cell's build is mostly one core's work, so two at a time nearly
# halve the notebooks that mostly build. A notebook run beside others whose
# only failures are claims a run alone might satisfy (a timing too close to
# the text's to vouch for it) runs again alone (course run -j).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The kernel classes make bench measures (course bench -kernels): all, others,
# or a list such as AVX2,plain.
KERNELS ?= all
# Flags of scripts/install.sh: the targets that drive a browser add --browser
# (Chromium), which learners do not need.
SETUP_FLAGS ?=

.PHONY: help setup course notebooks check-notebooks test test-go test-pristine test-arm64 test-notebooks test-exercises test-headless test-kernels test-browser grade site bench mutation fmt clean docker-check

help: ## List the targets
	@echo "Attention, in Go — make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'
	@echo
	@echo "Start with: make course    (installs what is missing, then opens Jupyter)"

setup: ## Install what is missing: Jupyter, GoNB kernel, goimports, gopls, staticcheck, Go modules, warm build cache
	@bash scripts/install.sh $(SETUP_FLAGS)

course: setup ## Set up, then start Jupyter Notebook on the course at http://127.0.0.1:8888 (HOST, PORT to change)
	@echo
	@echo "==> Starting Jupyter Notebook on http://$(HOST):$(PORT)/tree/notebooks (Ctrl-C twice to stop)."
	@echo "    Open notebooks/01-scaled-dot-product-attention.ipynb first; the URL with its token follows."
	@$(JUPYTER) notebook --ip=$(HOST) --port=$(PORT) --no-browser $(ALLOW_ROOT) \
		--NotebookApp.default_url=/tree/notebooks

notebooks: ## Build notebooks/, exercises/ and solutions/ from lessons/ and lessons/exercises/
	@go run ./cmd/course build

check-notebooks: ## Fail if a committed notebook differs from what lessons/ builds
	@go run ./cmd/course build -check

test: SETUP_FLAGS += --browser --grader --arm64
test: setup test-go test-pristine test-arm64 check-notebooks test-headless test-kernels test-browser ## Everything CI checks: setup, vet, unit/golden tests (also built for arm64), notebooks up to date, notebooks run headless (under every kernel class the CPU can emulate) and in a browser
	@echo
	@echo "make test: all checks passed.  [$$(date +%T)]"

test-go: ## gofmt, go vet, staticcheck, go test ./... (unit, example and golden-image tests), and lib/ under every kernel class this CPU can emulate
	@echo
	@echo "==> gofmt, go vet, staticcheck, go test ./...  [$$(date +%T)]"
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' ':!third_party' 2>/dev/null || find . -name '*.go' -not -path './third_party/*')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	@go vet ./...
	@staticcheck ./...
	@go test ./...
	@echo "==> GoMLX's compute module as the course patches it: third_party/compute is the release plus third_party/patches, byte for byte; its own tests of the Go backend, with and without SIMD  [$$(date +%T)]"
	@bash third_party/apply.sh --check --test
	@echo "==> lib/backend's kernel choice, built with GOEXPERIMENT=simd; lib/ under the other kernel classes this CPU can emulate  [$$(date +%T)]"
	@COURSE_WANT_SIMD=1 go test -count=1 -run 'MatMulKernels|Classes' ./lib/backend
	@go run ./cmd/course kernels -others go test -count=1 -short ./lib/...

test-pristine: ## lib/'s short tests against GoMLX compute's own release, without go.mod's replace of it by third_party/compute: the library must not depend on the patch for correctness
	@echo
	@echo "==> lib/'s short tests against GoMLX compute's release, not third_party/compute  [$$(date +%T)]"
	@# The exercises' mutation tests try 1 seed, not 40 (each wrong answer is still graded as the
	@# check cell grades it, visible and hidden cases, first): test-go grades the same wrong answers, and the
	@# patch changes no result; here what matters is that the release gives them too.
	@COURSE_MUTATION_SEEDS=1 bash third_party/test-pristine.sh -short ./lib/...

test-arm64: SETUP_FLAGS += --arm64
test-arm64: setup ## Cross-build and vet for darwin/arm64 (Apple Silicon) and linux/arm64; run lib/'s short tests built for linux/arm64 under qemu-user
	@echo
	@echo "==> go vet for darwin/arm64 and linux/arm64; lib/'s short tests for linux/arm64 under qemu-aarch64  [$$(date +%T)]"
	@for os in darwin linux; do echo "    $$os/arm64: go vet ./..."; GOOS=$$os GOARCH=arm64 CGO_ENABLED=0 go vet ./... || exit 1; done
	@# Under emulation the exercises' mutation tests try 1 seed, not 40 (each wrong answer is still graded
	@# as the check cell grades it, visible and hidden cases, first): they grade the same wrong answers
	@# on amd64 in test-go; here what matters is arm64's arithmetic.
	@COURSE_MUTATION_SEEDS=1 COURSE_TEST_EXEC=qemu-aarch64 GOARCH=arm64 CGO_ENABLED=0 go test -short -timeout 5m -exec qemu-aarch64 ./lib/...

test-notebooks: ## Run every notebook headless through the GoNB kernel and fail on any error
	@echo
	@echo "==> Running the notebooks headless through Jupyter and GoNB  [$$(date +%T)]"
	@go run ./cmd/course run -j $(JOBS)

test-headless: ## What test-notebooks and test-exercises run, in one batch (make test's: the short solution and exercise notebooks fill the cores as the long lessons finish)
	@echo
	@echo "==> Running the lesson, solution and exercise notebooks headless through Jupyter and GoNB  [$$(date +%T)]"
	@go run ./cmd/course run -j $(JOBS) notebooks/*.ipynb solutions/*.ipynb exercises/*.ipynb

test-kernels: ## Run the lessons and the solutions again under every other kernel class this CPU can emulate: their figures must hold on every CPU
	@echo
	@echo "==> The lessons and the solutions under the other kernel classes this CPU can emulate  [$$(date +%T)]"
	@go run ./cmd/course run -kernels others -j $(JOBS) -timeout 30m notebooks/*.ipynb solutions/*.ipynb

test-exercises: ## Run solutions/ (full marks) and exercises/ (stubs: 0, no crash) headless through GoNB
	@echo
	@echo "==> Running the solution and exercise notebooks headless  [$$(date +%T)]"
	@go run ./cmd/course run -j $(JOBS) solutions/*.ipynb exercises/*.ipynb

grade: SETUP_FLAGS += --grader
grade: setup ## Grade a class in the sandbox: make grade SUBMISSIONS=DIR (report, gradebook, feedback and LMS exports in DIR/graded)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=DIR [GRADE_FLAGS='-learner NAME …']  (a folder of returned exercise notebooks; see README, Grading a class)"; exit 2; }
	@go run ./cmd/course grade $(GRADE_FLAGS) "$(SUBMISSIONS)"

test-browser: SETUP_FLAGS += --browser
test-browser: setup ## Run lesson 1 and the widget notebooks in Jupyter in headless Chromium; screenshots in build/browser/
	@echo
	@echo "==> Running notebooks in Jupyter Notebook in headless Chromium (screenshots in build/browser/)  [$$(date +%T)]"
	@COURSE_BROWSER_TEST=1 go test -count=1 -timeout 5m -v -run '^TestNotebooksInBrowser$$' ./internal/browser

site: setup ## Build the static HTML edition in build/site/: every notebook executed, with its figures
	@echo
	@echo "==> Building the static HTML edition in build/site/"
	@go run ./cmd/course site

bench: ## Benchmarks of the library under every kernel class this CPU can run or emulate: one table, the classes side by side (time, GFLOP/s, share of the class's peak)
	@go run ./cmd/course bench -kernels $(KERNELS)

mutation: ## Grade every known wrong answer of every exercise on 1,000 seeds' hidden cases (make test tries 40): each must score below full marks on at least 99.9 % of them; prints the rates (about 6 min)
	@COURSE_MUTATION_SEEDS=1000 go test -count=1 -v ./lib/check | grep -E '^(ok|FAIL|---)|mutation |full marks on'

fmt: ## gofmt the Go code
	@gofmt -w $$(git ls-files '*.go' ':!third_party')

clean: ## Remove build artefacts
	@rm -rf build .cache

docker-check: ## (needs a Docker engine) Build the image and run lesson 1 headless inside it
	@command -v docker >/dev/null && docker info >/dev/null 2>&1 || { echo "make docker-check needs a running Docker engine (docker info fails here)"; exit 2; }
	docker build -f docker/Dockerfile -t attention-in-go:check .
	docker run --rm attention-in-go:check bash -lc 'cd /opt/course && go run ./cmd/course run notebooks/01-scaled-dot-product-attention.ipynb'
