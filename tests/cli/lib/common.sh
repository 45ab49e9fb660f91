# Shared by the command-line tests (tests/cli/*.sh), sourced after setting isekit and src:
# a scratch directory (also the model cache), and checks that count failures.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ISEKIT_CACHE="$tmp/cache"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_in FILE TEXT: the file contains the text
expect_in() {
    grep -qF -- "$2" "$1" || { fail "'$2' not in $1:"; sed 's/^/    /' "$1"; }
}

# run EXPECTED_STATUS OUT -- COMMAND...: run it, output to OUT, check the exit status
run() {
    want=$1; out=$2; shift 3
    "$@" >"$out" 2>&1
    got=$?
    [ "$got" -eq "$want" ] || { fail "exit $got (wanted $want): $*"; sed 's/^/    /' "$out"; }
}

# finish NAME: report and exit (0 only if every check passed)
finish() {
    if [ "$failures" -eq 0 ]; then echo "$1: all checks passed"; exit 0; fi
    echo "$1: $failures check(s) failed"
    exit 1
}

# bounded EXPECTED_STATUS OUT -- COMMAND...: like run, and the command must also end within
# 10 s of CPU time and 1 GiB of address space; a command killed at either bound fails the check.
# CPU time, not wall time, so that a loaded machine does not fail the check: a command that
# hangs without spinning is caught by a wall bound of 60 s. Under the sanitizers
# (ISEKIT_SANITIZED, set by CTest), which reserve terabytes of shadow address space and run
# several times slower, the bounds are 60 s of CPU, 180 s of wall time and none on memory.
# A script whose commands reserve address space they do not touch (MAP_NORESERVE: 64 DPUs'
# MRAM and decode caches) sets bounded_vm=unlimited (KiB otherwise).
bounded() {
    want=$1; out=$2; shift 3
    if [ -n "$ISEKIT_SANITIZED" ]; then
        (ulimit -t 60; exec timeout -s KILL 180 "$@") >"$out" 2>&1
    else
        (ulimit -t 10; ulimit -v "${bounded_vm:-1048576}"; exec timeout -s KILL 60 "$@") >"$out" 2>&1
    fi
    got=$?
    if [ "$got" -eq 137 ] || [ "$got" -eq 152 ]; then
        fail "killed at a time bound (exit $got): $*"
    elif [ "$got" -ne "$want" ]; then
        fail "exit $got (wanted $want): $*"; head -c 4000 "$out" | sed 's/^/    /'
    fi
}

# interrupted OUT -- COMMAND...: start the command, send it a Ctrl-C (SIGINT) once it has caught
# SIGINT (bit 1 of its SigCgt, whatever the machine's speed; at most 30 s), and check that it
# exits with status 130. The child is the command only once it has exec'd (its name is the
# command's, read from the same snapshot of its status as the mask): before that it is a copy of
# this shell, which catches SIGINT too and would run the EXIT trap, removing $tmp; just after
# it, SIGINT is ignored (a background job's) until the command sets its handler.
interrupted() {
    out=$1; shift 2
    name=$(basename "$1" | cut -c 1-15)
    "$@" >"$out" 2>&1 &
    pid=$!
    for i in $(seq 300); do
        status=$(cat /proc/$pid/status 2>/dev/null)
        mask=$(printf '%s\n' "$status" | sed -n 's/^SigCgt:[[:space:]]*//p')
        comm=$(printf '%s\n' "$status" | sed -n 's/^Name:[[:space:]]*//p')
        [ "$comm" = "$name" ] && [ -n "$mask" ] && [ $((0x$mask & 2)) -ne 0 ] && break
        sleep 0.1
    done
    kill -INT $pid
    wait $pid
    got=$?
    [ "$got" -eq 130 ] || fail "Ctrl-C: exit $got (wanted 130): $*"
}
