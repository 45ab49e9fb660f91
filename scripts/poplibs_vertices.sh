#!/bin/sh
# Run real poplibs vertices on the simulated IPU tile and compare their results with plain C
# references, bit for bit:
#   scripts/poplibs_vertices.sh POPLIBS_DIR [ISEKIT] [CHIP]
# POPLIBS_DIR is a user's checkout of graphcore/poplibs; ISEKIT defaults to build/isekit, CHIP
# to ipu2. For each vertex of scripts/poplibs_vertices.c (elementwise binary float and half,
# unary bitwise NOT on short, a ContinuousReduce max): the references write made-up inputs and
# a state description; `isekit as` assembles the vertex's unchanged .S with the defines popc
# passes (as scripts/poplibs_check.sh does); `isekit run ipu` runs it on the tile and writes
# the output; the references compare it. Nothing of the checkout is copied or compiled: only
# our assembler and simulator read it. Exit status 1 if any vertex fails or differs.
set -u
src=${1:?usage: poplibs_vertices.sh POPLIBS_DIR [ISEKIT] [CHIP]}
isekit=${2:-build/isekit}
chip=${3:-ipu2}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$src/lib" ] || { echo "$src: not a poplibs checkout (no lib/)"; exit 2; }
[ -x "$isekit" ] || { echo "$isekit: not an isekit binary (build it first)"; exit 2; }
case $chip in ipu1) arch=1 ;; ipu2) arch=2 ;; *) echo "chip: ipu1 or ipu2"; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c17 -O2 -Wall -Wextra -o "$tmp/ref" "$here/poplibs_vertices.c" -lm || exit 2
"$tmp/ref" gen "$tmp" "$chip" || exit 2
failed=0
passed=0
while read -r name file symbol; do
    obj="$tmp/$(basename "$file" .S).o"
    if [ ! -f "$obj" ] && ! "$isekit" as -m ipu -D__IPU__=1 -D__IPU_ARCH_VERSION__=$arch -DNDEBUG -I "$src/include" \
        -I "$src/lib/$(dirname "$file")" -o "$obj" "$src/lib/$file" >"$tmp/as.log" 2>&1; then
        echo "$name: $file does not assemble:"; head -n 5 "$tmp/as.log"; failed=$((failed + 1)); continue
    fi
    if ! "$isekit" run ipu "$obj" --chip "$chip" --state "$tmp/$name.toml" -o "$tmp" >"$tmp/$name.log" 2>&1; then
        echo "$name: the run failed:"; cat "$tmp/$name.log"; failed=$((failed + 1)); continue
    fi
    cycles=$(grep -m1 -o 'vertex: [0-9]* tile cycles\|[0-9]* tile cycles' "$tmp/$name.log" | grep -o '[0-9]*' | head -n1)
    if "$tmp/ref" check "$tmp" "$name"; then
        passed=$((passed + 1)); echo "    $symbol: ${cycles:-?} tile cycles"
    else
        failed=$((failed + 1)); sed 's/^/    /' "$tmp/$name.log"
    fi
done <<EOF
$("$tmp/ref" list)
EOF
echo "poplibs vertices on $chip: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
