/* A diagnostic sink that keeps the messages as text, for tests that check them. */
#ifndef ISEKIT_TEST_ASM_SINK_H
#define ISEKIT_TEST_ASM_SINK_H

#include "isekit/diag.h"

typedef struct sink { isk_diag d; isk_diag_buffer b; } sink;

static inline void sink_init(sink *s)
{
    isk_diag_init(&s->d);
    isk_diag_capture(&s->d, &s->b);
}

static inline const char *sink_text(const sink *s) { return s->b.text ? s->b.text : ""; }

#endif
