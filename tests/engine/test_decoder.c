/* Format strings, field maps, the decoder tree, its ambiguity and coverage reports. */
#define ISK_BUILTIN_MODEL 1
#include <math.h>

#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

STATE_BEGIN                     /* no storage: a declared one would have to be named */
STATE_END

ACC_FUNCTION(Zero) {}
ACC_FUNCTION(One, a) { (void)a; }
ACC_FUNCTION(Two, a, b) { (void)a, (void)b; }
ACC_FUNCTION(Two_swapped, b, a) { (void)a, (void)b; }

/* ---- models, good and bad ------------------------------------------------------------------ */

MODEL_BEGIN(wrong_count, "a format one bit short")
    WORD_BITS(24);
    INSTRUCTION("11-**-0000-0000-001-LREG-GREG", Two);
MODEL_END

MODEL_BEGIN(bad_symbol, "a format with a stray symbol")
    WORD_BITS(8);
    INSTRUCTION("0001_aaaa", One);
MODEL_END

MODEL_BEGIN(ambiguous, "two formats accept 1111 0000")
    WORD_BITS(8);
    INSTRUCTION("1111-aaaa", One);
    INSTRUCTION("11bb-0000", One);
MODEL_END

MODEL_BEGIN(prioritised, "the same pair, with a priority")
    WORD_BITS(8);
    INSTRUCTION("1111-aaaa", One);
    INSTRUCTION("11bb-0000", One, .priority = 1);
MODEL_END

MODEL_BEGIN(split, "operands split over runs, signed, scaled, permuted")
    WORD_BITS(16);
    INSTRUCTION("00-aa-0101-aaaa-bbbb", Two);                          /* a = 6 bits, MSB run first */
    INSTRUCTION("01-0000-ssssssss-00", One, .fields = "s:s<<2");        /* signed, scaled by 4 */
    INSTRUCTION("10-0000-pppp-pppp-00", One,                            /* nibbles swapped */
                .fields = "p{7:4}=5:2 p{3:0}=9:6");
    INSTRUCTION("11-xxxx-0000-xxxxxx", One,                             /* a bit used twice */
                .fields = "x{5:0}=5:0 x{5}=13 x{4:2}=12:10");
MODEL_END

MODEL_BEGIN(domains, "same fixed bits, told apart by register tables")
    WORD_BITS(8);
    KIND_NAMES("low", "r0..r3=0");
    KIND_NAMES("high", "k4..k7=4");
    INSTRUCTION("00-000-rrr", One, "low {r:low}");
    INSTRUCTION("00-000-kkk", One, "high {k:high}");
MODEL_END

MODEL_BEGIN(overlap_domains, "domains that do not separate")
    WORD_BITS(8);
    KIND_NAMES("low", "r0..r4=0");
    KIND_NAMES("high", "k4..k7=4");
    INSTRUCTION("00-000-rrr", One, "low {r:low}");
    INSTRUCTION("00-000-kkk", One, "high {k:high}");
MODEL_END

MODEL_BEGIN(param_count, "behaviour and format disagree")
    WORD_BITS(8);
    INSTRUCTION("0000-aa-bb", One);
MODEL_END

MODEL_BEGIN(param_order, "a parameter named like another field")
    WORD_BITS(8);
    INSTRUCTION("0000-a-bbb", Two_swapped);
MODEL_END

MODEL_BEGIN(too_many, "seven operands")
    WORD_BITS(8);
    INSTRUCTION("0-a-b-c-d-e-f-g", Zero);
MODEL_END

MODEL_BEGIN(maps_mismatch, "field maps that miss marked bits")
    WORD_BITS(8);
    INSTRUCTION("0000-xxxx", One, .fields = "x{2:0}=2:0");
MODEL_END

MODEL_BEGIN(wide, "a 64-bit word")
    WORD_BITS(64);
    INSTRUCTION("1010-iiiiiiii-iiiiiiii-iiiiiiii-iiiiiiii-iiiiiiii-iiiiiiii-iiiiiiii-iiii", One,
                .fields = "i:s");
MODEL_END

/* ---- helpers --------------------------------------------------------------------------------- */

static int decode(isk_model *m, uint64_t w, int64_t ops[ISK_MAX_OPS])
{
    return isk_model_decode(m, w, ops);
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_malformed_formats(void)
{
    loaded l;
    load(&l, &isk_model_wrong_count);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "format '11-**-0000-0000-001-LREG-GREG' has 23 significant symbols but the "
                               "instruction word is 24 bits");
    unload(&l);

    load(&l, &isk_model_bad_symbol);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "format '0001_aaaa': '_' at position 5 is not 0, 1, a letter, '*' or '-'");
    unload(&l);

    load(&l, &isk_model_too_many);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "more than 6 operands");
    unload(&l);

    load(&l, &isk_model_maps_mismatch);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "the operand letters mark bits 0xf but the field maps cover 0x7");
    unload(&l);
}

static void test_ambiguity(void)
{
    loaded l;
    load(&l, &isk_model_ambiguous);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "formats '1111-aaaa' (One) and '11bb-0000' (One) both accept the words 1111-0000 (e.g. 0xf0)");
    unload(&l);

    load(&l, &isk_model_prioritised);
    CHECK(l.m != NULL);
    int64_t ops[ISK_MAX_OPS];
    CHECK_EQ(decode(l.m, 0xf0, ops), 1);           /* the higher priority wins the overlap */
    CHECK_EQ(ops[0], 3);
    CHECK_EQ(decode(l.m, 0xf5, ops), 0);
    CHECK_EQ(ops[0], 5);
    CHECK_EQ(decode(l.m, 0xd0, ops), 1);
    CHECK_EQ(decode(l.m, 0x0f, ops), -1);          /* undefined */
    isk_coverage c;
    isk_model_coverage(l.m, &c);
    /* 1111xxxx (16 words) + 11xx0000 (4, one shared) = 19 of 256 decodable */
    CHECK(fabs(c.undecodable_fraction - (256.0 - 19.0) / 256.0) < 1e-9);
    CHECK(c.nregions > 0);
    CHECK_STR(c.regions[0], "00**-****");
    unload(&l);
}

static void test_split_signed_scaled_permuted(void)
{
    loaded l;
    load(&l, &isk_model_split);
    CHECK(l.m != NULL);
    int64_t ops[ISK_MAX_OPS];
    /* 00 aa 0101 aaaa bbbb: a = 10 1100 = 0x2c, b = 0x9 */
    CHECK_EQ(decode(l.m, 0x25c9, ops), 0);
    CHECK_EQ(ops[0], 0x2c);
    CHECK_EQ(ops[1], 9);
    /* 01 0000 ssssssss 00 with s = 0xfe: -2 << 2 = -8 */
    CHECK_EQ(decode(l.m, 0x4000 | 0xfe << 2, ops), 1);
    CHECK_EQ(ops[0], -8);
    /* 10 0000 pppp pppp 00 with word nibbles 0x3 (bits 9:6) and 0xa (bits 5:2): p = 0xa3 */
    CHECK_EQ(decode(l.m, 0x8000 | 0x3 << 6 | 0xa << 2, ops), 2);
    CHECK_EQ(ops[0], 0xa3);
    /* insertion is the inverse, replicated bits included */
    const isk_pattern *p = &l.m->patterns.data[3];
    for (int64_t v = 0; v < 64; v++) {
        uint64_t w = p->match;
        CHECK(isk_field_insert(&p->field[0], v, &w));
        CHECK_EQ(isk_field_extract(&p->field[0], w), v);
        CHECK_EQ(decode(l.m, w, ops), 3);
        CHECK_EQ(ops[0], v);
    }
    uint64_t w = 0;
    CHECK(!isk_field_insert(&l.m->patterns.data[1].field[0], 6, &w));   /* not a multiple of 4 */
    unload(&l);

    /* flag n: the operand is minus the field (scaled first), both ways */
    isk_field neg;
    CHECK(isk_parse_field_map("v:sn<<1{7:0}=7:0", 16, &neg, NULL));
    CHECK(neg.negate && neg.is_signed && neg.scale == 1);
    w = 0;
    CHECK(isk_field_insert(&neg, 10, &w));
    CHECK_EQ(w, 0xfb);                                   /* -10 >> 1 = -5 */
    CHECK_EQ(isk_field_extract(&neg, w), 10);
    CHECK_EQ(isk_field_extract(&neg, 0x80), 256);        /* -(-128 << 1) */

    load(&l, &isk_model_wide);
    CHECK(l.m != NULL);
    CHECK_EQ(decode(l.m, UINT64_C(0xafffffffffffffff), ops), 0);
    CHECK_EQ(ops[0], -1);
    unload(&l);
}

static void test_domains(void)
{
    loaded l;
    load(&l, &isk_model_domains);
    CHECK(l.m != NULL);
    if (!l.m) return;
    int64_t ops[ISK_MAX_OPS];
    CHECK_EQ(decode(l.m, 0x02, ops), 0);
    CHECK_EQ(ops[0], 2);
    CHECK_EQ(decode(l.m, 0x06, ops), 1);
    CHECK_EQ(ops[0], 6);
    unload(&l);

    load(&l, &isk_model_overlap_domains);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "both accept the words 0000-0*** (e.g. 0x04)");
    unload(&l);
}

static void test_parameters(void)
{
    loaded l;
    load(&l, &isk_model_param_count);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "behaviour One takes 1 operand(s) but format '0000-aa-bb' has 2");
    unload(&l);

    load(&l, &isk_model_param_order);
    CHECK(l.m == NULL);
    CHECK_CONTAINS(l.out.text, "behaviour Two_swapped parameter 1 is 'b' but operand 'b' of '0000-a-bbb' is at "
                               "position 2");
    unload(&l);
}

int main(void)
{
    test_malformed_formats();
    test_ambiguity();
    test_split_signed_scaled_permuted();
    test_domains();
    test_parameters();
    return CHECK_DONE();
}
