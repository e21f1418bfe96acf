/**
 * The `bug_type` of an .ips header says what kind of diagnostic the file is. Only 309 and
 * 109 are the crash of one process; the rest are system-wide events wisp names but does
 * not dissect. Meanings follow OSAnalytics' submissionConfig.plist as listed by
 * pycrashreport's BugType enum.
 */

/** JSON body describing one crashed process (macOS 12+ / iOS 15+). */
export const BUG_TYPE_JSON_CRASH = '309';
/** Older crash: JSON header line, then the legacy text report. */
export const BUG_TYPE_TEXT_CRASH = '109';

const MEANINGS: Readonly<Record<string, string>> = {
  '309': 'crash',
  '109': 'crash (legacy text body)',
  '9': 'crash',
  '298': 'jetsam event (memory pressure)',
  '198': 'jetsam event (memory pressure)',
  '98': 'jetsam event (memory pressure)',
  '210': 'kernel panic',
  '110': 'kernel panic',
  '10': 'kernel panic',
  '151': 'forced reset',
  '288': 'stackshot',
  '188': 'stackshot (legacy)',
  '186': 'ktrace stackshot',
  '509': 'terminating stackshot',
  '385': 'resource exception (EXC_RESOURCE)',
  '185': 'resource exception (EXC_RESOURCE)',
  '22': 'resource exception (EXC_RESOURCE)',
  '327': 'resource exception: too many threads',
  '227': 'resource exception: too many threads',
  '409': 'system watchdog crash',
  '28': 'watchdog timeout',
  '29': 'service watchdog timeout',
  '308': 'OS fault',
  '12': 'hang',
  '11': 'spin',
  '228': 'third-party hang',
  '202': 'CPU usage report',
  '206': 'fatal CPU usage report',
  '142': 'CPU wakeups report',
  '145': 'disk writes report',
  '301': 'system memory reset',
};

export function bugTypeMeaning(bugType: string): string {
  return MEANINGS[bugType] ?? 'unknown diagnostic type';
}

/** True for the two bug types whose body is the crash of a single process. */
export function isSingleProcessCrash(bugType: string): boolean {
  return bugType === BUG_TYPE_JSON_CRASH || bugType === BUG_TYPE_TEXT_CRASH;
}
