/* Adding a DPU instruction is one TSV row plus, for a new family, one C operation: a variant of
 * the model built from instructions.tsv + xorswap/xorswap.tsv and xorswap/xorswap.h
 * (tests/dpu/tests.cmake) assembles, disassembles and runs `xorswap rc, ra, rb` (X = ra ^ rb with
 * its halves swapped), in an encoding the built-in DPU leaves undecodable. */
#define DH_MODEL DPU_VARIANT
#include "asm/disasm.h"
#include "dpu_harness.h"

#define PROG(...) ((const char *const[]){ __VA_ARGS__, NULL })

static isk_status run(dpu_harness *h, const char *const *lines)
{
    dh_open(h, NULL);
    dh_load(h, lines);
    return dh_run(h);
}

int main(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *base = isk_model_load("dpu", &diag);
    dpu_harness h;
    dh_open(&h, NULL);     /* loads the variant */
    isk_model *var = h.model;
    CHECK(base && var);
    if (!base || !var) return CHECK_DONE();

    /* The variant has every signature of the DPU and one more, in the same order. */
    CHECK_EQ(var->patterns.len, base->patterns.len + 1);

    /* Assembles in the variant only; the word decodes in the variant only. */
    isk_encoded e;
    char err[200], text[200];
    int at;
    isk_syntax_env env = { 0 };
    CHECK(!isk_syntax_encode(base, "xorswap r1, r2, r3", &env, &e, err, sizeof err, &at));
    const uint64_t word = dh_word(&h, "xorswap r1, r2, r3");
    CHECK_EQ(word >> 44, 0xc);
    int64_t ops[8];
    CHECK(isk_model_decode(base, word, ops) < 0);
    const int pat = isk_model_decode(var, word, ops);
    CHECK(pat >= 0);
    if (pat >= 0) CHECK_STR(var->patterns.data[pat].beh->name, "xorswap_rrr");
    CHECK(isk_disasm_word(var, word, 0, text, sizeof text));
    CHECK_STR(text, "xorswap r1, r2, r3");
    CHECK(isk_disasm_word(var, dh_word(&h, "xorswap r23, id8, r0"), 0, text, sizeof text));
    CHECK_STR(text, "xorswap r23, id8, r0");
    dh_close(&h);

    /* Runs: X = rol(ra ^ rb, 16), ZF from X, the other instructions unchanged. */
    CHECK_EQ(run(&h, PROG("move r2, 0x12345678", "move r3, 0xffff", "xorswap r1, r2, r3", "stop")), ISK_STOPPED);
    CHECK_EQ(dh_reg(&h, 0, 1), 0xa9871234u);
    CHECK_EQ(dh_zf(&h, 0), 0);
    dh_close(&h);
    CHECK_EQ(run(&h, PROG("move r2, 7", "move r1, 1", "xorswap r1, r2, r2", "jz r1, 5", "move r4, 9", "stop")),
             ISK_STOPPED);
    CHECK_EQ(dh_reg(&h, 0, 1), 0);
    CHECK_EQ(dh_zf(&h, 0), 1);
    CHECK_EQ(dh_reg(&h, 0, 4), 0);    /* jz r1 saw the 0 xorswap wrote */
    dh_close(&h);

    isk_model_release(base);
    return CHECK_DONE();
}
