/* Whole files in and out, with errors reported as "PATH: what". */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

int isk_file_read_all(const char *path, uint8_t **data, size_t *size, isk_diag *diag)
{
    isk_loc loc = { .file = path };
    FILE *f = fopen(path, "rb");
    if (!f) {
        isk_error(diag, &loc, "cannot open: %s", strerror(errno));
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            buf = isk_xrealloc(buf, cap);
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        isk_error(diag, &loc, "read error");
        return -1;
    }
    *data = buf;
    *size = len;
    return 0;
}

int isk_file_read_text(const char *path, char **text, size_t *size, isk_diag *diag)
{
    uint8_t *data;
    size_t len;
    if (isk_file_read_all(path, &data, &len, diag) != 0) return -1;
    const uint8_t *nul = memchr(data, 0, len);
    if (nul) {
        isk_loc loc = { .file = path };
        isk_error(diag, &loc, "a NUL byte at offset %zu: this looks like a binary file, not text",
                  (size_t)(nul - data));
        free(data);
        return -1;
    }
    data = isk_xrealloc(data, len + 1);
    data[len] = 0;
    *text = (char *)data;
    *size = len;
    return 0;
}

int isk_file_write_all(const char *path, const void *data, size_t size, isk_diag *diag)
{
    isk_loc loc = { .file = path };
    FILE *f = fopen(path, "wb");
    if (!f) {
        isk_error(diag, &loc, "cannot create: %s", strerror(errno));
        return -1;
    }
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    int bad = put != size;
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        isk_error(diag, &loc, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
}
