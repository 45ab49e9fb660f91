/* The assembler: GNU-as compatible source -> one relocatable object (src/elf/obj.h) for any
 * model. The model contributes only its instruction syntax (see asm/syntax.h), its ELF
 * identity and its relocation types; everything else is this core:
 *
 *   labels (`name:`, `.L` locals, numeric `1:` with `1b`/`1f`), `.` and `=`; expressions with
 *   GNU precedence; sections (.text .data .bss .section .pushsection .popsection .previous);
 *   data (.byte .short .word .long .quad .ascii .asciz .string .space .zero .fill .inst);
 *   alignment (.align/.balign in bytes, .p2align); symbols (.global .globl .local .weak .type
 *   .size .set .equ .equiv .comm .lcomm .hidden); .include; .macro/.endm with arguments,
 *   defaults, `\@` and the IPU manual's bare `name@` counter; .rept/.irp/.endr;
 *   .if/.ifdef/.ifndef/.elseif/.else/.endif; .error/.warning/.print/.end; `.S` files through
 *   the system C preprocessor.
 *
 * Every error goes to the isk_diag sink as file:line:col with the source line and a caret,
 * and assembly goes on, so one run reports all the errors of a file. Front ends for other
 * dialects could drive the same core statement by statement through the functions of the
 * second part; the PicoBlaze .psm front end (psm.h) does not: it is a separate front end with
 * its own symbols, INCLUDE and expressions, sharing the model's syntax templates (syntax.h), the
 * name map (map.h) and the image readers (elf/image.h). Nothing here is global: assemblers on
 * different threads share nothing but the (read-only) model. */
#ifndef ISK_ASM_ASM_H
#define ISK_ASM_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/obj.h"
#include "isekit/desc.h"

typedef struct isk_asm isk_asm;

#define ISK_ASM_MAX_EXPANDED_LINES UINT64_C(10000000)
/* Bytes of text read from those bodies: what expansion costs grows with the text (an
 * exponential macro whose arguments grow, `m \n-1`, ran 33 s within the line bound); 128 MiB
 * is about two seconds of the slowest text, expressions. $ISEKIT_MAX_EXPANSION raises it. */
#define ISK_ASM_MAX_EXPANDED_BYTES (UINT64_C(128) << 20)
#define ISK_ASM_MAX_EXPANSION_ENV "ISEKIT_MAX_EXPANSION"

typedef struct isk_asm_options {
    const char *const *include_dirs;   /* for .include and the C preprocessor (-I) */
    size_t ninclude_dirs;
    const char *const *defines;        /* NAME or NAME=VALUE, for the C preprocessor (-D) */
    size_t ndefines;
    int max_macro_depth;               /* 0 = 100 */
    /* Limits against runaway input (0 = the default): bytes of one section with contents
     * (1 GiB; NOBITS sections may reach 4 GiB), lines read from macro, .rept and .irp bodies at
     * every nesting level (ISK_ASM_MAX_EXPANDED_LINES: as many as the largest .rept; an
     * exponential macro reaches it in seconds, not hours), bytes of those lines
     * (ISK_ASM_MAX_EXPANDED_BYTES, or $ISEKIT_MAX_EXPANSION). no_files refuses .include and .S
     * files (for untrusted text held in memory). */
    uint64_t max_section_bytes;
    uint64_t max_expanded_lines;
    uint64_t max_expanded_bytes;
    bool no_files;
    /* Line information: unless no_lines, the object gets a DWARF .debug_line section saying which
     * source line (after cpp's `# N "file"` markers; a macro's expansion: the line of the call;
     * `.loc` when present) each instruction came from. On by default (NULL options: the run
     * commands' on-the-fly assembly); `isekit as` and `build` set no_lines unless -g. */
    bool no_lines;
    /* The model's syntax index (isk_syntax_index_new, asm/syntax.h) to use instead of one made
     * for this assembler alone: whoever assembles many sources of one model (the DPU's runtime
     * and program, ~1.6 M host instructions an index) makes it once; it must outlive the
     * assembler. NULL: the assembler makes its own. */
    const struct isk_syntax_index *index;
} isk_asm_options;

/* A folder of headers for `.S` sources of one model, which the C preprocessor searches after
 * the user's -I: a model folder's host code registers it by ASM_MODEL_INCLUDE(id, "model",
 * "/path") at file scope (the IPU its Poplar headers); linking that file is all it takes. */
typedef struct isk_asm_model_include { const char *model, *dir; } isk_asm_model_include;
#define ASM_MODEL_INCLUDE(id, mname, mdir) \
    static const isk_asm_model_include asm_include_##id = { (mname), (mdir) }; \
    __attribute__((used, section("isk_asm_includes"))) static const isk_asm_model_include *const asm_include_at_##id = \
        &asm_include_##id

/* A new assembler for model m writing an object named output_name (for messages). */
isk_asm *isk_asm_new(const isk_model *m, const char *output_name, const isk_asm_options *opt, isk_diag *diag);
void isk_asm_free(isk_asm *a);

/* Assemble a file (`.S` and `.sx` go through the C preprocessor first) or text held in memory
 * (`name` is used in messages). Several inputs go into one object, as with GNU as. Returns
 * false if this input had errors. */
bool isk_asm_file(isk_asm *a, const char *path);
bool isk_asm_text(isk_asm *a, const char *name, const char *text, size_t len);

/* Resolve what was left for the end (forward references, .size) and build the object.
 * NULL if any error was reported since isk_asm_new. The caller owns the object. */
isk_obj *isk_asm_finish(isk_asm *a);

/* One call for the common case: assemble files into an object (NULL after errors). */
isk_obj *isk_assemble_files(const isk_model *m, const char *const *paths, size_t n, const char *output_name,
                            const isk_asm_options *opt, isk_diag *diag);

/* ---- the core, for other front ends ------------------------------------------------------
 * A front end reads its own syntax and calls these with `loc` pointing at its source; the
 * assembler keeps no pointer into loc->text after the call returns unless the text stays
 * alive until isk_asm_finish (messages about forward references point into it), so front
 * ends should keep their source buffers until then. */

/* Process one line of GNU syntax (labels, directives, macros, instructions). */
void isk_asm_line(isk_asm *a, const char *text, const isk_loc *loc);
/* Define an absolute symbol (like .set). */
bool isk_asm_set_symbol(isk_asm *a, const char *name, int64_t value, const isk_loc *loc);
/* Assemble one instruction in the model's syntax (no label, no comment). */
bool isk_asm_instruction(isk_asm *a, const char *text, const isk_loc *loc);
/* Emit a raw instruction word. */
void isk_asm_word(isk_asm *a, uint64_t word);
/* The current location: section offset in bytes, and in PC units. */
uint64_t isk_asm_offset(const isk_asm *a);
uint64_t isk_asm_pc(const isk_asm *a);
/* Move the location forward to `offset` bytes in the current section (filling with zeros);
 * false if that would go backwards. */
bool isk_asm_set_offset(isk_asm *a, uint64_t offset, const isk_loc *loc);

/* Bytes one instruction occupies in a section, and bytes per PC unit, for model m. */
int isk_asm_insn_bytes(const isk_model *m);
int isk_asm_pc_unit_bytes(const isk_model *m);

#endif
