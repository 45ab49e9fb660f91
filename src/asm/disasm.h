/* The disassembler: an objdump -d like listing of ELF files, raw binaries, Intel-HEX images
 * and word lists (one hex word per line, `@address` lines allowed: .hex/.mem files), for any
 * model. Each line shows the address, the instruction word in hex and its text in the model's
 * syntax, aliases preferred as isk_syntax_display_pattern chooses; symbols become labels, and
 * code targets (PC-relative ones; in executables also absolute ones that fall into a code
 * region) are annotated with <symbol+offset>. A word no instruction accepts is
 * listed as `.inst 0x...`, which assembles back to the same word. */
#ifndef ISK_ASM_DISASM_H
#define ISK_ASM_DISASM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elf/obj.h"
#include "isekit/desc.h"

typedef struct isk_disasm_options {
    bool relocs;             /* show relocations under the instructions they patch (-r) */
    bool all_sections;       /* disassemble every allocated section, not only code (-D) */
    bool no_raw;             /* leave out the instruction words */
    bool plain;              /* only the instruction texts, one per line (reassemblable) */
    bool lines;              /* print FILE:LINE (from .debug_line) where the source line changes (-l) */
} isk_disasm_options;

/* The text of one instruction word at pc (PC units); false if no instruction accepts it
 * (out then holds `.inst 0x...`). */
bool isk_disasm_word(const isk_model *m, uint64_t word, uint64_t pc, char *out, size_t cap);

/* The text of an issue group (PROCESSOR .group_bit) of `n` words starting at pc:
 * "{ a ; b }", each member as isk_disasm_word prints it; false if a member is no instruction. */
bool isk_disasm_group(const isk_model *m, const uint64_t *words, int n, uint64_t pc, char *out, size_t cap);

/* List the code of an object or executable. An issue group's head at a multiple of the group
 * size is listed with its members on one line, as "{ a ; b }" (its words side by side). With
 * opt->lines, a malformed .debug_line is a warning on stderr and the listing goes on without. */
void isk_disasm_obj(const isk_model *m, const isk_obj *o, FILE *out, const isk_disasm_options *opt);

/* Symbol table and section headers, objdump -t / -h style. */
void isk_disasm_symbols(const isk_obj *o, FILE *out);
void isk_disasm_sections(const isk_obj *o, FILE *out);

/* Read a word list (hex words, one per line; `@hex` sets the address of the next word, in
 * words; `#`, `//` and `;` start comments) into an executable object with one code section per
 * contiguous run, each word stored in the model's instruction container. NULL after errors
 * (file:line:col). */
isk_obj *isk_words_read_mem(const isk_model *m, const char *text, size_t n, const char *filename, isk_diag *diag);

/* Read any input: ELF, Intel-HEX (leading ':'), a word list (hex digits and '@' only) or
 * else a raw binary placed at `base`. Non-ELF inputs take the model's identity. */
isk_obj *isk_disasm_read_file(const isk_model *m, const char *path, const char *format, uint64_t base,
                              isk_diag *diag);

#endif
