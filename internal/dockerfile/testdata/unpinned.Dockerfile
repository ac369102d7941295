# want: line 8: base image python has no tag
# want: line 9: base image quay.io/jupyter/base-notebook:latest uses the latest tag
# want: line 12: the Go download's version "${GO_VERSION}" is not pinned
# want: line 12: the Go download is not verified
# want: line 13: the image installs Go 1.25.3, older than the go 1.26.5 of go.mod
# want: line 14: base image ${NOPE} is not resolved by the ARG defaults
ARG TAG=latest
FROM python AS py
FROM quay.io/jupyter/base-notebook:${TAG}
ARG GO_VERSION
ARG OLD=1.25.3
RUN curl -sSL https://go.dev/dl/go${GO_VERSION}.linux-amd64.tar.gz | tar -C /usr/local -xz
RUN wget https://go.dev/dl/go${OLD}.linux-arm64.tar.gz && echo "fe4789e92b1f33358680864bbe8704289e7bb5fc207d80623c308935bd696d49  go${OLD}.linux-arm64.tar.gz" | sha256sum -c -
FROM ${NOPE}
FROM py
ENV COURSE_ROOT=/opt/course
COPY . /opt/course
RUN /opt/course/scripts/install.sh
EXPOSE 8888
USER jovyan
