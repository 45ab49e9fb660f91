/* The run vectors of the EdkDSP reference pack (run-vectors.md): 16 self-checking programs, 28
 * program/core fixtures. Each is assembled with our .psm assembler and run on our KCPSM3 or KCPSM6
 * model in the fixtures' test bench: ports 00-0F loop back, a write to FC raises the interrupt
 * until interrupt_ack, the first write to FF ends the run. The final registers (both banks),
 * flags, bank, scratchpad, every port write with its clock, and the instruction, interrupt and
 * clock counts must be those of the Xilinx RTL (programs/expected.txt).
 * With a directory argument (tests/cli/cc_rv.sh) the programs are DIR/<program>_<core>.psm, the C
 * versions (tests/cc/rv/) compiled by isekit cc: the same bench, and the same registers (both
 * banks), bank, interrupt count and port writes (port and value in order; not their clocks), but
 * not the flags, counts or scratchpad, which the C code's frames and code shape change. */
#include <ctype.h>
#include <string.h>

#include "psm/psm.h"
#include "check.h"
#include "isekit/picoblaze.h"

#define MAX_WRITES 64

typedef struct bench {
    isk_system *sys;
    uint8_t loopback[16];
    int input80;
    isk_ref interrupt;
    uint64_t write_clock[MAX_WRITES];
    unsigned write_port[MAX_WRITES], write_value[MAX_WRITES];
    int nwrites;
    bool done;
} bench;

static uint64_t bench_read(void *user, isk_inst *pb, uint64_t port)
{
    (void)pb;
    bench *b = user;
    if (port < 16) return b->loopback[port];
    return port == 0x80 ? (uint64_t)b->input80 : 0;
}

static void bench_write(void *user, isk_inst *pb, uint64_t port, uint64_t value)
{
    bench *b = user;
    if (port == PB_PIN_INTERRUPT_ACK) {
        isk_ref_write(&b->interrupt, 0);
        return;
    }
    if (port > 0xFF) return;
    if (b->nwrites < MAX_WRITES) {
        /* the write_strobe is in the instruction's second clock; the manuals count from 1 */
        b->write_clock[b->nwrites] = isk_clock(b->sys) + 2;
        b->write_port[b->nwrites] = (unsigned)port;
        b->write_value[b->nwrites++] = (unsigned)value;
    }
    if (port < 16) b->loopback[port] = (uint8_t)value;
    if (port == 0xFC) isk_ref_write(&b->interrupt, 1);
    if (port == 0xFF) {
        b->done = true;
        isk_context_of(pb, 0)->state = ISK_CTX_STOPPED;
    }
}

/* "key=value" of a fixture line, or NULL */
static const char *field(const char *line, const char *key, char *out, size_t cap)
{
    size_t k = strlen(key);
    for (const char *s = line; (s = strstr(s, key)); s += k) {
        if ((s != line && s[-1] != ' ') || s[k] != '=') continue;
        const char *v = s + k + 1;
        size_t n = strcspn(v, " \n");
        snprintf(out, cap, "%.*s", (int)n, v);
        return out;
    }
    return NULL;
}

static long number(const char *line, const char *key)
{
    char buf[32];
    return field(line, key, buf, sizeof buf) ? strtol(buf, NULL, 10) : -1;
}

static unsigned hex_byte(const char *s)
{
    char b[3] = { s[0], s[1], 0 };
    return (unsigned)strtoul(b, NULL, 16);
}

static int64_t read_storage(isk_inst *pb, const char *name, unsigned index)
{
    int64_t v = -1;
    isk_read(pb, name, index, &v);
    return v;
}

static int ran;            /* fixtures run */
static const char *c_dir; /* the C versions' directory, or NULL for the .psm originals */

static void run_fixture(const char *line)
{
    char program[64], core[16];
    if (sscanf(line, "%63s %15s", program, core) != 2) return;
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(core, &diag);
    CHECK(m != NULL);
    char path[512];
    if (c_dir) {
        snprintf(path, sizeof path, "%s/%s_%s.psm", c_dir, program, core);
        FILE *f = fopen(path, "r");
        if (!f) {
            isk_model_release(m);
            return;
        }
        fclose(f);
    } else
        snprintf(path, sizeof path, "%s/tests/picoblaze/programs/%s.psm", ISEKIT_SOURCE_DIR, program);
    psm_options o;
    psm_options_init(&o, m);
    psm_program *p = psm_assemble_file(path, &o, &diag);
    CHECK(p != NULL);
    if (!p) {
        isk_model_release(m);
        return;
    }
    isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &diag });
    isk_inst *pb = isk_system_add(sys, m, "pb");
    char env[32];
    bench b = { .sys = sys };
    if (field(line, "env", env, sizeof env) && strncmp(env, "input80=", 8) == 0) b.input80 = (int)hex_byte(env + 8);
    if (field(line, "env", env, sizeof env) && strncmp(env, "hwbuild=", 8) == 0) {
        char value[8];
        snprintf(value, sizeof value, "0x%.2s", env + 8);
        CHECK_EQ(isk_set_param(pb, "hwbuild", value), ISK_OK);
    }
    /* a C version may ask for a larger scratchpad (isekit cc --scratchpad) */
    if (c_dir && !strcmp(core, "kcpsm6")) CHECK_EQ(isk_set_param(pb, "scratchpad_size", "256"), ISK_OK);
    CHECK_EQ(isk_lookup(pb, "INTERRUPT", &b.interrupt), ISK_OK);
    isk_ref irom;
    CHECK_EQ(isk_lookup(pb, "IROM", &irom), ISK_OK);
    for (size_t i = 0; i < p->size; i++) {
        irom.index = i;
        isk_ref_write(&irom, p->words[i]);
    }
    isk_set_ports(pb, bench_read, bench_write, &b);
    isk_status st = isk_run(sys, 100000);
    CHECK(st == ISK_STOPPED || st == ISK_OK);
    CHECK(b.done);

    bool failed = false;
#define EXPECT_EQ(actual, expected) do { \
        long long a_ = (long long)(actual), e_ = (long long)(expected); \
        if (a_ != e_) { failed = true; fprintf(stderr, "%s on %s: %s is %lld, expected %lld\n", program, core, #actual, a_, e_); } \
        CHECK_EQ(a_, e_); } while (0)
    if (!c_dir) {
        EXPECT_EQ(isk_context_of(pb, 0)->insns, number(line, "instructions"));
        EXPECT_EQ(read_storage(pb, "Z", 0), number(line, "Z"));
        EXPECT_EQ(read_storage(pb, "C", 0), number(line, "C"));
        EXPECT_EQ(read_storage(pb, "IE", 0), number(line, "IE"));
    }
    EXPECT_EQ(read_storage(pb, "INTERRUPTS", 0), number(line, "interrupts"));
    if (number(line, "bank") >= 0) EXPECT_EQ(read_storage(pb, "BANK", 0), number(line, "bank"));
    char regs[40];
    for (int bank = 0; bank < 2; bank++)
        if (field(line, bank ? "regs_b" : "regs_a", regs, sizeof regs))
            for (unsigned r = 0; r < 16; r++) EXPECT_EQ(read_storage(pb, "REGS", 16 * bank + r), hex_byte(regs + 2 * r));
    char spm[512];
    uint8_t expected_spm[256] = { 0 };
    if (field(line, "spm", spm, sizeof spm) && spm[0] != '-')
        for (const char *s = spm; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] ? 1 : 0))
            expected_spm[hex_byte(s)] = (uint8_t)hex_byte(s + 3);
    for (unsigned a = 0; a < 256 && !c_dir; a++) EXPECT_EQ(read_storage(pb, "SPM", a), expected_spm[a]);
    char writes[1024];
    field(line, "writes", writes, sizeof writes);
    int n = 0;
    for (const char *s = writes; *s; n++) {
        unsigned long clock = strtoul(s, (char **)&s, 10);
        unsigned port = hex_byte(s + 1), value = hex_byte(s + 4);
        s += 6;
        if (*s == ',') s++;
        if (n < b.nwrites) {
            if (!c_dir) EXPECT_EQ(b.write_clock[n], clock);
            EXPECT_EQ(b.write_port[n], port);
            EXPECT_EQ(b.write_value[n], value);
        }
    }
    EXPECT_EQ(b.nwrites, n);
    if (!c_dir) EXPECT_EQ(b.nwrites ? b.write_clock[b.nwrites - 1] : 0, number(line, "cycles"));
    if (!failed) printf("%-22s %s: %lld instructions (.psm original: %ld): ok\n", program, core,
                        (long long)isk_context_of(pb, 0)->insns, number(line, "instructions"));
    ran++;
    isk_system_free(sys);
    psm_program_free(p);
    isk_model_release(m);
}

int main(int argc, char **argv)
{
    c_dir = argc > 1 ? argv[1] : NULL;
    FILE *f = fopen(ISEKIT_SOURCE_DIR "/tests/picoblaze/programs/expected.txt", "r");
    CHECK(f != NULL);
    if (!f) return CHECK_DONE();
    char line[4096];
    int fixtures = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || isspace((unsigned char)line[0])) continue;
        run_fixture(line);
        fixtures++;
    }
    fclose(f);
    CHECK_EQ(fixtures, 28);
    /* the C versions: as many as the caller says it compiled */
    CHECK_EQ(ran, c_dir && argc > 2 ? atoi(argv[2]) : 28);
    return CHECK_DONE();
}
