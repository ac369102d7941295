#!/usr/bin/env bash
# make test-go: gofmt, go vet, staticcheck, go test ./..., the tests of the
# course's patch of GoMLX's compute module (with and without SIMD), and
# lib/backend and lib/gpt with the vector kernels off.
#
# go test ./... keeps about one of two cores busy: its longest packages,
# the grader's and cmd/course's, wait on sandboxes and Jupyter much of the
# time. So go vet, staticcheck and the compute module's tests run beside
# it, each into its own log, printed after go test's own output; any
# failure fails the target.
set -uo pipefail
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' ':!third_party' 2>/dev/null || find . -name '*.go' -not -path './third_party/*'))
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"
	echo "$unformatted"
	exit 1
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
beside() { # beside KEY TITLE COMMAND...: run COMMAND in the background into $logs/KEY.*
	local key=$1 title=$2
	shift 2
	echo "$title" > "$logs/$key.title"
	( "$@" > "$logs/$key.log" 2>&1; echo $? > "$logs/$key.status" ) &
}
compute_tests() {
	cd third_party/compute && go test ./internal/gobackend/... ./gobackend/... && GOEXPERIMENT= go test ./internal/gobackend/...
}
beside 1-vet "go vet" go vet ./...
beside 2-staticcheck "staticcheck" staticcheck ./...
beside 3-compute "the course's patch of GoMLX's compute module (third_party/compute): its own tests of the Go backend, with and without SIMD" compute_tests

go test ./...
status=$?
wait
for log in "$logs"/*.log; do
	key=$(basename "$log" .log)
	title=$(cat "$logs/$key.title")
	echo "==> $title"
	cat "$log"
	if [ "$(cat "$logs/$key.status")" != 0 ]; then
		echo "FAIL: $title"
		status=1
	fi
done
[ "$status" = 0 ] || exit "$status"

echo "==> lib/backend's kernels built with GOEXPERIMENT=simd; lib/backend and lib/gpt with the vector kernels off, as on a CPU without AVX2"
COURSE_WANT_SIMD=1 go test -count=1 -run MatMulKernels ./lib/backend &&
	GOMLX_SIMD_AVX512=false GOMLX_SIMD_AVX2=false go test -count=1 ./lib/backend ./lib/gpt
