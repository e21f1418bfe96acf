#!/usr/bin/env node
/**
 * Builds the screen's automata and writes them to dist/redaction-tables.bin, where every
 * process and worker thread reads them instead of building them again (see
 * src/redact/built-tables.ts). Run by `npm run build` and `npm run build:package`, after tsc.
 */
import { writeFileSync } from 'node:fs';

process.env.WISP_BUILD_TABLES = '1';
const { TABLES_FILE, serializeTables } = await import('../dist/src/redact/built-tables.js');
await import('../dist/src/redact/rule-set.js');
const bytes = serializeTables();
writeFileSync(TABLES_FILE, bytes);
console.error(`wrote the screen's tables (${bytes.length} bytes) to ${TABLES_FILE.pathname}`);
