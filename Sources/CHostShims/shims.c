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

#include <signal.h>

/* volatile sig_atomic_t: the one type C guarantees a signal handler may write and the interrupted code
   read; a Swift global would not do (the optimizer may keep it in a register across the loop). */
static volatile sig_atomic_t lfg_host_stop_flag = 0;

static void lfg_host_note_stop(int signal_number) {
    (void)signal_number;
    lfg_host_stop_flag = 1;
}

int lfg_host_install_stop_handlers(void) {
    /* The signal mask survives execve, and `lfg host` execs this from a thread of Swift's runtime, where
       libdispatch blocks every signal: unblocked here, or SIGTERM would stay pending forever. */
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    if (sigprocmask(SIG_UNBLOCK, &stops, NULL) != 0) return -1;
    struct sigaction action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: the loop's poll returns EINTR at once */
    action.sa_handler = lfg_host_note_stop;
    if (sigaction(SIGTERM, &action, NULL) != 0 || sigaction(SIGINT, &action, NULL) != 0) return -1;
    struct sigaction ignore;
    sigemptyset(&ignore.sa_mask);
    ignore.sa_flags = 0;
    ignore.sa_handler = SIG_IGN;
    return sigaction(SIGPIPE, &ignore, NULL);
}

int lfg_host_stop_requested(void) { return lfg_host_stop_flag != 0; }
