#include "elf/elf_util.h"

#include <libelf.h>
#include <pthread.h>

/* The only process-wide state: libelf's own version handshake, done once. */
static pthread_once_t libelf_once = PTHREAD_ONCE_INIT;
static int libelf_ok;

static void libelf_setup(void)
{
    libelf_ok = elf_version(EV_CURRENT) != EV_NONE;
}

int isk_libelf_init(void)
{
    pthread_once(&libelf_once, libelf_setup);
    return libelf_ok ? 0 : -1;
}
