import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, tempDir } from './helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'check-layers.mjs');
const check = (root?: string) => spawnSync(process.execPath, [SCRIPT, ...(root === undefined ? [] : [root])], { encoding: 'utf8' });

function tree(files: Record<string, string>): string {
  const root = tempDir('layers');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('src/ has no import cycles between folders, one module imports piscina, worker files are shims', (t) => {
  const r = check();
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /no import cycles/);
});

test('a stage that imports its orchestrator back is a cycle, named with the imports that make it', (t) => {
  const r = check(
    tree({
      'src/log/index.ts': "import { merge } from './merge/merger.js';\nimport { WispError } from '../core/errors.js';\n",
      'src/log/merge/merger.ts': "import type { State } from '../index.js';\n",
      'src/core/errors.ts': '',
      'src/pipeline/pool.ts': "import { Piscina } from 'piscina';\n",
    }),
  );
  t.is(r.status, 1);
  t.regex(r.stderr, /import cycle in src\/log\/ between index\.ts, merge\//);
  t.regex(r.stderr, /src\/log\/merge\/merger\.ts -> \.\.\/index\.js/);
});

test('folders that import each other round a ring are a cycle; piscina in two modules and a fat worker file are refused', (t) => {
  const r = check(
    tree({
      'src/a/x.ts': "import '../b/y.js';\nimport { Piscina } from 'piscina';\n",
      'src/b/y.ts': "import '../c/z.js';\n",
      'src/c/z.ts': "import '../a/x.js';\nimport('piscina');\n",
      'workers/w.ts': Array.from({ length: 10 }, (_, i) => `const v${i} = ${i};`).join('\n'),
    }),
  );
  t.is(r.status, 1);
  t.regex(r.stderr, /import cycle in src\/ between a\/, b\/, c\//);
  t.regex(r.stderr, /piscina is imported by 2 modules/);
  t.regex(r.stderr, /workers\/w\.ts has 10 lines of code/);
});
