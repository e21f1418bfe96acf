/*
 * wisp's native library: one C ABI, two backends (Linux: procfs, sock_diag, libsystemd
 * opened at run time; macOS: libproc, OSLogStore). Loaded from Node through koffi.
 *
 * Every call that reads much or waits returns a heap-allocated wisp_result that the
 * caller frees with wisp_result_free. Records are text: one per line, fields separated
 * by tabs, string fields escaped (see wisp_buf_put_escaped) so a process name with a tab,
 * a newline or a `)` cannot break the layout. Long calls take a cancel token and poll it.
 *
 * The layout of each call's records is described next to its declaration and parsed in
 * src/native/records.ts; bump WISP_ABI_VERSION when either side changes.
 */
#ifndef WISP_H
#define WISP_H

#include <stdint.h>

#define WISP_ABI_VERSION 1

/* Result statuses. */
#define WISP_OK 0
#define WISP_END 1          /* wisp_log_read: nothing more to read */
#define WISP_CANCELLED 2    /* the cancel token was set while the call ran */
#define WISP_ERR_SYSTEM 3   /* a system call failed: sys_errno and message say which */
#define WISP_ERR_UNAVAILABLE 4 /* the facility is missing here (no libsystemd, no OSLogStore) */
#define WISP_ERR_ARGUMENT 5 /* a bad argument reached the library (the caller validates first) */
#define WISP_ERR_MEMORY 6

typedef struct wisp_result {
  char *data;       /* records, not NUL-terminated; NULL when len is 0 */
  int64_t len;
  int32_t status;
  int32_t sys_errno;
  char message[240]; /* NUL-terminated; empty on success */
} wisp_result;

int32_t wisp_abi_version(void);
/* "linux" or "macos": which backend this build holds. */
const char *wisp_platform(void);
void wisp_result_free(wisp_result *r);

/*
 * Cancel tokens: small integers naming a flag inside the library, so JavaScript can set
 * it from the main thread while a koffi async call polls it on a worker thread. At most
 * WISP_MAX_TOKENS exist at once; wisp_cancel_new returns -1 when all are taken. A token
 * of -1 passed to a long call means "not cancellable".
 */
#define WISP_MAX_TOKENS 256
int32_t wisp_cancel_new(void);
void wisp_cancel_set(int32_t token);
void wisp_cancel_release(int32_t token);
int wisp_cancelled(int32_t token);

/*
 * The process table, CPU sampled twice sample_ms apart (0..5000) inside the call.
 * Records:
 *   H  clk_ns  interval_ns  now_epoch_s  self_uid  seen  denied  vanished
 *   P  pid  ppid  uid  user  state  threads  rss_bytes  cpu_ns_1  cpu_ns_2  start_epoch_s
 *      flags  name  exe_base  argv0_base  cmdline
 * clk_ns is the CPU clock's resolution (one tick); cpu_ns_2 is -1 when the process ended
 * during the sample. flags: k kernel thread, e exe unreadable, c cmdline unreadable.
 * denied counts processes the caller may not read (not listed); vanished those that ended
 * between listing and reading.
 */
wisp_result *wisp_processes(int32_t token, int32_t sample_ms);

/*
 * Listening TCP sockets and bound, unconnected UDP sockets, with the pids holding them.
 * flags: WISP_PORTS_PROCFS reads /proc/net instead of sock_diag (Linux; tests compare the
 * two); 0 otherwise.
 * Records:
 *   H  source  fd_denied  pids_scanned
 *   S  proto  family  address  port  inode  uid  pids(comma-separated, may be empty)
 *   O  pid  name
 * source says where sockets came from (sock_diag or procfs per protocol); fd_denied counts
 * processes whose descriptors could not be read (their sockets' owners stay unknown).
 */
#define WISP_PORTS_PROCFS 1
wisp_result *wisp_ports(int32_t token, int32_t flags);

/*
 * The system log. wisp_log_open sets the start (and optional end) time in microseconds
 * since the epoch and the filters (empty strings for none); file names one journal file
 * (Linux, for tests) or is empty for the system's log. wisp_log_read returns whole lines
 * up to about max_bytes, status WISP_END when nothing is left.
 * Linux lines: `<PRI>2026-10-04T03:02:15.445+0200 ident[pid]: message`, no `<PRI>` when an
 * entry has no PRIORITY; continuation lines of a multi-line message are indented.
 * macOS lines: log show compact style, `2026-10-04 03:02:15.445 E  proc[pid:tid] message`.
 * The open result's records: `F  files_opened`, then `N  note` lines about what cannot be seen.
 */
typedef struct wisp_log wisp_log;
wisp_log *wisp_log_new(void);
wisp_result *wisp_log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec,
                           const char *process, const char *subsystem);
wisp_result *wisp_log_read(wisp_log *log, int32_t token, int32_t max_bytes);
void wisp_log_close(wisp_log *log);

#endif
