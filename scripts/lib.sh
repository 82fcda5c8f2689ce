# Shared by scripts/run and scripts/test: make sure the machine has what the portal needs.
# shellcheck shell=bash

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kid-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() {
  local port=$1 name=$2 seconds=${3:-60}
  for _ in $(seq "$seconds"); do
    port_open "$port" && return 0
    sleep 1
  done
  log "$name did not come up on port $port"
  return 1
}

apt_updated=""
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    log "missing $*: install it (sudo apt-get install $*) or run as root"
    return 1
  fi
  if [ -z "$apt_updated" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  port_open 5432 && return 0
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    log "installing PostgreSQL"
    apt_install postgresql
    local version
    version=$(ls /etc/postgresql | sort -V | tail -1)
    # Local development only: trust connections from this machine, as the defaults expect.
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "/etc/postgresql/$version/main/pg_hba.conf"
  fi
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
  wait_for_port 5432 PostgreSQL
}

ensure_redis() {
  port_open 6379 && return 0
  command -v redis-server >/dev/null || { log "installing Redis"; apt_install redis-server; }
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for_port 6379 Redis
}

ensure_rabbitmq() {
  port_open 5672 && return 0
  command -v rabbitmq-server >/dev/null || { log "installing RabbitMQ"; apt_install rabbitmq-server; }
  log "starting RabbitMQ"
  rabbitmq-server -detached
  wait_for_port 5672 RabbitMQ 120
  rabbitmqctl await_startup >/dev/null 2>&1 || true
}

ensure_services() {
  ensure_postgres
  ensure_redis
  ensure_rabbitmq
}

ensure_node() {
  if ! command -v npm >/dev/null; then
    log "installing Node.js"
    apt_install nodejs npm
  fi
}

web_install() {
  ensure_node
  log "installing the web app's packages"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
}

web_build() {
  log "building the web app"
  (cd web && npm run build)
}

ensure_nextest() {
  cargo nextest --version >/dev/null 2>&1 && return 0
  log "installing cargo-nextest"
  cargo install --locked cargo-nextest
}
