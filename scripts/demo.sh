#!/bin/sh
# make demo: the example system (the ISE article's accelerator driven by a launch list).
set -e
build=${1:-build}
dir=$(cd "$(dirname "$0")/.." && pwd)
echo "== isekit info example (abridged)"
"$build/isekit" info example | sed -n '1,/^resources:/p'
echo "== isekit run example models/example/programs/demo.ll --trace"
"$build/isekit" run example "$dir/models/example/programs/demo.ll" --trace
