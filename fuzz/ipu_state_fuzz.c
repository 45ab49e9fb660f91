// fuzz-sources: models/ipu/vertex_state.c src/base/*.c
// fuzz-seeds: fuzz/ipu_state_seeds.c
// fuzz-cflags: -Imodels/ipu/include
// fuzz-libs: -lm
/* libFuzzer harness for IPU vertex-state descriptions (`isekit run ipu --state`, the TOML subset
 * of models/ipu/vertex_state.c): the input is the description. Beyond "no crash, no sanitizer
 * report, no hang", a description that fails to parse must have said why, and one that parses
 * must be whole: every tensor has contents or a file, every field's tensors exist. No file is
 * read (ipu_state_load_tensors is not called). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isekit/ipu_vertex.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    ipu_state_desc *s = ipu_state_parse("fuzz.toml", (const char *)data, size, &d);
    if (!s) {
        if (!d.errors) abort();
        return 0;
    }
    for (size_t i = 0; i < s->ntensors; i++)
        if (!s->tensors[i].data && !s->tensors[i].input) abort();
    for (size_t i = 0; i < s->nfields; i++)
        for (size_t k = 0; k < s->fields[i].ntensors; k++)
            if (s->fields[i].tensors[k] >= s->ntensors) abort();
    ipu_state_free(s);
    return 0;
}
