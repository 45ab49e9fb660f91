/* Display formats: FLOAT(16/32/64/16x2) declares how tools show a cell, the bits stay UINT of
 * the width; isk_format_cell and isk_parse_cell print and read cells by the declaration; a
 * hand-built declaration whose format does not fit its width is refused. */
#define ISK_BUILTIN_MODEL 1
#include <string.h>

#include "check.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

STATE_BEGIN
    DECLARE_REGISTER(FLOAT(32)) F;
    DECLARE_REGISTERS_FILE(FLOAT(16, 0), 2) H;
    DECLARE_REGISTER(FLOAT(64)) D;
    DECLARE_REGISTER(FLOAT(16x2, 3)) P;
    DECLARE_REGISTER(INT(8)) I;
    DECLARE_REGISTER(FIXED(4, 4)) X;
STATE_END

/* Copies F's bits into P: GET and SET see raw bits, whatever the display format. */
ACC_FUNCTION(Copy)
{
    SET(P, GET(F));
}

MODEL_BEGIN(floats, "display formats")
    WORD_BITS(8);
    SLOTS(1);
    REG(F, "F32 register"); REGFILE_BEGIN(H, "halves") REGISTERS("h%u"); REGFILE_END()
    REG(D, "F64"); REG(P, "pair"); REG(I, "int"); REG(X, "fixed");
    INSTRUCTION("00000001", Copy, "copy");
MODEL_END

static void describe_bad(isk_builder *B)
{
    B->ops->model(B, "bad_float", "FLOAT(16) on a 32-bit cell");
    isk_storage_decl d = *ISK_STORAGE_DECL(F, "F", 0);
    d.display = ISK_DISPLAY_F16;
    B->ops->storage(B, &d);
}
static const struct isk_model_entry bad_entry = { ISK_ABI_VERSION, "bad_float", sizeof(struct isk_state),
                                                  describe_bad, NULL, NULL, 0, 0 };

static const isk_storage_info *info(const isk_model *m, const char *name)
{
    return isk_model_storage(m, isk_model_find_storage(m, name));
}

static void shown(const isk_storage_info *s, int64_t v, const char *want)
{
    char out[128];
    isk_format_cell(s, v, out, sizeof out);
    CHECK_STR(out, want);
}

static void parsed(const isk_storage_info *s, const char *text, int64_t want)
{
    int64_t v = -12345;
    char why[128] = "";
    CHECK(isk_parse_cell(s, text, &v, why, sizeof why));
    CHECK_EQ(v, want);
}

static void refused_text(const isk_storage_info *s, const char *text, const char *reason)
{
    int64_t v;
    char why[128] = "";
    CHECK(!isk_parse_cell(s, text, &v, why, sizeof why));
    CHECK_CONTAINS(why, reason);
}

int main(void)
{
    loaded l;
    load(&l, &isk_model_floats);
    CHECK(l.m != NULL);
    const isk_storage_info *f = info(l.m, "F"), *h = info(l.m, "H"), *d = info(l.m, "D"), *p = info(l.m, "P");
    const isk_storage_info *i = info(l.m, "I"), *x = info(l.m, "X");
    /* the declaration: the width of the format, unsigned cells, the latency given */
    CHECK_EQ(f->display, ISK_DISPLAY_F32);
    CHECK_EQ(f->width, 32);
    CHECK_EQ(f->sign, 0);
    CHECK_EQ(f->latency, 1);
    CHECK_EQ(h->display, ISK_DISPLAY_F16);
    CHECK_EQ(h->width, 16);
    CHECK_EQ(h->latency, 0);
    CHECK_EQ(d->display, ISK_DISPLAY_F64);
    CHECK_EQ(d->width, 64);
    CHECK_EQ(p->display, ISK_DISPLAY_F16X2);
    CHECK_EQ(p->width, 32);
    CHECK_EQ(p->latency, 3);
    CHECK_EQ(i->display, ISK_DISPLAY_INT);
    CHECK_EQ(x->display, ISK_DISPLAY_INT);

    /* printing: the float, then the bits */
    shown(f, 0x3fc00000, "1.5 (0x3fc00000)");
    shown(f, 0xbf800000, "-1 (0xbf800000)");
    shown(f, 0x7f800000, "inf (0x7f800000)");
    shown(f, 0x7fc00000, "nan (0x7fc00000)");
    shown(f, 0x3dcccccd, "0.100000001 (0x3dcccccd)");
    shown(h, 0x3c00, "1 (0x3c00)");
    shown(h, 0xc500, "-5 (0xc500)");
    shown(d, 0x400921fb54442d18, "3.1415926535897931 (0x400921fb54442d18)");
    shown(p, 0xc0003c00, "[1, -2] (0xc0003c00)");
    shown(i, -3, "-3 (0xfd)");
    shown(x, 0x18, "24 (0x18) = 1.5");

    /* reading: float literals become the format's bits; 0x/0b are raw bits */
    parsed(f, "1.5", 0x3fc00000);
    parsed(f, "-2e0", 0xc0000000);
    parsed(f, "inf", 0x7f800000);
    parsed(f, "0x3f800000", 0x3f800000);
    parsed(f, "3", 0x40400000);
    parsed(h, "0.5", 0x3800);
    parsed(d, "-0.25", (int64_t)0xbfd0000000000000ull);
    parsed(p, "1, -2", 0xc0003c00);
    parsed(p, "[0.5, 1]", 0x3c003800);
    parsed(i, "-3", -3);
    refused_text(f, "1.5x", "is not a float");
    refused_text(f, "1e39", "beyond the f32 range");
    refused_text(h, "70000", "beyond the f16 range");
    refused_text(p, "1.5", "two f16 values");
    refused_text(i, "1.5", "not a number");

    /* x/f by the width on an INT cell of 32 bits; none for 8 bits */
    char out[64];
    CHECK(isk_format_float(f, ISK_DISPLAY_INT, 0x40000000, out, sizeof out));
    CHECK_STR(out, "2");
    CHECK(!isk_format_float(i, ISK_DISPLAY_INT, 1, out, sizeof out));

    /* bits are unchanged: a behaviour copies F into P as raw bits, a write of a float's bits
     * reads back the same */
    isk_system *sys = isk_system_new(NULL);
    isk_inst *a = isk_system_add(sys, l.m, "a");
    CHECK_EQ(isk_write(a, "F", 0, 0x3fc00000), ISK_OK);
    isk_launch(sys, a, 0x01);
    isk_step(sys, 5);
    int64_t v = 0;
    isk_read(a, "P", 0, &v);
    CHECK_EQ(v, 0x3fc00000);
    isk_system_free(sys);
    unload(&l);

    /* a format that does not fit the cell is refused with the storage's name */
    load(&l, &bad_entry);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text ? l.out.text : "", "storage 'F' has a float display format that does not fit its width");
    unload(&l);
    return CHECK_DONE();
}
