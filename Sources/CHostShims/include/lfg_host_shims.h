// System calls Swift cannot reach directly (syscall(2) is variadic). Every symbol is prefixed lfg_host_.
#pragma once
#include <sys/types.h>

/// pidfd_open(2) on Linux (5.3+): a descriptor that polls readable when process `pid` exits.
/// Returns -1 with errno set (ESRCH: no such process; ENOSYS: an older kernel, or not Linux).
int lfg_host_pidfd_open(pid_t pid);
