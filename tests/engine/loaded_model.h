/* Shared by the engine tests that load models defined in the test itself: a model loaded from
 * its entry with every message captured. */
#ifndef TESTS_ENGINE_LOADED_MODEL_H
#define TESTS_ENGINE_LOADED_MODEL_H

#include "engine/model_desc.h"
#include "isekit/sim.h"

typedef struct loaded { isk_model *m; isk_diag d; isk_diag_buffer out; } loaded;

static inline void load(loaded *l, const struct isk_model_entry *e)
{
    isk_diag_init(&l->d);
    isk_diag_capture(&l->d, &l->out);
    l->m = isk_model_from_entry(e, "test", &l->d);
}

static inline void unload(loaded *l)
{
    isk_model_release(l->m);
    isk_diag_buffer_free(&l->out);
}

#endif
