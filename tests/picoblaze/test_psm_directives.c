/* The .psm directives and value forms beyond single instructions: labels (forward and backward),
 * CONSTANT (global, used before its definition), NAMEREG in program order, ADDRESS, INST,
 * STRING/TABLE with OUTPUTK/LOAD&RETURN expansion, DEFAULT_JUMP, INCLUDE (files on disk and in
 * memory), 'upper/'lower, %ENV, predefined constants and strings. */
#include <stdlib.h>
#include <unistd.h>

#include "psm_harness.h"

static void test_labels_and_constants(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm3",
                             "            CONSTANT limit, count_end\n"   /* a constant defined later */
                             "            CONSTANT count_end, 2A\n"
                             "start:      LOAD s0, limit\n"
                             "            JUMP later\n"
                             "back:       RETURN\n"
                             "later:      CALL back\n"
                             "            JUMP start\n");
    CHECK(p == NULL);                       /* CONSTANT values are literals: no forward reference */
    psm_done(&r);
    p = psm_try(&r, "kcpsm3",
                "start:      LOAD s0, limit     ; the constant is defined below\n"
                "            JUMP later\n"
                "back:       RETURN\n"
                "later:      CALL back\n"
                "            JUMP start\n"
                "            CONSTANT limit, 2A\n");
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x0002A);
        CHECK_EQ(p->words[1], 0x34003);
        CHECK_EQ(p->words[2], 0x2A000);
        CHECK_EQ(p->words[3], 0x30002);
        CHECK_EQ(p->words[4], 0x34000);
        CHECK_EQ(p->end, 5);
        CHECK_EQ(psm_find_symbol(p, "later")->value, 3);
        CHECK_EQ(psm_find_symbol(p, "limit")->value, 0x2A);
    }
    psm_done(&r);
}

static void test_namereg(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm6",
                             "            NAMEREG s3, counter\n"
                             "            LOAD counter, 05\n"
                             "            INPUT counter, ( counter )\n"
                             "            NAMEREG counter, total\n"
                             "            ADD total, total\n"
                             "            NAMEREG total, s3\n"     /* back to the default name */
                             "            SUB s3, 01\n");
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x01305);
        CHECK_EQ(p->words[1], 0x08330);
        CHECK_EQ(p->words[2], 0x10330);
        CHECK_EQ(p->words[3], 0x19301);
    }
    psm_done(&r);
    /* the default name is gone while renamed; STAR wants a default name */
    CHECK_CONTAINS(psm_errors(&r, "kcpsm6", "NAMEREG s3, counter\nLOAD s3, 00\n"),
                   "t.psm:2:6: error: register s3 has been renamed 'counter' by NAMEREG; use that name");
    psm_done(&r);
    CHECK_CONTAINS(psm_errors(&r, "kcpsm6", "NAMEREG s3, counter\nSTAR counter, 00\n"), "STAR writes the inactive bank");
    psm_done(&r);
}

static void test_address_inst_default_jump(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm3",
                             "            DEFAULT_JUMP trap\n"
                             "            JUMP main\n"
                             "            ADDRESS 010\n"
                             "main:       INST 2A5A5\n"
                             "trap:       JUMP trap\n"
                             "            ADDRESS 3FF\n"
                             "            JUMP main\n");
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x34010);
        CHECK_EQ(p->words[0x10], 0x2A5A5);
        CHECK_EQ(p->words[0x11], 0x34011);
        CHECK_EQ(p->words[0x3FF], 0x34010);
        CHECK_EQ(p->words[0x005], 0x34011);                      /* unused: JUMP trap */
        CHECK_EQ(p->words[0x200], 0x34011);
        CHECK(p->has_default_jump);
        CHECK_EQ(p->count, 4);
    }
    psm_done(&r);
    p = psm_try(&r, "kcpsm6", "DEFAULT_JUMP 7'd\nLOAD s0, 00\n");
    CHECK(p && p->words[1] == 0x22007 && p->words[4095] == 0x22007);
    psm_done(&r);
}

static void test_strings_and_tables(void)
{
    psm_run r;
    psm_program *p = psm_try(&r, "kcpsm6",
                             "            STRING hello$, \"Hi;\"   ; the ; inside is text\n"
                             "            TABLE digits#, [30, 31, 7F]\n"
                             "            TABLE dec#, [10, 255]'d\n"
                             "            OUTPUTK hello$, 3\n"
                             "table:      LOAD&RETURN s1, digits#\n"
                             "            LOAD&RETURN s2, dec#\n"
                             "            LOAD sA, table'upper\n"
                             "            LOAD sB, table'lower\n");
    CHECK(p != NULL);
    if (p) {
        static const uint32_t expected[] = { 0x2B483, 0x2B693, 0x2B3B3, 0x21130, 0x21131, 0x2117F,
                                             0x2120A, 0x212FF, 0x01A00, 0x01B03 };
        CHECK_EQ(p->end, 10);
        for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) CHECK_EQ(p->words[i], expected[i]);
    }
    psm_done(&r);
    CHECK_CONTAINS(psm_errors(&r, "kcpsm6", "OUTPUTK later$, 3\nSTRING later$, \"x\"\n"),
                   "'later$' is not a STRING or TABLE defined before this line");
    psm_done(&r);
}

static void test_values(void)
{
    psm_run r;
    setenv("PSM_TEST_VALUE", "3C", 1);
    psm_program *p = psm_try(&r, "kcpsm6",
                             "            CONSTANT mask, 0F\n"
                             "            LOAD s0, ~mask\n"
                             "            LOAD s1, %PSM_TEST_VALUE\n"
                             "            LOAD s2, \";\"\n"
                             "            LOAD s3, 5\n"
                             "            LOAD s4, datestamp_year\n"
                             "            STRING when$, datestamp$\n"
                             "            OUTPUTK when$, 0\n");
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x010F0);
        CHECK_EQ(p->words[1], 0x0113C);
        CHECK_EQ(p->words[2], 0x0123B);
        CHECK_EQ(p->words[3], 0x01305);
        CHECK_EQ(p->words[4], 0x01446);                          /* 1970 (timestamp 0) */
        CHECK_EQ(p->end, 5 + 11);                                /* "01 Jan 1970" */
        CHECK_EQ(p->words[5], 0x2B300);
    }
    psm_done(&r);
}

static void test_include(void)
{
    char dir[] = "/tmp/isekit-psm-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], sub[256];
    snprintf(path, sizeof path, "%s/main.psm", dir);
    snprintf(sub, sizeof sub, "%s/part.psm", dir);
    FILE *f = fopen(sub, "w");
    fputs("part:   LOAD s1, value\n        RETURN\n", f);
    fclose(f);
    f = fopen(path, "w");
    fputs("        CALL part\n        CALL lib\n        INCLUDE \"part.psm\"\n        INCLUDE \"lib.psm\"\n"
          "        CONSTANT value, 11\n", f);
    fclose(f);
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("kcpsm3", &diag);
    psm_options o;
    psm_options_init(&o, m);
    psm_file lib = { "lib.psm", "lib: LOAD s2, 22\n     RETURN\n" };
    o.files = &lib;
    o.nfiles = 1;
    psm_program *p = psm_assemble_file(path, &o, &diag);
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ(p->words[0], 0x30002);
        CHECK_EQ(p->words[1], 0x30004);
        CHECK_EQ(p->words[2], 0x00111);
        CHECK_EQ(p->words[4], 0x00222);
        CHECK_STR(psm_find_symbol(p, "part")->file, sub);
        CHECK_EQ(psm_find_symbol(p, "part")->line, 1);
    }
    psm_program_free(p);
    isk_model_release(m);
    unlink(sub);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_labels_and_constants();
    test_namereg();
    test_address_inst_default_jump();
    test_strings_and_tables();
    test_values();
    test_include();
    return CHECK_DONE();
}
