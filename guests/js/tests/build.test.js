// The build script's own checks, which run before anything is installed or compiled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const kit = new URL('..', import.meta.url).pathname;

test('a syntax error in the plugin fails the build naming its file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'seam-js-kit-'));
  try {
    cpSync(join(kit, 'template'), dir, { recursive: true });
    writeFileSync(join(dir, 'helper.js'), 'export const ok = 1;\nexport const broken = (;\n');
    const build = spawnSync(join(kit, 'build'), [dir, join(dir, 'out.wasm')], { encoding: 'utf8' });
    assert.notEqual(build.status, 0);
    assert.match(build.stderr, new RegExp(`${join(dir, 'helper.js')}:2\\n`));
    assert.match(build.stderr, /SyntaxError: Unexpected token ';'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
