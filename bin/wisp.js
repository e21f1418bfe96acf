#!/usr/bin/env node
// The compiled CLI is one bundle in dist/ (built by `npm ci` through the prepare script,
// scripts/bundle-cli.mjs), loaded with the code V8 compiled for it at build time.
import { loadCli } from '../dist/src/cli/load-bundle.js';

loadCli()
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
