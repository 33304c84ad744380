# A village image: the fuseforks image plus one bake, for the Kubernetes init container (and compose, if you prefer
# an image to a bind mount). The bake is design only — no sessions, no keys, no door token.
#
#   fuseforks-cli bake --data-dir ./my-village --out deploy/bake
#   podman build --format docker --build-arg BASE=fuseforks:0.1.0 -t my-village:1 -f deploy/village.Dockerfile deploy/bake
ARG BASE=localhost/fuseforks:latest
FROM ${BASE}
COPY --chown=root:root . /opt/fuseforks-bake/
# bake writes its folder private to whoever made it (0700/0600); in the image it is root's and read by the runtime user.
USER root
RUN chmod -R a+rX,go-w /opt/fuseforks-bake
USER fuseforks
