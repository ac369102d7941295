# syntax=docker/dockerfile:1
# A Dockerfile that follows every rule: the other files in testdata each
# break some, and say which with "# want:" lines.
ARG BASE_IMAGE=quay.io/jupyter/base-notebook:2025-08-25
FROM ${BASE_IMAGE}

ARG GO_VERSION=1.26.5
ARG GO_SHA256=5c2c3b16caefa1d968a94c1daca04a7ca301a496d9b086e17ad77bb81393f053
USER root
RUN wget -qO /tmp/go.tgz "https://go.dev/dl/go${GO_VERSION}.linux-amd64.tar.gz" && \
    # comments inside a continuation are dropped
    echo "${GO_SHA256}  /tmp/go.tgz" | sha256sum -c - && \
    tar -C /usr/local -xzf /tmp/go.tgz

ENV COURSE_ROOT=/opt/course \
    GOPATH="/opt/go"
USER ${NB_UID}
WORKDIR /opt/course
COPY --chown=${NB_UID}:${NB_GID} scripts/ /opt/course/scripts/
RUN bash scripts/install.sh
COPY --chown=${NB_UID}:${NB_GID} . ${COURSE_ROOT}/
RUN ["/opt/course/scripts/install.sh", "--again"]
COPY --chmod=0755 docker/hook.sh /usr/local/bin/before-notebook.d/50-hook
EXPOSE 8888/tcp
CMD ["start-notebook.py"]
