/* Explicit sharing (isk_share_storage, src/engine/share.c): with explicit_sharing, storages of the
 * same name are not bound by name; a share joins two, and instances already sharing follow; bad
 * shares are refused with the reason and change nothing. */
#include "check.h"
#include "isekit/sim.h"

/* The cell reads as `want`. */
#define CHECK_CELL(inst, name, want) \
    do { int64_t v_ = -1; CHECK_EQ(isk_read((inst), (name), 0, &v_), ISK_OK); CHECK_EQ(v_, (want)); } while (0)

static void test_explicit(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *dfu = isk_model_load("edkdsp_dfu", &d), *ex = isk_model_load("example", &d);
    CHECK(dfu && ex);
    if (!dfu || !ex) return;
    isk_system_options o = { .diag = &d, .explicit_sharing = 1 };
    isk_system *sys = isk_system_new(&o);
    isk_inst *a = isk_system_add(sys, dfu, "a"), *b = isk_system_add(sys, dfu, "b"), *c = isk_system_add(sys, dfu, "c");
    isk_inst *e = isk_system_add(sys, ex, "e");
    /* not bound by name */
    CHECK_EQ(isk_write(a, "CMEM[3]", 0, 11), ISK_OK);
    CHECK_CELL(b, "CMEM[3]", 0);
    char msg[512] = "";
    /* c joins b, then b joins a: c follows b's storage to a's */
    CHECK_EQ(isk_share_storage(c, "CMEM", b, "CMEM", msg, sizeof msg), ISK_OK);
    CHECK_EQ(isk_share_storage(b, "cmem", a, "CMEM", msg, sizeof msg), ISK_OK);
    CHECK_CELL(b, "CMEM[3]", 11);
    CHECK_CELL(c, "CMEM[3]", 11);
    CHECK_EQ(isk_write(c, "CMEM[4]", 0, 5), ISK_OK);
    CHECK_CELL(a, "CMEM[4]", 5);
    /* sharing again what is already one storage changes nothing */
    CHECK_EQ(isk_share_storage(a, "CMEM", c, "CMEM", msg, sizeof msg), ISK_OK);
    CHECK_CELL(a, "CMEM[3]", 11);
    /* refusals */
    CHECK_EQ(isk_share_storage(a, "NOPE", b, "CMEM", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "a (model 'edkdsp_dfu') has no storage 'NOPE'");
    CHECK_EQ(isk_share_storage(a, "DMA", b, "DMA", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "storage 'DMA' of a (model 'edkdsp_dfu') is not a SHARED_MEMORY");
    CHECK_EQ(isk_share_storage(e, "SHM", a, "CMEM", msg, sizeof msg), ISK_FAILED);
    CHECK_CONTAINS(msg, "does not match");
    CHECK_EQ(isk_step(sys, 1), ISK_OK);
    CHECK_EQ(isk_share_storage(a, "CMEM", b, "CMEM", msg, sizeof msg), ISK_FAILED);
    CHECK_STR(msg, "a: storages are shared before the first clock, not at clock 1");
    isk_system_free(sys);
    isk_model_release(dfu);
    isk_model_release(ex);
}

/* Without explicit_sharing, the name binds as before. */
static void test_by_name(void)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *dfu = isk_model_load("edkdsp_dfu", &d);
    if (!dfu) return;
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &d });
    isk_inst *a = isk_system_add(sys, dfu, "a"), *b = isk_system_add(sys, dfu, "b");
    CHECK_EQ(isk_write(a, "CMEM[3]", 0, 11), ISK_OK);
    CHECK_CELL(b, "CMEM[3]", 11);
    isk_system_free(sys);
    isk_model_release(dfu);
}

int main(void)
{
    test_explicit();
    test_by_name();
    return CHECK_DONE();
}
