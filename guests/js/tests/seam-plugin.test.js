// The kit's own logic, run by node: routing, argument checks, and what a tool's return or
// throw becomes. The bindings are not involved: definePlugin takes the seams as arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definePlugin, ToolError } from '../lib/seam-plugin.js';

const schema = {
  type: 'object',
  properties: { n: { type: 'integer', minimum: 1, maximum: 6 }, mode: { type: 'string', enum: ['fast', 'slow'] } },
  required: ['n'],
  additionalProperties: false,
};
const call = (name, args) => ({ name, arguments: JSON.stringify(args), session: { id: 's', cwd: '/', agent: 'a' }, callId: 'c' });
const plugin = (run) => definePlugin([{ name: 't', description: 'd', schema, run }]);
const invoke = (run, args = { n: 1 }) => plugin(run).invoke(call('t', args));

test('a string becomes a text result and a result passes as it is', () => {
  assert.deepEqual(invoke((args) => `n=${args.n}`), { content: [{ tag: 'text', val: 'n=1' }], isError: false, code: undefined });
  const image = { content: [{ tag: 'image', val: { data: 'AA==', mimeType: 'image/png' } }], isError: false, code: null };
  assert.equal(invoke(() => image), image);
});

test('a return the host cannot take fails the call instead of trapping', () => {
  for (const [value, words] of [
    [undefined, 'returned undefined'],
    [null, 'returned null'],
    [42, 'returned a number'],
    [['a'], 'returned an array'],
    [{ text: 'x' }, 'returned an object'],
    [Promise.resolve('x'), 'a Promise'],
    [{ content: [{ tag: 'text', val: 1 }], isError: false }, 'returned an object'],
  ]) {
    const result = invoke(() => value);
    assert.equal(result.isError, true);
    assert.equal(result.code, 'PLUGIN_FAILED');
    assert.match(result.content[0].val, new RegExp(words.replace(/[()]/g, '\\$&')), String(value));
  }
});

test('bad arguments are refused before the tool runs', () => {
  let ran = false;
  const run = () => { ran = true; return 'ran'; };
  for (const args of [{}, { n: 'x' }, { n: 1, extra: true }, { n: 0 }, { n: 7 }, { n: 1, mode: 'medium' }]) {
    assert.equal(invoke(run, args).code, 'INVALID_ARGUMENTS', JSON.stringify(args));
  }
  assert.equal(plugin(run).invoke({ ...call('t', {}), arguments: '[1]' }).code, 'INVALID_ARGUMENTS');
  assert.equal(ran, false);
  assert.equal(invoke(run, { n: 6, mode: 'slow' }).isError, false);
  assert.equal(ran, true);
});

test('errors keep their code; anything else thrown is PLUGIN_FAILED', () => {
  assert.equal(invoke(() => { throw new ToolError('MY_CODE', 'no'); }).code, 'MY_CODE');
  const seamError = Object.assign(new Error('wrapped'), { payload: { code: 'FS_NOT_FOUND', message: 'gone' } });
  assert.deepEqual(invoke(() => { throw seamError; }).content, [{ tag: 'text', val: 'gone' }]);
  const bug = invoke(() => { throw new TypeError('oops'); });
  assert.equal(bug.code, 'PLUGIN_FAILED');
  assert.match(bug.content[0].val, /t failed: TypeError: oops/);
  assert.equal(plugin(() => 'x').invoke(call('other', {})).code, 'UNKNOWN_TOOL');
});
