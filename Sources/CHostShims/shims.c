#include "lfg_host_shims.h"
#include <errno.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
int lfg_host_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
#else
int lfg_host_pidfd_open(pid_t pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}
#endif
