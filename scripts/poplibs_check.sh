#!/bin/sh
# Assemble every poplibs assembly codelet (lib/**/asm/*.S) of a user's checkout of
# graphcore/poplibs with `isekit as -m ipu` and count how many assemble unchanged.
#   scripts/poplibs_check.sh POPLIBS_DIR [ISEKIT] [ARCH_VERSION]
# ISEKIT defaults to build/isekit; ARCH_VERSION (__IPU_ARCH_VERSION__, default 2 for ipu2; 1
# for ipu1). The defines are those popc passes (__IPU__, the arch version) and poplibs' build
# adds (NDEBUG, -I include). The Poplar headers (poplar/*.hpp, arch/gc_tile_defines.h) are
# models/ipu/include, found by the assembler itself. Nothing of the checkout is built or
# copied: only our assembler runs on it. Failures are listed with their first error;
# ISEKIT_POPLIBS_LOG=FILE keeps every message.
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
find "$src/lib" -path '*/asm/*.S' | LC_ALL=C sort >"$tmp/files"
while read -r f; do
    rel=${f#"$src"/}
    if "$isekit" as -m ipu -D__IPU__=1 -D__IPU_ARCH_VERSION__="$arch" -DNDEBUG \
        -I "$src/include" -I "$(dirname "$f")" -o "$tmp/out.o" "$f" >"$tmp/msg" 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
        first=$(grep -m1 -E 'error' "$tmp/msg" || head -n1 "$tmp/msg")
        echo "FAIL $rel: $first"
    fi
    { echo "== $rel"; cat "$tmp/msg"; } >>"$log"
done <"$tmp/files"
echo "poplibs codelets: $ok of $((ok + bad)) assemble unchanged (__IPU_ARCH_VERSION__=$arch)"
