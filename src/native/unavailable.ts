import type { WispErrorCode } from '../core/errors.js';

/** The code for "this facility is missing here": the native library not built, libsystemd absent, an unsupported platform. */
export const UNAVAILABLE: WispErrorCode = 'WISP_UNAVAILABLE';
