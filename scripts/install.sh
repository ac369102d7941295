#!/usr/bin/env bash
# Installs what the course needs, idempotently: Jupyter, the Go modules, the
# GoNB kernel with goimports and gopls, and a warm Go build cache. Safe to run
# again: every step checks first and skips what is already there. After one
# successful run the course works offline.
#
# Used by `make setup` (and so by `make course`, `make test` and CI) and by the
# Docker image (docker/Dockerfile): there is one install path. It works both
# on Debian with Jupyter from apt and in a Jupyter docker-stacks image, where
# Jupyter comes from conda and the script runs as the unprivileged notebook
# user: it uses the Jupyter it finds and only calls apt-get for what is
# missing.
#
# Usage: scripts/install.sh [--browser] [--grader] [--arm64]
#   --browser           also install Chromium (Debian's `chromium`), which the
#                       browser test of `make test` drives; learners do not
#                       need it. Same as COURSE_BROWSER=1.
#   --grader            also install bubblewrap (Debian's `bubblewrap`), the
#                       sandbox `course grade` runs learners' code in, and
#                       check that it can create namespaces here; instructors
#                       and `make test` need it. Same as COURSE_GRADER=1.
#   --arm64             also install qemu-user (Debian's `qemu-user`), which
#                       runs the library's tests built for linux/arm64 on
#                       another CPU (`make test-arm64`, part of `make test`).
#                       Same as COURSE_ARM64=1.
#
# Environment:
#   COURSE_SKIP_APT=1   never call apt-get (report what is missing instead)
#   COURSE_SKIP_WARM=1  skip warming the build cache
#   JUPYTER_DATA_DIR    where the kernel spec goes (default: the data folder of
#                       the Jupyter found, `jupyter --data-dir`)
set -euo pipefail

browser=${COURSE_BROWSER:-0}
grader=${COURSE_GRADER:-0}
arm64=${COURSE_ARM64:-0}
for arg in "$@"; do
  case $arg in
    --browser) browser=1 ;;
    --grader) grader=1 ;;
    --arm64) arm64=1 ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) printf 'install.sh: unknown argument %s (try --help)\n' "$arg" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
root=$(pwd)
steps=6
[ "$browser" = 1 ] && steps=$((steps + 1))
[ "$grader" = 1 ] && steps=$((steps + 1))
[ "$arm64" = 1 ] && steps=$((steps + 1))
step=0
say() { step=$((step + 1)); printf '\n==> [%d/%d] %s\n' "$step" "$steps" "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
die() { printf '\nsetup failed: %s\n' "$*" >&2; exit 1; }
elapsed() { local s=$SECONDS; printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# can_apt reports whether apt-get may be used: allowed, present, and root or
# password-less sudo. It sets $sudo to the prefix to run apt-get with.
sudo=""
can_apt() {
  [ "${COURSE_SKIP_APT:-}" != 1 ] && command -v apt-get >/dev/null || return 1
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo -n"; sudo -n true 2>/dev/null; fi
}
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then $sudo apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

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
# find_exe prints the first executable file called $1 on the PATH. (Bash's
# command -v and type -P settle for a file that is not executable.)
find_exe() {
  local d IFS=:
  for d in $PATH; do
    if [ -f "${d:-.}/$1" ] && [ -x "${d:-.}/$1" ]; then printf '%s\n' "${d:-.}/$1"; return 0; fi
  done
  return 1
}
# find_jupyter sets $jupyter and $py. The jupyter command is Debian's
# /usr/bin/jupyter if present (as for `make course` and `course run`), else
# the one on the PATH (conda in the Docker image, a venv, pip --user). Its
# Python is the interpreter of its #! line: that is the one that must import
# the notebook packages, whatever python3 comes first on the PATH.
find_jupyter() {
  jupyter=/usr/bin/jupyter
  [ -f "$jupyter" ] && [ -x "$jupyter" ] || jupyter=$(find_exe jupyter || true)
  py=""
  [ -n "$jupyter" ] || return 1
  local line
  IFS= read -r line <"$jupyter" || true
  case $line in
    '#!'*) set -- ${line#'#!'}
           if [ "${1##*/}" = env ]; then shift; [ "${1:-}" = -S ] && shift; py=$(find_exe "${1:-}" || true); else py=${1:-}; fi ;;
  esac
  if [ -z "$py" ]; then  # not a script: a python3 next to it, or on the PATH
    py="$(dirname "$jupyter")/python3"
    [ -x "$py" ] || py=$(find_exe python3 || true)
  fi
  [ -n "$py" ] && [ -x "$py" ]
}
have_jupyter() {
  find_jupyter && "$py" -c 'import notebook, nbconvert, nbclient, nbformat' 2>/dev/null
}
if have_jupyter; then
  ok "$jupyter ($("$py" -c 'import notebook, nbconvert; print("notebook", notebook.__version__, "nbconvert", nbconvert.__version__)'), Python $py)"
else
  pkgs="jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client"
  why="no jupyter command found"
  [ -z "$jupyter" ] || why="$jupyter is there, but its Python ${py:-(unknown)} cannot import notebook, nbconvert, nbclient and nbformat"
  if can_apt; then
    echo "    $why; installing Debian packages: $pkgs (this takes a few minutes the first time)"
    apt_install $pkgs
    have_jupyter || die "apt-get installed $pkgs but Jupyter still does not work: ${jupyter:-no jupyter command} (Python ${py:-unknown})."
    ok "installed $pkgs: $jupyter"
  else
    die "Jupyter is missing ($why) and cannot be installed from here (no apt-get, or no root/sudo, or COURSE_SKIP_APT=1).
Install it yourself, then run this again:
  Debian/Ubuntu:  sudo apt-get install $pkgs
  elsewhere:      python3 -m pip install --user notebook nbconvert nbclient"
  fi
fi

# 3. Go modules -----------------------------------------------------------------
say "Go modules (course and tools)"
go mod download
(cd tools && go mod download)
(cd third_party/compute && go mod download) # the patched GoMLX compute module's own tests (make test)
ok "modules are in $(go env GOMODCACHE)"

# 4. GoNB, goimports, gopls -----------------------------------------------------
say "GoNB kernel, goimports, gopls and staticcheck (pinned in tools/go.mod; the first build takes about a minute)"
(cd tools && go install tool)
for t in gonb goimports gopls staticcheck; do
  [ -x "$gobin/$t" ] || die "$t was not installed into $gobin"
done
ok "$("$gobin/gonb" -V 2>/dev/null | head -n 1), $("$gobin/gopls" version 2>/dev/null | head -n 1)"

# 5. Register the kernel ----------------------------------------------------------
say "Register the Go (gonb) kernel with Jupyter"
# gonb --install writes to $JUPYTER_DATA_DIR or ~/.local/share/jupyter; ask
# the Jupyter found where it looks instead (it honours XDG_DATA_HOME too).
data_dir=${JUPYTER_DATA_DIR:-$("$jupyter" --data-dir)}
JUPYTER_DATA_DIR=$data_dir "$gobin/gonb" --install >/dev/null 2>&1 || JUPYTER_DATA_DIR=$data_dir "$gobin/gonb" --install
kernel_json="$data_dir/kernels/gonb/kernel.json"
[ -f "$kernel_json" ] || die "gonb --install did not write $kernel_json"
# (Not piped into grep -q: with pipefail, jupyter's broken pipe would fail.)
specs=$("$jupyter" kernelspec list 2>/dev/null || true)
grep -q '^ *gonb ' <<<"$specs" ||
  die "gonb --install wrote $kernel_json, but $jupyter kernelspec list does not show the gonb kernel"
ok "kernel spec in $kernel_json"

# 6. Warm the build cache ---------------------------------------------------------
say "Warm the Go build cache for the course library (minutes the first time, seconds after)"
if [ "${COURSE_SKIP_WARM:-}" = 1 ]; then
  ok "skipped (COURSE_SKIP_WARM=1)"
else
  # The course builds with GoMLX's vector kernels (GOEXPERIMENT=simd: the
  # Makefile, the notebooks' setup cell and the grader set it), and a plain
  # build is what `go test` gives without it: both sets of cache entries.
  GOEXPERIMENT=simd go build ./lib/...
  GOEXPERIMENT=simd go vet ./lib/... >/dev/null  # also caches the export data gopls and GoNB use
  GOEXPERIMENT= go build ./lib/...
  ok "lib/ compiled (with GOEXPERIMENT=simd, and without)"
fi

# 7. Chromium, for the browser test (--browser) ---------------------------------
if [ "$browser" = 1 ]; then
  say "Chromium for the browser test (make test-browser)"
  if [ -x /usr/bin/chromium ]; then
    ok "$(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
  elif can_apt; then
    echo "    installing Debian's chromium (a few minutes the first time)"
    apt_install --no-install-recommends chromium
    [ -x /usr/bin/chromium ] || die "apt-get installed chromium but /usr/bin/chromium is missing."
    ok "installed $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
  else
    die "Chromium is missing and cannot be installed from here (no apt-get, or no root/sudo, or COURSE_SKIP_APT=1).
The browser test needs Debian's chromium at /usr/bin/chromium: sudo apt-get install chromium"
  fi
fi

# 8. bubblewrap, the grader's sandbox (--grader) ---------------------------------
if [ "$grader" = 1 ]; then
  say "bubblewrap, the sandbox of the grader (course grade)"
  if ! command -v bwrap >/dev/null; then
    if can_apt; then
      apt_install --no-install-recommends bubblewrap
    else
      die "bubblewrap is missing and cannot be installed from here (no apt-get, or no root/sudo, or COURSE_SKIP_APT=1).
The grader runs learners' code in it: sudo apt-get install bubblewrap"
    fi
  fi
  # The same namespaces the grader asks for, on a harmless command.
  if out=$(bwrap --unshare-all --unshare-user --uid 65534 --gid 65534 --die-with-parent --ro-bind / / true 2>&1); then
    ok "$(bwrap --version) can create user, PID, network and mount namespaces"
  else
    echo "    warning: bwrap is installed but cannot create namespaces here: $out"
    echo "    course grade will stop and say what to enable (user namespaces; in a container, an unconfined seccomp profile),"
    echo "    or grade without a sandbox with -unsandboxed."
  fi
fi

# 9. qemu-user, to run arm64 test binaries (--arm64) ------------------------------
if [ "$arm64" = 1 ]; then
  say "qemu-user, to run the library's tests built for linux/arm64 (make test-arm64)"
  if ! command -v qemu-aarch64 >/dev/null; then
    if can_apt; then
      apt_install --no-install-recommends qemu-user
      command -v qemu-aarch64 >/dev/null || die "apt-get installed qemu-user but qemu-aarch64 is missing."
    else
      die "qemu-user is missing and cannot be installed from here (no apt-get, or no root/sudo, or COURSE_SKIP_APT=1).
make test-arm64 runs arm64 test binaries with it: sudo apt-get install qemu-user"
    fi
  fi
  ok "$(qemu-aarch64 --version | head -n 1)"
fi

printf '\nsetup done in %s. Start the course with: make course\n' "$(elapsed)"
case ":$user_path:" in
  *":$gobin:"*) ;;
  *) echo "Note: $gobin is not on your PATH. \`make course\` adds it; if you start Jupyter yourself, first run: export PATH=\"$gobin:\$PATH\"" ;;
esac
