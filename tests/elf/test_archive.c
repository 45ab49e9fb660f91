/* `.a` archives: write/read round trip, the symbol index, long names, an index built when
 * missing, interoperability with GNU ar when it is installed, and malformed archives. */
#include "base/file.h"
#include "check.h"
#include "elf/archive.h"
#include "elf/elf_file.h"

#include <unistd.h>

static uint8_t *object(const char *fn, const char *global2, size_t *n)
{
    isk_obj *o = isk_obj_new("m.o", ELFCLASS32, 0, 0xf5, ET_REL);
    uint32_t t = isk_obj_section(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 8);
    isk_obj_append(o, t, "\1\2\3\4\5\6\7\10", 8);
    uint32_t s = isk_obj_symbol(o, fn);
    isk_obj_define(o, s, t, 0);
    isk_obj_set_binding(o, s, STB_GLOBAL);
    if (global2) {
        s = isk_obj_symbol(o, global2);
        isk_obj_define(o, s, t, 4);
        isk_obj_set_binding(o, s, STB_WEAK);
    }
    s = isk_obj_symbol(o, "local_only");
    isk_obj_define(o, s, t, 2);
    isk_obj_symbol(o, "undefined_ref");
    isk_diag d;
    isk_diag_init(&d);
    uint8_t *img = NULL;
    CHECK_EQ(isk_elf_write_mem(o, &img, n, &d), 0);
    isk_obj_free(o);
    return img;
}

typedef struct sample { uint8_t *img[3]; size_t n[3]; uint8_t *ar; size_t arn; } sample;

static sample make(void)
{
    sample s;
    s.img[0] = object("alpha", NULL, &s.n[0]);
    s.img[1] = object("beta", "beta_weak", &s.n[1]);
    s.img[2] = object("gamma", NULL, &s.n[2]);
    isk_ar_input in[3] = { { "alpha.o", s.img[0], s.n[0] },
                           { "some/dir/a_rather_long_member_name.o", s.img[1], s.n[1] },
                           { "g.o", s.img[2], s.n[2] } };
    isk_diag d;
    isk_diag_init(&d);
    CHECK_EQ(isk_archive_write_mem(in, 3, &s.ar, &s.arn, &d), 0);
    return s;
}

static void drop(sample *s)
{
    for (int i = 0; i < 3; i++) free(s->img[i]);
    free(s->ar);
}

static void roundtrip(void)
{
    sample s = make();
    isk_diag d;
    isk_diag_buffer sink;
    isk_diag_init(&d);
    isk_diag_capture(&d, &sink);
    CHECK(isk_is_archive(s.ar, s.arn));
    CHECK(memcmp(s.ar, "!<arch>\n/               0           0     0     0       ", 56) == 0);
    isk_archive *a = isk_archive_read_mem(s.ar, s.arn, "libx.a", &d);
    CHECK(a != NULL);
    if (!a) { drop(&s); isk_diag_buffer_free(&sink); return; }
    CHECK_EQ(a->members.len, 3);
    CHECK_STR(a->members.data[0].name, "alpha.o");
    CHECK_STR(a->members.data[1].name, "a_rather_long_member_name.o");
    CHECK_STR(a->members.data[2].name, "g.o");
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(a->members.data[i].size, s.n[i]);
        CHECK(memcmp(a->members.data[i].data, s.img[i], s.n[i]) == 0);
    }
    CHECK_EQ(a->symbols.len, 4);                         /* alpha, beta, beta_weak, gamma: no locals, no undefined */
    CHECK_EQ(isk_archive_find(a, "alpha"), 0);
    CHECK_EQ(isk_archive_find(a, "beta_weak"), 1);
    CHECK_EQ(isk_archive_find(a, "gamma"), 2);
    CHECK_EQ(isk_archive_find(a, "local_only"), -1);
    CHECK_EQ(isk_archive_find(a, "undefined_ref"), -1);
    CHECK_EQ(isk_archive_find(a, "zzz"), -1);
    isk_obj *o = isk_archive_member_obj(a, 1, &d);
    CHECK(o != NULL);
    if (o) CHECK_STR(o->filename, "libx.a(a_rather_long_member_name.o)");
    isk_obj_free(o);
    CHECK(isk_archive_member_obj(a, 7, &d) == NULL);
    CHECK_CONTAINS(d.last, "libx.a: error: no member 7 (the archive has 3)");
    isk_archive_free(a);

    /* Without the "/" member the index is rebuilt from the members. */
    uint64_t isz = strtoull((const char *)s.ar + 8 + 48, NULL, 10);
    size_t skip = 60 + (size_t)isz + (isz & 1);
    uint8_t *plain = malloc(s.arn - skip);
    memcpy(plain, s.ar, 8);
    memcpy(plain + 8, s.ar + 8 + skip, s.arn - 8 - skip);
    a = isk_archive_read_mem(plain, s.arn - skip, "plain.a", &d);
    CHECK(a != NULL);
    if (a) {
        CHECK_EQ(a->members.len, 3);
        CHECK_EQ(isk_archive_find(a, "gamma"), 2);
        CHECK_EQ(isk_archive_find(a, "beta"), 1);
    }
    isk_archive_free(a);
    free(plain);
    drop(&s);
    isk_diag_buffer_free(&sink);
}

/* GNU ar lists our archives, and we read archives GNU ar made. */
static void gnu_ar(void)
{
    if (system("command -v ar >/dev/null 2>&1") != 0) return;
    char dir[] = "/tmp/isk_ar_XXXXXX";
    if (!mkdtemp(dir)) return;
    sample s = make();
    isk_diag d;
    isk_diag_init(&d);
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/ours.a", dir);
    CHECK_EQ(isk_file_write_all(path, s.ar, s.arn, &d), 0);
    snprintf(cmd, sizeof cmd, "ar t %s > %s/list.txt 2>&1", path, dir);
    CHECK_EQ(system(cmd), 0);
    snprintf(path, sizeof path, "%s/list.txt", dir);
    uint8_t *list;
    size_t ln;
    if (isk_file_read_all(path, &list, &ln, &d) == 0) {
        list = realloc(list, ln + 1);
        list[ln] = 0;
        CHECK_STR((char *)list, "alpha.o\na_rather_long_member_name.o\ng.o\n");
        free(list);
    }
    /* GNU ar's archive of our objects (its index may be absent for an unknown machine: then
     * ours is built from the members). */
    const char *names[3] = { "one.o", "a_long_name_for_two.o", "three.o" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CHECK_EQ(isk_file_write_all(path, s.img[i], s.n[i], &d), 0);
    }
    snprintf(cmd, sizeof cmd, "cd %s && ar rcs theirs.a one.o a_long_name_for_two.o three.o 2>/dev/null", dir);
    CHECK_EQ(system(cmd), 0);
    snprintf(path, sizeof path, "%s/theirs.a", dir);
    isk_archive *a = isk_archive_read_file(path, &d);
    CHECK(a != NULL);
    if (a) {
        CHECK_EQ(a->members.len, 3);
        if (a->members.len == 3) CHECK_STR(a->members.data[1].name, "a_long_name_for_two.o");
        CHECK_EQ(isk_archive_find(a, "beta"), 1);
        CHECK_EQ(isk_archive_find(a, "gamma"), 2);
    }
    isk_archive_free(a);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ(system(cmd), 0);
    drop(&s);
}

static char msg[600];
static const char *refuse(const uint8_t *p, size_t n)
{
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_archive *a = isk_archive_read_mem(p, n, "bad.a", &d);
    CHECK(a == NULL);
    CHECK_EQ(d.errors, 1);
    snprintf(msg, sizeof msg, "%s", d.last);
    isk_archive_free(a);
    isk_diag_buffer_free(&buf);
    return msg;
}

/* A hand-made archive from parts (string literals that may hold NUL bytes). */
typedef struct part { const char *p; size_t n; } part;
#define P(lit) { lit, sizeof(lit) - 1 }

static size_t build(uint8_t *out, const part *parts, size_t nparts)
{
    memcpy(out, "!<arch>\n", 8);
    size_t n = 8;
    for (size_t i = 0; i < nparts; i++) {
        memcpy(out + n, parts[i].p, parts[i].n);
        n += parts[i].n;
    }
    return n;
}

#define HDR(name, size) name "0           0     0     644     " size "`\n"

static void malformed(void)
{
    uint8_t b[1024];
    size_t n;
    CHECK_CONTAINS(refuse((const uint8_t *)"!<thin>\n", 8), "bad.a: error: not an archive (bad magic)");
    n = build(b, (const part[]){ P("short") }, 1);
    CHECK_CONTAINS(refuse(b, n), "truncated member header at offset 0x8 (5 bytes left, a header needs 60)");
    n = build(b, (const part[]){ P("x.o/            0           0     0     644     4         XX") }, 1);
    CHECK_CONTAINS(refuse(b, n), "member header at offset 0x8: bad terminator");
    n = build(b, (const part[]){ P(HDR("x.o/            ", "4z        ")), P("abcd") }, 2);
    CHECK_CONTAINS(refuse(b, n), "bad size field '4z        '");
    n = build(b, (const part[]){ P(HDR("x.o/            ", "400       ")), P("abcd") }, 2);
    CHECK_CONTAINS(refuse(b, n), "member at offset 0x8: size 400 extends past the end of the archive (72 bytes)");
    n = build(b, (const part[]){ P(HDR("/5              ", "4         ")), P("abcd") }, 2);
    CHECK_CONTAINS(refuse(b, n), "long name reference '/5              ' is not in the name table");
    n = build(b, (const part[]){ P(HDR("//              ", "6         ")), P("abc/\n\n"), P(HDR("/9              ", "4         ")), P("abcd") }, 4);
    CHECK_CONTAINS(refuse(b, n), "is not in the name table");
    n = build(b, (const part[]){ P(HDR("//              ", "4         ")), P("abc/"), P(HDR("/0              ", "4         ")), P("abcd") }, 4);
    CHECK_CONTAINS(refuse(b, n), "long name at table offset 0 is not terminated");
    n = build(b, (const part[]){ P(HDR("/               ", "8         ")), P("\0\0\0\x09\0\0\0\x08") }, 2);
    CHECK_CONTAINS(refuse(b, n), "symbol index: 9 entries do not fit in its 8 bytes");
    n = build(b, (const part[]){ P(HDR("/               ", "10        ")), P("\0\0\0\1\0\0\0\x08" "ab"), P(HDR("x.o/            ", "2         ")), P("zz") }, 4);
    CHECK_CONTAINS(refuse(b, n), "symbol index: name of entry 0 is missing or not terminated");
    n = build(b, (const part[]){ P(HDR("/               ", "10        ")), P("\0\0\0\1\0\0\0\x09" "a\0"), P(HDR("x.o/            ", "2         ")), P("zz") }, 4);
    CHECK_CONTAINS(refuse(b, n), "symbol index: entry 'a' points to offset 0x9, where no member starts");
    n = build(b, (const part[]){ P(HDR("/               ", "4         ")), P("\0\0\0\0"), P(HDR("/               ", "4         ")), P("\0\0\0\0") }, 4);
    CHECK_CONTAINS(refuse(b, n), "a second symbol index");
    n = build(b, (const part[]){ P(HDR("/x              ", "2         ")), P("zz") }, 2);
    CHECK_CONTAINS(refuse(b, n), "has an empty name");

    /* A member that is not an object: reading the archive works, loading the member fails. */
    n = build(b, (const part[]){ P(HDR("notes.txt/      ", "5         ")), P("hello"), P("\n") }, 3);
    isk_diag d;
    isk_diag_buffer buf;
    isk_diag_init(&d);
    isk_diag_capture(&d, &buf);
    isk_archive *a = isk_archive_read_mem(b, n, "lib.a", &d);
    CHECK(a != NULL);
    if (a) {
        CHECK_EQ(a->members.len, 1);
        CHECK(isk_archive_member_obj(a, 0, &d) == NULL);
        CHECK_CONTAINS(d.last, "lib.a(notes.txt): error: truncated file: 5 bytes");
    }
    isk_archive_free(a);
    /* The writer refuses members that are not ELF objects. */
    isk_ar_input in = { "notes.txt", "hello", 5 };
    uint8_t *out;
    size_t outn;
    CHECK_EQ(isk_archive_write_mem(&in, 1, &out, &outn, &d), -1);
    CHECK_CONTAINS(d.last, "notes.txt: error: truncated file");
    isk_diag_buffer_free(&buf);
}

/* Every byte change and truncation of a valid archive: read or refused, never a crash. */
static void no_crash(void)
{
    sample s = make();
    static const uint8_t vals[] = { 0x00, '0', '9', ' ', '/', 0xff };
    for (size_t i = 0; i < s.arn; i++)
        for (size_t v = 0; v < sizeof vals; v++) {
            uint8_t save = s.ar[i];
            s.ar[i] = vals[v];
            isk_diag d;
            isk_diag_buffer buf;
            isk_diag_init(&d);
            isk_diag_capture(&d, &buf);
            isk_archive *a = isk_archive_read_mem(s.ar, s.arn, "x.a", &d);
            if (!a) CHECK(d.errors > 0);
            for (size_t m = 0; a && m < a->members.len; m++) isk_obj_free(isk_archive_member_obj(a, m, &d));
            isk_archive_free(a);
            isk_diag_buffer_free(&buf);
            s.ar[i] = save;
        }
    for (size_t n = 0; n < s.arn; n += 7) {
        isk_diag d;
        isk_diag_buffer buf;
        isk_diag_init(&d);
        isk_diag_capture(&d, &buf);
        isk_archive *a = isk_archive_read_mem(s.ar, n, "x.a", &d);
        if (!a) CHECK(d.errors > 0);
        isk_archive_free(a);
        isk_diag_buffer_free(&buf);
    }
    drop(&s);
}

int main(void)
{
    roundtrip();
    gnu_ar();
    malformed();
    no_crash();
    return CHECK_DONE();
}
