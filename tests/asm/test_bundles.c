/* Issue groups in assembly (PROCESSOR .group_bit): "{ a ; b }" on one line or '{', members and
 * '}' on lines of their own; the group bit set on the head (on every word with .group_all); a
 * group not at a multiple of its size (of .group_align words when the model says so: then at any
 * word, and the listing finds each group from its head), the wrong number of members, a solo instruction inside,
 * an instruction in a member it may not be (INSTRUCTION .group_slot), a directive other than a conditional inside, '}' alone and '{' never closed are errors at file:line:column; the
 * disassembler prints a group back as "{ a ; b }", which assembles to the same words. */
#define ISK_BUILTIN_MODEL 1

#include "asm/asm.h"
#include "asm/disasm.h"
#include "check.h"
#include "engine/loaded_model.h"
#include "isekit/model.h"

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
STATE_END

BEHAVIOUR(Add, i) { (void)i; }
BEHAVIOUR(Enter) {}
BEHAVIOUR(Leave) {}
BEHAVIOUR(Tail) {}

/* Bit 15 announces a group of two words; 'leave' issues alone, 'tail' only second in a group. */
#define BUNDLE_FORMATS \
    INSTRUCTION("*-001-0000-iiiiiiii", Add, "add {i}"); \
    INSTRUCTION("*-010-0000-0000-0000", Enter, "enter"); \
    INSTRUCTION("*-011-0000-0000-0000", Leave, "leave", .solo = 1); \
    INSTRUCTION("*-100-0000-0000-0000", Tail, "tail", .group_slot = 2);

MODEL_BEGIN(head_marked, "the group bit on a group's head")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    BUNDLE_FORMATS
MODEL_END

MODEL_BEGIN(all_marked, "the group bit on every word of a group")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2, .group_all = 1);
    MEMORY(ROM, "code");
    BUNDLE_FORMATS
MODEL_END

MODEL_BEGIN(any_word, "groups at any word, the group bit on every word")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2, .group_all = 1, .group_align = 1);
    MEMORY(ROM, "code");
    BUNDLE_FORMATS
MODEL_END

MODEL_BEGIN(no_groups, "no issue groups")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1);
    MEMORY(ROM, "code");
    INSTRUCTION("0-001-0000-iiiiiiii", Add, "add {i}");
MODEL_END

typedef struct result { isk_obj *o; isk_diag d; isk_diag_buffer b; } result;

static void assemble(result *r, const isk_model *m, const char *text)
{
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->b);
    isk_asm *a = isk_asm_new(m, "t.o", NULL, &r->d);
    isk_asm_text(a, "t.s", text, strlen(text));
    r->o = isk_asm_finish(a);
    isk_asm_free(a);
}

static void done(result *r)
{
    isk_obj_free(r->o);
    isk_diag_buffer_free(&r->b);
}

/* The 16-bit words of .text, as a hex string "9001 2000". */
static void words(const result *r, char *out, size_t cap)
{
    out[0] = 0;
    uint32_t i = r->o ? isk_obj_find_section(r->o, ".text") : 0;
    if (!i) return;
    const isk_section *s = &r->o->secs.data[i];
    size_t n = 0;
    for (uint64_t off = 0; off + 1 < s->size && n + 6 < cap; off += 2)
        n += (size_t)snprintf(out + n, cap - n, "%s%04x", off ? " " : "", s->data[off] | s->data[off + 1] << 8);
}

static void expect_words(const isk_model *m, const char *text, const char *want)
{
    result r;
    char got[128];
    assemble(&r, m, text);
    CHECK(r.o != NULL);
    if (!r.o) fprintf(stderr, "%s", r.b.text ? r.b.text : "");
    words(&r, got, sizeof got);
    CHECK_STR(got, want);
    done(&r);
}

static void expect_error(const isk_model *m, const char *text, const char *message)
{
    result r;
    assemble(&r, m, text);
    CHECK(r.o == NULL);
    CHECK_CONTAINS(r.b.text ? r.b.text : "", message);
    done(&r);
}

static void test_encoding(const isk_model *head, const isk_model *all)
{
    expect_words(head, "{ add 1 ; enter }\n", "9001 2000");
    expect_words(all, "{ add 1 ; enter }\n", "9001 a000");
    /* on lines of their own, after a label, next to plain instructions */
    expect_words(all, "  add 3\n  add 4\nloop: {\n  add 1\n  enter\n}\n  leave\n  add 5\n",
                 "1003 1004 9001 a000 3000 1005");
    expect_words(all, "{\n  add 1 ; enter }\n{ add 2\n add 3\n }\n", "9001 a000 9002 9003");
    /* conditionals choose members (poplibs: `.ifc \TYPE, half` between the braces) */
    expect_words(all, ".set half, 1\n{\n.if half\n  add 1\n.else\n  add 2\n.endif\n  enter\n}\n", "9001 a000");
    /* an operand resolved at the end keeps the group bit */
    expect_words(head, "{ add later ; enter }\nlater = 7\n", "9007 2000");
}

static void test_errors(const isk_model *m, const isk_model *plain)
{
    expect_error(m, "  add 1\n  { add 2 ; enter }\n",
                 "t.s:2:3: error: bundle at offset 0x2 of .text is not aligned to 4 bytes: the assembler does not "
                 "insert padding; put an instruction before it or '.align 4'");
    expect_error(m, "{ add 1 ; leave }\n", "t.s:1:11: error: 'leave' may not be in a bundle: it issues alone "
                 "(INSTRUCTION .solo)");
    expect_words(m, "{ add 1 ; tail }\n  tail\n", "9001 4000 4000");
    expect_error(m, "{ tail ; add 1 }\n", "t.s:1:3: error: 'tail' must be instruction 2 of a bundle, not 1 "
                 "(INSTRUCTION .group_slot)");
    expect_error(m, "{ add 1 }\n", "t.s:1:9: error: a bundle of 1 instruction: model 'head_marked' bundles exactly 2");
    expect_error(m, "{ add 1 ; add 2 ; add 3 }\n",
                 "t.s:1:19: error: a bundle of model 'head_marked' holds 2 instructions: this is instruction 3");
    expect_error(m, "{\n .word 1\n add 1 }\n", "t.s:2:2: error: only instructions and conditionals (.if, .else, .endif) may be in a bundle");
    expect_error(m, "  add 1\n  }\n", "t.s:2:3: error: '}' without '{'");
    expect_error(m, "  add 1\n  add 2\n  {\n  add 3\n", "t.s:3:3: error: bundle '{' without '}'");
    expect_error(m, "{ add 1 ; enter } add 2\n", "t.s:1:19: error: text after the bundle's '}'");
    expect_error(plain, "  { add 1 ; add 2 }\n",
                 "t.s:1:3: error: instruction bundles '{ ... }' are not supported for model 'no_groups'");
}

/* .group_align = 1: a group at any word assembles, and the section is aligned to one word; the
 * default refuses it and aligns the section to the group's size. */
static void test_alignment(const isk_model *any, const isk_model *all)
{
    expect_words(any, "  add 1\n  { add 2 ; enter }\n  { add 3 ; add 4 }\n", "1001 9002 a000 9003 9004");
    expect_error(all, "  add 1\n  { add 2 ; enter }\n", "t.s:2:3: error: bundle at offset 0x2 of .text is not "
                 "aligned to 4 bytes");
    const isk_model *models[] = { any, all };
    const uint64_t align[] = { 2, 4 };
    for (int i = 0; i < 2; i++) {
        result r;
        assemble(&r, models[i], "{ add 1 ; enter }\n");
        uint32_t sec = r.o ? isk_obj_find_section(r.o, ".text") : 0;
        CHECK(sec != 0);
        if (sec) CHECK_EQ(r.o->secs.data[sec].align, align[i]);
        done(&r);
    }
}

/* The plain listing of `text` assembled for m. */
static char *listing(const isk_model *m, const char *text)
{
    result r;
    assemble(&r, m, text);
    CHECK(r.o != NULL);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (r.o) isk_disasm_obj(m, r.o, f, &(isk_disasm_options){ .plain = true });
    fclose(f);
    done(&r);
    return out;
}

/* With groups at any word, the listing walks from the section's start and takes a group from
 * its head: a member with the group bit (.group_all) is never read as the head of another group,
 * so "{ add 2 ; add 3 }" then "add 4" is not listed as add 2 then "{ add 3 ; add 4 }". */
static void test_disassembly_any_word(const isk_model *m)
{
    const char *source = "  add 9\n{ add 1 ; enter }\n{ add 2 ; add 3 }\n  add 4\n";
    char *text = listing(m, source);
    CHECK_STR(text, "add 9\n{ add 1 ; enter }\n{ add 2 ; add 3 }\nadd 4\n");
    expect_words(m, text, "1009 9001 a000 9002 9003 1004");
    free(text);
}

/* The listing shows a group on one line, and that line assembles to the same words. */
static void test_disassembly(const isk_model *m)
{
    char *text = listing(m, "  add 9\n  enter\n{ add 1 ; enter }\n");
    CHECK_STR(text, "add 9\nenter\n{ add 1 ; enter }\n");
    expect_words(m, text, "1009 2000 9001 a000");
    free(text);

    char line[64];
    CHECK(isk_disasm_group(m, (const uint64_t[]){ 0x9001, 0xa000 }, 2, 0, line, sizeof line));
    CHECK_STR(line, "{ add 1 ; enter }");
    CHECK(!isk_disasm_group(m, (const uint64_t[]){ 0x9001, 0xb000 }, 2, 0, line, sizeof line));
    CHECK_STR(line, "{ add 1 ; .inst 0xb000 }");     /* solo 'leave' with the group bit is no instruction */
}

int main(void)
{
    loaded head, all, any, plain;
    load(&head, &isk_model_head_marked);
    load(&all, &isk_model_all_marked);
    load(&any, &isk_model_any_word);
    load(&plain, &isk_model_no_groups);
    CHECK(head.m && all.m && any.m && plain.m);
    if (head.m && all.m && any.m && plain.m) {
        test_encoding(head.m, all.m);
        test_errors(head.m, plain.m);
        test_alignment(any.m, all.m);
        test_disassembly(all.m);
        test_disassembly_any_word(any.m);
    }
    unload(&head);
    unload(&all);
    unload(&any);
    unload(&plain);
    return CHECK_DONE();
}
