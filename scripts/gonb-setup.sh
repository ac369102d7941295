#!/usr/bin/env bash
set -e
ROOT="$1"
go work init 2>/dev/null || true
go work use . "$ROOT"
echo "course: using $ROOT"
