/* A processor's instruction sets (PROCESSOR .isets, INSTRUCTION .iset) and issue groups
 * (PROCESSOR .group_bit, .group_words) on the description and decoder side: one decoder per set,
 * so that two sets give one encoding two meanings; overlaps refused within a set; the group bit
 * cleared before decoding; the declarations the builder refuses, at their lines. */
#define ISK_BUILTIN_MODEL 1
#include <math.h>

#include "asm/disasm.h"
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 16) ROM;
STATE_END

/* A supervisor set (0) and a worker set (1) that reuse 0001-0000-iiiiiiii. */
BEHAVIOUR(Add, i)   { (void)i; }
BEHAVIOUR(Sub, i)   { (void)i; }
BEHAVIOUR(Enter)    { SET_ISET(CONTEXT, 1); }
BEHAVIOUR(Leave)    { SET_ISET(CONTEXT, 0); }

static void on_exception(isk_hdr *h, int cause, const char *message) { (void)h, (void)cause, (void)message; }

/* Lines of declarations the messages must name, set as the descriptions run. */
static int processor_line, declaration_line;

#define TWO_SETS \
    INSTRUCTION("0001-0000-iiiiiiii", Add, "add {i}"); \
    INSTRUCTION("0001-0000-iiiiiiii", Sub, "sub {i}", .iset = 1); \
    INSTRUCTION("0010-0000-0000-0000", Enter, "enter"); \
    INSTRUCTION("0011-0000-0000-0000", Leave, "leave", .iset = 1);

MODEL_BEGIN(two_sets, "two instruction sets, one encoding each")
    WORD_BITS(16);
    MEMORY(ROM, "code");
    TWO_SETS                                      /* before PROCESSOR: the order is free */
    PROCESSOR(.code = "ROM", .contexts = 1, .isets = 2);
MODEL_END

MODEL_BEGIN(overlap_in_set, "two formats of set 1 accept one word")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .isets = 2);
    MEMORY(ROM, "code");
    TWO_SETS
    declaration_line = __LINE__; INSTRUCTION("0001-0000-0000-iiii", Add, "add4 {i}", .iset = 1);
MODEL_END

MODEL_BEGIN(iset_too_high, ".iset past the declared sets")
    WORD_BITS(16);
    processor_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .isets = 2);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("0001-0000-iiiiiiii", Sub, "sub {i}", .iset = 2);
MODEL_END

MODEL_BEGIN(iset_negative, "a negative .iset on a processor of one set")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("0001-0000-iiiiiiii", Sub, "sub {i}", .iset = -1);
MODEL_END

MODEL_BEGIN(iset_accelerator, ".iset without a PROCESSOR")
    WORD_BITS(16);
    SLOTS(1);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("0001-0000-iiiiiiii", Sub, "sub {i}", .iset = 1);
MODEL_END

MODEL_BEGIN(too_many_isets, "more instruction sets than a processor may have")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .isets = ISK_MAX_ISETS + 1);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(alias_across_sets, "an alias in set 1 of an instruction of set 0 only")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .isets = 2);
    MEMORY(ROM, "code");
    INSTRUCTION("0001-0000-iiiiiiii", Add, "add {i}");
    declaration_line = __LINE__; INSTRUCTION("0001-0000-0000-0000", Add, "clear", .alias = 1, .iset = 1);
MODEL_END

/* Bit 15 announces a group of two words; no format uses it. */
#define GROUP_FORMATS \
    INSTRUCTION("*-001-0000-iiiiiiii", Add, "add {i}"); \
    INSTRUCTION("*-010-0000-0000-0000", Enter, "enter");

MODEL_BEGIN(groups, "issue groups of two words")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    GROUP_FORMATS
MODEL_END

/* A solo instruction (INSTRUCTION .solo) may not be in a group: with bit 15 set it is illegal. */
MODEL_BEGIN(groups_solo, "issue groups and a solo instruction")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    GROUP_FORMATS
    INSTRUCTION("*-011-0000-0000-0000", Leave, "leave", .solo = 1);
MODEL_END

/* A solo instruction whose format fixes the group bit to 1 (the IPU's sendpicp): a word with
 * the bit that decodes as it is that instruction, not a group's head. */
MODEL_BEGIN(groups_solo_bit_set, "issue groups and a solo instruction with the group bit set")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2, .group_align = 1);
    MEMORY(ROM, "code");
    GROUP_FORMATS
    INSTRUCTION("*-011-0000-iiiiiiii", Add, "long {i}", .solo = ISK_SOLO_BIT_SET);
MODEL_END

MODEL_BEGIN(solo_unknown, "a .solo value that is neither ISK_SOLO nor ISK_SOLO_BIT_SET")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("*-011-0000-0000-0000", Leave, "leave", .solo = 3);
MODEL_END

MODEL_BEGIN(solo_without_groups, "a solo instruction in a processor without groups")
    WORD_BITS(16);
    processor_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("0-011-0000-0000-0000", Leave, "leave", .solo = 1);
MODEL_END

MODEL_BEGIN(group_all_alone, "group_all without a group bit")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_all = 1);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_bit_fixed, "a format fixes the group bit")
    WORD_BITS(16);
    processor_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    GROUP_FORMATS
    declaration_line = __LINE__; INSTRUCTION("1-011-0000-0000-0000", Leave, "leave");
MODEL_END

MODEL_BEGIN(group_bit_operand, "an operand on the group bit")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; INSTRUCTION("i-001-0000-iiiiiiii", Add, "add {i}");
MODEL_END

MODEL_BEGIN(group_bit_outside, "a group bit past the word")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 16, .group_words = 2);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_too_long, "a group of five words")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 5);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_too_short, "a group of one word")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 1);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_words_alone, "group words without a group bit")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_words = 2);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_align_odd, "groups of four words aligned to three")
    WORD_BITS(16);
    declaration_line = __LINE__ + 1;
    PROCESSOR(.code = "ROM", .contexts = 1, .group_bit = 15, .group_words = 4, .group_align = 3);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(group_align_alone, "group alignment without a group bit")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = 1, .group_align = 1);
    MEMORY(ROM, "code");
MODEL_END

MODEL_BEGIN(exception_accelerator, "ON_EXCEPTION without a PROCESSOR")
    WORD_BITS(16);
    SLOTS(1);
    MEMORY(ROM, "code");
    declaration_line = __LINE__; ON_EXCEPTION(on_exception);
MODEL_END

MODEL_BEGIN(too_many_contexts, "more contexts than a scheduler's mask holds")
    WORD_BITS(16);
    declaration_line = __LINE__; PROCESSOR(.code = "ROM", .contexts = ISK_MAX_CONTEXTS + 1);
    MEMORY(ROM, "code");
MODEL_END

/* ---- helpers --------------------------------------------------------------------------------- */

/* The model is refused with exactly `errors` errors, one of them `message` at `*line` of this
 * file (a line the description sets as it runs). */
static void refused_at(const struct isk_model_entry *e, int errors, const int *line, const char *message)
{
    loaded l;
    load(&l, e);
    CHECK(l.m == NULL);
    CHECK_EQ(l.d.errors, errors);
    char want[512];
    snprintf(want, sizeof want, "%s:%d: error: model '%s': %s", __FILE__, *line, e->name, message);
    CHECK_CONTAINS(l.out.text ? l.out.text : "", want);
    unload(&l);
}

/* Run a description once so that the line variables it sets hold its lines (for a message
 * that names one before the call). */
static void lines_of(const struct isk_model_entry *e)
{
    loaded l;
    load(&l, e);
    unload(&l);
}

static int find_behaviour(const isk_model *m, const char *name, int iset)
{
    for (int i = 0; i < isk_model_instruction_count(m); i++)
        if (!strcmp(isk_model_instruction(m, i)->behaviour, name) && isk_model_instruction(m, i)->iset == iset)
            return i;
    return -2;
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_one_encoding_two_sets(void)
{
    loaded l;
    load(&l, &isk_model_two_sets);
    CHECK(l.m != NULL);
    if (!l.m) return;
    const isk_model *m = l.m;
    CHECK_EQ(m->isets, 2);
    int add = find_behaviour(m, "Add", 0), sub = find_behaviour(m, "Sub", 1);
    int enter = find_behaviour(m, "Enter", 0), leave = find_behaviour(m, "Leave", 1);
    CHECK(add >= 0 && sub >= 0 && enter >= 0 && leave >= 0);

    int64_t ops[ISK_MAX_OPS];
    CHECK_EQ(isk_model_decode_iset(m, 0, 0x1005, ops), add);      /* the same word, two meanings */
    CHECK_EQ(ops[0], 5);
    CHECK_EQ(isk_model_decode_iset(m, 1, 0x1005, ops), sub);
    CHECK_EQ(ops[0], 5);
    CHECK_EQ(isk_model_decode_iset(m, 0, 0x3000, ops), -1);       /* leave is set 1's alone */
    CHECK_EQ(isk_model_decode_iset(m, 1, 0x3000, ops), leave);
    CHECK_EQ(isk_model_decode_iset(m, 1, 0x2000, ops), -1);
    CHECK_EQ(isk_model_decode_iset(m, 2, 0x1005, ops), -1);       /* no such set */
    CHECK_EQ(isk_model_decode_iset(m, -1, 0x1005, ops), -1);

    /* the tools' decode: set 0 first, then set 1 */
    CHECK_EQ(isk_model_decode(m, 0x1005, ops), add);
    CHECK_EQ(isk_model_decode(m, 0x2000, ops), enter);
    CHECK_EQ(isk_model_decode(m, 0x3000, ops), leave);
    CHECK_EQ(isk_model_instruction(m, leave)->iset, 1);
    CHECK_EQ(isk_model_decode(m, 0x4000, ops), -1);
    char text[64];
    CHECK(isk_disasm_word(m, 0x3000, 0, text, sizeof text));
    CHECK_STR(text, "leave");

    /* the coverage report is about set 0: 0x10xx and 0x2000 are its 257 words */
    isk_coverage c;
    isk_model_coverage(m, &c);
    CHECK(fabs(c.undecodable_fraction - (65536.0 - 257.0) / 65536.0) < 1e-12);
    unload(&l);
}

/* A word that only another set decodes is illegal where it stands, and the message says which
 * set has it (the IPU supervisor issuing a worker instruction). */
static void test_illegal_in_this_set(void)
{
    loaded l;
    load(&l, &isk_model_two_sets);
    CHECK(l.m != NULL);
    if (!l.m) return;
    static const struct { uint16_t word; const char *says; } cases[] = {
        { 0x3000, "pc 0x0: illegal instruction 0x3000 (leave is an instruction of set 1; this context decodes set 0)" },
        { 0x4000, "pc 0x0: illegal instruction 0x4000" },                      /* no set has it */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &l.d });
        isk_inst *cpu = isk_system_add(sys, l.m, "cpu");
        CHECK_EQ(isk_write(cpu, "ROM", 0, cases[i].word), ISK_OK);
        CHECK_EQ(isk_run(sys, 10), ISK_FAULT);
        CHECK_CONTAINS(isk_last_error(sys), cases[i].says);
        if (i) CHECK(strstr(isk_last_error(sys), "(") == NULL);
        isk_system_free(sys);
    }
    unload(&l);
}

static void test_overlap_within_a_set(void)
{
    refused_at(&isk_model_overlap_in_set, 1, &declaration_line,
               "formats '0001-0000-iiiiiiii' (Sub) and '0001-0000-0000-iiii' (Add) of instruction set 1 both "
               "accept the words 0001-0000-0000-**** (e.g. 0x1000)");
}

static void test_bad_iset(void)
{
    lines_of(&isk_model_iset_too_high);
    char want[256];
    snprintf(want, sizeof want, "INSTRUCTION '0001-0000-iiiiiiii' (.iset = 2): the PROCESSOR (line %d) has 2 "
             "instruction set(s), .iset 0..1", processor_line);
    refused_at(&isk_model_iset_too_high, 1, &declaration_line, want);
    refused_at(&isk_model_iset_negative, 1, &declaration_line,
               "INSTRUCTION '0001-0000-iiiiiiii' (.iset = -1): the PROCESSOR");
    refused_at(&isk_model_iset_accelerator, 1, &declaration_line,
               "INSTRUCTION '0001-0000-iiiiiiii' (.iset = 1): only a PROCESSOR has instruction sets");
    refused_at(&isk_model_too_many_isets, 1, &declaration_line,
               "PROCESSOR(.isets = 65): a processor has 1..64 instruction sets (0 means 1)");
    refused_at(&isk_model_alias_across_sets, 1, &declaration_line,
               "alias '0001-0000-0000-0000' (clear) is no special case of any instruction of Add");
}

static void test_group_bit_cleared(void)
{
    loaded l;
    load(&l, &isk_model_groups);
    CHECK(l.m != NULL);
    if (!l.m) return;
    const isk_model *m = l.m;
    int64_t ops[ISK_MAX_OPS], head_ops[ISK_MAX_OPS];
    CHECK_EQ(isk_model_decode_iset(m, 0, 0x1007, ops), 0);
    CHECK_EQ(isk_model_decode_iset(m, 0, 0x9007, head_ops), 0);   /* 0x1007 with bit 15: a group's head */
    CHECK_EQ(head_ops[0], ops[0]);
    CHECK_EQ(isk_model_decode(m, 0x9007, NULL), 0);
    CHECK_EQ(isk_model_decode(m, 0xa000, NULL), 1);
    CHECK(isk_group_head(m, 0x9007));
    CHECK(!isk_group_head(m, 0x1007));

    /* the disassembler decodes a group's head (the bit cleared) */
    char head[64], plain[64];
    CHECK(isk_disasm_word(m, 0x9007, 0, head, sizeof head));
    CHECK(isk_disasm_word(m, 0x1007, 0, plain, sizeof plain));
    CHECK_STR(head, "add 7");
    CHECK_STR(head, plain);
    unload(&l);

    /* without groups nothing is a group's head, and bit 15 decodes as any bit */
    load(&l, &isk_model_two_sets);
    CHECK(l.m != NULL);
    if (!l.m) return;
    CHECK(!isk_group_head(l.m, 0xffff));
    CHECK_EQ(isk_model_decode(l.m, 0x9005, NULL), -1);
    unload(&l);
}

/* A solo format decodes only without the group bit; the others still match either value. */
static void test_solo(void)
{
    loaded l;
    load(&l, &isk_model_groups_solo);
    CHECK(l.m != NULL);
    if (!l.m) return;
    const isk_model *m = l.m;
    CHECK_EQ(isk_model_decode(m, 0x3000, NULL), 2);
    CHECK_EQ(isk_model_decode(m, 0xb000, NULL), -1);     /* leave with the group bit: illegal */
    CHECK_EQ(isk_model_decode(m, 0x9007, NULL), 0);      /* add as a group's head still decodes */
    CHECK_EQ(isk_model_decode(m, 0xa000, NULL), 1);
    CHECK(isk_model_instruction(m, 2)->solo);
    CHECK(!isk_model_instruction(m, 0)->solo);
    char text[64];
    CHECK(!isk_disasm_word(m, 0xb000, 0, text, sizeof text));
    CHECK_STR(text, ".inst 0xb000");
    unload(&l);
}

/* .solo = ISK_SOLO_BIT_SET: the word with the bit decodes as the instruction, alone; without
 * the bit it is illegal; a group's head that decodes as another format still opens a group
 * (isk_group_head, which the disassembler's listing asks); the engine issues the word alone. */
static void test_solo_bit_set(void)
{
    loaded l;
    load(&l, &isk_model_groups_solo_bit_set);
    CHECK(l.m != NULL);
    if (!l.m) {
        fprintf(stderr, "%s\n", l.out.text);
        return;
    }
    const isk_model *m = l.m;
    int64_t ops[ISK_MAX_OPS];
    CHECK_EQ(isk_model_decode(m, 0xb005, ops), 2);
    CHECK_EQ(ops[0], 5);
    CHECK_EQ(isk_model_decode(m, 0x3005, NULL), -1);
    CHECK_EQ(isk_model_instruction(m, 2)->solo, ISK_SOLO_BIT_SET);
    CHECK_EQ(isk_model_instruction(m, 2)->match, 0xb000u);
    CHECK(!isk_group_head(m, 0xb005));
    CHECK(isk_group_head(m, 0x9007));
    char text[64];
    CHECK(isk_disasm_word(m, 0xb005, 0, text, sizeof text));
    CHECK_STR(text, "long 5");

    /* At run time: the first issue runs `long 5` alone (PC 0 -> 1), then the group at 1..2. */
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &l.d });
    isk_inst *cpu = isk_system_add(sys, l.m, "cpu");
    const uint16_t program[] = { 0xb005, 0x9001, 0x1002, 0x1003 };
    for (int i = 0; i < 4; i++) CHECK_EQ(isk_write(cpu, "ROM", (uint64_t)i, program[i]), ISK_OK);
    CHECK_EQ(isk_step(sys, 1), ISK_OK);
    CHECK_EQ(isk_context_of(cpu, 0)->pc, 1u);
    CHECK_EQ(isk_step(sys, 1), ISK_OK);
    CHECK_EQ(isk_context_of(cpu, 0)->pc, 3u);
    isk_system_free(sys);
    unload(&l);
}

static void test_bad_groups(void)
{
    lines_of(&isk_model_group_bit_fixed);
    char want[256];
    snprintf(want, sizeof want, "format '1-011-0000-0000-0000' fixes bit 15, the group bit (PROCESSOR line %d): "
             "mark it '*'", processor_line);
    refused_at(&isk_model_group_bit_fixed, 1, &declaration_line, want);
    refused_at(&isk_model_group_bit_operand, 1, &declaration_line,
               "format 'i-001-0000-iiiiiiii' puts operand 'i' on bit 15, the group bit");
    refused_at(&isk_model_group_bit_outside, 1, &declaration_line,
               "PROCESSOR(.group_bit = 16): the group bit is one of bits 1..15 of the 16-bit word");
    refused_at(&isk_model_group_too_long, 1, &declaration_line,
               "PROCESSOR(.group_bit = 15, .group_words = 5): an issue group is 2..4 words");
    refused_at(&isk_model_group_too_short, 1, &declaration_line,
               "PROCESSOR(.group_bit = 15, .group_words = 1): an issue group is 2..4 words");
    refused_at(&isk_model_group_words_alone, 1, &declaration_line,
               "PROCESSOR(.group_words = 2) without .group_bit: name the bit that announces a group");
    refused_at(&isk_model_group_all_alone, 1, &declaration_line,
               "PROCESSOR(.group_all = 1) without .group_bit: name the bit that announces a group");
    refused_at(&isk_model_group_align_odd, 1, &declaration_line,
               "PROCESSOR(.group_words = 4, .group_align = 3): a group starts at a multiple of group_align words, "
               "a divisor of group_words");
    refused_at(&isk_model_group_align_alone, 1, &declaration_line,
               "PROCESSOR(.group_align = 1) without .group_bit: name the bit that announces a group");
    lines_of(&isk_model_solo_without_groups);
    snprintf(want, sizeof want, "INSTRUCTION '0-011-0000-0000-0000' (.solo = 1) but the PROCESSOR (line %d) has no "
             "issue groups (.group_bit)", processor_line);
    refused_at(&isk_model_solo_without_groups, 1, &declaration_line, want);
    refused_at(&isk_model_solo_unknown, 1, &declaration_line,
               "INSTRUCTION '*-011-0000-0000-0000' (.solo = 3): .solo is ISK_SOLO (1, the group bit a fixed 0) "
               "or ISK_SOLO_BIT_SET (2, a fixed 1)");
}

static void test_processor_only_declarations(void)
{
    refused_at(&isk_model_exception_accelerator, 1, &declaration_line,
               "ON_EXCEPTION: only a PROCESSOR has architectural exceptions");
    refused_at(&isk_model_too_many_contexts, 1, &declaration_line,
               "PROCESSOR(.contexts = 65): a processor has 1..64 contexts");
}

int main(void)
{
    test_one_encoding_two_sets();
    test_illegal_in_this_set();
    test_overlap_within_a_set();
    test_bad_iset();
    test_group_bit_cleared();
    test_solo();
    test_solo_bit_set();
    test_bad_groups();
    test_processor_only_declarations();
    return CHECK_DONE();
}
