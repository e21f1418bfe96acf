#!/usr/bin/env node
/**
 * The layering of src/, checked. Within every folder (src itself included), each of its
 * subfolders taken whole and each of its own files is a node, an import from one to
 * another an edge, and the graph must be free of cycles: no folder imports another that
 * imports it back, however far round, and a subfolder may use its parent's own modules
 * but not one that leads back into it (a stage that imports its orchestrator). Type-only
 * imports count: naming a module's types is depending on it.
 * Also: one module imports piscina, src/ never imports from workers/, and each worker file
 * is a thin shim over a task in src/.
 *
 *   node scripts/check-layers.mjs [ROOT]   # prints the layers, top first; exit 1 on a violation
 *
 * Run by `npm run lint`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository checked: this one, or another given as the first argument (the test of this script uses one). */
const ROOT = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.[cm]?ts$/.test(p) ? [p] : [];
  });
const rel = (p) => relative(ROOT, p).split('\\').join('/');

/** Every module specifier in a file: static imports and re-exports, bare imports, import(). */
function specifiers(text) {
  const patterns = [/\b(?:import|export)\s[^;'"]*?\sfrom\s+'([^']+)'/g, /\bimport\s+'([^']+)'/g, /\bimport\(\s*'([^']+)'\s*\)/g];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

/** Strongly connected components (Tarjan's): each one of two or more nodes is a cycle. */
function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) found.push(scc.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The nodes in layers, top first: each imports only from the layers below it. */
function layers(graph) {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])])].sort();
  const depth = new Map();
  const depthOf = (v) => {
    if (!depth.has(v)) depth.set(v, Math.max(-1, ...[...(graph.get(v)?.keys() ?? [])].map(depthOf)) + 1);
    return depth.get(v);
  };
  const rows = [];
  for (const v of nodes) (rows[depthOf(v)] ??= []).push(v);
  return rows.map((r, i) => `  ${i}: ${r.join(' ')}`).reverse();
}

const problems = [];
const files = walk(join(ROOT, 'src')).map(rel);
const imports = [];
const piscinaUsers = new Set();
for (const file of files) {
  for (const spec of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
    if (spec === 'piscina') piscinaUsers.add(file);
    if (!spec.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    if (target.startsWith('src/')) imports.push({ from: file, to: target, spec });
    else problems.push(`${file} imports ${spec}: src/ imports nothing outside it (a worker file imports its task from src/, not the reverse)`);
  }
}
if (piscinaUsers.size !== 1) problems.push(`piscina is imported by ${piscinaUsers.size} modules (${[...piscinaUsers].join(', ')}): one module owns the pool`);

const folders = [...new Set(files.flatMap((f) => posix.dirname(f).split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))))].sort();
const graphs = new Map();
for (const folder of folders) {
  const nodeOf = (file) => {
    if (!file.startsWith(`${folder}/`)) return undefined;
    const rest = file.slice(folder.length + 1).split('/');
    return rest.length === 1 ? rest[0] : `${rest[0]}/`;
  };
  const graph = new Map();
  for (const { from, to, spec } of imports) {
    const a = nodeOf(from);
    const b = nodeOf(to);
    if (a === undefined || b === undefined || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.get(a).has(b)) graph.get(a).set(b, `${from} -> ${spec}`);
  }
  graphs.set(folder, graph);
  for (const scc of cycles(graph)) {
    const inside = new Set(scc);
    const why = scc.flatMap((a) => [...(graph.get(a) ?? new Map())].filter(([b]) => inside.has(b)).map(([, e]) => `    ${e}`));
    problems.push(`import cycle in ${folder}/ between ${scc.join(', ')}:\n${why.join('\n')}`);
  }
}

// Worker files: a few lines that import their task from src/ and nothing else of the repo.
for (const file of (existsSync(join(ROOT, 'workers')) ? walk(join(ROOT, 'workers')) : []).map(rel)) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
  if (code.length > 6) problems.push(`${file} has ${code.length} lines of code: a worker file is a thin shim over a task in src/`);
  for (const spec of specifiers(text)) {
    if (spec.startsWith('.') && !posix.normalize(posix.join(posix.dirname(file), spec)).startsWith('src/')) problems.push(`${file} imports ${spec}: a worker imports its task from src/ only`);
  }
}

if (problems.length > 0) {
  console.error(`check-layers: ${problems.length} problems\n${problems.join('\n')}`);
  process.exit(1);
}
const edges = [...graphs.values()].reduce((n, g) => n + [...g.values()].reduce((k, m) => k + m.size, 0), 0);
console.log(`check-layers: no import cycles in src/ or any of its ${folders.length - 1} folders (${imports.length} imports, ${edges} edges between folders and files); piscina imported by ${[...piscinaUsers][0]} only; worker files are shims`);
for (const folder of ['src', 'src/log'].filter((f) => graphs.has(f))) {
  console.log(`${folder}/ in layers, top first, each importing only from those below it:`);
  console.log(layers(graphs.get(folder)).join('\n'));
}
