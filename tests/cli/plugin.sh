#!/bin/sh
# A model folder plugs in (docs/layers.md): tests/models/plugin/ is built into isekit with no
# edit outside it, its model is listed and loads by name, and its runner is run by name.
isekit=$1 src=$2
. "$src/tests/cli/lib/common.sh"

run 0 "$tmp/info" -- "$isekit" info
expect_in "$tmp/info" "plugin       a counter added by the folder tests/models/plugin"
expect_in "$tmp/info" "plugin_twice launches the plugin counter's add N twice"
# the model folders of the tree register themselves the same way
expect_in "$tmp/info" "example      "
expect_in "$tmp/info" "psm          assemble or disassemble PicoBlaze"

run 0 "$tmp/one" -- "$isekit" info plugin
expect_in "$tmp/one" "model plugin: a counter added by the folder tests/models/plugin"
expect_in "$tmp/one" "add {k:k4}"

run 0 "$tmp/twice" -- "$isekit" run plugin_twice 5
expect_in "$tmp/twice" "COUNT = 10"
run 2 "$tmp/usage" -- "$isekit" run plugin_twice
expect_in "$tmp/usage" "usage: isekit run plugin_twice N"
run 0 "$tmp/help" -- "$isekit" run --help
expect_in "$tmp/help" "plugin_twice"

finish plugin
