import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { redact } from '../redact/index.js';

/** A command's part of an audit line. */
export interface AuditCommand {
  /** The argv as given, each argument redacted on its own (boundaries kept). */
  argv: string[];
  /** ran: it started (whatever its exit status); refused: not allowed, not approved, or no sandbox; failed: it could not start. */
  outcome: 'ran' | 'refused' | 'failed';
  allowedBy?: 'allowlist' | 'approved';
  sandbox?: string;
  exitStatus?: number | null;
  timedOut?: boolean;
}

/** One line of the audit log: every call that reads or runs something. */
export interface AuditEntry {
  tool: string;
  /** What was read: a path, `text`, the journal, a handle. */
  source?: string;
  outcome: 'ok' | 'error' | 'refused';
  command?: AuditCommand;
  bytes?: number;
  error?: string;
}

/**
 * JSON Lines in the server's state directory, appended synchronously (one write a line,
 * so lines of servers sharing the directory do not interleave): a record survives the
 * process dying right after the call. Only its owner can read it (0600).
 */
export class AuditLog {
  readonly file: string;

  constructor(file: string) {
    this.file = file;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, '', { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  record(entry: AuditEntry): void {
    const line: Record<string, unknown> = { time: new Date().toISOString(), tool: entry.tool, outcome: entry.outcome };
    if (entry.source !== undefined) line.source = redact(entry.source);
    if (entry.command !== undefined) line.command = { ...entry.command, argv: entry.command.argv.map(redact) };
    if (entry.bytes !== undefined) line.bytes = entry.bytes;
    if (entry.error !== undefined) line.error = redact(entry.error);
    appendFileSync(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  }
}
