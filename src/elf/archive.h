/* `.a` archives in the System V / GNU format: "!<arch>\n", 60-byte member headers, a "/"
 * symbol index (32-bit big-endian offsets; "/SYM64/" with 64-bit ones is read too), a "//"
 * table for member names longer than 15 characters. The reader is an untrusted-input front
 * door like the ELF reader: malformed archives are refused with a precise error. */
#ifndef ISK_ELF_ARCHIVE_H
#define ISK_ELF_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "isekit/diag.h"
#include "elf/obj.h"

typedef struct isk_ar_member {
    char *name;              /* without the trailing '/' */
    const uint8_t *data;     /* points into the archive's own copy of the file */
    size_t size;
    uint64_t header_offset;  /* of the 60-byte header, as the symbol index refers to it */
} isk_ar_member;

typedef struct isk_ar_symbol {
    char *name;
    uint32_t member;         /* index into members */
} isk_ar_symbol;

typedef struct isk_archive {
    char *filename;
    uint8_t *buf;            /* the whole file */
    size_t len;
    VEC(isk_ar_member) members;   /* ordinary members only (not "/" or "//") */
    VEC(isk_ar_symbol) symbols;   /* sorted by name, then by member order */
} isk_archive;

/* 1 if the buffer starts like an archive. */
int isk_is_archive(const void *data, size_t size);

/* Parse an archive (the buffer is copied). Without a symbol index, one is built from the
 * members that are readable ELF files. NULL after an error. */
isk_archive *isk_archive_read_mem(const void *data, size_t size, const char *filename, isk_diag *diag);
isk_archive *isk_archive_read_file(const char *path, isk_diag *diag);
void isk_archive_free(isk_archive *ar);

/* The member that defines `symbol` according to the index (the first one), or -1. */
long isk_archive_find(const isk_archive *ar, const char *symbol);

/* Read member i as an ELF object named "archive.a(member.o)" in messages. */
isk_obj *isk_archive_member_obj(const isk_archive *ar, size_t i, isk_diag *diag);

/* Members to write. The name is stored without directories; data is copied. */
typedef struct isk_ar_input {
    const char *name;
    const void *data;
    size_t size;
} isk_ar_input;

/* Write an archive with a symbol index of every global or weak symbol that the ELF members
 * define (members that are not ELF are an error). Deterministic: dates, owners are 0. */
int isk_archive_write_mem(const isk_ar_input *members, size_t n, uint8_t **out, size_t *size, isk_diag *diag);

#endif
