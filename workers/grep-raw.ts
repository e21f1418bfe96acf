/**
 * Runs one grep in a thread of its own, so that the server can stop it: a user's regex
 * may backtrack for a long time, and a JavaScript regex cannot be interrupted in place
 * (see src/grep/grep-in-thread.ts).
 */
import { grepInThisThread } from '../src/grep/grep-in-thread.js';

grepInThisThread();
