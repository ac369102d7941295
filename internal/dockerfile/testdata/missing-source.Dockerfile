# want: line 16: COPY source docker/nope.sh does not exist in the build context
# want: line 17: COPY source secret/ is excluded from the build context by the dockerignore pattern "secret"
# want: line 18: COPY source notebooks/x.tmp is excluded from the build context by the dockerignore pattern "**/*.tmp"
# want: line 19: ADD https://example.com/x.tar.gz downloads without a checksum
FROM quay.io/jupyter/base-notebook:2025-08-25
ARG GO_IMAGE=golang:1.26.8
# Go from the official image.
COPY --from=${GO_IMAGE} /usr/local/go /usr/local/go
ENV COURSE_ROOT=/opt/course
WORKDIR /opt/course
COPY . /opt/course
RUN scripts/install.sh
EXPOSE 8888
USER ${NB_UID}
# The problems:
COPY docker/nope.sh /usr/local/bin/nope.sh
COPY secret/ /opt/secret/
COPY notebooks/x.tmp /tmp/
ADD https://example.com/x.tar.gz /tmp/
