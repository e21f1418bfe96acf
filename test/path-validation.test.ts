import test from 'ava';
import { isPathWithinRoot, isPathWithinRoots } from '../src/mcp/path-validation.js';

test('a root holds itself and what lies under it', (t) => {
  t.true(isPathWithinRoot('/work', '/work'));
  t.true(isPathWithinRoot('/work/', '/work'));
  t.true(isPathWithinRoot('/work/a/b.log', '/work'));
  t.true(isPathWithinRoot('/work/a/b.log', '/work/'));
  t.true(isPathWithinRoot('/work/a/./b.log', '/work'));
});

test('a sibling that shares a prefix is outside: /work does not hold /workshop', (t) => {
  t.false(isPathWithinRoot('/workshop', '/work'));
  t.false(isPathWithinRoot('/workshop/secret', '/work'));
  t.false(isPathWithinRoot('/wor', '/work'));
});

test('.. is resolved before the comparison: it cannot climb out of a root', (t) => {
  t.false(isPathWithinRoot('/work/../etc/shadow', '/work'));
  t.false(isPathWithinRoot('/work/a/../../etc', '/work'));
  t.true(isPathWithinRoot('/work/a/../b', '/work'));
  t.false(isPathWithinRoot('/etc/passwd', '/work/../work/sub'));
});

test('relative paths, relative roots and NUL bytes are never inside', (t) => {
  t.false(isPathWithinRoot('work/a', '/work'));
  t.false(isPathWithinRoot('/work/a', 'work'));
  t.false(isPathWithinRoot('/work/a\0/b', '/work'));
  t.false(isPathWithinRoot('', '/work'));
});

test('the file system root holds every absolute path; several roots: any one', (t) => {
  t.true(isPathWithinRoot('/etc/passwd', '/'));
  t.true(isPathWithinRoot('/', '/'));
  t.true(isPathWithinRoots('/b/x', ['/a', '/b']));
  t.false(isPathWithinRoots('/c/x', ['/a', '/b']));
  t.false(isPathWithinRoots('/a', []));
});
