// System calls Swift cannot reach directly (syscall(2) is variadic). Every symbol is prefixed lfg_host_.
#pragma once
#include <sys/types.h>

/// pidfd_open(2) on Linux (5.3+): a descriptor that polls readable when process `pid` exits.
/// Returns -1 with errno set (ESRCH: no such process; ENOSYS: an older kernel, or not Linux).
int lfg_host_pidfd_open(pid_t pid);

/// Unblocks SIGTERM and SIGINT (a mask inherited through execve may block them), makes them set the stop
/// flag (and interrupt a blocking poll with EINTR), and ignores SIGPIPE. Returns 0, or -1 with errno set.
int lfg_host_install_stop_handlers(void);

/// Whether SIGTERM or SIGINT arrived since lfg_host_install_stop_handlers().
int lfg_host_stop_requested(void);
