#!/usr/bin/env bash
# Runs the course library's tests against GoMLX compute's own release, not
# the course's patched copy, so that the library's correctness never
# depends on the patch (make test-pristine).
#
#   third_party/test-pristine.sh [go test arguments]   (default: -short ./lib/...)
#
# It writes, in a temporary directory, go.mod without its line
# `replace github.com/gomlx/compute … => ./third_party/compute`, and a
# go.sum with the release's checksums (`go mod download`, from the module
# cache or the module proxy), and runs `go test -modfile=…` with them:
# the same packages and dependencies, compute from the module cache.
# lib/backend then runs a graph's operations one after the other
# (backend.Config), and its test of forced parallel operations is skipped
# (the release's worker pool deadlocks there: third_party/patches/0001).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module=github.com/gomlx/compute

die() { echo "test-pristine.sh: $*" >&2; exit 1; }

cd "$root"
version=$(awk -v m="$module" '$1 == "replace" && $2 == m && $4 == "=>" { print $3 }' go.mod)
[ -n "$version" ] || die "go.mod has no line 'replace $module vX.Y.Z => …': nothing to test against"

dir=$(mktemp -d "${TMPDIR:-/tmp}/course-pristine.XXXXXX")
trap 'rm -rf "$dir"' EXIT
awk -v m="$module" '!($1 == "replace" && $2 == m)' go.mod >"$dir/go.mod"
cp go.sum "$dir/go.sum"
info=$(go mod download -json "$module@$version") || die "go mod download $module@$version failed (offline, and not in the module cache?)"
sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$info")
gomodsum=$(sed -n 's/^[[:space:]]*"GoModSum": "\(.*\)",*$/\1/p' <<<"$info")
[ -n "$sum" ] && [ -n "$gomodsum" ] || die "go mod download gave no checksums for $module@$version"
printf '%s %s %s\n%s %s/go.mod %s\n' "$module" "$version" "$sum" "$module" "$version" "$gomodsum" >>"$dir/go.sum"

src=$(go list -modfile="$dir/go.mod" -m -f '{{.Dir}}' "$module")
case "$src" in
  "$root"/*) die "compute still resolves to $src, inside the course" ;;
esac
echo "test-pristine.sh: the library against $module $version itself ($src)"
[ $# -gt 0 ] || set -- -short ./lib/...
go test -modfile="$dir/go.mod" "$@"
