#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script), bundled
// into one module and its chunks (scripts/bundle-cli.mjs).
import { main } from '../dist/src/wisp-cli.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
