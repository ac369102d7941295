#!/usr/bin/env bash
# Connects a GoNB kernel to this course's library.
#
# Every notebook's first cell runs this script (through GoNB's `!*`, in the
# kernel's temporary Go module) with the course folder as its argument. It
# makes a Go workspace of the kernel's module and the course module, so cells
# import github.com/attention-in-go/course/lib/... from this checkout, with
# exactly the dependency versions of the course's go.mod. The cell's
# `%goworkfix` then turns the workspace into replace rules for `go get`.
set -euo pipefail

root="${1:?usage: gonb-setup.sh COURSE_DIR}"
if ! grep -q '^module github.com/attention-in-go/course$' "$root/go.mod" 2>/dev/null; then
  echo "gonb-setup: $root is not the course folder (no go.mod of github.com/attention-in-go/course)" >&2
  exit 1
fi
[ -f go.work ] || go work init
go work use . "$root"
echo "Course library: $root/lib ($(go env GOVERSION), backend: ${GOMLX_BACKEND:-go})"
