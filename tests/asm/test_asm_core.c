/* The assembler core: expressions, labels, directives, macros, conditionals, sections,
 * symbols, .include, .S files, and the error reports (file:line:col, the line, a caret, every
 * error of a file). Uses the example accelerator and the tiny test processor. */
#include <unistd.h>

#include "asm/asm.h"
#include "asm/syntax.h"
#include "check.h"
#include "elf/elf_file.h"

#define TINY ISEKIT_SOURCE_DIR "/tests/asm/models/tiny.c"

static isk_model *example, *tiny;

typedef struct result { isk_obj *o; isk_diag d; isk_diag_buffer b; } result;

static void assemble(result *r, isk_model *m, const char *text)
{
    isk_diag_init(&r->d);
    isk_diag_capture(&r->d, &r->b);
    isk_asm *a = isk_asm_new(m, "t.o", NULL, &r->d);
    isk_asm_text(a, "t.s", text, strlen(text));
    r->o = isk_asm_finish(a);
    isk_asm_free(a);
    if (!r->o && r->b.text && !strstr(text, "ERRORS EXPECTED")) fputs(r->b.text, stderr);
}

static void done(result *r)
{
    isk_obj_free(r->o);
    isk_diag_buffer_free(&r->b);
}

static const char *messages(const result *r) { return r->b.text ? r->b.text : ""; }

static const isk_section *section(const result *r, const char *name)
{
    uint32_t i = r->o ? isk_obj_find_section(r->o, name) : 0;
    return i ? &r->o->secs.data[i] : NULL;
}

static uint64_t le(const isk_section *s, uint64_t off, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)s->data[off + (uint64_t)i] << (8 * i);
    return v;
}

static const isk_symbol *symbol(const result *r, const char *name)
{
    uint32_t i = r->o ? isk_obj_lookup(r->o, name) : 0;
    return i ? &r->o->syms.data[i] : NULL;
}

static void test_expressions(void)
{
    result r;
    assemble(&r, tiny,
             "        .data\n"
             "        .long 1 + 2 * 3, (1 + 2) * 3, 7 / 2, -7 % 3, 1 << 4 | 1, 0x10, 0b101, 017, 'A, 'B'\n"
             "        .long 3 == 3, 3 != 3, 2 < 3 && 4 > 3, 0 || 5, ~0, !0, 6 ^ 3, 6 & 3, 1 ! 0\n"
             "        .long 10 - 2 - 3, 64 >> 2 >> 1, 1 + 2 == 3\n"
             "        .set five, 5\n"
             "        .long five * five, later - earlier\n"
             "earlier: .long 0, 0\n"
             "later:  .quad -1\n"
             "        .short 0x1234\n"
             "        .byte 1, 2, 255, -1\n");
    const isk_section *d = section(&r, ".data");
    CHECK(d != NULL);
    if (d) {
        int64_t want[] = { 7, 9, 3, -1, 17, 16, 5, 15, 65, 66, -1, 0, 1, 1, -1, 1, 5, 2, -1, 5, 8, -1, 25, 8 };
        for (size_t i = 0; i < sizeof want / sizeof *want; i++)
            CHECK_EQ((int32_t)le(d, 4 * i, 4), want[i]);
        CHECK_EQ(le(d, 4 * 24 + 8, 8), UINT64_MAX);
        CHECK_EQ(le(d, 4 * 24 + 16, 2), 0x1234);
        CHECK_EQ(le(d, 4 * 24 + 18, 4), 0xffff0201);
    }
    CHECK_EQ(r.d.errors, 0);
    done(&r);
}

static void test_labels(void)
{
    result r;
    assemble(&r, tiny,
             "start:\n"
             "1:      nop\n"
             "        bne r1, r2, 1f\n"           /* forward: the next 1 */
             "        bne r1, r2, 1b\n"           /* back: the previous 1 */
             "1:      nop\n"
             ".Lhidden: bne r1, r2, 1b\n"         /* the second 1 */
             "        bne r1, r2, .Lhidden\n"
             "a: b:   nop\n"
             "        .long . - start\n");
    const isk_section *t = section(&r, ".text");
    CHECK(t != NULL);
    if (t) {
        CHECK_EQ(le(t, 4, 4), 0x61200001);      /* pc 1 -> 3: offset 1 */
        CHECK_EQ(le(t, 8, 4), 0x612000fd);      /* pc 2 -> 0: offset -3 */
        CHECK_EQ(le(t, 16, 4), 0x612000fe);     /* pc 4 -> 3: -2 */
        CHECK_EQ(le(t, 20, 4), 0x612000fe);     /* pc 5 -> 4: -2 */
        CHECK_EQ(le(t, 28, 4), 28);
    }
    CHECK(symbol(&r, "start") && symbol(&r, "a") && symbol(&r, "b"));
    CHECK(!symbol(&r, ".Lhidden"));           /* .L labels stay out of the symbol table */
    CHECK_EQ(t ? t->relocs.len : 99, 0);
    done(&r);

    assemble(&r, tiny, "# ERRORS EXPECTED\n        bne r1, r2, 2f\n        bne r1, r2, 3b\nx:\nx:\n");
    CHECK(!r.o);
    CHECK_CONTAINS(messages(&r), "t.s:3:21: error: local label 3 (a numeric local label) is not defined");
    CHECK_CONTAINS(messages(&r), "t.s:5:1: error: symbol 'x' is already defined (at t.s:4)");
    CHECK_CONTAINS(messages(&r), "t.s:2:21: error: local label 2 (a numeric local label) is not defined");
    done(&r);
}

static void test_macros(void)
{
    result r;
    assemble(&r, tiny,
             "        .macro addk rd, rs=r0, k=1\n"
             "        addi \\rd, \\rs, \\k\n"
             "        .endm\n"
             "        .macro many first, rest:vararg\n"
             "        .long \\first\n"
             "        .ifnb \\rest\n"
             "        many \\rest\n"
             "        .endif\n"
             "        .endm\n"
             "        .macro lbl\n"
             "L\\@:   .long L\\@\n"
             "        .endm\n"
             "        .macro early x\n"
             "        .long \\x\n"
             "        .exitm\n"
             "        .long 99\n"
             "        .endm\n"
             "        addk r1\n"                       /* addi r1, r0, 1 */
             "        addk r2, r3\n"                   /* addi r2, r3, 1 */
             "        addk r4, k=7\n"                  /* addi r4, r0, 7 */
             "        addk r5 r6 8\n"                  /* arguments separated by spaces */
             "        addk r7; nop\n"                  /* the rest of the line after the expansion */
             "        .data\n"
             "        many 1, 2, 3\n"
             "        lbl\n"
             "        lbl\n"
             "        early 5\n"
             "        .purgem early\n"
             "        .macro early x\n"
             "        .long \\x + 1\n"
             "        .endm\n"
             "        early 5\n");
    const isk_section *t = section(&r, ".text"), *d = section(&r, ".data");
    CHECK(t && d);
    if (t && d) {
        CHECK_EQ(t->size, 24);
        CHECK_EQ(le(t, 0, 4), 0x31000100);
        CHECK_EQ(le(t, 4, 4), 0x32300100);
        CHECK_EQ(le(t, 8, 4), 0x34000700);
        CHECK_EQ(le(t, 12, 4), 0x35600800);
        CHECK_EQ(le(t, 16, 4), 0x37000100);
        CHECK_EQ(le(t, 20, 4), 0);             /* the nop comes after */
        CHECK_EQ(d->size, 4 * 7);              /* 1, 2, 3, two labels, 5, 6 */
        CHECK_EQ(le(d, 0, 4), 1);
        CHECK_EQ(le(d, 8, 4), 3);
        CHECK_EQ(d->relocs.len, 2);            /* the labels' own addresses */
        if (d->relocs.len == 2) CHECK_EQ(d->relocs.data[0].addend + d->relocs.data[1].addend, 12 + 16);
        CHECK_EQ(le(d, 20, 4), 5);             /* .exitm skipped the 99 */
        CHECK_EQ(le(d, 24, 4), 6);
    }
    /* \@ counts every macro call: 5 addk, 3 many, then the two lbl calls. */
    CHECK(symbol(&r, "L8") && symbol(&r, "L9"));
    CHECK_EQ(r.d.errors, 0);
    done(&r);

    /* Errors inside expansions point at the body line and name the call. */
    assemble(&r, example,
             "# ERRORS EXPECTED\n"
             "        .macro ld4 reg, v\n"
             "        ldg \\reg, \\v\n"
             "        .endm\n"
             "        ld4 gr0, 100\n"
             "        .macro forever\n"
             "        forever\n"
             "        .endm\n"
             "        forever\n"
             "        .macro unclosed\n");
    CHECK(!r.o);
    CHECK_CONTAINS(messages(&r), "t.s:3:18: error: operand i: 100 is out of range [-8, 7]\n"
                                 "            ldg gr0, 100\n");
    CHECK_CONTAINS(messages(&r), "t.s:5:9: note: in expansion of macro 'ld4'");
    CHECK_CONTAINS(messages(&r), "error: macro 'forever' nested more than 100 deep (endless recursion?)");
    CHECK_CONTAINS(messages(&r), "t.s:10:16: error: .macro without .endm");
    done(&r);
}

static void test_repeats_and_conditionals(void)
{
    result r;
    assemble(&r, tiny,
             "        .data\n"
             "        .set i, 0\n"
             "        .rept 4\n"
             "        .byte i\n"
             "        .set i, i + 1\n"
             "        .endr\n"
             "        .rept 0\n"
             "        .byte 99\n"
             "        .endr\n"
             "        .rept 2; .rept 2; .byte 7; .endr; .endr\n"
             "        .irp r, 10, 20\n"
             "        .byte \\r\n"
             "        .endr\n"
             "        .irpc c, ab\n"
             "        .byte '\\c\n"
             "        .endr\n"
             "        .if i == 4\n"
             "        .byte 1\n"
             "        .elseif i == 5\n"
             "        .byte 2\n"
             "        .else\n"
             "        .byte 3\n"
             "        .endif\n"
             "        .if 0\n"
             "        .if 1\n"
             "        .byte 98\n"
             "        .endif\n"
             "        .bogus directive in a skipped block\n"
             "        .elseif 1\n"
             "        .byte 4\n"
             "        .endif\n"
             "        .ifdef i\n"
             "        .byte 5\n"
             "        .endif\n"
             "        .ifndef nope\n"
             "        .byte 6\n"
             "        .endif\n"
             "        .ifc abc, abc\n"
             "        .byte 7\n"
             "        .endif\n"
             /* a directive's name ends at a comma (LLVM, GNU as): "" and "x, x" differ */
             "        .ifnc, x, x\n"
             "        .byte 8\n"
             "        .endif\n");
    const isk_section *d = section(&r, ".data");
    CHECK(d != NULL);
    if (d) {
        uint8_t want[] = { 0, 1, 2, 3, 7, 7, 7, 7, 10, 20, 'a', 'b', 1, 4, 5, 6, 7, 8 };
        CHECK_EQ(d->size, sizeof want);
        CHECK(d->size == sizeof want && memcmp(d->data, want, sizeof want) == 0);
    }
    done(&r);

    assemble(&r, tiny, "# ERRORS EXPECTED\n.else\n.endif\n.if 1\n.else\n.else\n.endif\n.if 1\n.rept -1\n.endr\n");
    CHECK_CONTAINS(messages(&r), "t.s:2: error: .else without .if");
    CHECK_CONTAINS(messages(&r), "t.s:3: error: .endif without .if");
    CHECK_CONTAINS(messages(&r), "t.s:6: error: a second .else for the same .if");
    CHECK_CONTAINS(messages(&r), "t.s:9:7: error: .rept count -1 is outside [0, 10000000]");
    CHECK_CONTAINS(messages(&r), "t.s:8: error: this .if has no .endif before the end of the file");
    done(&r);
}

static void test_sections_and_data(void)
{
    result r;
    assemble(&r, tiny,
             "        .data\n"
             "d1:     .ascii \"ab\\n\", \"\\x41\"\n"
             "        .asciz \"z\"\n"
             "        .align 8, 0xee\n"
             "        .space 3, 0x55\n"
             "        .fill 2, 2, 0x1234\n"
             "        .bss\n"
             "buf:    .space 100\n"
             "        .comm shared, 64, 8\n"
             "        .lcomm priv, 16\n"
             "        .section .rodata.tab, \"a\"\n"
             "        .word 7\n"
             "        .pushsection .note.x, \"\", @note\n"
             "        .byte 1\n"
             "        .popsection\n"
             "        .word 8\n"
             "        .section .mine\n"
             "        .text\n"
             "        nop\n"
             "        .previous\n"
             "        .byte 9\n"
             "        .text\n"
             "        .align 16\n");
    const isk_section *d = section(&r, ".data"), *b = section(&r, ".bss"), *ro = section(&r, ".rodata.tab");
    const isk_section *note = section(&r, ".note.x"), *mine = section(&r, ".mine"), *t = section(&r, ".text");
    CHECK(d && b && ro && note && mine && t);
    if (d && b && ro && note && mine && t) {
        uint8_t want[] = { 'a', 'b', '\n', 'A', 'z', 0, 0xee, 0xee, 0x55, 0x55, 0x55, 0x34, 0x12, 0x34, 0x12 };
        CHECK(d->size == sizeof want && memcmp(d->data, want, sizeof want) == 0);
        CHECK_EQ(d->flags, SHF_ALLOC | SHF_WRITE);
        CHECK_EQ(b->type, SHT_NOBITS);
        CHECK_EQ(b->size, 116);
        CHECK_EQ(ro->flags, SHF_ALLOC);
        CHECK_EQ(ro->size, 8);
        CHECK_EQ(note->type, SHT_NOTE);
        CHECK_EQ(mine->flags, 0);
        CHECK_EQ(mine->size, 1);
        CHECK_EQ(t->size, 16);                 /* nop, then 3 nops of padding */
        CHECK_EQ(t->align, 16);
    }
    const isk_symbol *c = symbol(&r, "shared"), *p = symbol(&r, "priv");
    CHECK(c && c->shndx == ISK_SHN_COMMON && c->size == 64 && c->value == 8 && c->bind == STB_GLOBAL);
    CHECK(p && p->bind == STB_LOCAL && p->size == 16 && p->value == 100);
    done(&r);

    assemble(&r, tiny, "# ERRORS EXPECTED\n        .bss\n        .long 5\n        nop\n        .byte 300\n"
                       "        .section .x, \"q\"\n");
    CHECK_CONTAINS(messages(&r), "t.s:3:15: error: section .bss holds no data (it is NOBITS): only zeros may be put there");
    CHECK_CONTAINS(messages(&r), "t.s:4:9: error: instructions cannot go into .bss (a NOBITS section)");
    CHECK_CONTAINS(messages(&r), "error: unknown section flag 'q'");
    done(&r);
}

static void test_symbols_and_relocations(void)
{
    result r;
    assemble(&r, tiny,
             "        .global f, g\n"
             "        .weak w\n"
             "        .type f, @function\n"
             "f:      call g\n"
             "        call w\n"
             "        li r1, obj + 8\n"
             "        bne r1, r2, f\n"          /* same section: no relocation */
             "        bne r1, r2, elsewhere\n"  /* another file: R_TINY_BR8 */
             "        ret\n"
             "        .size f, . - f\n"
             "        .data\n"
             "obj:    .long f, obj, ext + 4\n"
             "        .set alias, obj\n"
             "        .equ k, 42\n"
             "v = k + 1\n");
    const isk_section *t = section(&r, ".text"), *d = section(&r, ".data");
    CHECK(t && d);
    if (t && d) {
        CHECK_EQ(t->relocs.len, 4);
        CHECK_EQ(t->relocs.data[0].type, 3);   /* call g: R_TINY_CALL against g */
        CHECK_STR(r.o->syms.data[t->relocs.data[0].sym].name, "g");
        CHECK_EQ(t->relocs.data[2].type, 4);   /* li: R_TINY_ABS20 against .data + 8 */
        CHECK_EQ(r.o->syms.data[t->relocs.data[2].sym].type, STT_SECTION);
        CHECK_EQ(t->relocs.data[2].addend, 8);
        CHECK_EQ(t->relocs.data[3].type, 2);   /* the branch: addend -4 for the PC bias */
        CHECK_EQ(t->relocs.data[3].addend, -4);
        CHECK_EQ(t->relocs.data[3].offset, 16);
        CHECK_EQ(le(t, 12, 4), 0x612000fc);    /* bne to f resolved: -4 */
        CHECK_EQ(d->relocs.len, 3);
        CHECK_EQ(d->relocs.data[2].addend, 4);
    }
    const isk_symbol *f = symbol(&r, "f"), *w = symbol(&r, "w"), *k = symbol(&r, "k"), *v = symbol(&r, "v");
    CHECK(f && f->type == STT_FUNC && f->size == 24 && f->bind == STB_GLOBAL);
    CHECK(w && w->bind == STB_WEAK && w->shndx == ISK_SHN_UNDEF);
    CHECK(k && k->shndx == ISK_SHN_ABS && k->value == 42);
    CHECK(v && v->value == 43);
    CHECK(symbol(&r, "alias") && symbol(&r, "alias")->value == 0);
    done(&r);

    /* A forward .set, evaluated at the end; and what cannot be. */
    assemble(&r, tiny, "        .data\n        .long later\n        .set later, here + 4\nhere:   .long 1\n");
    CHECK(r.o != NULL);
    if (r.o) CHECK_EQ(section(&r, ".data")->relocs.data[0].addend, 8);
    done(&r);
    assemble(&r, example, "# ERRORS EXPECTED\n        .set x, x + 1\n        .byte x\n        setloop nowhere\n"
                          "        .equiv k, 1\n        .equiv k, 2\n        .byte 1 / 0\n");
    CHECK_CONTAINS(messages(&r), "symbol 'x' is defined in terms of itself");
    CHECK_CONTAINS(messages(&r), "t.s:4:17: error: operand i of 'setloop' refers to symbol 'nowhere', which needs a "
                                 "relocation, and model 'example' has none for it");
    CHECK_CONTAINS(messages(&r), "t.s:6:16: error: symbol 'k' is already defined (at t.s:5)");
    CHECK_CONTAINS(messages(&r), "t.s:7:15: error: division by zero");
    done(&r);
}

/* Half-precision literals are the 16 bits of the binary16 value (round to nearest even,
 * subnormals, overflow to infinity), '-' sets the sign bit, `infh` is infinity unless a symbol
 * has that name; a floating-point literal without 'h' is an error. A .size of a symbol the file
 * never defines is dropped with a warning (LLVM drops it; poplibs' FN_SIZE relies on it), and
 * one that runs past its section's end is cut there when the object is read back;
 * `.type f @function` needs no comma; a negative absolute symbol fits ELFCLASS32 as 32 bits. */
static void test_half_literals_and_lenient_directives(void)
{
    result r;
    assemble(&r, tiny, "        .data\n"
                       "        .short 1.0h, -1.0h, 0.5h, 65504.0h, 65520.0h, 6e-8h, 2.9802322387695312e-8h, infh, -infh\n"
                       "        .short 1.00048828125h, 1.000732421875h, 1e0h, -0.0h\n");
    const isk_section *d = section(&r, ".data");
    CHECK(d != NULL);
    if (d) {
        /* 2^-25 is the tie between 0 and the smallest subnormal: even, so 0; 1 + 2^-11 ties to
         * 1.0 (even), 1 + 3*2^-12 rounds up to 1 + 2^-10 */
        const uint16_t want[] = { 0x3C00, 0xBC00, 0x3800, 0x7BFF, 0x7C00, 0x0001, 0x0000, 0x7C00, 0xFC00,
                                  0x3C00, 0x3C01, 0x3C00, 0x8000 };
        for (size_t i = 0; i < sizeof want / sizeof *want; i++) CHECK_EQ(le(d, 2 * i, 2), want[i]);
    }
    CHECK_EQ(r.d.errors, 0);
    done(&r);
    assemble(&r, tiny, "        .data\n        .set infh, 5\n        .short infh\n");    /* a symbol named infh wins */
    CHECK(r.o && le(section(&r, ".data"), 0, 2) == 5);
    done(&r);
    assemble(&r, tiny, "        .data\n        .short 1.5\n");
    CHECK_CONTAINS(messages(&r), "t.s:2:16: error: a floating-point literal needs the suffix h (IEEE half precision)");
    done(&r);

    assemble(&r, tiny, "        .type f @function\nf_START: ret\nf:      ret\n        .size f, . - f_START\n"
                       "        .size g, . - g_START\n        .equ minus, -3\n        .globl minus\n");
    CHECK(r.o != NULL);
    CHECK_EQ(r.d.errors, 0);
    CHECK_CONTAINS(messages(&r), "t.s:5:18: warning: .size of 'g', which this file never defines: ignored");
    const isk_symbol *f = symbol(&r, "f");
    CHECK(f && f->type == STT_FUNC && f->value == 4 && f->size == 8);     /* poplibs' FN_SIZE after a nop */
    uint8_t *elf = NULL;
    size_t size = 0;
    if (r.o) CHECK_EQ(isk_elf_write_mem(r.o, &elf, &size, &r.d), 0);     /* -3 as 0xfffffffd */
    CHECK_EQ(r.d.errors, 0);
    /* read back: the size that runs past .text's end is cut at it */
    isk_obj *back = elf ? isk_elf_read_mem(elf, size, "t.o", &r.d) : NULL;
    CHECK(back != NULL);
    for (size_t i = 1; back && i < back->syms.len; i++)
        if (!strcmp(back->syms.data[i].name, "f")) CHECK_EQ(back->syms.data[i].size, 4);
    isk_obj_free(back);
    free(elf);
    done(&r);
}

/* Register and condition names are not symbols in operands, so the register form is chosen;
 * among forms that fit, the first declared wins. */
static void test_operand_choice(void)
{
    result r;
    assemble(&r, tiny, "# ERRORS EXPECTED\n        add r1, r2, r3\n        mov r4, r5\n        li r1, r2\n");
    CHECK(!r.o);
    CHECK_CONTAINS(messages(&r), "t.s:4:16: error: expected a number for operand i");
    done(&r);
    assemble(&r, tiny, "        add r1, r2, r0\n        mov r4, r5\n");
    CHECK(r.o != NULL);
    if (r.o) {
        CHECK_EQ(le(section(&r, ".text"), 0, 4), 0x21200000);
        CHECK_EQ(le(section(&r, ".text"), 4, 4), 0x24500000);   /* the alias: add r4, r5, r0 */
    }
    done(&r);
}

/* An alias that writes one operand to two places (the IPU's swap16 $d, $s = roll16 $d, $s, $s)
 * assembles to both places and is printed only for a word whose two places agree. */
static void test_alias_with_a_repeated_operand(void)
{
    result r;
    assemble(&r, tiny, "        dbl r4, r5\n");
    CHECK(r.o != NULL);
    if (r.o) CHECK_EQ(le(section(&r, ".text"), 0, 4), 0x24550000);
    done(&r);
    int64_t ops[ISK_MAX_OPS];
    char text[64];
    int pat = isk_model_decode(tiny, 0x24550000, ops);
    CHECK(pat >= 0);
    isk_syntax_print(tiny, isk_syntax_display_pattern(tiny, pat, 0x24550000), 0x24550000, 0, text, sizeof text);
    CHECK_STR(text, "dbl r4, r5");
    pat = isk_model_decode(tiny, 0x24560000, ops);
    CHECK(pat >= 0);
    isk_syntax_print(tiny, isk_syntax_display_pattern(tiny, pat, 0x24560000), 0x24560000, 0, text, sizeof text);
    CHECK_STR(text, "add r4, r5, r6");
}

static void test_many_errors(void)
{
    result r;
    assemble(&r, example,
             "# ERRORS EXPECTED\n"
             "        ldi lr1, 5000\n"
             "        ldi lr99, 5\n"
             "        frobnicate gr0\n"
             "        .bogus 1\n"
             "        ldi lr1, (3 +\n"
             "        ldi lr2, 1 ; move gr0, lr3 ; mac gr0\n"
             "        .byte \"x\n"
             "        .byte '\\");                 /* a character constant cut off after its backslash */
    CHECK(!r.o);
    CHECK_EQ(r.d.errors, 7);                   /* the last line is '\\' = 92, no error */
    CHECK_CONTAINS(messages(&r), "t.s:2:18: error: operand i: 5000 is out of range [-2048, 2047]\n"
                                 "            ldi lr1, 5000\n"
                                 "                     ^\n");
    CHECK_CONTAINS(messages(&r), "t.s:3:13: error: expected lr (e.g. lr0)");
    CHECK_CONTAINS(messages(&r), "t.s:4:9: error: unknown instruction 'frobnicate' for model 'example'");
    CHECK_CONTAINS(messages(&r), "t.s:5:9: error: unknown directive '.bogus'");
    CHECK_CONTAINS(messages(&r), "t.s:6:18: error: expected a number for operand i");
    CHECK_CONTAINS(messages(&r), "t.s:7:45: error: expected ','");
    CHECK_CONTAINS(messages(&r), "t.s:8:15: error: expected an expression");
    done(&r);
}

/* Issue 9: CR LF, NUL bytes, the error cap (and the work stopping there), linear arguments. */
static void test_bounds(void)
{
    result r;
    assemble(&r, example, "x:\r\n        mac gr0, gr1\r\n        .byte 1 ; .byte 2\r\n");
    CHECK(r.o);
    const isk_section *t = section(&r, ".text");
    CHECK(t && t->size == 6 && t->data[4] == 1 && t->data[5] == 2);   /* a 4-byte mac, then .byte */
    CHECK(symbol(&r, "x") != NULL);                                   /* "x:\r" is the label x */
    done(&r);

    static const char nul[] = "# ERRORS EXPECTED\n        mac g\0r0, gr1\n";
    isk_diag_init(&r.d);
    isk_diag_capture(&r.d, &r.b);
    isk_asm *a = isk_asm_new(example, "t.o", NULL, &r.d);
    isk_asm_text(a, "t.s", nul, sizeof nul - 1);
    r.o = isk_asm_finish(a);
    isk_asm_free(a);
    CHECK(!r.o);
    CHECK_CONTAINS(messages(&r), "t.s:2:14: error: a NUL byte: assembly cannot contain one\n"
                                 "            mac g\\x00r0, gr1\n"
                                 "                 ^\n");
    done(&r);

    /* Each leaf of an exponential macro errors: the cap of 20 per file ends the work, not
     * only the report (2^100 calls otherwise). */
    assemble(&r, example, "# ERRORS EXPECTED\n.macro m\n m\n m\n.endm\n m\n");
    CHECK(!r.o);
    CHECK_EQ(r.d.errors, ISK_DIAG_MAX_FILE_ERRORS + 1);
    CHECK_CONTAINS(messages(&r), "t.s: error: too many errors in this file (more than 20); skipping the rest of it");
    done(&r);

    /* Three files of 30 errors each: 20 shown of the first, 20 of the second (the cap is per
     * file), then the total cap of 50 stops the third after 8 more. */
    isk_diag_init(&r.d);
    isk_diag_capture(&r.d, &r.b);
    a = isk_asm_new(example, "t.o", NULL, &r.d);
    char thirty[30 * 6 + 1] = "";
    for (int i = 0; i < 30; i++) strcat(thirty, "frob\n");
    isk_asm_text(a, "one.s", thirty, strlen(thirty));
    isk_asm_text(a, "two.s", thirty, strlen(thirty));
    isk_asm_text(a, "three.s", thirty, strlen(thirty));
    r.o = isk_asm_finish(a);
    isk_asm_free(a);
    CHECK(!r.o);
    CHECK_CONTAINS(messages(&r), "one.s:20:1: error: unknown instruction 'frob'");
    CHECK(!strstr(messages(&r), "one.s:21:1"));
    CHECK_CONTAINS(messages(&r), "one.s: error: too many errors in this file (more than 20); skipping the rest of it "
                                 "(--max-errors N raises the cap, 0 removes it)\ntwo.s:1:1: error:");
    CHECK_CONTAINS(messages(&r), "two.s: error: too many errors in this file (more than 20)");
    CHECK_CONTAINS(messages(&r), "three.s:8:1: error: unknown instruction 'frob'");
    CHECK(!strstr(messages(&r), "three.s:9:1"));
    CHECK_CONTAINS(messages(&r), "error: too many errors (more than 50); stopping here");
    CHECK(!strstr(messages(&r), "three.s: error: too many errors in this file"));
    done(&r);

    /* One number for both caps, as --max-errors sets them; an included file counts with its
     * includer, and 0 removes the caps. */
    isk_diag_init(&r.d);
    isk_diag_set_max_errors(&r.d, 3);
    CHECK(r.d.max_errors == 3 && r.d.max_file_errors == 3);
    isk_diag_file outer = isk_diag_begin_file(&r.d, "a.s");
    isk_diag_capture(&r.d, &r.b);
    isk_error(&r.d, NULL, "first");
    isk_diag_file inner = isk_diag_begin_file(&r.d, "inc.s");
    isk_error(&r.d, NULL, "second");
    CHECK(r.d.file_errors == 1 && !isk_diag_file_stopped(&r.d));
    isk_diag_end_file(&r.d, inner);
    CHECK(r.d.file_errors == 2 && !isk_diag_full(&r.d));
    isk_error(&r.d, NULL, "third");
    CHECK(isk_diag_full(&r.d) && !isk_diag_file_stopped(&r.d));
    isk_diag_end_file(&r.d, outer);
    CHECK(r.d.file == NULL);
    isk_diag_set_max_errors(&r.d, 0);
    for (int i = 0; i < 100; i++) isk_error(&r.d, NULL, "more");
    CHECK(!isk_diag_full(&r.d) && !isk_diag_stopped(&r.d));
    done(&r);

    /* An exponential macro without errors, its argument growing at each level: the bound on
     * expanded bytes ends it (the line bound alone let `m 60` run 33 s), naming the limit, how
     * to raise it, the innermost calls and the call the user wrote. */
    static const char grow[] = "# ERRORS EXPECTED\n.macro m n\n.if \\n > 0\n m \\n-1\n m \\n-1\n.endif\n.endm\n"
                               " m 60\n";
    isk_diag_init(&r.d);
    isk_diag_capture(&r.d, &r.b);
    isk_asm_options small = { .max_expanded_bytes = 100000 };
    a = isk_asm_new(example, "t.o", &small, &r.d);
    isk_asm_text(a, "t.s", grow, sizeof grow - 1);
    r.o = isk_asm_finish(a);
    isk_asm_free(a);
    CHECK(!r.o);
    CHECK_EQ(r.d.errors, 1);
    CHECK_CONTAINS(messages(&r), "t.s:3: error: more than 100000 bytes of text expanded from macros and repeats; "
                                 "stopping (set ISEKIT_MAX_EXPANSION to raise it)\n");
    CHECK_CONTAINS(messages(&r), "t.s:4:2: note: in expansion of macro 'm'\n");
    CHECK_CONTAINS(messages(&r), "levels of expansion not shown)\n     m 60\n     ^\n");
    CHECK(strstr(messages(&r), "t.s:8:2: note: in expansion of macro 'm' (") != NULL);
    done(&r);

    /* 20 000 arguments, then 20 000 .irp values: each argument at its own size. */
    size_t n = 20000;
    char *text = malloc(64 + 4 * n), *p = text;
    p += sprintf(p, ".macro m a:vararg\n.byte \\a\n.endm\nm 1");
    for (size_t i = 1; i < n; i++) p += sprintf(p, ",%zu", i % 7);
    sprintf(p, "\n");
    assemble(&r, tiny, text);
    CHECK(r.o && section(&r, ".text") && section(&r, ".text")->size == n);
    CHECK(r.o && section(&r, ".text")->data[n - 1] == (n - 1) % 7);
    done(&r);
    memcpy(text, ".irp x,", 7);
    p = text + 7;
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%s%zu", i ? "," : "", i % 7);
    sprintf(p, "\n.byte \\x\n.endr\n");
    assemble(&r, tiny, text);
    CHECK(r.o && section(&r, ".text") && section(&r, ".text")->size == n);
    CHECK(r.o && section(&r, ".text")->data[n - 1] == (n - 1) % 7);
    done(&r);
    free(text);
}

static void test_files(void)
{
    char dir[] = "/tmp/isekit-asm-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *inc = isk_xasprintf("%s/defs.inc", dir), *src = isk_xasprintf("%s/prog.S", dir);
    char *plain = isk_xasprintf("%s/prog.s", dir);
    FILE *f = fopen(inc, "w");
    fputs("        .set base, 0x40\n        .macro twice x\n        .byte \\x, \\x\n        .endm\n", f);
    fclose(f);
    f = fopen(src, "w");
    fputs("#define COUNT 3\n"
          "#include \"defs.inc\"\n"
          "        .data\n"
          "        .byte COUNT, base\n"
          "        twice COUNT\n"
          "#ifdef EXTRA\n"
          "        .byte EXTRA\n"
          "#endif\n"
          "        .byte bad_symbol_here / 0\n", f);
    fclose(f);
    f = fopen(plain, "w");
    fputs("        .include \"defs.inc\"\n        .data\n        twice base\n        .include \"missing.inc\"\n", f);
    fclose(f);
    isk_diag d;
    isk_diag_buffer b;
    isk_diag_init(&d);
    isk_diag_capture(&d, &b);
    const char *defines[] = { "EXTRA=9" };
    isk_asm_options opt = { .defines = defines, .ndefines = 1 };
    isk_obj *o = isk_assemble_files(tiny, (const char *const *)&src, 1, "prog.o", &opt, &d);
    CHECK(!o);
    /* The error points into prog.S at its own line, through the preprocessor's markers. */
    char *want = isk_xasprintf("%s:9:", src);
    CHECK_CONTAINS(b.text, want);
    free(want);
    isk_diag_buffer_free(&b);
    /* Without the bad line it assembles, with the .include'd macro and -D value. */
    f = fopen(src, "r+");
    fseek(f, 0, SEEK_END);
    fclose(f);
    truncate(src, (off_t)(strlen("#define COUNT 3\n#include \"defs.inc\"\n        .data\n        .byte COUNT, base\n"
                                 "        twice COUNT\n#ifdef EXTRA\n        .byte EXTRA\n#endif\n")));
    isk_diag_init(&d);
    isk_diag_capture(&d, &b);
    o = isk_assemble_files(tiny, (const char *const *)&src, 1, "prog.o", &opt, &d);
    CHECK(o != NULL);
    if (o) {
        const isk_section *s = &o->secs.data[isk_obj_find_section(o, ".data")];
        uint8_t want2[] = { 3, 0x40, 3, 3, 9 };
        CHECK(s->size == sizeof want2 && memcmp(s->data, want2, sizeof want2) == 0);
    } else {
        fputs(b.text ? b.text : "", stderr);
    }
    isk_obj_free(o);
    isk_diag_buffer_free(&b);
    /* .include relative to the including file; a missing one is an error at its line. */
    isk_diag_init(&d);
    isk_diag_capture(&d, &b);
    o = isk_assemble_files(tiny, (const char *const *)&plain, 1, "prog.o", NULL, &d);
    CHECK(!o);
    CHECK_CONTAINS(b.text, "prog.s:4:18: error: cannot find 'missing.inc'");
    isk_diag_buffer_free(&b);
    unlink(inc);
    unlink(src);
    unlink(plain);
    rmdir(dir);
    free(inc);
    free(src);
    free(plain);
}

/* The statement-level API other front ends use. */
static void test_line_api(void)
{
    isk_diag d;
    isk_diag_buffer b;
    isk_diag_init(&d);
    isk_diag_capture(&d, &b);
    isk_asm *a = isk_asm_new(tiny, "api.o", NULL, &d);
    isk_loc loc = { "api.s", 1, 0, "loop: addi r1, r1, 1", -1 };
    isk_asm_line(a, loc.text, &loc);
    CHECK(isk_asm_instruction(a, "bne r1, r2, loop", &(isk_loc){ "api.s", 2, 0, "bne r1, r2, loop", -1 }));
    CHECK(isk_asm_set_symbol(a, "limit", 7, NULL));
    isk_asm_word(a, 0x90000000);
    CHECK_EQ(isk_asm_offset(a), 12);
    CHECK_EQ(isk_asm_pc(a), 3);
    CHECK(isk_asm_set_offset(a, 16, NULL));
    CHECK(!isk_asm_set_offset(a, 8, NULL));
    isk_obj *o = isk_asm_finish(a);
    CHECK(o == NULL);                      /* the backwards move was an error */
    CHECK_CONTAINS(b.text, "cannot move the location back from 0x10 to 0x8");
    isk_diag_buffer_free(&b);
    isk_asm_free(a);
    isk_obj_free(o);
}

int main(void)
{
    isk_diag d;
    isk_diag_init(&d);
    example = isk_model_load("example", &d);
    tiny = isk_model_load(TINY, &d);
    CHECK(example && tiny);
    if (!example || !tiny) return CHECK_DONE();
    test_expressions();
    test_labels();
    test_macros();
    test_repeats_and_conditionals();
    test_sections_and_data();
    test_symbols_and_relocations();
    test_half_literals_and_lenient_directives();
    test_operand_choice();
    test_alias_with_a_repeated_operand();
    test_many_errors();
    test_bounds();
    test_files();
    test_line_api();
    isk_model_release(example);
    isk_model_release(tiny);
    return CHECK_DONE();
}
