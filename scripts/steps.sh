# The test command's steps (scripts/test): each one named and timed, run in the foreground or
# beside the others, and a table of them all at the end. A step that fails stops the whole run
# at once, whichever step is in the foreground: its name and its log's last lines are printed,
# every other step still running is stopped, and the table shows how far the run got.
#
#   step <name> <command...>       runs it now, its output on the terminal, and waits for it
#   beside <name> <command...>     starts it in the background, its output kept in a log file
#   await <name>...                waits for steps started with beside, then prints their logs
#
#   beside_niced <name> <command...>  as beside, at the lowest CPU priority: a compile started
#                                  early takes only the cores the foreground leaves idle,
#                                  until the foreground awaits it
# shellcheck shell=bash

STEP_LOGS=$(mktemp -d "${TMPDIR:-/tmp}/kid-test-steps.XXXXXX")
STEP_MAIN=$BASHPID
STEP_T0=$(date +%s)
STEP_ORDER=()
declare -A STEP_PID=() STEP_KIND=() STEP_BEGAN=() STEP_AWAITED=()

_step_now() { date +%s; }

# A step's files: its name with anything but letters and digits made '_'.
_step_file() { printf '%s/%s' "$STEP_LOGS" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9' '_')"; }

# Runs one step's command in a subshell with errexit, and records how it ended; a failure
# signals the main shell, which stops the run.
_step_run() {
  local name=$1 status
  shift
  set +e
  (
    set -e
    trap 'exit 143' TERM
    "$@"
  )
  status=$?
  # CPU seconds (user and system) of everything the step ran and waited for.
  # (`times` itself in this shell: in a pipe or $(...) it would count a subshell's children.)
  local cpu file
  file=$(_step_file "$name")
  times >"$file.times"
  cpu=$(tail -n 1 "$file.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] }; printf "%d", n }')
  echo "$status $(_step_now) $cpu" >"$(_step_file "$name").status"
  [ "$status" = 0 ] || kill -USR1 "$STEP_MAIN" 2>/dev/null
  return "$status"
}

_step_begin() {
  local name=$1 kind=$2
  [ -z "${STEP_KIND[$name]:-}" ] || { log "steps: '$name' is named twice"; exit 2; }
  STEP_ORDER+=("$name")
  STEP_KIND[$name]=$kind
  STEP_BEGAN[$name]=$(_step_now)
}

_step_status() { cut -d' ' -f1 "$(_step_file "$1").status" 2>/dev/null || true; }

# A process and everything it started, children first.
_step_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do _step_tree "$child"; done
  echo "$1"
}

step_table() {
  local name status ended wall cpu total
  total=$(($(_step_now) - STEP_T0))
  printf '\n%-58s %-7s %7s %7s %7s  %s\n' step where start wall cpu result >&2
  for name in "${STEP_ORDER[@]}"; do
    status=$(_step_status "$name")
    ended=$(cut -d' ' -f2 "$(_step_file "$name").status" 2>/dev/null || _step_now)
    cpu=$(cut -d' ' -f3 "$(_step_file "$name").status" 2>/dev/null || echo 0)
    wall=$((ended - STEP_BEGAN[$name]))
    case $status in
      0) status=passed ;;
      "") status="stopped" ;;
      *) status="FAILED ($status)" ;;
    esac
    printf '%-58s %-7s %7s %7s %7s  %s\n' "$name" "${STEP_KIND[$name]}" \
      "$(_step_clock $((STEP_BEGAN[$name] - STEP_T0)))" "$(_step_clock "$wall")" \
      "$(_step_clock "${cpu:-0}")" "$status" >&2
  done
  printf '%-58s %-7s %7s %7s\n' total "" "" "$(_step_clock "$total")" >&2
}

_step_clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# Stops the steps still running; only them: a server the script started in the background (the
# journeys' portal) is its own to stop. Each step's processes get SIGTERM, children first; those
# still running 30 s later (one that ignores it, or waits for something that does) get SIGKILL.
# No `wait` for them: bash 5.2 can hang for ever in a trap's `wait` for the step whose own `wait`
# the trap interrupted; polling the process table cannot (wait_gone counts zombies as ended).
steps_stop() {
  local name pid running=()
  for name in "${STEP_ORDER[@]}"; do
    pid=${STEP_PID[$name]:-}
    [ -n "$pid" ] || continue
    [ -n "$(_step_status "$name")" ] || mapfile -t -O "${#running[@]}" running < <(_step_tree "$pid")
  done
  [ ${#running[@]} -gt 0 ] || return 0
  stop_within 30 "steps" "${running[@]}"
}

# USR1: a step failed. Name it, show what it printed (a background step's log), stop the rest.
_step_failed() {
  trap - USR1
  local name status failed=()
  for name in "${STEP_ORDER[@]}"; do
    status=$(_step_status "$name")
    [ -n "$status" ] && [ "$status" != 0 ] && failed+=("$name")
  done
  for name in "${failed[@]}"; do
    if [ "${STEP_KIND[$name]}" = beside ] && [ -z "${STEP_AWAITED[$name]:-}" ]; then
      log "--- the last lines of '$name' ($(_step_file "$name").log)"
      tail -n 60 "$(_step_file "$name").log" >&2 || true
    fi
  done
  steps_stop
  step_table
  log "FAILED: ${failed[*]}"
  exit 1
}
trap _step_failed USR1
trap steps_stop EXIT

step() {
  local name=$1
  shift
  _step_begin "$name" fg
  log "$name"
  _step_run "$name" "$@" &
  STEP_PID[$name]=$!
  wait "${STEP_PID[$name]}" || true
  [ "$(_step_status "$name")" = 0 ] || _step_failed
}

beside() {
  local name=$1
  shift
  _step_begin "$name" beside
  log "$name (beside the next steps; log: $(_step_file "$name").log)"
  _step_run "$name" "$@" >"$(_step_file "$name").log" 2>&1 </dev/null &
  STEP_PID[$name]=$!
}

# As beside, at the lowest CPU priority: for compiles started early, which must not slow the
# steps in the foreground.
beside_niced() {
  local name=$1
  shift
  beside "$name" _step_niced "$@"
}

_step_niced() {
  renice -n 19 -p "$BASHPID" >/dev/null
  "$@"
}

# A process and everything it started, back at the usual priority.
_step_unnice_tree() {
  local pid
  for pid in $(_step_tree "$1"); do renice -n 0 -p "$pid" >/dev/null 2>&1 || true; done
}

await() {
  local name
  for name in "$@"; do
    [ "${STEP_KIND[$name]:-}" = beside ] || { log "steps: nothing named '$name' runs beside"; exit 2; }
    # Nothing else runs until it ends: a niced step gets the cores back.
    [ -n "$(_step_status "$name")" ] || _step_unnice_tree "${STEP_PID[$name]}"
    wait "${STEP_PID[$name]}" 2>/dev/null || true
    [ "$(_step_status "$name")" = 0 ] || _step_failed
    STEP_AWAITED[$name]=1
    log "--- '$name' passed in $(_step_clock $(($(cut -d' ' -f2 "$(_step_file "$name").status") - STEP_BEGAN[$name]))); its output:"
    cat "$(_step_file "$name").log" >&2
  done
}
