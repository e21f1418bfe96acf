/*
 * Listening sockets on Linux and the processes that hold them.
 *
 * Sockets come from NETLINK_SOCK_DIAG (well under a millisecond even with thousands of
 * sockets), or from /proc/net/{tcp,tcp6,udp,udp6} when the kernel refuses a request
 * (udp_diag not loaded, a sandbox without netlink). Owners come from walking every
 * /proc/<pid>/fd for `socket:[inode]` links, as ss -p and lsof do; every pid that holds
 * a socket is reported, since forked servers share their listening socket.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common.h"
#include "linux_util.h"

#define TCP_STATE_LISTEN 10
#define TCP_STATE_CLOSE 7 /* what an unconnected UDP socket reports */

typedef struct sock_row {
  int udp;
  int family; /* 4 or 6 */
  char addr[INET6_ADDRSTRLEN];
  unsigned port;
  unsigned long inode;
  long uid;
  int v6only; /* 1, 0, or -1: not known (from /proc/net) */
  int *pids;
  int npids, cap;
} sock_row;

typedef struct sock_list {
  sock_row *rows;
  int n, cap;
  int failed;
} sock_list;

static sock_row *add_row(sock_list *l) {
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
  return r;
}

/* IPV6_V6ONLY from a message's attributes (the kernel adds it for listening IPv6 sockets); -1 if absent. */
static int v6only_attr(const struct nlmsghdr *h) {
  size_t header = NLMSG_LENGTH(sizeof(struct inet_diag_msg));
  if (h->nlmsg_len <= header) return -1;
  const struct rtattr *a = (const struct rtattr *)((const char *)h + NLMSG_ALIGN(header));
  int left = (int)(h->nlmsg_len - NLMSG_ALIGN(header));
  for (; RTA_OK(a, left); a = RTA_NEXT(a, left)) {
    if (a->rta_type == INET_DIAG_SKV6ONLY && RTA_PAYLOAD(a) >= 1) return *(const unsigned char *)RTA_DATA(a) != 0;
  }
  return -1;
}

/* One sock_diag dump for a family and protocol; returns 0 or -errno. */
static int diag_dump(sock_list *l, int family, int udp) {
  int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return -errno;
  struct {
    struct nlmsghdr nlh;
    struct inet_diag_req_v2 req;
  } msg;
  memset(&msg, 0, sizeof msg);
  msg.nlh.nlmsg_len = sizeof msg;
  msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  msg.req.sdiag_family = (unsigned char)family;
  msg.req.sdiag_protocol = udp ? IPPROTO_UDP : IPPROTO_TCP;
  msg.req.idiag_states = udp ? (1u << TCP_STATE_CLOSE) : (1u << TCP_STATE_LISTEN);
  struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
  if (sendto(fd, &msg, sizeof msg, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  int start = l->n;
  /* On the heap, aligned for nlmsghdr, and off koffi's small async stack; grown when the
     kernel has a bigger datagram waiting (MSG_PEEK | MSG_TRUNC says its real size). */
  size_t cap = 32768;
  long *aligned = malloc(cap);
  if (aligned == NULL) {
    close(fd);
    return -ENOMEM;
  }
  int rc = 0;
  for (;;) {
    ssize_t want = recv(fd, aligned, cap, MSG_PEEK | MSG_TRUNC);
    if (want < 0) {
      if (errno == EINTR) continue;
      rc = -errno;
      break;
    }
    if ((size_t)want > cap) {
      long *grown = realloc(aligned, (size_t)want);
      if (grown == NULL) {
        rc = -ENOMEM;
        break;
      }
      aligned = grown;
      cap = (size_t)want;
    }
    struct iovec iov = {aligned, cap};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    ssize_t len = recvmsg(fd, &mh, 0);
    if (len < 0) {
      if (errno == EINTR) continue;
      rc = -errno;
      break;
    }
    if (mh.msg_flags & MSG_TRUNC) {
      rc = -EMSGSIZE; /* a datagram cut short: its sockets would be lost */
      break;
    }
    if (len == 0) break;
    int done = 0;
    for (struct nlmsghdr *h = (struct nlmsghdr *)aligned; NLMSG_OK(h, (size_t)len); h = NLMSG_NEXT(h, len)) {
      if (h->nlmsg_type == NLMSG_DONE) {
        done = 1;
        break;
      }
      if (h->nlmsg_type == NLMSG_ERROR) {
        struct nlmsgerr *err = NLMSG_DATA(h);
        rc = h->nlmsg_len >= NLMSG_LENGTH(sizeof *err) && err->error ? err->error : -EIO;
        done = 1;
        break;
      }
      if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
        rc = -EBADMSG;
        done = 1;
        break;
      }
      struct inet_diag_msg *d = NLMSG_DATA(h);
      unsigned port = ntohs(d->id.idiag_sport);
      if (port == 0) continue;
      sock_row *r = add_row(l);
      if (r == NULL) break;
      r->udp = udp;
      r->family = d->idiag_family == AF_INET6 ? 6 : 4;
      /* idiag_src holds the address in network byte order: inet_ntop reads it as is. */
      inet_ntop(d->idiag_family, d->id.idiag_src, r->addr, sizeof r->addr);
      r->port = port;
      r->inode = d->idiag_inode;
      r->uid = (long)d->idiag_uid;
      r->v6only = r->family == 6 ? v6only_attr(h) : 0;
    }
    if (done) break;
  }
  free(aligned);
  close(fd);
  if (rc != 0) l->n = start;
  return rc;
}

/*
 * /proc/net/{tcp,udp}[6]: each 32-bit word of an address is printed as a host-order
 * integer of the kernel's network-order bytes, so the words are stored back as host
 * integers, in order, to recover the bytes (decoding them as a big-endian string would
 * turn 127.0.0.1 into 1.0.0.127 and ::1 into ::1.0.0.0).
 */
static int procfs_dump(sock_list *l, int family, int udp) {
  char path[32];
  snprintf(path, sizeof path, "/proc/net/%s%s", udp ? "udp" : "tcp", family == 6 ? "6" : "");
  FILE *f = fopen(path, "re");
  if (f == NULL) return -errno;
  char line[512];
  if (fgets(line, sizeof line, f) == NULL) {
    fclose(f);
    return 0;
  }
  unsigned want = udp ? TCP_STATE_CLOSE : TCP_STATE_LISTEN;
  int start = l->n;
  while (fgets(line, sizeof line, f) != NULL) {
    char local[40];
    unsigned port, state;
    long uid;
    unsigned long inode;
    if (sscanf(line, " %*d: %39[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %ld %*d %lu", local, &port,
               &state, &uid, &inode) != 5)
      continue;
    if (state != want || port == 0) continue;
    unsigned char bytes[16];
    size_t words = family == 6 ? 4 : 1;
    if (strlen(local) != words * 8) continue;
    for (size_t w = 0; w < words; w++) {
      char hex[9];
      memcpy(hex, local + w * 8, 8);
      hex[8] = '\0';
      uint32_t v = (uint32_t)strtoul(hex, NULL, 16);
      memcpy(bytes + w * 4, &v, 4);
    }
    sock_row *r = add_row(l);
    if (r == NULL) break;
    r->udp = udp;
    r->family = family;
    inet_ntop(family == 6 ? AF_INET6 : AF_INET, bytes, r->addr, sizeof r->addr);
    r->port = port;
    r->inode = inode;
    r->uid = uid;
    r->v6only = family == 6 ? -1 : 0; /* /proc/net does not say */
  }
  int failed = ferror(f) ? -EIO : 0;
  fclose(f);
  if (failed) l->n = start;
  return failed;
}

/* Open addressing from inode to row index; inodes are never 0 for a real socket. */
typedef struct inode_map {
  unsigned long *keys;
  int *values;
  size_t mask;
} inode_map;

static int map_init(inode_map *m, int n) {
  size_t size = 64;
  while (size < (size_t)n * 2) size *= 2;
  m->keys = calloc(size, sizeof *m->keys);
  m->values = calloc(size, sizeof *m->values);
  m->mask = size - 1;
  return m->keys != NULL && m->values != NULL;
}

static size_t map_slot(const inode_map *m, unsigned long key) {
  size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull) & m->mask;
  while (m->keys[i] != 0 && m->keys[i] != key) i = (i + 1) & m->mask;
  return i;
}

static void add_pid(sock_list *l, sock_row *r, int pid) {
  /* One process often holds a socket on several descriptors: count it once. */
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

/* `O pid comm exe_base argv0_base`: the short name and the two that are not cut at 15 bytes. */
static void put_owner(wisp_buf *owners, int pid) {
  char path[64], buf[4096];
  wisp_buf_printf(owners, "O\t%d\t", pid);
  snprintf(path, sizeof path, "/proc/%d/comm", pid);
  ssize_t n = wisp_read_file(path, buf, sizeof buf);
  if (n < 0) n = 0;
  while (n > 0 && buf[n - 1] == '\n') n--;
  wisp_buf_put_escaped(owners, buf, (size_t)n);
  wisp_buf_putc(owners, '\t');
  size_t base_len;
  const char *base;
  snprintf(path, sizeof path, "/proc/%d/exe", pid);
  n = readlink(path, buf, sizeof buf - 1);
  if (n > 0) {
    static const char deleted[] = " (deleted)";
    size_t dl = sizeof deleted - 1;
    if ((size_t)n > dl && memcmp(buf + n - dl, deleted, dl) == 0) n -= (ssize_t)dl;
    base = wisp_basename_n(buf, (size_t)n, &base_len);
    wisp_buf_put_escaped(owners, base, base_len);
  }
  wisp_buf_putc(owners, '\t');
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  n = wisp_read_file(path, buf, sizeof buf);
  if (n > 0) {
    base = wisp_basename_n(buf, strnlen(buf, (size_t)n), &base_len);
    wisp_buf_put_escaped(owners, base, base_len);
  }
  wisp_buf_putc(owners, '\n');
}

/*
 * Walks /proc/<pid>/fd: `O` for each pid that holds a listed socket, `D` for each whose
 * descriptors could not be read (its sockets, if any, stay without an owner).
 */
static int walk_owners(sock_list *l, const inode_map *m, int32_t token, wisp_buf *owners, int *denied, int *scanned) {
  DIR *proc = opendir("/proc");
  if (proc == NULL) return -errno;
  struct dirent *e;
  while ((e = readdir(proc)) != NULL) {
    if (!wisp_is_pid_name(e->d_name)) continue;
    if (wisp_cancelled(token)) break;
    int pid = atoi(e->d_name);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
      if (errno == EACCES || errno == EPERM) {
        (*denied)++;
        wisp_buf_printf(owners, "D\t%d\n", pid);
      }
      continue;
    }
    DIR *fds = fdopendir(dfd);
    if (fds == NULL) {
      close(dfd);
      continue;
    }
    (*scanned)++;
    int holds = 0, hidden = 0;
    struct dirent *f;
    while ((f = readdir(fds)) != NULL) {
      if (f->d_name[0] == '.') continue;
      char target[64];
      ssize_t n = readlinkat(dfd, f->d_name, target, sizeof target - 1);
      /* The folder can be listable while its links are not (a non-dumpable process). */
      if (n < 0 && (errno == EACCES || errno == EPERM)) hidden = 1;
      if (n < 9 || memcmp(target, "socket:[", 8) != 0) continue;
      target[n] = '\0';
      unsigned long inode = strtoul(target + 8, NULL, 10);
      size_t slot = map_slot(m, inode);
      if (m->keys[slot] != inode) continue;
      add_pid(l, &l->rows[m->values[slot]], pid);
      holds = 1;
    }
    closedir(fds);
    if (hidden) {
      (*denied)++;
      wisp_buf_printf(owners, "D\t%d\n", pid);
    }
    if (holds) put_owner(owners, pid);
  }
  closedir(proc);
  return 0;
}

static wisp_result *ports(int32_t token, int32_t flags) {
  sock_list l = {0};
  char source[160] = "";
  wisp_buf failures = {0};
  static const int families[2] = {4, 6};
  for (int udp = 0; udp <= 1; udp++) {
    const char *proto = udp ? "udp" : "tcp";
    const char *used[2];
    for (int fi = 0; fi < 2; fi++) {
      int family = families[fi];
      int diag = (flags & WISP_PORTS_PROCFS) ? -EOPNOTSUPP : diag_dump(&l, family == 6 ? AF_INET6 : AF_INET, udp);
      if (diag == 0) {
        used[fi] = "sock_diag";
        continue;
      }
      int procfs = procfs_dump(&l, family, udp);
      if (procfs == 0) {
        used[fi] = "procfs";
        continue;
      }
      /* Neither could be read: say so, or "nothing listens" would pass for an answer. */
      used[fi] = "none";
      wisp_buf_printf(&failures, "E\t%s\t%d\t%d\t", proto, family, -procfs);
      char why[200];
      if (flags & WISP_PORTS_PROCFS)
        snprintf(why, sizeof why, "/proc/net/%s%s: %s", proto, family == 6 ? "6" : "", strerror(-procfs));
      else
        snprintf(why, sizeof why, "sock_diag: %s; /proc/net/%s%s: %s", strerror(-diag), proto, family == 6 ? "6" : "",
                 strerror(-procfs));
      wisp_buf_put_escaped(&failures, why, strlen(why));
      wisp_buf_putc(&failures, '\n');
    }
    size_t at = strlen(source);
    if (strcmp(used[0], used[1]) == 0)
      snprintf(source + at, sizeof source - at, "%s%s:%s", at ? "," : "", proto, used[0]);
    else
      snprintf(source + at, sizeof source - at, "%s%s4:%s,%s6:%s", at ? "," : "", proto, used[0], proto, used[1]);
  }
  wisp_buf owners = {0};
  int denied = 0, scanned = 0;
  inode_map m = {0};
  if (!l.failed && map_init(&m, l.n)) {
    for (int i = 0; i < l.n; i++) {
      if (l.rows[i].inode == 0) continue;
      size_t slot = map_slot(&m, l.rows[i].inode);
      m.keys[slot] = l.rows[i].inode;
      m.values[slot] = i;
    }
    if (l.n > 0) walk_owners(&l, &m, token, &owners, &denied, &scanned);
  } else {
    l.failed = 1;
  }
  free(m.keys);
  free(m.values);

  wisp_buf b = {0};
  if (!wisp_cancelled(token) && !l.failed) {
    wisp_buf_printf(&b, "H\t%s\t%d\t%d\n", source, denied, scanned);
    for (int i = 0; i < l.n; i++) {
      sock_row *r = &l.rows[i];
      wisp_buf_printf(&b, "S\t%s\t%d\t%s\t%u\t%lu\t%ld\t%d\t", r->udp ? "udp" : "tcp", r->family, r->addr, r->port,
                      r->inode, r->uid, r->v6only);
      for (int k = 0; k < r->npids; k++) wisp_buf_printf(&b, k ? ",%d" : "%d", r->pids[k]);
      wisp_buf_putc(&b, '\n');
    }
    wisp_buf_put(&b, owners.data, owners.len);
    wisp_buf_put(&b, failures.data, failures.len);
    if (owners.failed || failures.failed) b.failed = 1;
  }
  int cancelled = wisp_cancelled(token), failed = l.failed;
  for (int i = 0; i < l.n; i++) free(l.rows[i].pids);
  free(l.rows);
  wisp_buf_free(&owners);
  wisp_buf_free(&failures);
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

typedef struct ports_args {
  int32_t token, flags;
} ports_args;

static wisp_result *ports_job(void *p) {
  ports_args *a = p;
  return ports(a->token, a->flags);
}

wisp_result *wisp_ports(int32_t token, int32_t flags) {
  ports_args a = {token, flags};
  return wisp_run_on_thread(ports_job, &a);
}
