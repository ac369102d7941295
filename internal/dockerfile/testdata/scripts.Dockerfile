# want: line 16: RUN runs scripts/install.sh (/opt/course/scripts/install.sh), which is not copied from the build context before it
# want: line 18: RUN runs ./scripts/plain.sh, but scripts/plain.sh is not executable
# want: line 19: RUN runs docker/missing.sh, but docker/missing.sh does not exist in the build context
# want: line 20: docker/hook-noexec.sh is copied to /usr/local/bin/before-notebook.d/50-hook, where it is run, but is not executable
# want: line 14: COURSE_ROOT=/opt/elsewhere, but the course (COPY . or go.mod) is not copied there
# want: the image does not end with USER set to the notebook user
FROM quay.io/jupyter/base-notebook:2025-08-25
# Go from the official image, through a stage
# defined further up in a real Dockerfile; here
# the image is named directly (the checker
# follows a stage to its image).
COPY --from=golang:1.26.8-bookworm /usr/local/go /usr/local/go
EXPOSE 8888
ENV COURSE_ROOT=/opt/elsewhere
WORKDIR /opt/course
RUN scripts/install.sh
COPY . /opt/course/
RUN ./scripts/plain.sh && /usr/local/bin/start.sh
RUN bash docker/missing.sh
COPY docker/hook-noexec.sh /usr/local/bin/before-notebook.d/50-hook
