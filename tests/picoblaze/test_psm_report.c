/* Every error of a file, whatever stage finds it, with exact messages; the KCPSM6 hint; and
 * opbasm's syntax extensions (0x hex, "&&" macro labels, ".local" labels, FETCH/STORE/INPUT/
 * OUTPUT sX, sY without parentheses). */
#include <string.h>

#include "psm_harness.h"

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++) n++;
    return n;
}

/* Errors at three stages (splitting, pass 1, pass 2) in one file: all three are reported, and a
 * duplicate CONSTANT does not hide the encoding errors of later lines. */
static void test_every_stage_reported(void)
{
    psm_run r;
    const char *out = psm_errors(&r, "kcpsm3",
                                 "  CONSTANT x, 01\n"
                                 "  CONSTANT x, 02\n"              /* pass 1 */
                                 "start: !bad\n"                    /* splitting */
                                 "  LOAD s0, zz\n"                  /* pass 2 */
                                 "  JUMP start\n"                   /* its label still defined */
                                 "  CONSTANT y, 1G\n"               /* pass 1, and y's uses stay quiet */
                                 "  LOAD s1, y\n"
                                 "  ADD s2, 100\n");                /* pass 2 */
    CHECK_CONTAINS(out, "t.psm:2:12: error: 'x' is already defined at t.psm:1");
    CHECK_CONTAINS(out, "t.psm:3:8: error: expected an instruction or a directive, not '!'");
    CHECK_CONTAINS(out, "t.psm:4:12: error: 'zz' is not defined");
    CHECK_CONTAINS(out, "t.psm:6:15: error: '1G' is not defined");
    CHECK_CONTAINS(out, "t.psm:8:11: error: operand k: 256 is out of range [0, 255]");
    CHECK_EQ(count(out, "error:"), 5);
    psm_done(&r);
    /* an ADDRESS refused in pass 1 is not reported again in pass 2 */
    out = psm_errors(&r, "kcpsm3", "  ADDRESS 400\n  LOAD s0, 00\n");
    CHECK_EQ(count(out, "error:"), 1);
    CHECK_CONTAINS(out, "t.psm:1:11: error: address 400 is outside the 1024-word program space");
    psm_done(&r);
}

static void expect_exact(const char *core, const char *text, const char *message)
{
    psm_run r;
    const char *out = psm_errors(&r, core, text);
    CHECK_CONTAINS(out, message);
    CHECK_EQ(count(out, "error:"), 1);
    psm_done(&r);
}

static void test_exact_messages(void)
{
    expect_exact("kcpsm3", "  LOAD s0, 0G\n", "t.psm:1:12: error: '0G' is not defined\n");
    expect_exact("kcpsm3", "  LOAD s0, 01 junk\n", "t.psm:1:12: error: '01junk' is not defined\n");
    expect_exact("kcpsm3", "  FETCH s0, (s1\n", "t.psm:1:13: error: expected ')'\n");      /* at the operand */
    expect_exact("kcpsm3", "  LOAD s0, 0xFG\n", "t.psm:1:12: error: '0xFG' is not defined\n");
    expect_exact("kcpsm6", "0x10: LOAD s0, 00\n", "t.psm:1:1: error: '0x10' reads as a hex value; a label needs another name");
}

static void test_kcpsm6_hint(void)
{
    static const char *const k6_only[] = { "  STAR s0, s1\n", "  OUTPUTK 12, 3\n", "  JUMP@ (s1, s2)\n",
                                           "  LOAD&RETURN s0, 12\n", "  REGBANK B\n", "  HWBUILD s0\n" };
    for (size_t i = 0; i < sizeof k6_only / sizeof *k6_only; i++) {
        psm_run r;
        isk_diag_init(&r.diag);
        r.messages = (isk_diag_buffer){ 0 };
        isk_diag_capture(&r.diag, &r.messages);
        r.model = isk_model_load("kcpsm3", &r.diag);
        isk_model *k6 = isk_model_load("kcpsm6", &r.diag);
        psm_options_init(&r.opt, r.model);
        r.opt.hint_model = k6;
        r.opt.hint = "use -6";
        r.prog = psm_assemble_text("t.psm", k6_only[i], &r.opt, &r.diag);
        CHECK(r.prog == NULL);
        CHECK_CONTAINS(r.messages.text ? r.messages.text : "", "for model 'kcpsm3'; use -6\n");
        isk_model_release(k6);
        psm_done(&r);
    }
    /* a line neither core takes gets no hint */
    psm_run r;
    CHECK(strstr(psm_errors(&r, "kcpsm3", "  FROB s0\n"), "use -6") == NULL);
    psm_done(&r);
}

/* opbasm's forms give the words of their Xilinx spellings (KCPSM6 encodings). */
static void test_opbasm_forms(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm6",
                             "main:    load s0, 0x1F\n"
                             ".loop:   sub s0, 1\n"
                             "         jump nz, .loop\n"           /* main.loop */
                             "&&m1:    fetch s1, s0\n"             /* a macro label opens no scope */
                             "         store s1, s2\n"
                             "         input s3, s4\n"
                             "         output s3, s4\n"
                             "         jump &&m1\n"
                             "other:   jump .loop\n"               /* other.loop, below */
                             ".loop:   jump main.loop\n"
                             "         NAMEREG s5, ptr\n"
                             "         fetch s6, ptr\n"            /* a NAMEREG name is a register too */
                             "         load s7, .loop'lower\n"
                             "         INST 0x3AABB\n");
    CHECK(p != NULL);
    if (p) {
        static const uint32_t want[] = { 0x0101F, 0x19001, 0x36001, 0x0A100, 0x2E120, 0x08340,
                                         0x2C340, 0x22003, 0x22009, 0x22001, 0x0A650, 0x01709, 0x3AABB };
        for (size_t i = 0; i < sizeof want / sizeof *want; i++) CHECK_EQ(p->words[i], want[i]);
        CHECK_EQ(psm_find_symbol(p, "main.loop")->value, 1);
        CHECK_EQ(psm_find_symbol(p, "other.loop")->value, 9);
        CHECK_EQ(psm_find_symbol(p, "&&m1")->value, 3);
    }
    psm_done(&r);
    /* a constant in that place stays a direct address */
    p = psm_try(&r, "kcpsm6", "  CONSTANT port, 12\n  output s3, port\n  fetch s0, 0x3F\n");
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x2D312);
        CHECK_EQ(p->words[1], 0x0B03F);
    }
    psm_done(&r);
}

int main(void)
{
    test_every_stage_reported();
    test_exact_messages();
    test_kcpsm6_hint();
    test_opbasm_forms();
    return CHECK_DONE();
}
