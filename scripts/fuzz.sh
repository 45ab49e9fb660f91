#!/bin/sh
# Build and run every libFuzzer harness fuzz/*_fuzz.c (`make fuzz`; not part of CI).
#
# A harness declares what it needs in comment lines near its top:
#   // fuzz-sources: src/elf/*.c src/base/*.c   source globs linked with it (required); a
#                                                fuzz/builtin_<name>.c among them compiles in
#                                                model <name>, which registers itself as in the
#                                                build (docs/layers.md)
#   // fuzz-seeds: fuzz/x_seeds.c                optional program run as `x_seeds CORPUS_DIR`
#                                                to write a seed corpus (built with the same
#                                                sources): the repository holds no binaries
#   // fuzz-libs: -lelf                          optional extra link flags
#   // fuzz-cflags: -DX=1                        optional extra compile flags
#
# Environment:
#   FUZZ_SECONDS  time per harness (default 60)
#   FUZZ_ONLY     run only harnesses whose name contains this string
#   FUZZ_DIR      work directory (default build-fuzz): FUZZ_DIR/<harness>/{corpus,crashes}/
#                 The corpus is kept between runs, so each run continues the last one.
#   CC            compiler with libFuzzer support (default clang)
# Every harness runs with -timeout=10 (seconds per input) and -rss_limit_mb=2048: an input that
# hangs or exhausts memory is a finding like a crash or a sanitizer report.
# Exit status: non-zero if a harness failed to build or found a problem; the reproducer is
# in FUZZ_DIR/<harness>/crashes/ (crash-*, timeout-*, oom-*, leak-*; run the harness binary on
# it to replay). Each harness ends with a line "inputs N, findings F".
set -eu
cd "$(dirname "$0")/.."

SECS=${FUZZ_SECONDS:-60}
DIR=${FUZZ_DIR:-build-fuzz}
CC=${CC:-clang}
ONLY=${FUZZ_ONLY:-}
CFLAGS="-std=c17 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Isrc -Iinclude"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz: '$CC' not found; libFuzzer needs clang (apt-get install clang)" >&2
    exit 1
fi

# The value of a "// fuzz-<key>:" line of a harness.
directive() {
    sed -n "s|^// fuzz-$2:[[:space:]]*||p" "$1" | head -n 1
}

# Expand source globs (unquoted on purpose), dropping patterns that match nothing.
expand() {
    for pattern in $1; do
        for f in $pattern; do
            [ -e "$f" ] && printf '%s ' "$f"
        done
    done
}

status=0
ran=0
for harness in fuzz/*_fuzz.c; do
    [ -e "$harness" ] || continue
    name=$(basename "$harness" .c)
    case "$name" in *"$ONLY"*) ;; *) continue ;; esac
    work="$DIR/$name"
    mkdir -p "$work/corpus" "$work/crashes"
    sources=$(expand "$(directive "$harness" sources)")
    libs=$(directive "$harness" libs)
    seeds=$(directive "$harness" seeds)
    cflags=$(directive "$harness" cflags)
    if [ -z "$sources" ]; then
        echo "fuzz: $harness has no '// fuzz-sources:' line" >&2
        status=1
        continue
    fi
    echo "== $name: building"
    # shellcheck disable=SC2086
    if ! $CC $CFLAGS $cflags $SAN -fsanitize=fuzzer "$harness" $sources $libs -o "$work/$name"; then
        status=1
        continue
    fi
    if [ -n "$seeds" ]; then
        # shellcheck disable=SC2086
        if ! $CC $CFLAGS $cflags $SAN "$seeds" $sources $libs -o "$work/seeds" || ! "$work/seeds" "$work/corpus"; then
            echo "fuzz: $name: seed generator $seeds failed" >&2
            status=1
            continue
        fi
    fi
    echo "== $name: fuzzing for ${SECS}s ($(ls "$work/corpus" | wc -l) inputs in the corpus)"
    before=$(ls "$work/crashes" | wc -l)
    if "$work/$name" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/crashes/" "$work/corpus" >"$work/log" 2>&1; then
        ok=1
    else
        ok=0
    fi
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$work/log" || true
    findings=$(($(ls "$work/crashes" | wc -l) - before))
    [ "$ok" -eq 1 ] || [ "$findings" -gt 0 ] || findings=1
    echo "== $name: inputs $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log"), findings $findings"
    if [ "$ok" -eq 0 ]; then
        status=1
        tail -n 40 "$work/log"
        echo "== $name: FAILED; reproducer(s) in $work/crashes/, full log in $work/log" >&2
    fi
    ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "fuzz: no harness matched" >&2; status=1; }
exit $status
