/* An instruction without a behaviour yet is an architectural exception of the context that
 * issues it, not a crash: the context stops, its ETYPE says EXERR, and the report names the
 * mnemonic, the context and the PC. The supervisor (context 0) issues from 0x40000 on reset. */
#include "check.h"
#include "isekit/sim.h"

int main(void)
{
    isk_diag d;
    isk_diag_buffer out = { 0 };
    isk_diag_init(&d);
    isk_diag_capture(&d, &out);
    isk_model *m = isk_model_load("ipu", &d);
    CHECK(m != NULL);
    if (!m) return CHECK_DONE();
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &d });
    isk_inst *tile = isk_system_add(sys, m, "tile");
    /* sans 0 (its semantics are not public, so it stays unmodelled) */
    CHECK_EQ(isk_write(tile, "TMEM", 0, 0x40C00000), 0);
    isk_status st = isk_run(sys, 100);
    CHECK(st != ISK_FAILED);
    int64_t ssr = -1;
    isk_read(tile, "$SSR", 0, &ssr);
    CHECK_EQ((ssr >> 4) & 0xF, 13);                    /* EXERR */
    CHECK_CONTAINS(out.text ? out.text : "", "not modelled yet: sans");
    printf("%s", out.text ? out.text : "");
    isk_system_free(sys);
    isk_model_release(m);
    isk_diag_buffer_free(&out);
    return CHECK_DONE();
}
