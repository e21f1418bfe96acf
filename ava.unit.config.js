// `npm run test:unit`: the tests that need no root, no service (Redis, the journal tools,
// bubblewrap), start no worker pools to prove determinism across thread counts, and spawn
// few processes: parsers, the outliner, redaction, the checks. `npm test` runs everything.
export default {
  files: [
    'dist/test/crash.test.js',
    'dist/test/shape.test.js',
    'dist/test/shape-walker.test.js',
    'dist/test/shape-errors.test.js',
    'dist/test/shape-determinism.test.js',
    'dist/test/redact.test.js',
    'dist/test/redact-screen.test.js',
    'dist/test/redact-shape.test.js',
    'dist/test/system-info-parsers.test.js',
    'dist/test/system-info-validation.test.js',
    'dist/test/path-validation.test.js',
    'dist/test/layers.test.js',
    'dist/test/version.test.js',
    'dist/test/optional-bullmq.test.js',
  ],
  timeout: '2m',
  workerThreads: false,
};
