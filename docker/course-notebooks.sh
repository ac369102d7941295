#!/usr/bin/env bash
# Copies the course's lesson notebooks into the notebook user's work folder,
# where Jupyter shows them and where a mounted volume keeps the reader's
# changes. A notebook already there is never overwritten: delete it to get
# the original back.
#
# In the Docker image, docker-stacks' start.sh runs this before Jupyter starts
# (it is /usr/local/bin/before-notebook.d/50-course-notebooks), as the
# notebook user or, when the container starts as root, as root: then what it
# creates is given to the notebook user.
#
# Environment:
#   COURSE_ROOT            the course (default /opt/course)
#   COURSE_NOTEBOOKS_DIR   where the copies go (default ~NB_USER/work/attention-in-go)
#   NB_USER, NB_UID, NB_GID  the notebook user (docker-stacks sets them)
set -euo pipefail

course="${COURSE_ROOT:-/opt/course}"
user="${NB_USER:-$(id -un)}"
home=$(getent passwd "$user" | cut -d: -f6 || true)
dest="${COURSE_NOTEBOOKS_DIR:-${home:-$HOME}/work/attention-in-go}"

shopt -s nullglob
notebooks=("$course"/notebooks/*.ipynb)
if [ ${#notebooks[@]} -eq 0 ]; then
  echo "course-notebooks: no notebooks in $course/notebooks" >&2
  exit 0
fi

# Folders and files created here, to hand over to the notebook user.
created=()
d=$dest
while [ ! -e "$d" ]; do created+=("$d"); d=$(dirname "$d"); done
mkdir -p "$dest"
copied=0
for nb in "${notebooks[@]}"; do
  target="$dest/$(basename "$nb")"
  [ -e "$target" ] && continue
  cp "$nb" "$target"
  created+=("$target")
  copied=$((copied + 1))
done
if [ "$(id -u)" -eq 0 ] && [ -n "${NB_UID:-}" ] && [ ${#created[@]} -gt 0 ]; then
  chown "${NB_UID}:${NB_GID:-100}" "${created[@]}"
fi
echo "course-notebooks: $copied new notebook(s) in $dest; the course is in $course"
