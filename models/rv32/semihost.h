/* RISC-V semihosting, as picolibc's semihost library and QEMU speak it: `slli zero, zero, 0x1f;
 * ebreak; srai zero, zero, 7` with a0 = the operation and a1 = its argument (a pointer to a
 * block of 32-bit words for most); the result comes back in a0. Operation numbers and blocks:
 * the Arm semihosting specification 2.0 (RISC-V uses it unchanged), QEMU's
 * semihosting/arm-compat-semi.c. Open files live in the instance (no globals). */
#ifndef RV32_SEMIHOST_H
#define RV32_SEMIHOST_H

#include <errno.h>
#include <time.h>

enum {
    SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITEC = 0x03, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05, SYS_READ = 0x06,
    SYS_READC = 0x07, SYS_ISERROR = 0x08, SYS_ISTTY = 0x09, SYS_SEEK = 0x0A, SYS_FLEN = 0x0C,
    SYS_REMOVE = 0x0E, SYS_CLOCK = 0x10, SYS_TIME = 0x11, SYS_ERRNO = 0x13, SYS_GET_CMDLINE = 0x15,
    SYS_HEAPINFO = 0x16, SYS_EXIT = 0x18, SYS_EXIT_EXTENDED = 0x20, SYS_ELAPSED = 0x30, SYS_TICKFREQ = 0x31
};
enum { ADP_STOPPED_APPLICATION_EXIT = 0x20026 };
enum { SH_FREE, SH_FILE, SH_STDIN, SH_STDOUT, SH_STDERR, SH_FEATURES };
/* ":semihosting-features": the magic and one byte, EXIT_EXTENDED | STDOUT_STDERR, as QEMU. */
static const uint8_t rv_sh_features[5] = { 'S', 'H', 'F', 'B', 0x03 };

/* Guest memory a call names: false (EFAULT) unless it lies in the RAM. */
static uint32_t *rv_sh_block(struct isk_state *S, uint32_t addr, uint32_t words)
{
    uint8_t *p = rv_ram_span(S, addr, words * 4);
    return p && !(addr & 3) ? (uint32_t *)(void *)p : NULL;
}

/* Bytes the host wrote into the RAM (a read into a buffer): their decoded words are dropped. */
static void rv_sh_wrote(struct isk_state *S, uint32_t addr, uint32_t len)
{
    for (uint32_t w = (addr - RV_RAM_BASE) / 4; len && w <= (addr - RV_RAM_BASE + len - 1) / 4; w++)
        CODE_CHANGED(w);
}

static int rv_sh_fd(struct isk_state *S, uint32_t handle)
{
    return handle >= 1 && handle <= RV_SEMIHOST_FILES && S->file_kind[handle - 1] != SH_FREE ? (int)handle - 1 : -1;
}

static FILE *rv_sh_stream(struct isk_state *S, int fd)
{
    switch (S->file_kind[fd]) {
    case SH_STDIN: return stdin;
    case SH_STDOUT: return stdout;
    case SH_STDERR: return stderr;
    case SH_FILE: return S->files[fd];
    default: return NULL;
    }
}

static int32_t rv_sh_fail(struct isk_state *S, int err)
{
    S->sh_errno = err;
    return -1;
}

/* SYS_OPEN {name, mode 0..11 (fopen's r rb r+ r+b w wb w+ w+b a ab a+ a+b), name length}. */
static int32_t rv_sh_open(struct isk_state *S, const uint32_t *b)
{
    static const char *const modes[12] = { "r", "rb", "r+", "r+b", "w", "wb", "w+", "w+b", "a", "ab", "a+", "a+b" };
    const uint8_t *name = rv_ram_span(S, b[0], b[2] + 1);
    if (!name || b[1] > 11 || name[b[2]]) return rv_sh_fail(S, EFAULT);
    int fd = 0;
    while (fd < RV_SEMIHOST_FILES && S->file_kind[fd] != SH_FREE) fd++;
    if (fd == RV_SEMIHOST_FILES) return rv_sh_fail(S, EMFILE);
    const char *path = (const char *)name;
    if (!strcmp(path, ":tt")) S->file_kind[fd] = b[1] < 4 ? SH_STDIN : b[1] < 8 ? SH_STDOUT : SH_STDERR;
    else if (!strcmp(path, ":semihosting-features")) {
        if (b[1] >= 4) return rv_sh_fail(S, EACCES);
        S->file_kind[fd] = SH_FEATURES;
        S->feature_pos = 0;
    } else {
        FILE *f = fopen(path, modes[b[1]]);                       /* relative to the cwd */
        if (!f) return rv_sh_fail(S, errno);
        S->files[fd] = f;
        S->file_kind[fd] = SH_FILE;
    }
    return fd + 1;
}

static int32_t rv_sh_write(struct isk_state *S, const uint32_t *b)
{
    const int fd = rv_sh_fd(S, b[0]);
    const uint8_t *p = rv_ram_span(S, b[1], b[2]);
    FILE *f = fd < 0 ? NULL : rv_sh_stream(S, fd);
    if (!f || !p) return (int32_t)b[2] + 0 * rv_sh_fail(S, fd < 0 ? EBADF : EFAULT);
    const size_t n = fwrite(p, 1, b[2], f);
    if (f == stdout || f == stderr) fflush(f);         /* in order with isekit's own output */
    return (int32_t)(b[2] - (uint32_t)n);              /* the bytes not written */
}

static int32_t rv_sh_read(struct isk_state *S, const uint32_t *b)
{
    const int fd = rv_sh_fd(S, b[0]);
    uint8_t *p = rv_ram_span(S, b[1], b[2]);
    if (fd < 0 || !p) return (int32_t)b[2] + 0 * rv_sh_fail(S, fd < 0 ? EBADF : EFAULT);
    size_t n = 0;
    if (S->file_kind[fd] == SH_FEATURES) {
        while (n < b[2] && S->feature_pos < sizeof rv_sh_features) p[n++] = rv_sh_features[S->feature_pos++];
    } else {
        FILE *f = rv_sh_stream(S, fd);
        n = f ? fread(p, 1, b[2], f) : 0;
    }
    rv_sh_wrote(S, b[1], (uint32_t)n);
    return (int32_t)(b[2] - (uint32_t)n);              /* the bytes not read */
}

/* The program ends: its exit status becomes the run's (a context EXITED with it; 0 stops the
 * hart cleanly). SYS_EXIT on RV32 passes the reason itself; SYS_EXIT_EXTENDED a block
 * {reason, subcode}. ADP_Stopped_ApplicationExit exits with the subcode (0 for SYS_EXIT); any
 * other reason with 1, as QEMU. */
static void rv_sh_exit(struct isk_state *S, uint32_t reason, uint32_t subcode)
{
    const int status = reason == ADP_STOPPED_APPLICATION_EXIT ? (int)subcode : 1;
    for (int fd = 0; fd < RV_SEMIHOST_FILES; fd++)
        if (S->file_kind[fd] == SH_FILE) fclose(S->files[fd]);
    memset(S->file_kind, 0, sizeof S->file_kind);
    fflush(stdout);
    if (status == 0) STOP_SELF(PC + 1);
    else EXIT_CONTEXT(0, status, "semihosting exit");
}

static int32_t rv_sh_call(struct isk_state *S, uint32_t op, uint32_t arg)
{
    const uint32_t *b = NULL;
    static const uint8_t nargs[0x32] = { [SYS_OPEN] = 3, [SYS_CLOSE] = 1, [SYS_WRITE] = 3, [SYS_READ] = 3,
                                         [SYS_ISERROR] = 1, [SYS_ISTTY] = 1, [SYS_SEEK] = 2, [SYS_FLEN] = 1,
                                         [SYS_GET_CMDLINE] = 2, [SYS_EXIT_EXTENDED] = 2, [SYS_ELAPSED] = 2 };
    if (op < sizeof nargs && nargs[op] && !(b = rv_sh_block(S, arg, nargs[op]))) return rv_sh_fail(S, EFAULT);
    int fd;
    switch (op) {
    case SYS_OPEN: return rv_sh_open(S, b);
    case SYS_CLOSE:
        if ((fd = rv_sh_fd(S, b[0])) < 0) return rv_sh_fail(S, EBADF);
        if (S->file_kind[fd] == SH_FILE) fclose(S->files[fd]);
        S->file_kind[fd] = SH_FREE;
        return 0;
    case SYS_WRITEC: {
        const uint8_t *c = rv_ram_span(S, arg, 1);
        if (!c) return rv_sh_fail(S, EFAULT);
        fputc(*c, stdout);
        fflush(stdout);
        return 0;
    }
    case SYS_WRITE0: {
        const uint8_t *s = rv_ram_span(S, arg, 1);
        if (!s) return rv_sh_fail(S, EFAULT);
        const size_t room = RV_RAM_BYTES - (arg - RV_RAM_BASE);
        fwrite(s, 1, strnlen((const char *)s, room), stdout);
        fflush(stdout);
        return 0;
    }
    case SYS_WRITE: return rv_sh_write(S, b);
    case SYS_READ: return rv_sh_read(S, b);
    case SYS_READC: return getchar();
    case SYS_ISERROR: return (int32_t)b[0] < 0;
    case SYS_ISTTY:
        if ((fd = rv_sh_fd(S, b[0])) < 0) return rv_sh_fail(S, EBADF);
        return S->file_kind[fd] >= SH_STDIN && S->file_kind[fd] <= SH_STDERR;
    case SYS_SEEK:
        if ((fd = rv_sh_fd(S, b[0])) < 0) return rv_sh_fail(S, EBADF);
        if (S->file_kind[fd] == SH_FEATURES) { S->feature_pos = b[1]; return 0; }
        if (S->file_kind[fd] != SH_FILE || fseek(S->files[fd], (long)b[1], SEEK_SET)) return rv_sh_fail(S, EINVAL);
        return 0;
    case SYS_FLEN: {
        if ((fd = rv_sh_fd(S, b[0])) < 0) return rv_sh_fail(S, EBADF);
        if (S->file_kind[fd] == SH_FEATURES) return (int32_t)sizeof rv_sh_features;
        if (S->file_kind[fd] != SH_FILE) return rv_sh_fail(S, EINVAL);
        FILE *f = S->files[fd];
        const long at = ftell(f);
        fseek(f, 0, SEEK_END);
        const long len = ftell(f);
        fseek(f, at, SEEK_SET);
        return (int32_t)len;
    }
    /* Time is the simulated clock at clock_hz (PARAM), so runs are reproducible; SYS_TIME,
     * the calendar, is the host's. */
    case SYS_CLOCK: return (int32_t)(CLOCK / (S->clock_hz / 100 ? S->clock_hz / 100 : 1));
    case SYS_TIME: return (int32_t)time(NULL);
    case SYS_ELAPSED: {
        uint32_t *out = rv_sh_block(S, arg, 2);
        out[0] = (uint32_t)CLOCK;
        out[1] = (uint32_t)(CLOCK >> 32);
        rv_sh_wrote(S, arg, 8);
        return 0;
    }
    case SYS_TICKFREQ: return (int32_t)S->clock_hz;
    case SYS_ERRNO: return S->sh_errno;
    case SYS_GET_CMDLINE: {
        const char *line = PARAM_VALUE("cmdline");
        const size_t n = strlen(line ? line : "");
        uint8_t *buf = rv_ram_span(S, b[0], b[1]);
        if (!buf || n + 1 > b[1]) return rv_sh_fail(S, EINVAL);
        memcpy(buf, line ? line : "", n + 1);
        rv_sh_wrote(S, b[0], (uint32_t)n + 1);
        uint32_t *blk = rv_sh_block(S, arg, 2);
        blk[1] = (uint32_t)n;
        return 0;
    }
    case SYS_HEAPINFO: {
        /* {heap base, heap limit, stack base, stack limit}: 0 = unknown, the C library then
         * uses its linker script's */
        uint32_t *out = rv_sh_block(S, arg, 1);
        uint32_t *blk = out ? rv_sh_block(S, out[0], 4) : NULL;
        if (!blk) return rv_sh_fail(S, EFAULT);
        memset(blk, 0, 16);
        rv_sh_wrote(S, out[0], 16);
        return 0;
    }
    case SYS_EXIT: rv_sh_exit(S, arg, 0); return 0;
    case SYS_EXIT_EXTENDED: rv_sh_exit(S, b[0], b[1]); return 0;
    default:
        FAULT(RV_CAUSE_BREAKPOINT, "semihosting operation 0x%x at pc 0x%08x is not supported (docs/rv32.md lists "
              "those that are)", (unsigned)op, (unsigned)RV_PC);
    }
}

static void rv_semihost(struct isk_state *S)
{
    const int32_t r = rv_sh_call(S, XR(10), XR(11));
    XW(10, (uint32_t)r);
}

#endif
