/* DWARF .debug_line: the encoder the assembler uses (version 3, 32-bit DWARF: what GNU readelf
 * and objdump decode without complaint, and the simplest header) and the decoder the loader and
 * objdump use (versions 2 to 5). Addresses are byte addresses of the model's address map, the
 * ones the symbols use. Nothing here knows a model. */
#ifndef ISK_ASM_DWARF_LINE_H
#define ISK_ASM_DWARF_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/vec.h"
#include "elf/obj.h"

/* ---- encoding ---- */

/* A row: the instruction at byte offset `offset` of its sequence comes from line `line`
 * (column `column`, 0 = unknown) of file `file` (an index into the unit's file names). */
typedef struct isk_dwarf_erow { uint64_t offset; uint32_t file, line, column; } isk_dwarf_erow;

/* One sequence: the code of one section, rows in offset order, ending at `end` bytes. */
typedef struct isk_dwarf_seq {
    const isk_dwarf_erow *rows;
    size_t nrows;
    uint64_t start, end;     /* the set_address operand (start), and the size of the code */
} isk_dwarf_seq;

typedef VEC(uint8_t) isk_bytes;

/* Append one line-number unit (a DWARF 3 header with `files`, then each sequence) to out.
 * addr_size is 4 or 8; min_insn is the unit of address advances (every row offset and end
 * are multiples of it). The offset in out of each sequence's set_address operand goes to
 * addr_at[i] (for relocations). */
void isk_dwarf_line_encode(isk_bytes *out, bool big_endian, int addr_size, int min_insn, const char *const *files,
                           size_t nfiles, const isk_dwarf_seq *seqs, size_t nseqs, uint64_t *addr_at);

/* ---- decoding ---- */

typedef struct isk_dwarf_row {
    uint64_t addr;
    uint32_t file;           /* index into isk_dwarf_lines.files */
    uint32_t line, column;
    uint32_t sec;            /* what the relocation hook said (0 without one) */
    bool stmt;
    bool end;                /* DW_LNE_end_sequence: addr is the first byte after the sequence */
} isk_dwarf_row;

typedef struct isk_dwarf_lines {
    VEC(char *) files;       /* every unit's files, "dir/name" when the name is relative to a directory */
    VEC(isk_dwarf_row) rows; /* in the order of the line programs */
} isk_dwarf_lines;

/* For relocatable objects: the value of the address operand at byte `at` of the section that
 * reads `raw` there, and the section it is an offset in. */
typedef uint64_t (*isk_dwarf_reloc_fn)(void *user, uint64_t at, uint64_t raw, uint32_t *sec);

/* Decode a whole .debug_line section (str/line_str: .debug_str and .debug_line_str for DWARF 5
 * names, may be NULL). False with a message in err (naming the byte offset) if it is malformed;
 * out then holds what was decoded before, which callers should not trust. */
bool isk_dwarf_line_decode(const uint8_t *data, size_t size, bool big_endian, const uint8_t *str, size_t str_size,
                           const uint8_t *line_str, size_t line_str_size, isk_dwarf_reloc_fn reloc, void *user,
                           isk_dwarf_lines *out, char *err, size_t errlen);
void isk_dwarf_lines_free(isk_dwarf_lines *l);

/* The .debug_line of an object or executable o, decoded (with its .debug_str/.debug_line_str
 * for DWARF 5 names): in an executable rows hold addresses; in a relocatable object each row's
 * address is its relocation's (section symbol plus addend) and `sec` names the section it lies
 * in. True with no rows when there is no table; false with err when it is malformed. */
bool isk_obj_lines(const isk_obj *o, isk_dwarf_lines *out, char *err, size_t errlen);

#endif
