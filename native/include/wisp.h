/*
 * wisp's native library: one C ABI, two backends (Linux: procfs, sock_diag, libsystemd
 * opened at run time; macOS: libproc, OSLogStore), and condense_log's template scan, the
 * same on both. Loaded from Node through koffi.
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

/*
 * The library is built with -fvisibility=hidden: only what is declared here with
 * WISP_EXPORT is exported, so the helpers the backends share stay private.
 */
#define WISP_EXPORT __attribute__((visibility("default")))

#define WISP_ABI_VERSION 7

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

WISP_EXPORT int32_t wisp_abi_version(void);
/* "linux" or "macos": which backend this build holds. */
WISP_EXPORT const char *wisp_platform(void);
WISP_EXPORT void wisp_result_free(wisp_result *r);

/*
 * Cancel tokens: small integers naming a flag inside the library, so JavaScript can set
 * it from the main thread while a koffi async call polls it on a worker thread. At most
 * WISP_MAX_TOKENS exist at once; wisp_cancel_new returns -1 when all are taken. A token
 * of -1 passed to a long call means "not cancellable".
 */
#define WISP_MAX_TOKENS 256
WISP_EXPORT int32_t wisp_cancel_new(void);
WISP_EXPORT void wisp_cancel_set(int32_t token);
WISP_EXPORT void wisp_cancel_release(int32_t token);
WISP_EXPORT int wisp_cancelled(int32_t token);

/*
 * The process table, CPU sampled twice sample_ms apart (0..5000) inside the call.
 * Records:
 *   H  clk_ns  interval_ns  now_epoch_s  self_uid  seen  denied  vanished
 *   C  sample(1|2)  user  nice  system  idle  iowait  irq  softirq  steal
 *   P  pid  ppid  uid  user  state  threads  rss_bytes  cpu_ns_1  cpu_ns_2  start_epoch_s
 *      flags  name  exe_base  argv0_base  cmdline
 * clk_ns is the CPU clock's resolution (one tick). C gives the whole machine's CPU time
 * at each sample, in ticks of the kernel's clock (only differences and ratios mean
 * anything); -1 for a kind the platform does not count (macOS: iowait, irq, softirq,
 * steal). cpu_ns_2 is -1 when the process ended during the sample (or its pid was
 * reused by another). Names, exe and command line are read during the sample, so a
 * process that ends before the second read keeps them. The command line holds whole
 * arguments only, up to WISP_CMDLINE_MAX bytes: an argument that would pass it is left
 * out with all after it (flag t), so no secret is ever cut in two.
 * flags: k kernel thread, e exe unreadable (permission), c cmdline unreadable
 * (permission), t cmdline cut after its last whole argument.
 * denied counts processes the caller may not read (not listed); vanished those that ended
 * between listing and reading.
 */
#define WISP_CMDLINE_MAX 16384
WISP_EXPORT wisp_result *wisp_processes(int32_t token, int32_t sample_ms);

/*
 * Listening TCP sockets and bound, unconnected UDP sockets, with the pids holding them.
 * flags: WISP_PORTS_PROCFS reads /proc/net instead of sock_diag (Linux; tests compare the
 * two); 0 otherwise.
 * Records:
 *   H  source  fd_denied  pids_scanned
 *   S  proto  family  address  port  inode  uid  v6only  pids(comma-separated, may be empty)
 *   O  pid  comm  exe_base  argv0_base
 *   D  pid
 *   E  proto  family  errno  message
 * source says where sockets came from, per protocol and family (tcp4:sock_diag,...).
 * v6only is 1 for an IPv6 socket that takes IPv6 only (IPV6_V6ONLY), 0 for one that also
 * takes IPv4 (dual-stack) and for IPv4 sockets, -1 when the source does not say (/proc/net).
 * O names each holder: the kernel's short name and the basenames of its executable and
 * argv[0] (either may be empty). D names each process whose descriptors could not be
 * read (fd_denied counts them): the sockets it holds have no known owner. E says that
 * neither source could be read for a protocol and family: its sockets are not listed.
 */
#define WISP_PORTS_PROCFS 1
WISP_EXPORT wisp_result *wisp_ports(int32_t token, int32_t flags);

/*
 * The system log. wisp_log_open sets the start (and optional end) time in microseconds
 * since the epoch and the filters (empty strings for none); file names one journal file
 * (Linux, for tests) or is empty for the system's log. wisp_log_read returns whole lines
 * up to about max_bytes, status WISP_END when nothing is left.
 * Every entry is one line: each field written (identifier, pid, message, and on macOS
 * process, subsystem and category) has its control characters escaped (\n \r \xNN; a
 * tab and a backslash stay as they are), so no field can start a line of its own.
 * Linux lines: `<PRI>2026-10-04T03:02:15.445+0200 ident[pid]: message`, no `<PRI>` when an
 * entry has no PRIORITY, and `(PRIORITY=x is not a syslog level) ` before the message when
 * it has one outside 0..7.
 * macOS lines: log show compact style, `2026-10-04 03:02:15.445 E  proc[pid:tid] message`,
 * the thread id in hex as log show prints it.
 * Each wisp_log has a thread of its own from open to close: sd-journal objects must be
 * used from one thread only. wisp_log_close waits for a read already running to finish;
 * the caller must not close a log while a read call on it may still be starting (koffi
 * queues async calls: src/native/system-log.ts closes only once the read has returned).
 * The open result's record: `F  files_opened` (1 when a journal file or the macOS log store could be opened).
 */
typedef struct wisp_log wisp_log;
WISP_EXPORT wisp_log *wisp_log_new(void);
WISP_EXPORT wisp_result *wisp_log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec,
                           const char *process, const char *subsystem);
WISP_EXPORT wisp_result *wisp_log_read(wisp_log *log, int32_t token, int32_t max_bytes);
WISP_EXPORT void wisp_log_close(wisp_log *log);

/*
 * A log line's template (native/src/template.c): wisp_template_add scans bytes
 * [start, end) of buf (len bytes in all; rules look at the bytes around a token, never past
 * len) into state, an int32 array the caller resets to begin a line (H1, H2 to their
 * seeds, BUDGET to WISP_TEMPLATE_BYTES, CUT and SEGS to 0) and may add several ranges to.
 * The state holds the two hashes, the bytes left of the budget, whether the message was
 * cut, and SEGS segments: from WISP_TEMPLATE_HEAD, SEGMENTS starts, then as many ends,
 * then as many kinds (0 verbatim, 1 <NUM>, 2 <HEX>, 3 <UUID>, 4 <IP>, 5 <MAC>, 6 <PID>).
 * Returns WISP_OK, or WISP_ERR_ARGUMENT for a range outside the buffer. Called once a
 * line: no allocation, no lock.
 */
#define WISP_TEMPLATE_BYTES 800
#define WISP_TEMPLATE_SEGMENTS 1608 /* 2 * WISP_TEMPLATE_BYTES + 8: more than a budget's bytes can make */
#define WISP_TEMPLATE_H1 0
#define WISP_TEMPLATE_H2 1
#define WISP_TEMPLATE_BUDGET 2
#define WISP_TEMPLATE_CUT 3
#define WISP_TEMPLATE_SEGS 4
#define WISP_TEMPLATE_HEAD 8
/* Where a template's two hashes start, before its first add (template.ts begin(), log_chunk.c commit()). */
#define WISP_TEMPLATE_H1_SEED 0x811c9dc5u
#define WISP_TEMPLATE_H2_SEED 0x3c6ef372u
WISP_EXPORT int32_t wisp_template_add(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t *state);

/*
 * The redaction scan (native/src/redact_scan.c): which rule conditions hold in bytes
 * [start, end) of buf. Every table it reads (the keyword and run automata, the byte classes,
 * the rules' signals, the thresholds) is built by src/redact/scan.ts and laid out in one
 * block the caller owns: WISP_SCAN_HEAD int32 words, each a number or the byte offset of an
 * array in the block (the WISP_SCAN_* indexes below). The scan writes only the block's
 * GENERATION word and its STAMP array: a signal raised in the latest scan has its stamp
 * equal to the generation.
 *
 * wisp_redact_scan returns 1 when a condition holds (stopping at the first one that is
 * enough alone, or, with collect, scanning on to stamp every signal), 0 when none does,
 * WISP_ERR_ARGUMENT (negated) for a bad range or block. wisp_redact_screen_lines runs it,
 * not collecting, over each line of [start, end) (split at '\n', a '\r' before it left
 * out), writing 1 or 0 per line to out (out_len bytes); returns the number of lines, or a
 * negated error. No allocation, no lock; a block is used by one thread at a time.
 */
#define WISP_SCAN_LAYOUT 1
#define WISP_SCAN_HEAD 48
enum {
  WISP_SCAN_LAYOUT_WORD = 0,
  WISP_SCAN_BYTES,
  WISP_SCAN_GENERATION,
  WISP_SCAN_KEYWORD_ROWS,   /* uint32, row offsets: rows[row | column] is the next state's row */
  WISP_SCAN_KEYWORD_SHIFT,
  WISP_SCAN_FIRST_HIT,      /* keyword states from this one have hits */
  WISP_SCAN_CLASSES,        /* uint16 per byte: keyword column | run class << 8 */
  WISP_SCAN_RUN_ROWS,       /* uint16, row offsets, as KEYWORD_ROWS */
  WISP_SCAN_RUN_SHIFT,
  WISP_SCAN_FIRST_EVENT,    /* run states from this one are events */
  WISP_SCAN_RUN_EVENTS,     /* uint8 per event state: WISP_SCAN_EVENT_* bits */
  WISP_SCAN_HIT_START,      /* int32 per hit state: its entries at [start, end) */
  WISP_SCAN_HIT_END,
  WISP_SCAN_ENTRY_CONTEXT,  /* int8 per entry: WISP_SCAN_CONTEXT_* */
  WISP_SCAN_ENTRY_PARAM,    /* int32 per entry */
  WISP_SCAN_ENTRY_SIGNAL,   /* int32 per entry */
  WISP_SCAN_ENTRY_LENGTH,   /* int32 per entry: the keyword's length */
  WISP_SCAN_SIGNALS,        /* how many signals */
  WISP_SCAN_SUFFICIENT,     /* uint8 per signal: enough alone (else a part of `all` conditions) */
  WISP_SCAN_SHAPE_SIGNAL,   /* int32 per WISP_SCAN_SHAPE_*: its signal, -1 when no rule needs it */
  WISP_SCAN_CONJ_OF_START,  /* int32 per signal: the `all` conditions it is a part of, at CONJ_IDS[start, end) */
  WISP_SCAN_CONJ_OF_END,
  WISP_SCAN_CONJ_IDS,
  WISP_SCAN_PART_START,     /* int32 per `all` condition: its parts' signals at PARTS[start, end) */
  WISP_SCAN_PART_END,
  WISP_SCAN_PARTS,
  WISP_SCAN_STAMP,          /* int32 per signal, written by the scan */
  WISP_SCAN_CHAR_CLASS,     /* uint32 per byte: WISP_CC_* bits */
  WISP_SCAN_IBAN_LENGTH,    /* uint8 per two capitals (26 * 26): the country's IBAN length, 0 for none */
  WISP_SCAN_BASE64_RUN,
  WISP_SCAN_HEX_RUN,
  WISP_SCAN_TOKEN_DOT_RUN,
  WISP_SCAN_CARD_DIGITS,
  WISP_SCAN_PLUS_DIGITS,
  WISP_SCAN_QUAD_DOTS,
  WISP_SCAN_NATIONAL_DIGITS,
  WISP_SCAN_PAIRS,
  WISP_SCAN_WORDS           /* the words in use (at most WISP_SCAN_HEAD) */
};
/* Byte classes (WISP_SCAN_CHAR_CLASS bits). */
enum {
  WISP_CC_DIGIT = 1 << 0,
  WISP_CC_ALNUM = 1 << 1,
  WISP_CC_UPPER = 1 << 2,
  WISP_CC_LOWER = 1 << 3,
  WISP_CC_WORD = 1 << 4,
  WISP_CC_HEX = 1 << 5,
  WISP_CC_BASE64 = 1 << 6,
  WISP_CC_IDENT = 1 << 7,
  WISP_CC_WORD_DASH = 1 << 8,
  WISP_CC_TOKEN = 1 << 9,
  WISP_CC_BLANK = 1 << 10,
  WISP_CC_URL_STOP = 1 << 11,
  WISP_CC_DIGIT_JOIN = 1 << 12,
  WISP_CC_EMAIL_LOCAL = 1 << 13,
  WISP_CC_DOMAIN = 1 << 14,
  WISP_CC_KEY_LINE = 1 << 15,
  WISP_CC_BEFORE_CARD = 1 << 16,
  WISP_CC_BEFORE_IP = 1 << 17,
  WISP_CC_BEFORE_SSN = 1 << 18,
  WISP_CC_BEFORE_PHONE = 1 << 19
};
/* A keyword hit's context (the order of CONTEXT_CODES in scan.ts). */
enum {
  WISP_SCAN_CONTEXT_ANY = 0,
  WISP_SCAN_CONTEXT_ASSIGN,
  WISP_SCAN_CONTEXT_FLAG,
  WISP_SCAN_CONTEXT_SPACED,
  WISP_SCAN_CONTEXT_LINE,
  WISP_SCAN_CONTEXT_QUOTE,
  WISP_SCAN_CONTEXT_XML,
  WISP_SCAN_CONTEXT_NAMED,
  WISP_SCAN_CONTEXT_URL_AT,
  WISP_SCAN_CONTEXT_EMAIL,
  WISP_SCAN_CONTEXT_SCHEME,
  WISP_SCAN_CONTEXT_TAIL,
  WISP_SCAN_CONTEXT_VENDOR
};
/* Shapes (the order of SHAPES in scan.ts). */
enum {
  WISP_SCAN_SHAPE_BASE64 = 0,
  WISP_SCAN_SHAPE_HEX32_DASH,
  WISP_SCAN_SHAPE_TOKEN_DOT,
  WISP_SCAN_SHAPE_CARD,
  WISP_SCAN_SHAPE_SSN,
  WISP_SCAN_SHAPE_PHONE,
  WISP_SCAN_SHAPE_IPV4,
  WISP_SCAN_SHAPE_IBAN,
  WISP_SCAN_SHAPE_KEY_MATERIAL_LINE
};
/* The run automaton's events (RunEvent in run-events.ts). */
#define WISP_SCAN_EVENT_BASE64 1
#define WISP_SCAN_EVENT_HEX_DASH 2
#define WISP_SCAN_EVENT_TOKEN_DOT 4
#define WISP_SCAN_EVENT_DIGITS 8
#define WISP_SCAN_EVENT_IBAN 16
#define WISP_SCAN_EVENT_ESCAPE 32
WISP_EXPORT int32_t wisp_redact_scan(int32_t *block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t collect);
WISP_EXPORT int32_t wisp_redact_screen_lines(int32_t *block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, uint8_t *out,
                                             int32_t out_len);

/*
 * A log line's header (native/src/log_header.c): where its timestamp and message are and
 * the level it declares, read from its first bytes, buf[start, end) (the caller passes at
 * most the bytes a header is read from). Positions in and out are offsets from start.
 *
 * The level words come in a block the caller builds from its one list of them (severity.ts):
 * WISP_LEVEL_WORDS_HEAD bytes ([0] WISP_LEVEL_WORDS_LAYOUT, [1] the number of words, [2] the
 * number of log show's message types, from WISP_LEVEL_WORDS_SYSLOG the severity of each
 * syslog priority 0..7), then a WISP_LEVEL_WORD_BYTES entry per word (its length, its
 * severity, its letters in lower case), then one per message type (its letters as log show
 * writes them). Severities are 0 (critical) to 5 (debug); -1 is none. Then the trouble
 * words (severity.ts's TROUBLE_WORDS, [WISP_LEVEL_WORDS_TROUBLES] of them, what a line that
 * declares no level is read for in its message's first [WISP_LEVEL_WORDS_WINDOW] bytes, a
 * little-endian 16-bit count): WISP_TROUBLE_FIRST bytes, per byte 1 + the first word it may
 * begin in either case (0: none), then a WISP_TROUBLE_WORD_BYTES entry per word, in order of
 * their first letters (its length, its bytes in lower case).
 * wisp_log_trouble: 1 when buf[start, end) holds a trouble word in any case, else 0.
 *
 * wisp_log_header reads a timestamped line's header (after content_start, a BOM's length,
 * and fields_end, past fields that precede it: gh run view's job and step, a compose
 * service's name): 1 with out[WISP_HEADER_*] set, 0 when the line has none, a negated
 * error. flags: WISP_HEADER_FLAG_*; column: the level column's token index. With
 * WISP_HEADER_FLAG_LOGSHOW (and _TTL) or _COMPACT, the header is a row of `log show`'s
 * default or compact style instead, its message type the level.
 * wisp_log_header_starts: out[c] (len 256) is 1 where byte c may begin a timestamped header
 * at fields_end, 0 where wisp_log_header answers 0 for a line with c there (log show's rows
 * aside): a caller may skip such a line without calling.
 * wisp_log_plain_level: the level a line without the input's header declares from `from`
 * (its <PRI> or glog letter, the level column where the input has no timestamps, a level
 * word), -1 for none, WISP_LEVEL_BAD_ARGUMENT for a bad argument.
 * wisp_log_timestamp: 1 when a timestamp starts at pos, with out[0], out[1] its start and
 * end. wisp_log_stamp_from: where a timestamp may start from pos (past Ruby's level letter,
 * Redis's pid and role, Erlang's report kind). wisp_log_token_levels: for each of the first
 * WISP_LEVEL_TOKENS tokens, out[k] the level word it holds as a column would (-1 none) and
 * out[WISP_LEVEL_TOKENS + k] the level letter it is (logcat's V D I W E F A), -1 none; returns how many tokens there are.
 */
#define WISP_LEVEL_WORDS_LAYOUT 2
#define WISP_LEVEL_WORDS_HEAD 16
#define WISP_LEVEL_WORDS_TROUBLES 3
#define WISP_LEVEL_WORDS_WINDOW 4
#define WISP_LEVEL_WORDS_SYSLOG 8
#define WISP_LEVEL_WORD_BYTES 16
#define WISP_TROUBLE_FIRST 256
#define WISP_TROUBLE_WORD_BYTES 32
/* Severities the chunk pass names (severity.ts's Severity). */
#define WISP_SEVERITY_WARNING 2
#define WISP_SEVERITY_INFO 4
#define WISP_LEVEL_TOKENS 12
#define WISP_LEVEL_BAD_ARGUMENT (-100)
#define WISP_HEADER_FLAG_TIMESTAMPED 1
#define WISP_HEADER_FLAG_COLUMN 2
#define WISP_HEADER_FLAG_COLUMN_LETTERS 4
#define WISP_HEADER_FLAG_LOGSHOW 8
#define WISP_HEADER_FLAG_LOGSHOW_TTL 16
#define WISP_HEADER_FLAG_COMPACT 32
enum { WISP_HEADER_TIME_START = 0, WISP_HEADER_TIME_END, WISP_HEADER_MESSAGE, WISP_HEADER_LEVEL, WISP_HEADER_OUT };
WISP_EXPORT int32_t wisp_log_header(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start,
                                    int32_t fields_end, int32_t flags, int32_t column, intptr_t out);
WISP_EXPORT int32_t wisp_log_header_starts(uint8_t *out, int32_t len);
WISP_EXPORT int32_t wisp_log_plain_level(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start,
                                         int32_t from, int32_t flags, int32_t column);
WISP_EXPORT int32_t wisp_log_timestamp(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos, intptr_t out);
WISP_EXPORT int32_t wisp_log_stamp_from(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos);
WISP_EXPORT int32_t wisp_log_token_levels(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, intptr_t out);
WISP_EXPORT int32_t wisp_log_trouble(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end);

/*
 * condense_log's pass over a chunk (native/src/log_chunk.c) for the records that are one
 * header line: a line that may hold no secret (screen[k] is the redaction screen's verdict
 * on line k), has no terminal colours in its first WISP_HEADER_PREFIX_BYTES bytes, is
 * shorter than max_line_bytes and has the input's header (flags, column: as for
 * wisp_log_header) with a declared level, when the line after it is one too or it is the
 * chunk's last line. A header line that declares no level is such a line too, read as
 * WISP_SEVERITY_INFO, where its message's words hold no trouble word (wisp_log_trouble),
 * its message cannot be a located complaint, and the record open before it surely names no
 * warning or worse in its head (a line above it that declares one, or that is read from
 * other text than its bytes, may be that head). Such records are
 * grouped by severity and template; every other line is left to the caller, in segments
 * of consecutive lines.
 *
 * The arena is the caller's: arena_words int32 words, where the result is written. Returns
 * the number of lines, WISP_ERR_ARGUMENT (negated) for a bad argument, or WISP_ERR_MEMORY
 * (negated) with arena[WISP_CHUNK_WORDS_NEEDED] the words to try again with. The result:
 * the head's WISP_CHUNK_* words; at RECORDS_AT a record per WISP_CHUNK_RECORD_WORDS (its
 * line's start and end, its group); at SEGMENTS_AT a segment per WISP_CHUNK_SEGMENT_WORDS
 * (WISP_SEGMENT_*: its first line, 1-based, its lines, the records read before it, its
 * first byte); at GROUPS_AT a group per WISP_CHUNK_GROUP_WORDS (WISP_GROUP_*: its
 * severity, its key as template.ts makes it (KEY_HIGH * 2^21 + KEY_LOW), its records, its
 * first and last line, its first record's start, end and message, its first and last
 * record's time, its first record's placeholders, and TALLIES tallies at TALLIES_AT). A
 * tally is WISP_TALLY_WORDS: how many values (-1: more than WISP_TALLY_VALUES), then per
 * value its first occurrence's start and end, its records, and its first record's line.
 */
#define WISP_HEADER_PREFIX_BYTES 160
#define WISP_CHUNK_HEAD 16
enum {
  WISP_CHUNK_LINES = 0,
  WISP_CHUNK_RECORDS,
  WISP_CHUNK_GROUPS,
  WISP_CHUNK_SEGMENTS,
  WISP_CHUNK_RECORDS_AT,
  WISP_CHUNK_SEGMENTS_AT,
  WISP_CHUNK_GROUPS_AT,
  WISP_CHUNK_WORDS_NEEDED
};
#define WISP_CHUNK_RECORD_WORDS 3
#define WISP_CHUNK_SEGMENT_WORDS 4
enum { WISP_SEGMENT_FIRST_LINE = 0, WISP_SEGMENT_LINES, WISP_SEGMENT_RECORDS_BEFORE, WISP_SEGMENT_START };
#define WISP_CHUNK_GROUP_WORDS 16
enum {
  WISP_GROUP_SEVERITY = 0,
  WISP_GROUP_KEY_HIGH,
  WISP_GROUP_KEY_LOW,
  WISP_GROUP_RECORDS,
  WISP_GROUP_FIRST_LINE,
  WISP_GROUP_LAST_LINE,
  WISP_GROUP_START,
  WISP_GROUP_END,
  WISP_GROUP_MESSAGE,
  WISP_GROUP_FIRST_TIME_START,
  WISP_GROUP_FIRST_TIME_END,
  WISP_GROUP_LAST_TIME_START,
  WISP_GROUP_LAST_TIME_END,
  WISP_GROUP_PLACEHOLDERS,
  WISP_GROUP_TALLIES,
  WISP_GROUP_TALLIES_AT
};
#define WISP_CHUNK_PLACEHOLDERS 64
#define WISP_TALLY_VALUES 16
#define WISP_TALLY_WORDS (1 + 4 * WISP_TALLY_VALUES)
WISP_EXPORT int32_t wisp_log_chunk(intptr_t words, const uint8_t *buf, int32_t len, const uint8_t *screen, int32_t lines, int32_t flags, int32_t column,
                                   int32_t max_line_bytes, intptr_t arena, int32_t arena_words);
/*
 * A chunk's redaction screen (wisp_redact_screen_lines over all of buf, with scan_block a
 * block of its own: its stamps are written) and, with `native`, its native pass: one call,
 * made on a thread beside the caller's (koffi's async call), every pointer an address the
 * caller keeps alive until it returns. Returns the number of lines, or what the failed
 * step returned (negated errors; WISP_ERR_MEMORY from the pass with its arena's words needed).
 */
WISP_EXPORT int32_t wisp_log_chunk_lane(intptr_t scan_block, intptr_t words, intptr_t buf, int32_t len, intptr_t screen, int32_t screen_cap,
                                        int32_t native, int32_t flags, int32_t column, int32_t max_line_bytes, intptr_t arena, int32_t arena_words);

#endif
