# syntax=docker/dockerfile:1
# A Dockerfile that follows every rule: the other files in testdata each
# break some, and say which with "# want:" lines.
ARG GO_IMAGE=golang:1.26.8-bookworm
ARG BASE_IMAGE=quay.io/jupyter/base-notebook:2025-08-25
FROM ${GO_IMAGE} AS go
FROM ${BASE_IMAGE}

USER root
COPY --from=go /usr/local/go /usr/local/go
RUN apt-get update && \
    # comments inside a continuation are dropped
    apt-get install -y --no-install-recommends bubblewrap

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
