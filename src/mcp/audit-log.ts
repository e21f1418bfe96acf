import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One line of the audit log: every call that reads or runs something. */
export interface AuditEntry {
  tool: string;
  /** What was read or run: a path, `text`, the argv joined, a handle. */
  source: string;
  outcome: 'ok' | 'error' | 'refused';
  exitStatus?: number | null;
  timedOut?: boolean;
  bytes?: number;
  error?: string;
}

/**
 * JSON Lines in the server's state directory, appended synchronously: a record survives
 * the process dying right after the call.
 */
export class AuditLog {
  readonly file: string;

  constructor(file: string) {
    this.file = file;
    mkdirSync(dirname(file), { recursive: true });
  }

  record(entry: AuditEntry): void {
    appendFileSync(this.file, `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  }
}
