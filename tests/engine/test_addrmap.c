/* The engine's address map (isekit/desc.h): byte addresses to storage cells and back on the
 * example accelerator (no regions), the DPU (declared regions, 48-bit code in 8-byte containers)
 * and the PicoBlaze (no regions: an implied code region), and a model whose REGION names a
 * storage it does not declare (refused at load). */
#define ISK_BUILTIN_MODEL 1
#include "check.h"
#include "isekit/desc.h"
#include "isekit/model.h"
#include "loaded_model.h"

static isk_model *load_builtin(const char *name)
{
    isk_diag d;
    isk_diag_init(&d);
    isk_model *m = isk_model_load(name, &d);
    CHECK(m != NULL);
    return m;
}

static void test_example(void)
{
    isk_model *m = load_builtin("example");
    if (!m) return;
    CHECK_EQ(m->map.regions.len, 0);
    CHECK_EQ(m->map.code_region, -1);
    CHECK_EQ(m->map.code_bytes, 4);     /* 24-bit commands in 4-byte containers */
    CHECK_EQ(m->map.pc_unit, 4);
    isk_addr_cell c;
    uint64_t v;
    CHECK(!isk_addr_region(m, 0));
    CHECK(!isk_addr_to_cell(m, 0, &c));
    CHECK(!isk_addr_to_pc(m, 0, &v));
    CHECK(!isk_pc_to_addr(m, 0, &v));
    CHECK(!isk_cell_to_addr(m, 0, 0, &v));
    isk_model_release(m);
}

static void test_dpu(void)
{
    isk_model *m = load_builtin("dpu");
    if (!m) return;
    int iram = isk_model_find_storage(m, "IRAM"), wram = isk_model_find_storage(m, "WRAM");
    int mram = isk_model_find_storage(m, "MRAM"), atomic = isk_model_find_storage(m, "ATOMIC");
    CHECK(iram >= 0 && wram >= 0 && mram >= 0 && atomic >= 0);
    CHECK_EQ(m->map.regions.len, 4);
    CHECK_EQ(m->map.code_bytes, 8);
    CHECK_EQ(m->map.pc_unit, 8);
    CHECK(m->map.code_region >= 0);
    const isk_map_region *code = &m->map.regions.data[m->map.code_region];
    CHECK_STR(code->name, "IRAM");
    CHECK_EQ(code->storage, iram);
    CHECK(code->code && code->declared);

    isk_addr_cell c;
    uint64_t v = 0;
    /* An instruction: the engine's PC is its index; the container's bytes past 0 are not a PC. */
    CHECK(isk_addr_to_cell(m, 0x80000010u, &c));
    CHECK_EQ(c.storage, iram);
    CHECK_EQ(c.index, 2);
    CHECK_EQ(c.byte, 0);
    CHECK(isk_addr_to_pc(m, 0x80000010u, &v) && v == 2);
    CHECK(isk_addr_to_cell(m, 0x80000015u, &c) && c.index == 2 && c.byte == 5);
    CHECK(!isk_addr_to_pc(m, 0x80000015u, &v));
    CHECK(isk_pc_to_addr(m, 2, &v) && v == 0x80000010u);
    CHECK(isk_pc_to_addr(m, 4095, &v) && v == 0x80000000u + 4095 * 8);
    CHECK(!isk_pc_to_addr(m, 4096, &v));
    /* The last byte of the IRAM, and the first past it. */
    CHECK(isk_addr_to_cell(m, 0x80000000u + 4096 * 8 - 1, &c) && c.index == 4095 && c.byte == 7);
    CHECK(!isk_addr_region(m, 0x80000000u + 4096 * 8));
    CHECK(!isk_addr_to_cell(m, 0x80000000u + 4096 * 8, &c));
    /* Data: byte cells. */
    CHECK(isk_addr_to_cell(m, 0x1234, &c) && c.storage == wram && c.index == 0x1234 && c.byte == 0);
    CHECK(!isk_addr_to_pc(m, 0x1234, &v));
    CHECK(isk_addr_to_cell(m, 0xffff, &c) && c.storage == wram && c.index == 0xffff);
    CHECK(isk_cell_to_addr(m, mram, 5, &v) && v == 0x08000005u);
    CHECK(isk_addr_to_cell(m, 0x08000000u + (64u << 20) - 1, &c) && c.storage == mram && c.index == (64u << 20) - 1);
    /* Between regions: past the WRAM, before the MRAM. */
    CHECK(!isk_addr_region(m, 0x10000));
    CHECK(!isk_addr_to_cell(m, 0x10000, &c));
    CHECK(!isk_addr_to_cell(m, 0x07ffffffu, &c));
    CHECK(!isk_cell_to_addr(m, wram, 0x10000, &v));
    CHECK(isk_cell_to_addr(m, atomic, 3, &v) && v == 0xf0000003u);
    CHECK_STR(isk_addr_region(m, 0xf0000000u)->name, "ATOMIC");
    isk_model_release(m);
}

static void test_picoblaze(void)
{
    isk_model *m = load_builtin("kcpsm6");
    if (!m) return;
    int irom = isk_model_find_storage(m, "IROM");
    CHECK(irom >= 0 && irom == m->code_storage);
    CHECK_EQ(isk_model_storage(m, irom)->count, 4096);
    /* No REGION: the code memory is implied at address 0, one 4-byte container per instruction. */
    CHECK_EQ(m->map.regions.len, 1);
    CHECK_EQ(m->map.code_region, 0);
    const isk_map_region *r = &m->map.regions.data[0];
    CHECK_STR(r->name, "IROM");
    CHECK(r->code && !r->declared);
    CHECK_EQ(r->base, 0);
    CHECK_EQ(r->size, 4096 * 4);
    CHECK_EQ(r->cell_bytes, 4);
    uint64_t v = 0;
    isk_addr_cell c;
    CHECK(isk_addr_to_pc(m, 0x3ffc, &v) && v == 0xfff);
    CHECK(isk_addr_to_cell(m, 0x3fff, &c) && c.index == 0xfff && c.byte == 3);
    CHECK(!isk_addr_to_pc(m, 0x3fff, &v));
    CHECK(!isk_addr_to_pc(m, 0x4000, &v));
    CHECK(!isk_addr_to_pc(m, 6, &v));
    CHECK(isk_pc_to_addr(m, 0x3ff, &v) && v == 0xffc);
    CHECK(!isk_pc_to_addr(m, 0x1000, &v));
    isk_model_release(m);
}

/* A code region away from 0 with byte PC units, and a region over a storage the model does not
 * declare (refused at load). */
STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) CODE;
STATE_END
BEHAVIOUR(Nop) {}
#define SMALL_MODEL \
    WORD_BITS(16); \
    MEMORY(CODE, "Code"); \
    INSTRUCTION("0000000000000000", Nop, "nop"); \
    PROCESSOR(.code = "CODE", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 1, .code_bytes = 2, .pc_unit_bytes = 1); \
    REGION(.name = "CODE", .base = 0x100, .size = 256, .storage = "CODE", .code = 1)

MODEL_BEGIN(offset, "code at 0x100")
    SMALL_MODEL;
MODEL_END

MODEL_BEGIN(stray, "a region over nothing")
    SMALL_MODEL;
    REGION(.name = "DATA", .base = 0x1000, .size = 16, .storage = "DMEM");
MODEL_END

static void test_offset(void)
{
    loaded l;
    load(&l, &isk_model_offset);
    CHECK(l.m != NULL);
    if (!l.m) return;
    const isk_model *m = l.m;
    CHECK_EQ(m->map.code_bytes, 2);
    CHECK_EQ(m->map.pc_unit, 1);
    uint64_t v = 0;
    isk_addr_cell c;
    CHECK(!isk_addr_to_pc(m, 0xfe, &v));
    CHECK(isk_addr_to_pc(m, 0x100, &v) && v == 0);
    CHECK(isk_addr_to_pc(m, 0x17e, &v) && v == 63);
    CHECK(!isk_addr_to_pc(m, 0x101, &v));
    /* The region is larger than the storage: its tail maps to no cell. */
    CHECK(isk_addr_region(m, 0x180) != NULL);
    CHECK(!isk_addr_to_cell(m, 0x180, &c));
    CHECK(!isk_pc_to_addr(m, 64, &v));
    CHECK(isk_pc_to_addr(m, 63, &v) && v == 0x17e);
    unload(&l);
}

static void test_refused(void)
{
    loaded l;
    load(&l, &isk_model_stray);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "model 'stray': REGION DATA names storage 'DMEM', which the model does not declare");
    unload(&l);
}

int main(void)
{
    test_example();
    test_dpu();
    test_picoblaze();
    test_offset();
    test_refused();
    return CHECK_DONE();
}
