/* A PicoBlaze in the run vectors' test bench: ports 00-0F loop back, a write to FC raises the
 * interrupt until interrupt_ack, the first write to FF ends the run; every write is logged with
 * the clock of its write_strobe in the manuals' numbering. */
#ifndef TESTS_PICOBLAZE_PB_HARNESS_H
#define TESTS_PICOBLAZE_PB_HARNESS_H

#include "isekit/picoblaze.h"
#include "psm_harness.h"

#define PB_MAX_WRITES 64

typedef struct pb_bench {
    psm_run assembled;
    isk_system *sys;
    isk_inst *pb;
    uint8_t loopback[16];
    isk_ref interrupt;
    int nwrites;
    uint64_t clock[PB_MAX_WRITES];
    unsigned port[PB_MAX_WRITES], value[PB_MAX_WRITES];
    bool done;
    isk_status status;
} pb_bench;

static uint64_t pb_bench_read(void *user, isk_inst *pb, uint64_t port)
{
    (void)pb;
    pb_bench *b = user;
    return port < 16 ? b->loopback[port] : 0;
}

static void pb_bench_write(void *user, isk_inst *pb, uint64_t port, uint64_t value)
{
    pb_bench *b = user;
    if (port == PB_PIN_INTERRUPT_ACK) {
        isk_ref_write(&b->interrupt, 0);
        return;
    }
    if (b->nwrites < PB_MAX_WRITES) {
        b->clock[b->nwrites] = isk_clock(b->sys) + 2;
        b->port[b->nwrites] = (unsigned)port;
        b->value[b->nwrites++] = (unsigned)value;
    }
    if (port < 16) b->loopback[port] = (uint8_t)value;
    if (port == 0xFC) isk_ref_write(&b->interrupt, 1);
    if (port == 0xFF) {
        b->done = true;
        isk_context_of(pb, 0)->state = ISK_CTX_STOPPED;
    }
}

/* Assemble `text` for `core`, set the parameters (name, value, ..., NULL), run until FF. */
static inline bool pb_bench_run(pb_bench *b, const char *core, const char *text, const char *const *params)
{
    memset(b, 0, sizeof *b);
    psm_program *p = psm_try(&b->assembled, core, text);
    CHECK(p != NULL);
    if (!p) return false;
    b->sys = isk_system_new(&(isk_system_options){ .diag = &b->assembled.diag });
    b->pb = isk_system_add(b->sys, b->assembled.model, "pb");
    for (int i = 0; params && params[i]; i += 2) CHECK_EQ(isk_set_param(b->pb, params[i], params[i + 1]), ISK_OK);
    CHECK_EQ(isk_lookup(b->pb, "INTERRUPT", &b->interrupt), ISK_OK);
    isk_ref irom;
    CHECK_EQ(isk_lookup(b->pb, "IROM", &irom), ISK_OK);
    for (size_t i = 0; i < p->size; i++) {
        irom.index = i;
        isk_ref_write(&irom, p->words[i]);
    }
    isk_set_ports(b->pb, pb_bench_read, pb_bench_write, b);
    b->status = isk_run(b->sys, 1000000);
    return b->done;
}

static inline void pb_bench_close(pb_bench *b)
{
    isk_system_free(b->sys);
    psm_done(&b->assembled);
}

static inline int64_t pb_read(pb_bench *b, const char *name, unsigned index)
{
    int64_t v = -1;
    CHECK_EQ(isk_read(b->pb, name, index, &v), ISK_OK);
    return v;
}

#endif
