// fuzz-sources: src/cli/dap_json.c src/base/*.c
// fuzz-seeds: fuzz/dap_json_seeds.c
/* libFuzzer harness for what a DAP client sends `isekit ... --dap` (src/cli/dap_json.c): the
 * input is the byte stream; its framed messages are cut out as the server does and each body
 * parsed as JSON, its members looked up, and base64 decoded. Beyond "no crash, no sanitizer
 * report", it checks that every refusal says why, that a message never extends past the input,
 * and that a string the reader accepted is written back as JSON the reader accepts again with
 * the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dap_json.h"

static void walk(const dj *v)
{
    if (v->type == DJ_STR) {
        jbuf b = { 0 };
        jb_str(&b, v->str);
        char err[160];
        dj *back = dj_parse(b.p, b.len, err, sizeof err);
        if (!back || back->type != DJ_STR || strcmp(back->str, v->str) != 0) abort();
        dj_free(back);
        size_t n;
        free(dj_base64_decode(v->str, &n));
        jb_free(&b);
    }
    for (size_t i = 0; i < v->n; i++) {
        walk(&v->items[i]);
        if (v->type == DJ_OBJ) (void)dj_get(v, v->keys[i]);
    }
    (void)dj_str(v, "command", NULL);
    (void)dj_int(v, "seq", 0);
    (void)dj_bool(v, "stopOnEntry", false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t at = 0;
    for (int k = 0; k < 64 && at < size; k++) {
        size_t hdr, n;
        char err[160] = "";
        int f = dap_frame(s + at, size - at, &hdr, &n, err, sizeof err);
        if (f < 0 && !*err) abort();
        if (f <= 0) break;
        if (hdr + n > size - at) abort();
        dj *v = dj_parse(s + at + hdr, n, err, sizeof err);
        if (!v && !*err) abort();
        if (v) walk(v);
        dj_free(v);
        at += hdr + n;
    }
    return 0;
}
