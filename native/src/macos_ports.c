/*
 * Listening sockets on macOS through libproc: each process's descriptors
 * (PROC_PIDLISTFDS), and for each socket PROC_PIDFDSOCKETINFO: TCP in TSI_S_LISTEN, and
 * UDP bound with no foreign port. A socket shared by several processes (a forked server)
 * is recognised by its kernel address (soi_so) and listed once with every holder. Without
 * root, other users' processes cannot be read and their sockets are not seen at all:
 * counted in fd_denied.
 *
 * Written against Apple's documented API (libproc.h, sys/proc_info.h); built only on
 * macOS, and not built or run in this repository's Linux CI.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libproc.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/proc_info.h>

#include "common.h"

typedef struct sock_row {
  uint64_t so; /* kernel socket address: the identity shared by every holder */
  int udp;
  int family;
  char addr[INET6_ADDRSTRLEN];
  unsigned port;
  long uid;
  int v6only;
  int *pids;
  int npids, cap;
} sock_row;

typedef struct sock_list {
  sock_row *rows;
  int n, cap;
  int failed;
} sock_list;

static sock_row *find_or_add(sock_list *l, uint64_t so) {
  for (int i = 0; i < l->n; i++)
    if (so != 0 && l->rows[i].so == so) return &l->rows[i];
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 64;
    sock_row *grown = realloc(l->rows, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
      l->failed = 1;
      return NULL;
    }
    l->rows = grown;
    l->cap = cap;
  }
  sock_row *r = &l->rows[l->n++];
  memset(r, 0, sizeof *r);
  r->so = so;
  return r;
}

static void add_pid(sock_list *l, sock_row *r, int pid) {
  for (int i = 0; i < r->npids; i++)
    if (r->pids[i] == pid) return;
  if (r->npids == r->cap) {
    int cap = r->cap ? r->cap * 2 : 4;
    int *grown = realloc(r->pids, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
      l->failed = 1;
      return;
    }
    r->pids = grown;
    r->cap = cap;
  }
  r->pids[r->npids++] = pid;
}

/*
 * Fills family, address and port from an in_sockinfo; returns 0 when it is not IP. An
 * IPv6 socket that also takes IPv4 (no IPV6_V6ONLY) carries both version flags.
 */
static int describe(const struct in_sockinfo *in, sock_row *r) {
  r->port = ntohs((uint16_t)in->insi_lport);
  if (in->insi_vflag & INI_IPV6) {
    r->family = 6;
    r->v6only = (in->insi_vflag & INI_IPV4) ? 0 : 1;
    inet_ntop(AF_INET6, &in->insi_laddr.ina_6, r->addr, sizeof r->addr);
    return 1;
  }
  if (in->insi_vflag & INI_IPV4) {
    r->family = 4;
    inet_ntop(AF_INET, &in->insi_laddr.ina_46.i46a_addr4, r->addr, sizeof r->addr);
    return 1;
  }
  return 0;
}

static wisp_result *ports(int32_t token) {
  int count = proc_listallpids(NULL, 0);
  if (count <= 0) return wisp_result_error(WISP_ERR_SYSTEM, errno, "proc_listallpids failed");
  int cap = count * 2;
  pid_t *pids = malloc((size_t)cap * sizeof *pids);
  if (pids == NULL) return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  count = proc_listallpids(pids, cap * (int)sizeof *pids);
  if (count <= 0) {
    int e = errno ? errno : EIO;
    free(pids);
    return wisp_result_error(WISP_ERR_SYSTEM, e, "proc_listallpids failed");
  }
  if (count > cap) count = cap;
  sock_list l = {0};
  wisp_buf owners = {0};
  int denied = 0, scanned = 0;
  struct proc_fdinfo *fds = NULL;
  int fds_cap = 0;
  for (int i = 0; i < count && !wisp_cancelled(token); i++) {
    pid_t pid = pids[i];
    errno = 0;
    int bytes = proc_pidinfo(pid, PROC_PIDLISTFDS, 0, NULL, 0);
    if (bytes <= 0) {
      if (errno == EPERM || errno == EACCES) {
        denied++;
        wisp_buf_printf(&owners, "D\t%d\n", pid);
      }
      continue;
    }
    if (bytes > fds_cap) {
      struct proc_fdinfo *grown = realloc(fds, (size_t)bytes * 2);
      if (grown == NULL) {
        l.failed = 1;
        break;
      }
      fds = grown;
      fds_cap = bytes * 2;
    }
    bytes = proc_pidinfo(pid, PROC_PIDLISTFDS, 0, fds, fds_cap);
    if (bytes <= 0) continue;
    scanned++;
    struct proc_bsdshortinfo bsd;
    int have_bsd = proc_pidinfo(pid, PROC_PIDT_SHORTBSDINFO, 0, &bsd, sizeof bsd) == (int)sizeof bsd;
    int holds = 0;
    int n = bytes / (int)sizeof(struct proc_fdinfo);
    for (int k = 0; k < n; k++) {
      if (fds[k].proc_fdtype != PROX_FDTYPE_SOCKET) continue;
      struct socket_fdinfo si;
      if (proc_pidfdinfo(pid, fds[k].proc_fd, PROC_PIDFDSOCKETINFO, &si, sizeof si) != (int)sizeof si) continue;
      const struct in_sockinfo *in = NULL;
      int udp = 0;
      if (si.psi.soi_kind == SOCKINFO_TCP) {
        if (si.psi.soi_proto.pri_tcp.tcpsi_state != TSI_S_LISTEN) continue;
        in = &si.psi.soi_proto.pri_tcp.tcpsi_ini;
      } else if (si.psi.soi_kind == SOCKINFO_IN && si.psi.soi_protocol == IPPROTO_UDP) {
        in = &si.psi.soi_proto.pri_in;
        if (in->insi_fport != 0 || in->insi_lport == 0) continue; /* connected, or not bound */
        udp = 1;
      } else {
        continue;
      }
      sock_row *r = find_or_add(&l, si.psi.soi_so);
      if (r == NULL) break;
      if (r->npids == 0) {
        r->udp = udp;
        r->uid = have_bsd ? (long)bsd.pbsi_uid : -1;
        if (!describe(in, r)) {
          l.n--; /* not an IP socket after all */
          continue;
        }
      }
      add_pid(&l, r, pid);
      holds = 1;
    }
    if (holds) {
      /* `O pid comm exe_base argv0_base`: the executable's basename is the name not cut to 16 bytes. */
      wisp_buf_printf(&owners, "O\t%d\t", pid);
      if (have_bsd) wisp_buf_put_escaped(&owners, bsd.pbsi_comm, strnlen(bsd.pbsi_comm, sizeof bsd.pbsi_comm));
      wisp_buf_putc(&owners, '\t');
      char path[PROC_PIDPATHINFO_MAXSIZE];
      int plen = proc_pidpath(pid, path, sizeof path);
      if (plen > 0) {
        size_t start = 0;
        for (int c = 0; c < plen; c++)
          if (path[c] == '/') start = (size_t)c + 1;
        wisp_buf_put_escaped(&owners, path + start, (size_t)plen - start);
      }
      wisp_buf_puts(&owners, "\t\n");
    }
  }
  free(fds);
  free(pids);
  wisp_buf b = {0};
  int cancelled = wisp_cancelled(token), failed = l.failed || owners.failed;
  if (!cancelled && !failed) {
    wisp_buf_printf(&b, "H\ttcp:libproc,udp:libproc\t%d\t%d\n", denied, scanned);
    for (int i = 0; i < l.n; i++) {
      sock_row *r = &l.rows[i];
      wisp_buf_printf(&b, "S\t%s\t%d\t%s\t%u\t%llu\t%ld\t%d\t", r->udp ? "udp" : "tcp", r->family, r->addr, r->port,
                      (unsigned long long)r->so, r->uid, r->v6only);
      for (int k = 0; k < r->npids; k++) wisp_buf_printf(&b, k ? ",%d" : "%d", r->pids[k]);
      wisp_buf_putc(&b, '\n');
    }
    wisp_buf_put(&b, owners.data, owners.len);
  }
  for (int i = 0; i < l.n; i++) free(l.rows[i].pids);
  free(l.rows);
  wisp_buf_free(&owners);
  if (cancelled) {
    wisp_buf_free(&b);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  if (failed) {
    wisp_buf_free(&b);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  return wisp_result_from(&b);
}

static wisp_result *ports_job(void *p) { return ports(*(int32_t *)p); }

/* flags: WISP_PORTS_PROCFS has no meaning here (there is one source). */
wisp_result *wisp_ports(int32_t token, int32_t flags) {
  (void)flags;
  return wisp_run_on_thread(ports_job, &token);
}
