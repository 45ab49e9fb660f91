/* Seed corpus for dap_json_fuzz: framed DAP messages as VS Code sends them, and broken ones.
 * Usage: dap_json_seeds CORPUS_DIR */
#include "text_seeds.h"

/* No selector byte: the first character is the stream's own. */
static const char *const seeds[] = {
    "Content-Length: 119\r\n\r\n{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\",\"arguments\":"
    "{\"adapterID\":\"isekit\",\"linesStartAt1\":true,\"x\":[1,-2.5e3,null]}}"
    "Content-Length: 20\r\n\r\n{\"a\":\"\\u00e9\\ud83d\\ude00\"}",
    "Content-Length: 96\r\n\r\n{\"seq\":3,\"type\":\"request\",\"command\":\"writeMemory\",\"arguments\":"
    "{\"memoryReference\":\"0x10\",\"data\":\"3q2+7w==\"}}",
    "Content-Length: 5\r\n\r\n{\"a\":",
    "Content-Length: 2\nfoo: bar\r\n\r\n[]",
    "content-length:3\r\n\r\n[[[",
};

TEXT_SEEDS_MAIN("dap", seeds)
