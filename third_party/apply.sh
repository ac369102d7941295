#!/usr/bin/env bash
# Builds third_party/compute from GoMLX's compute release and the course's
# patch series, third_party/patches/*.patch, applied in order.
#
#   third_party/apply.sh                 rewrite third_party/compute from the series
#   third_party/apply.sh --check         fail if third_party/compute differs from the series
#   third_party/apply.sh --upto N DIR    write the release with patches 1..N applied into DIR
#                                        (N = 0: the release itself)
#   third_party/apply.sh --refresh N DIR rewrite patch N as the difference between
#                                        patches 1..N-1 applied and DIR (its header kept)
#   --test (with the first two)          then run compute's own tests of the Go backend,
#                                        with and without GOEXPERIMENT=simd
#
# The release is the module cache's copy of the version go.mod replaces
# (`go mod download` fetches it through the module proxy if it is missing).
# Patches apply with `git apply` (exact context, no fuzz), each in full or
# not at all. To change patch N: `apply.sh --upto N /tmp/n`, edit /tmp/n,
# `apply.sh --refresh N /tmp/n` (which also checks that the later patches
# still apply), then `apply.sh` and commit the patch with third_party/compute.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
patches="$here/patches"
target="$here/compute"
module=github.com/gomlx/compute

die() { echo "apply.sh: $*" >&2; exit 1; }
usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

mode=write test=false upto= dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --check) mode=check ;;
    --test) test=true ;;
    --upto|--refresh)
      mode=${1#--}
      [ $# -ge 3 ] || usage
      upto=$2 dir=$3
      shift 2 ;;
    -h|--help) usage ;;
    *) echo "apply.sh: unknown argument $1" >&2; usage ;;
  esac
  shift
done

command -v go >/dev/null || die "needs the go command"
command -v git >/dev/null || die "needs git (for git apply)"

series=()
while IFS= read -r p; do series+=("$p"); done < <(find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' | sort)
[ ${#series[@]} -gt 0 ] || die "no patches in $patches"
for i in "${!series[@]}"; do
  want=$(printf '%04d' $((i + 1)))
  [ "$(basename "${series[$i]}" | cut -c1-4)" = "$want" ] || die "the series must be numbered 0001, 0002, … without gaps: found $(basename "${series[$i]}") where $want belongs"
done
if [ -n "$upto" ]; then
  lowest=1
  [ "$mode" = upto ] && lowest=0 # --upto 0: the release itself
  [[ "$upto" =~ ^[0-9]+$ ]] && [ "$upto" -ge $lowest ] && [ "$upto" -le ${#series[@]} ] ||
    die "patch number $upto is not between $lowest and ${#series[@]}"
fi

# The release: the version go.mod replaces with third_party/compute.
version=$(awk -v m="$module" '$1 == "replace" && $2 == m && $4 == "=>" { print $3 }' "$root/go.mod")
[ -n "$version" ] || die "go.mod has no line 'replace $module vX.Y.Z => ./third_party/compute'"
release=$(cd "$root" && go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
[ -n "$release" ] && [ -d "$release" ] || die "go mod download $module@$version found no directory (offline, and not in the module cache?)"

work=$(mktemp -d "${TMPDIR:-/tmp}/compute-series.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
if git -C "$work" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  die "the temporary directory $work is inside a git work tree, where git apply would misplace paths: set TMPDIR elsewhere"
fi

# apply TREE N: the release with patches 1..N in TREE.
apply() {
  local tree=$1 n=$2 i
  cp -R "$release" "$tree"
  chmod -R u+w "$tree"
  for ((i = 0; i < n; i++)); do
    (cd "$tree" && git apply --whitespace=nowarn "${series[$i]}") ||
      die "$(basename "${series[$i]}") does not apply to $module $version with the patches before it${hint:-}"
  done
}

run_tests() {
  local tree=$1
  echo "apply.sh: compute's tests of the Go backend, GOEXPERIMENT=simd"
  (cd "$tree" && GOEXPERIMENT=simd go test -count=1 ./internal/gobackend/... ./gobackend/...)
  echo "apply.sh: compute's tests of the Go backend, without GOEXPERIMENT=simd"
  (cd "$tree" && GOEXPERIMENT= go test -count=1 ./internal/gobackend/... ./gobackend/...)
}

case "$mode" in
  write|check)
    apply "$work/patched" ${#series[@]}
    if [ "$mode" = check ]; then
      if ! diff -r -q "$work/patched" "$target" >"$work/diff" 2>&1; then
        sed -e "s|$work/patched|series|g" -e "s|$target|third_party/compute|g" "$work/diff" | head -40 >&2
        die "third_party/compute differs from $module $version + third_party/patches (above). Edit the patches, not the copy: see the top of this script; or, if the copy is right, regenerate the patch it belongs to with --refresh."
      fi
      echo "apply.sh: third_party/compute is $module $version + ${#series[@]} patches, byte for byte"
    else
      rm -rf "$target"
      cp -R "$work/patched" "$target"
      echo "apply.sh: third_party/compute rewritten: $module $version + ${#series[@]} patches"
    fi
    if $test; then run_tests "$target"; fi
    ;;
  upto)
    [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || die "$dir exists and is not empty"
    apply "$work/patched" "$upto"
    rm -rf "$dir"
    cp -R "$work/patched" "$dir"
    if [ "$upto" -eq 0 ]; then
      echo "apply.sh: $dir is $module $version itself"
    else
      echo "apply.sh: $dir is $module $version + patches 1..$upto"
    fi
    ;;
  refresh)
    [ -d "$dir" ] || die "$dir is not a directory"
    file=${series[$((upto - 1))]}
    # The patch's message: author, date, subject (unfolded, without its
    # "[PATCH n/m]") and description, up to format-patch's "---" line.
    author=$(sed -n 's/^From: //p' "$file" | head -1)
    date=$(sed -n 's/^Date: //p' "$file" | head -1)
    awk 'm == 0 && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); s = $0; m = 1; next }
         m == 1 && /^ / { sub(/^ /, ""); s = s " " $0; next }
         m == 1 { print s; print ""; m = 2; next }
         m == 2 && /^---$/ { exit }
         m == 2 { print }' "$file" >"$work/message"
    [ -n "$author" ] && [ -n "$date" ] && [ -s "$work/message" ] && grep -qx -- '---' "$file" ||
      die "$(basename "$file") lacks a git format-patch header (From:, Date:, Subject:, a description ending with ---)"
    # A throwaway repository: the tree before patch N, then DIR's tree.
    apply "$work/repo" $((upto - 1))
    g() { git -C "$work/repo" -c user.name=apply.sh -c user.email=apply.sh@invalid -c core.autocrlf=false "$@"; }
    g init -q
    g add -A
    g commit -q -m base
    find "$work/repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    (cd "$dir" && tar -cf - --exclude=.git .) | (cd "$work/repo" && tar -xf -)
    g add -A
    g diff --cached --quiet && die "$dir is the tree before patch $upto: patch $upto would be empty"
    g commit -q --author="$author" --date="$date" -F "$work/message"
    g format-patch -1 --stdout --zero-commit --no-signature --subject-prefix="PATCH $(printf '%02d/%02d' "$upto" ${#series[@]})" |
      sed "1,/^Subject: /s|^Subject: \[PATCH $(printf '%02d/%02d' "$upto" ${#series[@]}) 1/1\]|Subject: [PATCH $(printf '%02d/%02d' "$upto" ${#series[@]})]|" >"$work/new.patch"
    mv "$work/new.patch" "$file"
    echo "apply.sh: $(basename "$file") rewritten"
    # The later patches must still apply on top of it.
    hint=" (patch $upto was rewritten: carry the change into the later patch with --upto and --refresh on it, or revert patch $upto with git)"
    apply "$work/all" ${#series[@]}
    echo "apply.sh: the whole series still applies; run third_party/apply.sh to rewrite third_party/compute"
    ;;
esac
