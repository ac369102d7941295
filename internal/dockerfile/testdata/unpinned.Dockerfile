# want: line 8: base image python has no tag
# want: line 9: base image quay.io/jupyter/base-notebook:latest uses the latest tag
# want: line 12: the RUN downloads the Go tarball
# want: line 13: ARG GO_SHA256 is a checksum typed into the Dockerfile
# want: line 14: base image ${NOPE} is not resolved by the ARG defaults
# want: Go does not come from the official golang image
ARG TAG=latest
FROM python AS py
FROM quay.io/jupyter/base-notebook:${TAG}
ARG GO_VERSION
ARG OLD=1.25.3
RUN curl -sSL https://go.dev/dl/go${GO_VERSION}.linux-amd64.tar.gz | tar -C /usr/local -xz
ARG GO_SHA256=fe4789e92b1f33358680864bbe8704289e7bb5fc207d80623c308935bd696d49
FROM ${NOPE}
FROM py
ENV COURSE_ROOT=/opt/course
COPY . /opt/course
RUN /opt/course/scripts/install.sh
EXPOSE 8888
USER jovyan
