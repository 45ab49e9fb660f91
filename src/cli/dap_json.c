#include "cli/dap_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/vec.h"

#define DJ_MAX_DEPTH 64

typedef struct parser {
    const char *s;
    size_t n, i;
    char *err;
    size_t cap;
    bool failed;
} parser;

static bool fail(parser *p, const char *why)
{
    if (!p->failed) snprintf(p->err, p->cap, "offset %zu: %s", p->i, why);
    p->failed = true;
    return false;
}

static void skip_ws(parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')) p->i++;
}

static bool literal(parser *p, const char *word)
{
    size_t k = strlen(word);
    if (p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0) return fail(p, "not a JSON value");
    p->i += k;
    return true;
}

static int hex4(parser *p)
{
    if (p->n - p->i < 4) return -1;
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p->s[p->i + (size_t)k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    p->i += 4;
    return v;
}

static void put_utf8(jbuf *b, unsigned cp)
{
    if (cp < 0x80) jb_add(b, "%c", (char)cp);
    else if (cp < 0x800) jb_add(b, "%c%c", (char)(0xc0 | cp >> 6), (char)(0x80 | (cp & 0x3f)));
    else if (cp < 0x10000)
        jb_add(b, "%c%c%c", (char)(0xe0 | cp >> 12), (char)(0x80 | (cp >> 6 & 0x3f)), (char)(0x80 | (cp & 0x3f)));
    else
        jb_add(b, "%c%c%c%c", (char)(0xf0 | cp >> 18), (char)(0x80 | (cp >> 12 & 0x3f)), (char)(0x80 | (cp >> 6 & 0x3f)),
               (char)(0x80 | (cp & 0x3f)));
}

/* At the opening quote; a malloc'd string, or NULL after fail. */
static char *string(parser *p)
{
    jbuf b = { 0 };
    jb_add(&b, "%s", "");
    p->i++;
    for (;;) {
        if (p->i >= p->n) {
            fail(p, "unterminated string");
            break;
        }
        unsigned char c = (unsigned char)p->s[p->i++];
        if (c == '"') return b.p;
        if (c < 0x20) {
            p->i--;
            fail(p, "control character in a string");
            break;
        }
        if (c != '\\') {
            jb_add(&b, "%c", (char)c);
            continue;
        }
        if (p->i >= p->n) {
            fail(p, "unterminated string");
            break;
        }
        char e = p->s[p->i++];
        const char *plain = strchr("\"\\/bfnrt", e);
        if (e && plain) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            jb_add(&b, "%c", to[plain - "\"\\/bfnrt"]);
        } else if (e == 'u') {
            int cp = hex4(p);
            if (cp < 0) {
                fail(p, "bad \\u escape");
                break;
            }
            if (cp >= 0xd800 && cp < 0xdc00 && p->n - p->i >= 6 && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
                p->i += 2;
                int lo = hex4(p);
                if (lo < 0xdc00 || lo >= 0xe000) {
                    fail(p, "bad surrogate pair");
                    break;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(&b, (unsigned)cp);
        } else {
            p->i--;
            fail(p, "bad escape in a string");
            break;
        }
    }
    jb_free(&b);
    return NULL;
}

static bool number(parser *p, dj *v)
{
    size_t start = p->i;
    if (p->i < p->n && p->s[p->i] == '-') p->i++;
    size_t digits = p->i;
    while (p->i < p->n && ((p->s[p->i] >= '0' && p->s[p->i] <= '9') || strchr(".eE+-", p->s[p->i]))) p->i++;
    if (p->i == digits || p->i - start > 64) {
        p->i = start;
        return fail(p, "not a JSON value");
    }
    char tmp[72], *end;
    memcpy(tmp, p->s + start, p->i - start);
    tmp[p->i - start] = 0;
    v->num = strtod(tmp, &end);
    if (*end || !isfinite(v->num)) {
        p->i = start;
        return fail(p, "bad number");
    }
    v->type = DJ_NUM;
    return true;
}

static bool value(parser *p, dj *v, int depth)
{
    memset(v, 0, sizeof *v);
    skip_ws(p);
    if (p->i >= p->n) return fail(p, "unexpected end of the text");
    if (depth > DJ_MAX_DEPTH) return fail(p, "nested too deeply");
    char c = p->s[p->i];
    if (c == '"') {
        v->str = string(p);
        v->type = DJ_STR;
        return v->str != NULL;
    }
    if (c == '{' || c == '[') {
        bool obj = c == '{';
        v->type = obj ? DJ_OBJ : DJ_ARR;
        p->i++;
        VEC(dj) items = { 0 };
        VEC(char *) keys = { 0 };
        skip_ws(p);
        bool ok = true;
        if (p->i < p->n && p->s[p->i] == (obj ? '}' : ']')) {
            p->i++;
        } else {
            for (;;) {
                if (obj) {
                    skip_ws(p);
                    if (p->i >= p->n || p->s[p->i] != '"') {
                        ok = fail(p, "expected a member name");
                        break;
                    }
                    char *k = string(p);
                    if (!k) {
                        ok = false;
                        break;
                    }
                    VEC_PUSH(&keys, k);
                    skip_ws(p);
                    if (p->i >= p->n || p->s[p->i] != ':') {
                        ok = fail(p, "expected ':'");
                        break;
                    }
                    p->i++;
                }
                dj item;
                ok = value(p, &item, depth + 1);
                VEC_PUSH(&items, item);
                if (!ok) break;
                skip_ws(p);
                if (p->i < p->n && p->s[p->i] == ',') {
                    p->i++;
                    continue;
                }
                if (p->i < p->n && p->s[p->i] == (obj ? '}' : ']')) {
                    p->i++;
                    break;
                }
                ok = fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
                break;
            }
        }
        v->items = items.data;
        v->n = items.len;
        /* a failed object may have one key more than values: free it here */
        if (obj && keys.len > items.len) free(keys.data[--keys.len]);
        v->keys = keys.data;
        return ok;
    }
    if (c == 't') return (v->type = DJ_BOOL, v->b = true, literal(p, "true"));
    if (c == 'f') return (v->type = DJ_BOOL, literal(p, "false"));
    if (c == 'n') return literal(p, "null");
    return number(p, v);
}

static void release(dj *v)
{
    free(v->str);
    for (size_t i = 0; i < v->n; i++) {
        release(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

dj *dj_parse(const char *text, size_t len, char *err, size_t cap)
{
    parser p = { .s = text, .n = len, .err = err, .cap = cap };
    if (len > DAP_MAX_MESSAGE) {
        snprintf(err, cap, "a JSON text of %zu bytes (at most %u)", len, DAP_MAX_MESSAGE);
        return NULL;
    }
    dj *v = isk_xcalloc(1, sizeof *v);
    bool ok = value(&p, v, 0);
    if (ok) {
        skip_ws(&p);
        if (p.i < p.n) ok = fail(&p, "text after the JSON value");
    }
    if (!ok) {
        dj_free(v);
        return NULL;
    }
    return v;
}

void dj_free(dj *v)
{
    if (!v) return;
    release(v);
    free(v);
}

const dj *dj_get(const dj *obj, const char *key)
{
    if (!obj || obj->type != DJ_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

const char *dj_str(const dj *obj, const char *key, const char *def)
{
    const dj *v = dj_get(obj, key);
    return v && v->type == DJ_STR ? v->str : def;
}

bool dj_bool(const dj *obj, const char *key, bool def)
{
    const dj *v = dj_get(obj, key);
    return v && v->type == DJ_BOOL ? v->b : def;
}

int64_t dj_int(const dj *obj, const char *key, int64_t def)
{
    const dj *v = dj_get(obj, key);
    if (!v || v->type != DJ_NUM || v->num != floor(v->num) || v->num < -9.2e18 || v->num > 9.2e18) return def;
    return (int64_t)v->num;
}

int dap_frame(const char *buf, size_t n, size_t *hdr, size_t *body_len, char *err, size_t cap)
{
    size_t i = 0, length = 0;
    bool have = false;
    for (;;) {
        const char *nl = memchr(buf + i, '\n', n - i);
        if (!nl) {
            if (n - i > 1024) {
                snprintf(err, cap, "a header line longer than 1024 bytes");
                return -1;
            }
            return 0;
        }
        size_t end = (size_t)(nl - buf), len = end - i;
        if (len == 0 || buf[end - 1] != '\r') {
            snprintf(err, cap, "a header line not ended by CR LF");
            return -1;
        }
        len--;
        if (len == 0) {
            i = end + 1;
            break;
        }
        static const char cl[] = "Content-Length:";
        if (len >= sizeof cl - 1 && strncasecmp(buf + i, cl, sizeof cl - 1) == 0) {
            size_t k = i + sizeof cl - 1;
            while (k < i + len && buf[k] == ' ') k++;
            if (k == i + len) {
                snprintf(err, cap, "Content-Length without a number");
                return -1;
            }
            length = 0;
            for (; k < i + len; k++) {
                if (buf[k] < '0' || buf[k] > '9' || length > DAP_MAX_MESSAGE) {
                    snprintf(err, cap, "bad Content-Length '%.*s' (at most %u)", (int)(len < 40 ? len : 40), buf + i,
                             DAP_MAX_MESSAGE);
                    return -1;
                }
                length = length * 10 + (size_t)(buf[k] - '0');
            }
            if (length > DAP_MAX_MESSAGE) {
                snprintf(err, cap, "a message of %zu bytes (at most %u)", length, DAP_MAX_MESSAGE);
                return -1;
            }
            have = true;
        }
        i = end + 1;
    }
    if (!have) {
        snprintf(err, cap, "a message without Content-Length");
        return -1;
    }
    if (n - i < length) return 0;
    *hdr = i;
    *body_len = length;
    return 1;
}

void jb_add(jbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->len + (size_t)k + 1 > b->cap) {
        b->cap = (b->len + (size_t)k + 1) * 2;
        b->p = isk_xrealloc(b->p, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)k;
}

void jb_str(jbuf *b, const char *s)
{
    jb_add(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') jb_add(b, "\\%c", c);
        else if (c == '\n') jb_add(b, "\\n");
        else if (c == '\t') jb_add(b, "\\t");
        else if (c < 0x20) jb_add(b, "\\u%04x", c);
        else jb_add(b, "%c", c);
    }
    jb_add(b, "\"");
}

void jb_key(jbuf *b, const char *key)
{
    if (b->len && b->p[b->len - 1] != '{' && b->p[b->len - 1] != '[') jb_add(b, ",");
    jb_str(b, key);
    jb_add(b, ":");
}

void jb_kstr(jbuf *b, const char *key, const char *s)
{
    jb_key(b, key);
    jb_str(b, s);
}

void jb_kint(jbuf *b, const char *key, int64_t v)
{
    jb_key(b, key);
    jb_add(b, "%lld", (long long)v);
}

void jb_kbool(jbuf *b, const char *key, bool v)
{
    jb_key(b, key);
    jb_add(b, v ? "true" : "false");
}

void jb_free(jbuf *b)
{
    free(b->p);
    *b = (jbuf){ 0 };
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void jb_base64(jbuf *b, const uint8_t *d, size_t n)
{
    jb_add(b, "\"");
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
        jb_add(b, "%c%c%c%c", b64[v >> 18], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
               i + 2 < n ? b64[v & 63] : '=');
    }
    jb_add(b, "\"");
}

uint8_t *dj_base64_decode(const char *s, size_t *n)
{
    size_t len = strlen(s);
    uint8_t *out = isk_xcalloc(1, len / 4 * 3 + 3);
    uint32_t acc = 0;
    int bits = 0;
    size_t k = 0, pad = 0;
    for (size_t i = 0; i < len; i++) {
        const char *c = s[i] ? strchr(b64, s[i]) : NULL;
        if (s[i] == '=') {
            pad++;
            continue;
        }
        if (!c || pad) {
            free(out);
            return NULL;
        }
        acc = acc << 6 | (uint32_t)(c - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (uint8_t)(acc >> bits);
        }
    }
    *n = k;
    return out;
}
