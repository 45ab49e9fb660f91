// fuzz-sources: src/elf/*.c src/base/*.c
// fuzz-seeds: fuzz/elf_seeds.c
// fuzz-libs: -lelf
/* libFuzzer harness for the readers of untrusted object-file input: ELF images, `.a`
 * archives (and the members they contain) and Intel-HEX text. The input kind is chosen by its
 * first bytes, as a tool would. Beyond "no crash, no sanitizer report", it checks two
 * properties:
 *   - whatever the ELF reader accepts and the writer can write, the reader accepts again;
 *   - every failure is reported through the diagnostic sink (never a silent NULL). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf/archive.h"
#include "elf/elf_file.h"
#include "elf/image.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static void fuzz_elf(const uint8_t *data, size_t size, isk_diag *d)
{
    isk_obj *o = isk_elf_read_mem(data, size, "fuzz.o", d);
    if (!o) {
        if (!d->errors) abort();
        return;
    }
    uint8_t *img;
    size_t n;
    if (isk_elf_write_mem(o, &img, &n, d) == 0) {
        isk_diag d2;
        isk_diag_init(&d2);
        d2.emit = discard;
        isk_obj *again = isk_elf_read_mem(img, n, "again.o", &d2);
        if (!again) abort();                  /* our own output must be readable */
        if (again->secs.len != o->secs.len || again->syms.len != o->syms.len) abort();
        isk_obj_free(again);
        free(img);
    }
    isk_obj_free(o);
}

static void fuzz_archive(const uint8_t *data, size_t size, isk_diag *d)
{
    isk_archive *ar = isk_archive_read_mem(data, size, "fuzz.a", d);
    if (!ar) {
        if (!d->errors) abort();
        return;
    }
    for (size_t i = 0; i < ar->members.len && i < 8; i++) {
        isk_obj *o = isk_archive_member_obj(ar, i, d);
        isk_obj_free(o);
    }
    for (size_t i = 0; i < ar->symbols.len && i < 8; i++)
        if (isk_archive_find(ar, ar->symbols.data[i].name) < 0) abort();
    isk_archive_free(ar);
}

static void fuzz_ihex(const uint8_t *data, size_t size, isk_diag *d)
{
    isk_obj *o = isk_ihex_read_mem((const char *)data, size, "fuzz.hex", d);
    if (!o) {
        if (!d->errors) abort();
        return;
    }
    isk_obj_free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    if (size >= 8 && memcmp(data, "!<arch>\n", 8) == 0) fuzz_archive(data, size, &d);
    else if (size >= 1 && data[0] == ':') fuzz_ihex(data, size, &d);
    else fuzz_elf(data, size, &d);
    return 0;
}
