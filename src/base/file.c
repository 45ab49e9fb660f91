/* Whole files in and out, with errors reported as "PATH: what".
 *
 * Every input is bounded: a regular file larger than the limit is refused before it is read
 * (with its size), and anything else (a pipe, a device such as /dev/zero) is read only until it
 * passes the limit. Text inputs are checked for binary data in their first block, so a 100 MB
 * binary file given as a source costs one read and one message. */
#include "base/file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/num.h"
#include "base/vec.h"

#define BLOCK 65536

uint64_t isk_file_max_input(isk_diag *diag)
{
    const char *env = getenv(ISK_FILE_MAX_INPUT_ENV);
    if (!env || !*env) return ISK_FILE_MAX_INPUT_DEFAULT;
    uint64_t v;
    char why[160];
    if (isk_parse_u64(env, 1, UINT64_C(1) << 40, ISK_UNIT_BYTES, &v, why, sizeof why)) return v;
    if (diag) {
        isk_warning(diag, NULL, "%s: %s; using %" PRIu64 " bytes", ISK_FILE_MAX_INPUT_ENV, why,
                    (uint64_t)ISK_FILE_MAX_INPUT_DEFAULT);
    }
    return ISK_FILE_MAX_INPUT_DEFAULT;
}

/* Does this block look like binary data rather than text? Several NUL bytes say so at once
 * (one is a typo, reported at its line); otherwise many control characters (other than the
 * white space of text files and ESC) and bytes that are not UTF-8 do. */
static bool looks_binary(const uint8_t *p, size_t n)
{
    size_t nul = 0, odd = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if ((uint8_t)(c - 0x20) < 0x5F) continue;   /* printable ASCII: nearly every byte of text */
        if (c == 0) nul++;
        if (c >= 0x80) {
            size_t k = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
            size_t j = 1;
            while (j <= k && i + j < n && (p[i + j] & 0xC0) == 0x80) j++;
            if (k && j == k + 1) i += k;
            else odd++;
        } else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B) ||
                   c == 0x7F) {
            odd++;
        }
    }
    return nul > 1 || (odd > 8 && odd * 10 > n);
}

/* Read all of path into *data (len bytes, one spare byte allocated after them). `what` != NULL:
 * a text input of that kind, whose first block must not look binary. */
static int read_bounded(const char *path, const char *what, uint8_t **data, size_t *size, isk_diag *diag)
{
    isk_loc loc = { .file = path };
    FILE *f = fopen(path, "rb");
    if (!f) {
        isk_error(diag, &loc, "cannot open: %s", strerror(errno));
        return -1;
    }
    uint64_t limit = isk_file_max_input(diag);
    struct stat st;
    bool known = fstat(fileno(f), &st) == 0, regular = known && S_ISREG(st.st_mode);
    if (known && S_ISDIR(st.st_mode)) {
        fclose(f);
        isk_error(diag, &loc, "is a directory, not a file");
        return -1;
    }
    if (regular && (uint64_t)st.st_size > limit) {
        fclose(f);
        isk_error(diag, &loc, "the file is %" PRIu64 " bytes, more than the limit of %" PRIu64
                  " bytes (set %s to raise it)", (uint64_t)st.st_size, limit, ISK_FILE_MAX_INPUT_ENV);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    bool checked = what == NULL;
    for (;;) {
        if (len + 1 >= cap) {
            cap = cap ? cap * 2 : BLOCK;
            if (cap > limit + 2) cap = (size_t)limit + 2;    /* enough to see the limit passed */
            if (regular && cap > (uint64_t)st.st_size + 2 && (uint64_t)st.st_size + 2 > len + 1)
                cap = (size_t)st.st_size + 2;    /* no doubling past what the file holds */
            buf = isk_xrealloc(buf, cap);
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (!checked && (len >= BLOCK || got == 0)) {
            checked = true;
            if (looks_binary(buf, len < BLOCK ? len : BLOCK)) {
                fclose(f);
                free(buf);
                isk_error(diag, &loc, "this looks like a binary file, not %s", what);
                return -1;
            }
        }
        if (len > limit) {
            fclose(f);
            free(buf);
            isk_error(diag, &loc, "%s is longer than the limit of %" PRIu64 " bytes (set %s to raise it)",
                      regular ? "the file" : "this input (not a regular file)", limit, ISK_FILE_MAX_INPUT_ENV);
            return -1;
        }
        if (got == 0) break;
    }
    int bad = ferror(f);
    int err = errno;
    fclose(f);
    if (bad) {
        free(buf);
        isk_error(diag, &loc, "read error: %s", strerror(err));
        return -1;
    }
    *data = buf;
    *size = len;
    return 0;
}

int isk_file_read_all(const char *path, uint8_t **data, size_t *size, isk_diag *diag)
{
    return read_bounded(path, NULL, data, size, diag);
}

int isk_file_check_text(const char *path, const char *what, const char *text, size_t len, isk_diag *diag)
{
    if (looks_binary((const uint8_t *)text, len < BLOCK ? len : BLOCK)) {
        isk_loc loc = { .file = path };
        isk_error(diag, &loc, "this looks like a binary file, not %s", what);
        return -1;
    }
    const char *nul = memchr(text, 0, len);
    if (!nul) return 0;
    /* One NUL in text: point at it. */
    int line = 1;
    const char *start = text;
    for (const char *p = text; p < nul; p++)
        if (*p == '\n') line++, start = p + 1;
    const char *end = memchr(nul, '\n', len - (size_t)(nul - text));
    isk_loc loc = { path, line, (int)(nul - start) + 1, start, (int)((end ? end : text + len) - start) };
    isk_error(diag, &loc, "a NUL byte: %s cannot contain one", what);
    return -1;
}

int isk_file_read_source(const char *path, const char *what, char **text, size_t *size, isk_diag *diag)
{
    uint8_t *data;
    size_t len;
    if (read_bounded(path, what, &data, &len, diag) != 0) return -1;
    if (isk_file_check_text(path, what, (const char *)data, len, diag) != 0) {
        free(data);
        return -1;
    }
    data[len] = 0;                  /* read_bounded left room for it */
    *text = (char *)data;
    *size = len;
    return 0;
}

int isk_file_read_text(const char *path, char **text, size_t *size, isk_diag *diag)
{
    return isk_file_read_source(path, "text", text, size, diag);
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
