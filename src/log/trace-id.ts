/**
 * Trace and request ids in a line (`trace_id=4bf92f35`, `"requestId": "req-7"`,
 * `x-request-id: ...`), for precursors on the same trace. A trace or request id is
 * preferred to a span id: spans differ from call to call within one trace.
 */
const TRACE = /\b(?:trace[_.-]?id|traceid|trace|x-request-id|request[_.-]?id|requestid|req[_.-]?id|reqid|req|correlation[_.-]?id)"?\s{0,3}[=:]\s{0,3}"?([A-Za-z0-9][\w.:/-]{3,127})/i;
const SPAN = /\bspan[_.-]?id"?\s{0,3}[=:]\s{0,3}"?([A-Za-z0-9][\w.:-]{3,127})/i;
const HINT = /trace|req|correlation|span/i;

export function traceIdOf(line: string): string {
  if (!HINT.test(line)) return '';
  return TRACE.exec(line)?.[1] ?? SPAN.exec(line)?.[1] ?? '';
}

/** Decided once per input from its head, so lines of logs without ids are never searched. */
export function headHasTraces(head: string): boolean {
  let found = 0;
  for (const line of head.split('\n', 400)) if (traceIdOf(line) !== '') found++;
  return found >= 2;
}
