/* Compiling model files on the fly.
 *
 * A model's C file is preprocessed, hashed, and compiled once into
 * $ISEKIT_CACHE (default ~/.cache/isekit) as <hash>.so. Concurrent isekit processes may compile
 * the same model: each writes a private temporary file and renames it into place. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/vec.h"
#include "isekit/sim.h"
#include "isekit/model.h"

extern char **environ;

#ifndef ISEKIT_INCLUDE_DIR
#define ISEKIT_INCLUDE_DIR "/usr/local/include"
#endif
#ifndef ISEKIT_CC
#define ISEKIT_CC "cc"
#endif

#define MODEL_CFLAGS "-std=c17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra", \
                     "-Wno-unused-parameter", "-Wno-unused-function"

typedef VEC(char) text;

/* Run argv, collecting stdout+stderr into *out. Returns the exit status, or -1. */
static int run(char *const argv[], text *out)
{
    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        errno = rc;
        return -1;
    }
    char buf[4096];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
        if (n <= 0) continue;
        VEC_RESERVE(out, (size_t)n + 1);
        memcpy(out->data + out->len, buf, (size_t)n);
        out->len += (size_t)n;
    }
    close(pipefd[0]);
    VEC_RESERVE(out, 1);
    out->data[out->len] = 0;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        int rc = mkdir(path, 0755);
        *p = '/';
        if (rc != 0 && errno != EEXIST) return -1;
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static char *cache_dir(void)
{
    const char *env = getenv("ISEKIT_CACHE");
    if (env && *env) return isk_xstrdup(env);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return isk_xasprintf("%s/isekit", xdg);
    const char *home = getenv("HOME");
    if (home && *home) return isk_xasprintf("%s/.cache/isekit", home);
    return isk_xasprintf("/tmp/isekit-%d", (int)getuid());
}

static const char *compiler(void)
{
    const char *cc = getenv("ISEKIT_CC");
    return cc && *cc ? cc : ISEKIT_CC;
}

static const char *isekit_include_dir(void)
{
    const char *inc = getenv("ISEKIT_INCLUDE");
    return inc && *inc ? inc : ISEKIT_INCLUDE_DIR;
}

char *isk_dynload_compile(const char *source, const char *include_dir, isk_diag *diag)
{
    if (access(source, R_OK) != 0) {
        isk_error(diag, NULL, "%s: cannot read the model: %s", source, strerror(errno));
        return NULL;
    }
    char *src_copy = isk_xstrdup(source);
    char *inc_model = isk_xasprintf("-I%s", dirname(src_copy));
    char *inc_isekit = isk_xasprintf("-I%s", isekit_include_dir());
    /* the caller's folder (a host API's headers), last: NULL ends the argument lists there */
    char *inc_extra = include_dir ? isk_xasprintf("-I%s", include_dir) : NULL;
    char *so = NULL, *tmp = NULL, *dir = NULL;
    text out = { 0 };

    char *pre[] = { (char *)compiler(), "-std=c17", "-E", "-P", inc_isekit, inc_model, (char *)source, inc_extra, NULL };
    int rc = run(pre, &out);
    if (rc != 0) {
        isk_error(diag, NULL, "%s: the C preprocessor (%s) failed%s%s", source, compiler(), rc < 0 ? "" : ":\n",
                  rc < 0 ? strerror(errno) : out.data);
        goto done;
    }
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    h = fnv1a(h, out.data, out.len);
    static const char *const flags[] = { MODEL_CFLAGS };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) h = fnv1a(h, flags[i], strlen(flags[i]) + 1);
    h = fnv1a(h, compiler(), strlen(compiler()));
    int abi = ISK_ABI_VERSION;
    h = fnv1a(h, &abi, sizeof abi);

    dir = cache_dir();
    if (make_dirs(dir) != 0) {
        isk_error(diag, NULL, "cannot create the model cache %s: %s (set ISEKIT_CACHE)", dir, strerror(errno));
        goto done;
    }
    so = isk_xasprintf("%s/%016llx.so", dir, (unsigned long long)h);
    if (access(so, R_OK) == 0) goto done;

    tmp = isk_xasprintf("%s/.%016llx.%d.so", dir, (unsigned long long)h, (int)getpid());
    char *cc[] = { (char *)compiler(), MODEL_CFLAGS, inc_isekit, inc_model, "-o", tmp, (char *)source, inc_extra, NULL };
    out.len = 0;
    rc = run(cc, &out);
    if (rc != 0) {
        isk_error(diag, NULL, "%s: compiling the model failed%s%s", source, rc < 0 ? ": " : ":\n",
                  rc < 0 ? strerror(errno) : out.data);
        unlink(tmp);
        free(so);
        so = NULL;
        goto done;
    }
    if (out.len) isk_warning(diag, NULL, "%s: the C compiler says:\n%s", source, out.data);
    if (rename(tmp, so) != 0) {
        isk_error(diag, NULL, "cannot store the compiled model %s: %s", so, strerror(errno));
        unlink(tmp);
        free(so);
        so = NULL;
    }
done:
    VEC_FREE(&out);
    free(tmp);
    free(dir);
    free(inc_model);
    free(inc_extra);
    free(inc_isekit);
    free(src_copy);
    return so;
}
