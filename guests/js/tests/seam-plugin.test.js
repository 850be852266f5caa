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

test('an integer a JavaScript number cannot hold exactly is refused, not rounded', () => {
  const wide = definePlugin([{ name: 't', description: 'd', schema: { type: 'object', properties: { id: { type: 'integer' } } }, run: (args) => String(args.id) }]);
  const text = (id) => ({ ...call('t', {}), arguments: `{"id": ${id}}` });
  const refused = wide.invoke(text('9007199254740993'));
  assert.equal(refused.code, 'INVALID_ARGUMENTS');
  assert.match(refused.content[0].val, /`id` must be between -9007199254740991 and 9007199254740991/);
  assert.equal(wide.invoke(text('-9007199254740993')).code, 'INVALID_ARGUMENTS');
  assert.equal(wide.invoke(text('9007199254740991')).content[0].val, '9007199254740991');
});

test('errors keep their code; anything else thrown is PLUGIN_FAILED', () => {
  assert.equal(invoke(() => { throw new ToolError('MY_CODE', 'no'); }).code, 'MY_CODE');
  const seamError = Object.assign(new Error('wrapped'), { payload: { code: 'FS_NOT_FOUND', message: 'gone' } });
  assert.deepEqual(invoke(() => { throw seamError; }).content, [{ tag: 'text', val: 'gone' }]);
  const bug = invoke(() => { throw new TypeError('oops'); });
  assert.equal(bug.code, 'PLUGIN_FAILED');
  assert.match(bug.content[0].val, /t failed: TypeError: oops/);
  assert.equal(plugin(() => 'x').invoke(call('other', {})).code, 'UNKNOWN_TOOL');
  // eslint-disable-next-line no-throw-literal -- what the engine throws when memory runs out
  assert.equal(invoke(() => { throw 'out of memory'; }).code, 'COMPONENT_MEMORY_LIMIT');
});

test('a tool definition missing or misspelling a field is refused by name when defined', () => {
  const run = () => 'x';
  for (const [tools, words] of [
    [[{ name: 't', description: 'd', run }], /tool "t": `schema` must be an object \(got undefined\)/],
    [[{ name: 't', description: 'd', inputSchema: schema, run }], /tool "t": `schema` must be an object.*unknown key `inputSchema`/],
    [[{ name: 't', description: 'd', schema: 'x', run }], /tool "t": `schema` must be an object \(got a string\)/],
    [[{ description: 'd', schema, run }], /tool 0: `name` must be a non-empty string/],
    [[{ name: 't', schema, run }], /tool "t": `description` must be a string/],
    [[{ name: 't', description: 'd', schema }], /tool "t": `run` must be a function/],
    [[{ name: 't', description: 'd', schema, run }, null], /tool 1: expected \{ name, description, schema, run \}/],
    [[{ name: 't', description: 'd', schema, run }, { name: 't', description: 'e', schema, run }], /two tools named "t"/],
  ]) {
    assert.throws(() => definePlugin(tools), words);
  }
  assert.throws(() => definePlugin({ name: 't' }), /definePlugin takes an array of tools/);
});

test('names Object.prototype holds are unknown fields, and only an own field is present', () => {
  let ran = false;
  const run = () => { ran = true; return 'ran'; };
  for (const text of ['{"n": 1, "toString": 1}', '{"n": 1, "__proto__": {}}', '{"n": 1, "constructor": 1}']) {
    const result = plugin(run).invoke({ ...call('t', {}), arguments: text });
    assert.equal(result.code, 'INVALID_ARGUMENTS', text);
    assert.match(result.content[0].val, /unknown field/, text);
  }
  const inherited = { type: 'object', properties: { toString: { type: 'string' } }, required: ['toString'] };
  const result = definePlugin([{ name: 't', description: 'd', schema: inherited, run }]).invoke(call('t', {}));
  assert.equal(result.code, 'INVALID_ARGUMENTS');
  assert.match(result.content[0].val, /missing field `toString`/);
  assert.equal(ran, false);
});
