#!/bin/sh
# Assemble every poplibs assembly codelet (lib/**/asm/*.S) of a user's checkout of
# graphcore/poplibs with `isekit as -m ipu` and count how many assemble unchanged.
#   scripts/poplibs_check.sh POPLIBS_DIR [ISEKIT] [ARCH_VERSION]
# ISEKIT defaults to build/isekit; ARCH_VERSION (__IPU_ARCH_VERSION__, default 2 for ipu2; 1
# for ipu1). The defines are those popc passes (__IPU__, the arch version) and poplibs' build
# adds (NDEBUG, -I include). The Poplar headers (poplar/*.hpp, arch/gc_tile_defines.h) are
# models/ipu/include, found by the assembler itself. Nothing of the checkout is built or
# copied: only our assembler runs on it. Failures are listed with their first error, then the
# files are counted by cause (a file may have several); ISEKIT_POPLIBS_LOG=FILE keeps every
# message.
set -u
src=${1:?usage: poplibs_check.sh POPLIBS_DIR [ISEKIT] [ARCH_VERSION]}
isekit=${2:-build/isekit}
arch=${3:-2}
[ -d "$src/lib" ] || { echo "$src: not a poplibs checkout (no lib/)"; exit 2; }
[ -x "$isekit" ] || { echo "$isekit: not an isekit binary (build it first)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=${ISEKIT_POPLIBS_LOG:-$tmp/log}
: >"$log"
ok=0
bad=0
: >"$tmp/causes"
# classify < MESSAGES: one line per cause found in one file's messages
classify() {
    sed -n 's/.*error: //p' | sed -E -e "s/[0-9]+/N/g" \
        -e "s/.*refers to symbol 'T(AMP|SLIC|ISTACC|STACC)_.*/AMP, SLIC and STACC flag immediates: values not public/" \
        -e "s/.*(needs a relocation|declares no .*relocation).*/a symbol where the IPU model declares no relocation/" \
        -e "s/^bundle at offset .* is not aligned to N bytes.*/a bundle at an address that is 4 mod 8 (Graphcore: only rpt bodies need 8)/" \
        -e "s/^(expected [am]p? \(e\.g\.|expected ','|expected 'L').*/an operand form the table lacks (e.g. sub with an immediate)/" \
        -e "s/^unknown instruction '([^']*)'.*/unknown instruction '\\1'/" \
        -e "s/.*takes N arguments, given N/a pasted name split by the C preprocessor/" \
        -e "/too many errors|^isekit as:|without '}'/d" | LC_ALL=C sort -u
}
find "$src/lib" -path '*/asm/*.S' | LC_ALL=C sort >"$tmp/files"
while read -r f; do
    rel=${f#"$src"/}
    if "$isekit" as --max-errors 0 -m ipu -D__IPU__=1 -D__IPU_ARCH_VERSION__="$arch" -DNDEBUG \
        -I "$src/include" -I "$(dirname "$f")" -o "$tmp/out.o" "$f" >"$tmp/msg" 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
        first=$(grep -m1 -E 'error' "$tmp/msg" || head -n1 "$tmp/msg")
        echo "FAIL $rel: $first"
        classify <"$tmp/msg" >>"$tmp/causes"
    fi
    { echo "== $rel"; cat "$tmp/msg"; } >>"$log"
done <"$tmp/files"
echo "files by cause:"
LC_ALL=C sort "$tmp/causes" | uniq -c | LC_ALL=C sort -rn
echo "poplibs codelets: $ok of $((ok + bad)) assemble unchanged (__IPU_ARCH_VERSION__=$arch)"
