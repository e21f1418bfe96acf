/**
 * The package's own files (workers, the native library, the redaction tables), found from
 * its root. Built, this module is dist/src/paths.js, and so is every module of the CLI's
 * bundle (dist/src/wisp-cli.cjs, scripts/bundle-cli.mjs): from either, the root is two
 * folders up. One anchor, so that a module's place in dist/ need not match its source's.
 */
export const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** A file of the package, by its path from the package's root (`dist/workers/shape.cjs`). */
export const packageFile = (path: string): URL => new URL(path, PACKAGE_ROOT);
