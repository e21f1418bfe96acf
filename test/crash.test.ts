import test from 'ava';

import { WispError } from '../src/core/errors.js';
import { looksLikeCrashReport, parseCrashReport, renderCrashReport, type CrashReport } from '../src/crash/index.js';
import {
  APP,
  CRASHED_FRAMES,
  DECOY_TOP_SYMBOLS,
  IMAGE,
  IMAGES,
  LAST_EXCEPTION_FRAMES,
  SWIFT_FATAL_ERROR,
  iosLegacyText,
  ips109TextCrash,
  ips298Jetsam,
  ips309Crash,
  ips309Truncated,
  ips309WithSecrets,
  macLegacyCrash,
  translatedReport,
  type JsonFrame,
} from '../fixtures/crash.js';

/** What Apple prints for a frame's address: image base + offset, lower-case hex. */
function expectedAddress(frame: JsonFrame): string {
  return `0x${(IMAGES[frame.imageIndex]!.base + BigInt(frame.imageOffset)).toString(16)}`;
}

function frameAt(report: CrashReport, i: number) {
  const frame = report.faultingThread?.frames[i];
  if (!frame) throw new Error(`no frame ${i}`);
  return frame;
}

// ---------------------------------------------------------------- .ips bug_type 309

test('309: process identity comes from the body, OS and time from the header', (t) => {
  const r = parseCrashReport(ips309Crash());
  t.is(r.kind, 'ips');
  t.is(r.bugType, '309');
  t.is(r.process, APP.name);
  t.is(r.path, APP.path);
  t.is(r.pid, APP.pid);
  t.is(r.bundleId, APP.bundleId);
  t.is(r.version, `${APP.shortVersion} (${APP.build})`);
  t.is(r.os, `${APP.osTrain} (${APP.osBuild})`);
  t.is(r.timestamp, APP.timestamp);
  t.is(r.incident, APP.incident);
});

test('309: exception, termination and application-specific information', (t) => {
  const r = parseCrashReport(ips309Crash());
  t.deepEqual(r.exception, {
    type: 'EXC_BAD_INSTRUCTION',
    signal: 'SIGILL',
    codes: '0x0000000000000001, 0x00007ff81f315245',
    subtype: 'EXC_I386_INVOP',
  });
  t.is(r.termination?.namespace, 'SIGNAL');
  t.is(r.termination?.code, '4');
  t.is(r.termination?.indicator, 'Illegal instruction: 4');
  t.is(r.termination?.byProc, 'exc handler');
  t.deepEqual(r.asi, [`libswiftCore.dylib: ${SWIFT_FATAL_ERROR}`]);
});

test('309: termination details[] (TCC) and reasons[] (FrontBoard watchdog) are both kept', (t) => {
  const tcc = parseCrashReport(
    ips309Crash({ termination: { flags: 518, code: 0, namespace: 'TCC', details: ['The app must declare NSBluetoothAlwaysUsageDescription.'] } }),
  );
  t.deepEqual(tcc.termination?.reasons, ['The app must declare NSBluetoothAlwaysUsageDescription.']);
  t.is(tcc.termination?.code, '0');

  const watchdog = parseCrashReport(
    ips309Crash({
      termination: {
        code: 0x8badf00d,
        namespace: 'FRONTBOARD',
        reasons: ['<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:Failed to terminate gracefully after 5.0s', 'WatchdogEvent: process-exit'],
      },
    }),
  );
  // The number is stored in decimal in the JSON; the magic value only reads in hex.
  t.is(watchdog.termination?.code, '0x8badf00d');
  t.is(watchdog.termination?.reasons?.length, 2);
  t.true(watchdog.notes.some((n) => n.includes('0x8badf00d') && n.includes('watchdog')));
});

test('309: frames carry image names, base+offset addresses and Apple-style symbols', (t) => {
  const r = parseCrashReport(ips309Crash());
  const thread = r.faultingThread;
  if (!thread) return t.fail('no faulting thread');
  t.is(thread.framesTotal, CRASHED_FRAMES.length);
  t.deepEqual(
    thread.frames.map((f) => f.index),
    CRASHED_FRAMES.map((_f, i) => i),
  );
  for (const [i, input] of CRASHED_FRAMES.entries()) {
    const frame = frameAt(r, i);
    t.is(frame.address, expectedAddress(input), `address of frame ${i}`);
    t.is(frame.image, IMAGES[input.imageIndex]!.name ?? '???', `image of frame ${i}`);
  }

  // Symbolicated: "symbol + symbolLocation".
  t.is(frameAt(r, 3).symbol, '_assertionFailure(_:_:file:line:flags:) + 421');
  // Unsymbolicated: "0x<image base> + <offset>", the form `atos` and Apple's text use.
  const app = CRASHED_FRAMES[4]!;
  t.is(frameAt(r, 4).symbol, `0x${IMAGES[IMAGE.app].base.toString(16)} + ${app.imageOffset}`);
  t.is(frameAt(r, 4).source, undefined);
  // Source position when the frame has one.
  t.is(frameAt(r, 5).symbol, 'Loader.load(from:) + 196');
  t.is(frameAt(r, 5).source, 'Loader.swift:42');
  // Anonymous image: no name, base 0.
  t.is(frameAt(r, 6).image, '???');
  t.is(frameAt(r, 6).address, `0x${CRASHED_FRAMES[6]!.imageOffset.toString(16)}`);
});

test('309: addresses past 2^53 come out exact', (t) => {
  const r = parseCrashReport(ips309Crash());
  // A page-aligned image base past 2^53.
  const inHypervisor = CRASHED_FRAMES[7]!;
  t.is(frameAt(r, 7).image, 'Hypervisor');
  t.is(frameAt(r, 7).address, expectedAddress(inHypervisor));
  t.true(IMAGES[inHypervisor.imageIndex]!.base > BigInt(Number.MAX_SAFE_INTEGER));

  // An absolute address in the anonymous image, which a double cannot hold.
  const absolute = CRASHED_FRAMES[8]!;
  const exact = BigInt(absolute.imageOffset);
  t.not(BigInt(Number(exact)), exact, 'the fixture must exercise the precise path');
  t.is(frameAt(r, 8).image, '???');
  t.is(frameAt(r, 8).address, `0x${exact.toString(16)}`);
  t.is(frameAt(r, 8).symbol, `0x0 + ${exact}`);
});

test('309: only the top 12 frames are kept, framesTotal tells how many there were', (t) => {
  const r = parseCrashReport(ips309Crash({ crashedFrameCount: 30 }));
  t.is(r.faultingThread?.framesTotal, 30);
  t.is(r.faultingThread?.frames.length, 12);
  t.is(r.faultingThread?.frames.at(-1)?.index, 11);
  t.is(r.faultingThread?.frames.at(-1)?.symbol, '__CFRunLoopFiller_11 + 11');

  const text = renderCrashReport(r);
  t.regex(text, /top 12 of 30 frames/);
  t.true(text.includes('__CFRunLoopFiller_11'));
  t.false(text.includes('__CFRunLoopFiller_12'), 'frame 12 is past the cap');
});

test('309: faultingThread picks the thread it indexes, not the first or the main thread', (t) => {
  const r = parseCrashReport(ips309Crash({ crashedThreadIndex: 2 }));
  t.is(r.faultingThread?.index, 2);
  t.is(r.faultingThread?.queue, 'com.apple.root.default-qos');
  t.is(frameAt(r, 0).symbol, '__pthread_kill + 10');
  const text = renderCrashReport(r);
  for (const decoy of DECOY_TOP_SYMBOLS) t.false(text.includes(decoy), `${decoy} belongs to another thread`);

  // Pointing faultingThread at thread 0 must change the answer: the index is obeyed.
  const other = parseCrashReport(ips309Crash({ crashedThreadIndex: 2, faultingThread: 0 }));
  t.is(other.faultingThread?.index, 0);
  t.is(other.faultingThread?.queue, 'com.apple.main-thread');
  t.is(other.faultingThread?.frames[0]?.symbol, `${DECOY_TOP_SYMBOLS[0]} + 8`);
});

test('309: a named thread keeps its name', (t) => {
  const r = parseCrashReport(ips309Crash({ crashedThreadIndex: 2, faultingThread: 1 }));
  t.is(r.faultingThread?.name, 'worker-1');
});

test('309: without faultingThread the triggered thread is used, and the note says so', (t) => {
  const r = parseCrashReport(ips309Crash({ crashedThreadIndex: 1, faultingThread: null }));
  t.is(r.faultingThread?.index, 1);
  t.is(frameAt(r, 0).symbol, '__pthread_kill + 10');
  t.true(r.notes.some((n) => n.includes('triggered')));
});

test('309: an out-of-range faultingThread falls back to the triggered thread', (t) => {
  const r = parseCrashReport(ips309Crash({ crashedThreadIndex: 2, faultingThread: 9 }));
  t.is(r.faultingThread?.index, 2);
  t.true(r.notes.some((n) => n.includes('out of range')));
});

test('309: lastExceptionBacktrace is read and rendered', (t) => {
  const r = parseCrashReport(ips309Crash({ lastException: true }));
  const bt = r.lastExceptionBacktrace;
  if (!bt) return t.fail('no last exception backtrace');
  t.is(bt.length, LAST_EXCEPTION_FRAMES.length);
  t.is(r.lastExceptionBacktraceTotal, LAST_EXCEPTION_FRAMES.length);
  t.is(bt[1]?.symbol, 'objc_exception_throw + 48');
  t.is(bt[1]?.image, 'libobjc.A.dylib');
  t.is(bt[3]?.address, expectedAddress(LAST_EXCEPTION_FRAMES[3]!));
  const text = renderCrashReport(r);
  t.regex(text, /last exception backtrace/);
  t.true(text.includes('-[__NSArrayM objectAtIndex:] + 180'));

  t.is(parseCrashReport(ips309Crash()).lastExceptionBacktrace, undefined);
});

test('309: raw control characters inside strings are repaired, with a note', (t) => {
  const text = ips309Crash({ rawNewlineInString: true });
  t.throws(() => JSON.parse(text.slice(text.indexOf('\n') + 1)), undefined, 'the fixture must be invalid JSON');
  const r = parseCrashReport(text);
  t.is(r.process, APP.name);
  t.true(r.notes.some((n) => n.includes('control characters')));
});

// ---------------------------------------------------------------- rendering

test('render: Apple frame layout, identity, exception, termination and ASI', (t) => {
  const text = renderCrashReport(parseCrashReport(ips309Crash()));
  const lines = text.split('\n');
  t.true(lines[0]!.includes(`${APP.name} [${APP.pid}]`));
  t.true(text.includes(`path: ${APP.path}`));
  t.true(text.includes('EXC_BAD_INSTRUCTION (SIGILL)'));
  t.true(text.includes('namespace SIGNAL, code 4, Illegal instruction: 4'));
  t.true(text.includes(SWIFT_FATAL_ERROR));
  // `3   libswiftCore.dylib   0x7ff81f315245 _assertionFailure(...) + 421`
  const assertion = CRASHED_FRAMES[3]!;
  t.regex(
    text,
    new RegExp(`^3\\s+libswiftCore\\.dylib\\s+${expectedAddress(assertion)} _assertionFailure\\(_:_:file:line:flags:\\) \\+ 421$`, 'm'),
  );
  const unsymbolicated = CRASHED_FRAMES[4]!;
  t.regex(text, new RegExp(`^4\\s+WispDemo\\s+${expectedAddress(unsymbolicated)} 0x100f4c000 \\+ 25788$`, 'm'));
  t.regex(text, /^5\s+WispDemo\s+0x\S+ Loader\.load\(from:\) \+ 196 \(Loader\.swift:42\)$/m);
  t.regex(text, /^6\s+\?\?\?\s+0x1234 0x0 \+ 4660$/m);
});

test('parse and render: secrets in asi and procPath are redacted', (t) => {
  const awsKey = 'AKIAIOSFODNN7EXAMPLE';
  const r = parseCrashReport(
    ips309Crash({
      asiMessages: ['Fatal error: login failed with password=hunter2 for admin', `S3 upload refused for key ${awsKey}`],
      procPath: '/Users/dev/build/token=ghp_R4nd0mT0kenV4lue1234567890abcdefAB/WispDemo',
    }),
  );
  // The parsed report is shown as it is too (--json, MCP): parsing redacts it.
  t.false(JSON.stringify(r).includes('hunter2'));
  t.true(r.asi?.some((m) => m.includes('login failed with')));
  const text = renderCrashReport(r);
  t.false(text.includes('hunter2'));
  t.false(text.includes(awsKey));
  t.false(text.includes('ghp_R4nd0mT0kenV4lue1234567890abcdefAB'));
  // Which marker kind each secret gets is the redaction module's business; that the
  // three of them are marked, and the message around them survives, is ours.
  t.true((text.match(/\[REDACTED:[a-z-]+\]/g) ?? []).length >= 3, text);
  t.true(text.includes('login failed with'));
  t.true(text.includes('S3 upload refused for key'));
});

test('render: stays a few KB even when asi and reasons are huge', (t) => {
  const r = parseCrashReport(
    ips309Crash({
      asiMessages: Array.from({ length: 50 }, (_v, i) => `message ${i} ${'x'.repeat(5000)}`),
      termination: { namespace: 'FRONTBOARD', code: 1, reasons: Array.from({ length: 40 }, (_v, i) => `reason ${i} ${'y'.repeat(3000)}`) },
      crashedFrameCount: 200,
      lastException: true,
    }),
  );
  const text = renderCrashReport(r);
  t.true(text.length < 8 * 1024, `rendered ${text.length} characters`);
  t.regex(text, /\.\.\. \d+ more/);
});

// ---------------------------------------------------------------- broken .ips

test('a truncated .ips is refused with WISP_NOT_JSON', (t) => {
  const err = t.throws(() => parseCrashReport(ips309Truncated()), { instanceOf: WispError });
  t.is(err?.code, 'WISP_NOT_JSON');
  t.regex(err?.message ?? '', /truncated|incomplete/);
});

test('an .ips with only its header line is refused with WISP_NOT_JSON', (t) => {
  const headerOnly = ips309Crash().split('\n')[0]!;
  const err = t.throws(() => parseCrashReport(`${headerOnly}\n`), { instanceOf: WispError });
  t.is(err?.code, 'WISP_NOT_JSON');
});

test('empty input is refused with WISP_EMPTY_INPUT', (t) => {
  const err = t.throws(() => parseCrashReport('\n  \n'), { instanceOf: WispError });
  t.is(err?.code, 'WISP_EMPTY_INPUT');
});

// ---------------------------------------------------------------- other bug types

test('109: the legacy text body is parsed, the header fills in', (t) => {
  const r = parseCrashReport(ips109TextCrash());
  t.is(r.kind, 'ips');
  t.is(r.bugType, '109');
  t.is(r.process, 'Photon');
  t.is(r.pid, 1730);
  t.is(r.bundleId, 'dev.wisp.photon');
  t.is(r.version, '4.1 (77)');
  t.is(r.os, 'iPhone OS 14.8 (18H17)');
  t.deepEqual(r.exception, { type: 'EXC_CRASH', signal: 'SIGABRT', codes: '0x0000000000000000, 0x0000000000000000' });
  // "Triggered by Thread: 3", not the first thread block.
  t.is(r.faultingThread?.index, 3);
  t.is(r.faultingThread?.queue, 'dev.wisp.photon.loader');
  t.is(r.faultingThread?.framesTotal, 6);
  t.is(r.faultingThread?.frames[3]?.symbol, '0x100be4000 + 825632');
  t.is(r.faultingThread?.frames[3]?.address, '0x100cad920');
  t.is(r.faultingThread?.frames[4]?.source, 'GalleryLoader.m:51');
  t.is(r.lastExceptionBacktrace?.length, 5);
  t.is(r.lastExceptionBacktrace?.[3]?.image, 'Photon');
  t.true(r.asi?.some((m) => m.includes('NSRangeException')));
});

test('298 jetsam: reported as not a single-process crash, without failing', (t) => {
  const r = parseCrashReport(ips298Jetsam());
  t.is(r.kind, 'ips-other');
  t.is(r.bugType, '298');
  t.regex(r.bugTypeMeaning ?? '', /jetsam/);
  t.is(r.process, 'JetsamEvent');
  t.is(r.os, 'iPhone OS 15.5 (19F77)');
  t.is(r.timestamp, '2022-08-04 09:12:44.00 +0900');
  t.is(r.exception, undefined);
  t.is(r.faultingThread, undefined);
  t.true(r.notes.some((n) => n.includes('not the crash of a single process')));
  t.true(r.notes.some((n) => n.includes('largest process: Photon')));
  const text = renderCrashReport(r);
  t.regex(text.split('\n')[0]!, /not a process crash.*298.*jetsam/);
  t.false(text.includes('crashed thread'));
});

test('non-crash bug types do not fail on a broken or text body', (t) => {
  const header = ips298Jetsam().split('\n')[0]!;
  const broken = parseCrashReport(`${header}\n{ "largestProcess" : "Pho`);
  t.is(broken.kind, 'ips-other');
  const panic = parseCrashReport(
    `{"bug_type":"210","timestamp":"2024-01-02 03:04:05.00 +0000","os_version":"macOS 14.2 (23C64)"}\n${JSON.stringify({
      panicString: 'panic(cpu 0 caller 0xfffffe0012345678): "watchdog timeout: no checkins from watchdogd in 90 seconds"\nDebugger message: panic',
    })}`,
  );
  t.is(panic.kind, 'ips-other');
  t.regex(panic.bugTypeMeaning ?? '', /panic/);
  t.true(panic.notes.some((n) => n.startsWith('panic: panic(cpu 0') && !n.includes('Debugger message')));
});

// ---------------------------------------------------------------- legacy .crash

test('legacy macOS .crash: header, exception, termination, ASI, crashed thread', (t) => {
  const r = parseCrashReport(macLegacyCrash());
  t.is(r.kind, 'crash');
  t.is(r.process, 'semademo');
  t.is(r.pid, 6159);
  t.is(r.bundleId, 'dev.wisp.semademo');
  t.is(r.version, '1.2 (12)');
  t.is(r.os, 'Mac OS X 10.16 (20A5343i)');
  t.is(r.timestamp, '2020-09-29 10:46:28.929 +0100');
  t.deepEqual(r.exception, { type: 'EXC_BREAKPOINT', signal: 'SIGTRAP', codes: 'EXC_ARM_BREAKPOINT at 0x00000001de16e2f8 (brk 1)' });
  t.is(r.termination?.namespace, 'SIGNAL');
  t.is(r.termination?.code, '5');
  t.is(r.termination?.indicator, 'Trace/BPT trap: 5');
  t.is(r.termination?.byProc, 'exc handler');
  t.deepEqual(r.asi, ['dyld2 mode', 'BUG IN CLIENT OF LIBDISPATCH: Semaphore object deallocated while in use']);
  // "Crashed Thread: 1": thread 0 comes first in the file but is not the one.
  t.is(r.faultingThread?.index, 1);
  t.is(r.faultingThread?.queue, 'dev.wisp.semademo.worker');
  t.is(r.faultingThread?.framesTotal, 6);
  const f3 = r.faultingThread?.frames[3];
  t.deepEqual(f3, { index: 3, image: 'semademo', address: '0x1009c7ed8', symbol: 'use_sema + 48', source: 'main.m:15' });
  t.false(renderCrashReport(r).includes('mach_msg_trap'));
});

test('legacy .crash: a Crashed Thread without a frame block falls back to the block marked Crashed', (t) => {
  const text = macLegacyCrash().replace('Crashed Thread:        1', 'Crashed Thread:        7');
  const r = parseCrashReport(text);
  t.is(r.faultingThread?.index, 1);
  t.true(r.notes.some((n) => n.includes('crashed thread 7')));
});

test('legacy .crash: the declared Crashed Thread is used even when no block is marked Crashed', (t) => {
  const text = macLegacyCrash().replace('Thread 1 Crashed::', 'Thread 1::');
  const r = parseCrashReport(text);
  t.is(r.faultingThread?.index, 1);
  t.is(r.faultingThread?.frames[0]?.symbol, '_dispatch_semaphore_dispose.cold.1 + 40');
});

test('legacy .crash: secrets in the ASI block and the Path line are redacted', (t) => {
  const r = parseCrashReport(
    macLegacyCrash({ asi: ['connecting with api_key=sk_live_0123456789abcdef'], path: '/tmp/AKIAIOSFODNN7EXAMPLE/semademo' }),
  );
  const text = renderCrashReport(r);
  t.false(text.includes('sk_live_0123456789abcdef'));
  t.false(text.includes('AKIAIOSFODNN7EXAMPLE'));
  t.true(text.includes('semademo'));
});

test('legacy iOS .crash without a header: Triggered by Thread and Last Exception Backtrace', (t) => {
  const r = parseCrashReport(`\n${iosLegacyText()}`);
  t.is(r.kind, 'crash');
  t.is(r.incident, '0F6E2B57-3C41-4D8A-9E20-77B1C5D3A9F4');
  t.is(r.faultingThread?.index, 3);
  t.is(r.faultingThread?.frames[0]?.symbol, '__pthread_kill + 8');
  t.is(r.faultingThread?.frames[0]?.address, '0x1c3e1a334');
  t.is(r.lastExceptionBacktrace?.[2]?.symbol, '-[__NSArrayM objectAtIndex:] + 143');
});

test('Translated Report: the full .ips is preferred; a cut-off one falls back to the text', (t) => {
  const whole = parseCrashReport(translatedReport());
  t.is(whole.process, APP.name);
  t.is(whole.kind, 'ips');
  const cut = parseCrashReport(translatedReport(true));
  t.is(cut.process, 'semademo');
  t.is(cut.kind, 'crash');
  t.is(cut.faultingThread?.index, 1);
  t.true(cut.notes.some((n) => n.includes('Full Report')));
});

// ---------------------------------------------------------------- sniffing

test('looksLikeCrashReport: true for .ips, 109, jetsam and legacy text heads', (t) => {
  t.true(looksLikeCrashReport(ips309Crash().slice(0, 4096)));
  t.true(looksLikeCrashReport(ips109TextCrash().slice(0, 4096)));
  t.true(looksLikeCrashReport(ips298Jetsam().slice(0, 4096)));
  t.true(looksLikeCrashReport(macLegacyCrash().slice(0, 4096)));
  t.true(looksLikeCrashReport(`\n${iosLegacyText()}`.slice(0, 4096)));
  t.true(looksLikeCrashReport(translatedReport().slice(0, 4096)));
  // Heads that end inside the header line: after bug_type, and before it.
  const header = ips309Crash().split('\n')[0]!;
  const afterBugType = header.indexOf('"bug_type"') + 20;
  t.true(looksLikeCrashReport(header.slice(0, afterBugType)));
  t.true(looksLikeCrashReport(header.slice(0, header.indexOf('"bug_type"'))));
});

test('looksLikeCrashReport: false for ordinary logs and JSON-lines logs', (t) => {
  t.false(looksLikeCrashReport('2024-03-05T14:22:07.123Z INFO Process: worker [123] started\nPath resolved\n'));
  t.false(looksLikeCrashReport('Mar  5 14:22:07 host kernel[0]: Process: nothing to see\n'));
  const jsonl = [
    '{"level":"info","time":1709644927000,"msg":"server listening","port":8080}',
    '{"level":"error","time":1709644928000,"msg":"crash in worker","bug_type":"309"}',
  ].join('\n');
  t.false(looksLikeCrashReport(jsonl));
  t.false(looksLikeCrashReport('{"level":"warn","msg":"slow request"}\n'));
  // A JSON log line cut off mid-way is still not a header.
  t.false(looksLikeCrashReport('{"time":"2024-03-05T14:22:07Z","app_name":"api","msg":"request took 1200'));
  t.false(looksLikeCrashReport(''));
});

test('309: secrets in the exception message and termination reasons are redacted when parsed; user names in paths stay', (t) => {
  const { text, secrets } = ips309WithSecrets();
  const r = parseCrashReport(text);
  t.truthy(r.exception?.message, 'the fixture carries an exception message');
  const json = JSON.stringify(r);
  for (const secret of secrets) t.false(json.includes(secret), secret);
  t.true(r.termination!.reasons![0]!.startsWith('uncaught: auth failed for [REDACTED:'), r.termination!.reasons![0]);
  t.true(r.exception!.message!.startsWith('request with Authorization: Bearer [REDACTED:'), r.exception!.message);
  t.is(r.path, '/Users/jane/Applications/WispDemo.app/Contents/MacOS/WispDemo');
});
