# want: line 16: RUN runs scripts/install.sh (/opt/course/scripts/install.sh), which is not copied from the build context before it
# want: line 18: RUN runs ./scripts/plain.sh, but scripts/plain.sh is not executable
# want: line 19: RUN runs docker/missing.sh, but docker/missing.sh does not exist in the build context
# want: line 20: docker/hook-noexec.sh is copied to /usr/local/bin/before-notebook.d/50-hook, where it is run, but is not executable
# want: line 14: COURSE_ROOT=/opt/elsewhere, but the course (COPY . or go.mod) is not copied there
# want: the image does not end with USER set to the notebook user
FROM quay.io/jupyter/base-notebook:2025-08-25
ARG GO_VERSION=1.26.5
ARG GO_SHA256_AMD64=5c2c3b16caefa1d968a94c1daca04a7ca301a496d9b086e17ad77bb81393f053
RUN case "$(dpkg --print-architecture)" in amd64) sha="$GO_SHA256_AMD64" ;; esac && \
    wget -qO /tmp/go.tgz "https://go.dev/dl/go${GO_VERSION}.linux-amd64.tar.gz" && \
    echo "$sha  /tmp/go.tgz" | sha256sum -c -
EXPOSE 8888
ENV COURSE_ROOT=/opt/elsewhere
WORKDIR /opt/course
RUN scripts/install.sh
COPY . /opt/course/
RUN ./scripts/plain.sh && /usr/local/bin/start.sh
RUN bash docker/missing.sh
COPY docker/hook-noexec.sh /usr/local/bin/before-notebook.d/50-hook
