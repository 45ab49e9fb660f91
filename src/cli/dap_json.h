/* The Debug Adapter Protocol's wire format (run_dap.c): Content-Length framed messages and the
 * JSON inside them. A small reader (a tree of values, depth and size bounded, every error a
 * sentence with the byte offset) and a writer into a growable buffer; fuzzed (fuzz/dap_json_fuzz.c). */
#ifndef ISK_CLI_DAP_JSON_H
#define ISK_CLI_DAP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { DJ_NULL, DJ_BOOL, DJ_NUM, DJ_STR, DJ_ARR, DJ_OBJ } dj_type;

typedef struct dj {
    dj_type type;
    bool b;
    double num;
    char *str;               /* DJ_STR: decoded UTF-8, NUL-terminated (embedded NULs end it) */
    size_t n;                /* DJ_ARR, DJ_OBJ: members */
    struct dj *items;
    char **keys;             /* DJ_OBJ: each member's key */
} dj;

/* Parse a whole JSON text; NULL with "offset N: why" in err. Nesting deeper than 64 and texts
 * over 64 MiB are refused. */
dj *dj_parse(const char *text, size_t len, char *err, size_t cap);
void dj_free(dj *v);

/* Lookups that tolerate a missing or mistyped member (NULL v included): the default then. */
const dj *dj_get(const dj *obj, const char *key);
const char *dj_str(const dj *obj, const char *key, const char *def);
bool dj_bool(const dj *obj, const char *key, bool def);
/* An integral number within int64_t, else def. */
int64_t dj_int(const dj *obj, const char *key, int64_t def);

/* The framing: "Content-Length: N\r\n" (other header lines ignored), "\r\n", then N bytes.
 * Looks at buf[0..n): 1 when a whole message is there (*body at buf + *hdr, *body_len bytes),
 * 0 when more bytes are needed, -1 on bad framing (err says why). */
#define DAP_MAX_MESSAGE (64u << 20)
int dap_frame(const char *buf, size_t n, size_t *hdr, size_t *body_len, char *err, size_t cap);

/* The writer. */
typedef struct jbuf { char *p; size_t len, cap; } jbuf;
void jb_add(jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string, quoted and escaped. */
void jb_str(jbuf *b, const char *s);
/* "key":"s", preceded by a comma unless the buffer ends with '{' or '['. */
void jb_kstr(jbuf *b, const char *key, const char *s);
void jb_kint(jbuf *b, const char *key, int64_t v);
void jb_kbool(jbuf *b, const char *key, bool v);
/* "key": then the caller adds the value. */
void jb_key(jbuf *b, const char *key);
void jb_free(jbuf *b);

/* Base64 (readMemory, writeMemory). Decoding: the bytes (malloc'd), or NULL on bad input. */
void jb_base64(jbuf *b, const uint8_t *data, size_t n);
uint8_t *dj_base64_decode(const char *s, size_t *n);

#endif
