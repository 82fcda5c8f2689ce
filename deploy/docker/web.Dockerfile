# syntax=docker/dockerfile:1.7
#
# The SPA alone, as static files behind unprivileged nginx, for a deployment that serves it from
# a plain web server (the gateway image already contains it). Route /api to the gateway at the
# Ingress. From the repository root:
#
#   docker build -f deploy/docker/web.Dockerfile -t kid/web:<tag> .
#
# Build arguments as in deploy/docker/Dockerfile (NODE_VERSION, NGINX_VERSION, IMAGE_*, VITE_*,
# RECAPTCHA_SITEKEY: the public reCAPTCHA v3 site key). Read-only root filesystem: mount an
# emptyDir on /tmp (nginx's pid file and temporary files).

ARG NODE_VERSION=22.22.0
ARG NGINX_VERSION=1.28

FROM node:${NODE_VERSION}-bookworm-slim AS web
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    NPM_CONFIG_AUDIT=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN --mount=type=cache,id=kid-npm,target=/root/.npm,sharing=locked \
    npm ci
COPY web/ ./
ARG VITE_API_URL=""
ARG VITE_GAME_SITE_URL=""
ARG VITE_MESSENGER_URL=""
ARG RECAPTCHA_SITEKEY=""
RUN VITE_RECAPTCHA_SITE_KEY="${RECAPTCHA_SITEKEY}" npm run build

FROM nginxinc/nginx-unprivileged:${NGINX_VERSION}-alpine
ARG IMAGE_SOURCE=""
ARG IMAGE_REVISION=""
ARG IMAGE_VERSION=""
LABEL org.opencontainers.image.source="${IMAGE_SOURCE}" \
      org.opencontainers.image.revision="${IMAGE_REVISION}" \
      org.opencontainers.image.version="${IMAGE_VERSION}" \
      org.opencontainers.image.vendor="Kid" \
      org.opencontainers.image.title="kid-web" \
      org.opencontainers.image.description="Kid SPA as static files behind unprivileged nginx"
COPY deploy/docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=web /web/dist /app/web
# The image's nginx user (uid 101); files stay root-owned and read-only to it.
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
