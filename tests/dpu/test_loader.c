/* DPU executables (elf-abi.md): what the loader accepts and what it refuses with a clear error:
 * a corrupted ELF, another e_machine, another ABI version, a program too large for the chip;
 * the chip version from .dpu.attributes; NR_TASKLETS and the stack symbols. */
#include "dpu_harness.h"
#include "../../models/dpu/dpu_host.h"
#include "elf/elf_file.h"

static const char *const program =
    "    .text\n"
    "main:\n"
    "    .globl main\n"
    "    add r0, id, 7\n"
    "    jump r23\n";

static isk_obj *build(dpu_harness *h, const char *text, int tasklets)
{
    isk_obj *exe = dpu_build_text(h->model, "test.s", text, tasklets, 0, &h->diag);
    if (!exe) fprintf(stderr, "%s\n", h->messages.text ? h->messages.text : "build failed");
    return exe;
}

/* Write an executable to memory, let `mutate` damage the bytes, read it back. */
static isk_obj *roundtrip(dpu_harness *h, isk_obj *exe, void (*mutate)(uint8_t *, size_t *))
{
    uint8_t *data;
    size_t n;
    CHECK_EQ(isk_elf_write_mem(exe, &data, &n, &h->diag), 0);
    if (mutate) mutate(data, &n);
    isk_obj *o = isk_elf_read_mem(data, n, "prog.elf", &h->diag);
    free(data);
    return o;
}

static void truncate_half(uint8_t *d, size_t *n) { (void)d; *n /= 2; }
static void bad_shoff(uint8_t *d, size_t *n) { (void)n; d[32] = 0xff, d[33] = 0xff, d[34] = 0xff, d[35] = 0x7f; }
static void bad_magic(uint8_t *d, size_t *n) { (void)n; d[1] = 'X'; }

static void expect_refused(dpu_harness *h, isk_obj *exe, const char *what)
{
    dpu_program p;
    isk_diag_buffer_free(&h->messages);
    CHECK_EQ(dpu_program_from_obj(&p, exe, &h->diag), -1);
    CHECK_CONTAINS(h->messages.text, what);
}

static void test_good(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    isk_obj *exe = build(&h, program, 3);
    CHECK(exe != NULL);
    dpu_program p;
    CHECK_EQ(dpu_program_from_obj(&p, roundtrip(&h, exe, NULL), &h.diag), 0);
    CHECK_EQ(p.nr_tasklets, 3);
    CHECK_EQ(p.stack_size[0], 1024);
    CHECK_EQ(p.stack_size[2], 1024);
    CHECK_EQ(p.stack_size[3], 0);
    CHECK_EQ(p.exe->machine, 0xf5);
    CHECK_EQ(p.exe->flags, 0x02800000);
    CHECK_EQ(dpu_program_load(h.dpu, &p, &h.diag), 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    for (int t = 0; t < 3; t++) CHECK_EQ(dh_reg(&h, t, 0), 7u + (uint32_t)t);
    dpu_program_close(&p);
    isk_obj_free(exe);
    dh_close(&h);
}

static void test_refused(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    isk_obj *exe = build(&h, program, 1);

    /* corrupted files: the ELF reader refuses them with the reason */
    isk_diag_buffer_free(&h.messages);
    CHECK(roundtrip(&h, exe, truncate_half) == NULL);
    CHECK(h.messages.text && strstr(h.messages.text, "prog.elf"));
    isk_diag_buffer_free(&h.messages);
    CHECK(roundtrip(&h, exe, bad_shoff) == NULL);
    CHECK(h.messages.text && strstr(h.messages.text, "prog.elf"));
    isk_diag_buffer_free(&h.messages);
    CHECK(roundtrip(&h, exe, bad_magic) == NULL);

    /* another machine */
    isk_obj *o = isk_obj_clone(exe);
    o->machine = 62;
    expect_refused(&h, o, "not a DPU executable: e_machine is 62");
    /* another ABI version; no ABI version */
    o = isk_obj_clone(exe);
    o->flags = 0x03800000;
    expect_refused(&h, o, "DPU ABI version 3 (e_flags 0x03800000); isekit runs ABI version 2");
    o = isk_obj_clone(exe);
    o->flags = 0x02000000;
    expect_refused(&h, o, "carry no ABI version");
    /* an object, not an executable */
    o = isk_obj_clone(exe);
    o->type = ET_REL;
    expect_refused(&h, o, "not an executable");
    /* 64-bit */
    o = isk_obj_clone(exe);
    o->elfclass = ELFCLASS64;
    expect_refused(&h, o, "ELFCLASS32 little-endian");
    /* NR_TASKLETS out of range */
    o = isk_obj_clone(exe);
    o->syms.data[isk_obj_lookup(o, "NR_TASKLETS")].value = 30;
    expect_refused(&h, o, "NR_TASKLETS is 30");
    isk_obj_free(exe);
    dh_close(&h);
}

static void test_too_large(void)
{
    dpu_harness h;
    dh_open(&h, NULL);
    /* 5000 instructions do not fit the 4096 of the IRAM: the linker says so */
    isk_diag_buffer_free(&h.messages);
    CHECK(dpu_build_text(h.model, "big.s", "    .text\nmain:\n    .globl main\n    .rept 5000\n    nop\n    .endr\n", 1, 0,
                         &h.diag) == NULL);
    CHECK_CONTAINS(h.messages.text, "IRAM");
    /* 70000 bytes of data do not fit the WRAM */
    isk_diag_buffer_free(&h.messages);
    CHECK(dpu_build_text(h.model, "data.s", "    .data\nbig: .space 70000\n    .text\nmain:\n    .globl main\n    jump r23\n",
                         1, 0, &h.diag) == NULL);
    CHECK_CONTAINS(h.messages.text, "WRAM");

    /* some 4000 instructions (with the runtime's) fit a v1A but not a v1B (3968): the loader
     * refuses them for that chip */
    isk_obj *exe = build(&h, "    .text\nmain:\n    .globl main\n    .rept 3600\n    nop\n    .endr\n    jump r23\n", 1);
    CHECK(exe != NULL);
    if (!exe) return;
    dpu_program p;
    CHECK_EQ(dpu_program_from_obj(&p, isk_obj_clone(exe), &h.diag), 0);
    CHECK_EQ(dpu_program_load(h.dpu, &p, &h.diag), 0);
    dpu_program_close(&p);
    dh_close(&h);
    dh_open_chip(&h, NULL, "v1B");
    CHECK_EQ(dpu_program_from_obj(&p, exe, &h.diag), 0);
    isk_diag_buffer_free(&h.messages);
    CHECK_EQ(dpu_program_load(h.dpu, &p, &h.diag), -1);
    const char *at = h.messages.text ? strstr(h.messages.text, "program too large: its code needs ") : NULL;
    unsigned long long insns = 0;
    CHECK(at && sscanf(at, "program too large: its code needs %llu instructions", &insns) == 1);
    CHECK(insns > 3968 && insns <= 4096);
    CHECK_CONTAINS(h.messages.text, " instructions, the IRAM of a v1B DPU holds 3968");
    dpu_program_close(&p);
    dh_close(&h);
}

/* .dpu.attributes: the SDK's bytes for "v1A" (elf-abi.md 4), and the same for "v1B" */
static void test_attributes(void)
{
    static const uint8_t v1a[21] = { 0x41, 0x14, 0, 0, 0, 'u', 'p', 'm', 'e', 'm', 0, 0x01, 0x0a, 0, 0, 0, 0x05,
                                     'v', '1', 'A', 0 };
    dpu_harness h;
    dh_open(&h, NULL);
    isk_obj *exe = build(&h, program, 2);
    for (int chip = 0; chip < 3; chip++) {
        isk_obj *o = isk_obj_clone(exe);
        uint32_t s = isk_obj_add_section(o, ".dpu.attributes", 0x70000003u, 0, 1);
        uint8_t bytes[21];
        memcpy(bytes, v1a, sizeof bytes);
        if (chip == 1) bytes[19] = 'B';
        if (chip == 2) bytes[19] = 'C';
        isk_obj_append(o, s, bytes, sizeof bytes);
        dpu_program p;
        isk_diag_buffer_free(&h.messages);
        int rc = dpu_program_from_obj(&p, o, &h.diag);
        if (chip == 2) {
            CHECK_EQ(rc, -1);
            CHECK_CONTAINS(h.messages.text, "unknown DPU version 'v1C'");
            continue;
        }
        CHECK_EQ(rc, 0);
        CHECK_STR(p.chip, chip ? "v1B" : "v1A");
        CHECK_EQ(dpu_program_load(h.dpu, &p, &h.diag), 0);
        CHECK_STR(isk_get_param(h.dpu, "chip"), chip ? "v1B" : "v1A");
        CHECK_EQ(h.S->nthreads, chip ? 16u : 24u);
        CHECK_EQ(h.S->wram_bytes, chip ? 63488u : 65536u);
        CHECK_EQ(dh_run(&h), ISK_STOPPED);
        CHECK_EQ(dh_reg(&h, 1, 0), 8);
        dpu_program_close(&p);
    }
    isk_obj_free(exe);
    dh_close(&h);
}

int main(void)
{
    test_good();
    test_refused();
    test_too_large();
    test_attributes();
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
