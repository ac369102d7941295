// Package docker holds the course's Docker image: Dockerfile, its
// Dockerfile.dockerignore (BuildKit reads the dockerignore file named after
// the Dockerfile, since the build context is the repository root) and
// course-notebooks.sh, the start hook that copies the lesson notebooks into
// the notebook user's work folder.
//
// The Go package has no code; its tests check what can be checked without
// building the image: the Dockerfile follows the course's rules
// (internal/dockerfile), scripts/install.sh works for a fresh user and with
// a Jupyter that is not Debian's, as in the image, and the start hook copies
// the notebooks without overwriting a reader's.
package docker
