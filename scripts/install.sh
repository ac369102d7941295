#!/usr/bin/env bash
# Installs what the course needs, idempotently: Jupyter, the Go modules, the
# GoNB kernel with goimports and gopls, and a warm Go build cache. Safe to run
# again: every step checks first and skips what is already there. After one
# successful run the course works offline.
#
# Used by `make setup` (and so by `make course`, `make test` and CI) and by the
# Docker image: there is one install path.
#
# Environment:
#   COURSE_SKIP_APT=1   never call apt-get (report what is missing instead)
#   COURSE_SKIP_WARM=1  skip warming the build cache
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
steps=6
step=0
say() { step=$((step + 1)); printf '\n==> [%d/%d] %s\n' "$step" "$steps" "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
die() { printf '\nsetup failed: %s\n' "$*" >&2; exit 1; }
elapsed() { local s=$SECONDS; printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# 1. Go -----------------------------------------------------------------------
say "Go toolchain"
command -v go >/dev/null || die "Go is not installed. Install Go 1.26 (1.26.5 or later) from https://go.dev/dl/ and run this again."
gov=$(go env GOVERSION)                       # e.g. go1.26.8
minor=$(echo "$gov" | sed -E 's/^go1\.([0-9]+).*/\1/')
patch=$(echo "$gov" | sed -nE 's/^go1\.[0-9]+\.([0-9]+).*/\1/p')
if [ "${minor:-0}" -lt 26 ] || { [ "$minor" -eq 26 ] && [ "${patch:-0}" -lt 5 ]; }; then
  die "found $gov; the course needs Go 1.26.5 or later (GoMLX v0.28.8 requires it)."
fi
gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
user_path=$PATH
export PATH="$gobin:$PATH"
ok "$gov, tools go to $gobin"

# 2. Jupyter ------------------------------------------------------------------
say "Jupyter Notebook and nbconvert"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
have_jupyter() {
  [ -n "$py" ] && "$py" -c 'import notebook, nbconvert, nbclient, nbformat' 2>/dev/null &&
    { [ -x /usr/bin/jupyter ] || command -v jupyter >/dev/null; }
}
if have_jupyter; then
  ok "$("$py" -c 'import notebook, nbconvert; print("notebook", notebook.__version__, "nbconvert", nbconvert.__version__)')"
else
  pkgs="jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  if [ "${COURSE_SKIP_APT:-}" != 1 ] && command -v apt-get >/dev/null &&
     { [ -z "$sudo" ] || sudo -n true 2>/dev/null; }; then
    echo "    installing Debian packages: $pkgs (this takes a few minutes the first time)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkgs >/dev/null
    have_jupyter || die "apt-get installed $pkgs but Jupyter still cannot be imported by $py."
    ok "installed $pkgs"
  else
    die "Jupyter is missing and cannot be installed from here (no apt-get, or no root/sudo).
Install it yourself, then run this again:
  Debian/Ubuntu:  sudo apt-get install $pkgs
  elsewhere:      python3 -m pip install --user notebook nbconvert nbclient"
  fi
fi

# 3. Go modules -----------------------------------------------------------------
say "Go modules (course and tools)"
go mod download
(cd tools && go mod download)
ok "modules are in $(go env GOMODCACHE)"

# 4. GoNB, goimports, gopls -----------------------------------------------------
say "GoNB kernel, goimports and gopls (pinned in tools/go.mod; the first build takes about a minute)"
(cd tools && go install tool)
for t in gonb goimports gopls; do
  [ -x "$gobin/$t" ] || die "$t was not installed into $gobin"
done
ok "$("$gobin/gonb" -V 2>/dev/null | head -n 1), $("$gobin/gopls" version 2>/dev/null | head -n 1)"

# 5. Register the kernel ----------------------------------------------------------
say "Register the Go (gonb) kernel with Jupyter"
"$gobin/gonb" --install >/dev/null 2>&1 || "$gobin/gonb" --install
kernel_json="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}/kernels/gonb/kernel.json"
[ -f "$kernel_json" ] || die "gonb --install did not write $kernel_json"
ok "kernel spec in $kernel_json"

# 6. Warm the build cache ---------------------------------------------------------
say "Warm the Go build cache for the course library (minutes the first time, seconds after)"
if [ "${COURSE_SKIP_WARM:-}" = 1 ]; then
  ok "skipped (COURSE_SKIP_WARM=1)"
else
  go build ./lib/...
  go vet ./lib/... >/dev/null  # also caches the export data gopls and GoNB use
  ok "lib/ compiled"
fi

printf '\nsetup done in %s. Start the course with: make course\n' "$(elapsed)"
case ":$user_path:" in
  *":$gobin:"*) ;;
  *) echo "Note: $gobin is not on your PATH. \`make course\` adds it; if you start Jupyter yourself, first run: export PATH=\"$gobin:\$PATH\"" ;;
esac
