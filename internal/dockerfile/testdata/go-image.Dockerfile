# want: line 14: the image installs Go 1.25.3, older than the go 1.26.5 of go.mod
# want: line 15: the golang image's tag "1.26" is not a release such as 1.26.8
# want: line 16: Go is copied from python:3.12, not from the official golang image
# want: line 17: Go is copied to /opt/go
ARG OLD=golang:1.25.3-bookworm
FROM ${OLD} AS old
FROM golang:1.26 AS floating
FROM python:3.12 AS snake
FROM golang:1.26.8 AS go
FROM quay.io/jupyter/base-notebook:2025-08-25
ENV COURSE_ROOT=/opt/course
COPY . /opt/course
RUN /opt/course/scripts/install.sh
COPY --from=old /usr/local/go /usr/local/go
COPY --from=floating /usr/local/go /usr/local/go
COPY --from=snake /usr/local/go /usr/local/go
COPY --from=go /usr/local/go /opt/go
EXPOSE 8888
USER jovyan
