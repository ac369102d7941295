# want: line 13: RUN installs Jupyter with a package manager ("pip install --no-cache-dir notebook
# want: line 14: RUN installs GoNB or its tools with go install/get
# want: line 14: RUN registers the GoNB kernel itself
# want: line 15: RUN installs Jupyter with apt
# want: line 16: RUN installs GoNB or its tools with go install/get ("go install golang.org/x/tools/gopls")
# want: no RUN runs scripts/install.sh
# want: Go does not come from the official golang image
# want: no EXPOSE 8888
# want: line 17: the image ends as USER root, not the notebook user
# want: no ENV COURSE_ROOT
FROM quay.io/jupyter/base-notebook:2025-08-25@sha256:e9222d8476431543c605f1f203654ef8f89f573cb169c2065e6b1aff8bbfa5b9
COPY . /home/jovyan/course
RUN pip install --no-cache-dir notebook nbconvert
RUN go install github.com/janpfeifer/gonb@v0.11.5 && gonb --install
RUN apt-get update && apt-get install -y jupyter-notebook
RUN go install golang.org/x/tools/gopls@v0.20.0
USER root
