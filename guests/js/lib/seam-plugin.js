// The seam tool plugin kit for JavaScript (componentize-js).
//
// A plugin's app.js exports `tool = definePlugin([...tools], { fs, context })` (the seams it
// imports), which componentize-js exports as seam:tool/tool. The kit answers `describe`, checks
// arguments against each tool's schema (refusing bad ones with INVALID_ARGUMENTS before the tool
// runs), routes `invoke` by name and turns a thrown ToolError (or a seam error) into an error
// result carrying its code.
//
//   import * as context from 'seam:tool/context@0.1.0';
//   import * as fs from 'seam:fs/fs@0.1.0';
//   import { definePlugin } from './seam-plugin.js';
//   export const tool = definePlugin([{
//     name: 'hello',
//     description: 'Greet someone.',
//     schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
//     run: (args, ctx) => `hello ${args.name}`,
//   }], { fs, context });

export const INVALID_ARGUMENTS = 'INVALID_ARGUMENTS';
export const UNKNOWN_TOOL = 'UNKNOWN_TOOL';
// An exception the tool did not expect: the call fails, the plugin keeps serving.
export const PLUGIN_FAILED = 'PLUGIN_FAILED';
// The host's code for a component that reached its memory limit, as a Rust plugin's call gets it.
export const MEMORY_LIMIT = 'COMPONENT_MEMORY_LIMIT';

export class ToolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const JSON_TYPES = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  null: (v) => v === null,
};

// `path` with a leading `~` (alone, or before a `/`) replaced by the home directory, as the
// first-party tools do; `~name` and every other path stay as given, and so does a `~` path
// without the context seam or when the host knows no home.
function homeExpanded(path, context) {
  if (!context || !(path === '~' || path.startsWith('~/'))) return path;
  const home = context.home();
  if (home === undefined || home === null) return path;
  return path === '~' ? home : home.replace(/\/+$/, '') + path.slice(1);
}

// What a tool knows about its call. `readText` needs the fs seam passed to definePlugin, and
// expands `~` when the context seam is passed too.
class Context {
  constructor(call, seams) {
    this.sessionId = call.session.id;
    this.cwd = call.session.cwd;
    this.agent = call.session.agent;
    this.callId = call.callId;
    this.seams = seams;
  }

  // A whole UTF-8 text file, the path absolute, `~/…` in the home directory, or relative to the
  // session's working directory; larger than `maxBytes` (a number or a BigInt) fails FS_TOO_LARGE.
  readText(path, maxBytes) {
    const fs = this.seams.fs;
    if (!fs) throw new ToolError(PLUGIN_FAILED, 'readText needs definePlugin(tools, { fs })');
    const bound = maxBytes === undefined ? undefined : BigInt(maxBytes);
    const given = homeExpanded(path, this.seams.context);
    return fs.readText(fs.resolve(given, this.cwd), bound, this.sessionId).content;
  }
}

const textResult = (text) => ({ content: [{ tag: 'text', val: text }], isError: false, code: undefined });
const errorResult = (code, message) => ({ content: [{ tag: 'text', val: message }], isError: true, code });

// A result the host can take: `content` a list of text or image items, `isError` a boolean.
function isToolResult(value) {
  const item = (c) => (c?.tag === 'text' && typeof c.val === 'string')
    || (c?.tag === 'image' && typeof c.val?.data === 'string' && typeof c.val?.mimeType === 'string');
  return JSON_TYPES.object(value) && Array.isArray(value.content) && value.content.every(item) && typeof value.isError === 'boolean'
    && (value.code === undefined || value.code === null || typeof value.code === 'string');
}

function kindOf(value) {
  if (value instanceof Promise) return 'a Promise (tools run synchronously: do not use async)';
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}

function parseObject(text) {
  let value;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${error.message})`);
  }
  if (!JSON_TYPES.object(value)) throw new Error(`expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

// A field's `enum`, and `minimum` / `maximum` for a number.
function checkBounds(name, value, property) {
  if (Array.isArray(property.enum) && !property.enum.some((allowed) => allowed === value)) {
    throw new Error(`\`${name}\` must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (typeof value !== 'number') return;
  // JSON.parse rounds an integer past 2^53 to a neighbour: refused, never passed on changed.
  if (property.type === 'integer' && !Number.isSafeInteger(value)) {
    throw new Error(`\`${name}\` must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}: a JavaScript number holds no larger integer exactly`);
  }
  if (typeof property.minimum === 'number' && value < property.minimum) {
    throw new Error(`\`${name}\` must be at least ${property.minimum}`);
  }
  if (typeof property.maximum === 'number' && value > property.maximum) {
    throw new Error(`\`${name}\` must be at most ${property.maximum}`);
  }
}

// The schema's top level: required fields, unknown fields, each field's JSON type and bounds.
// Own properties only: `in` and `properties[name]` would also find what Object.prototype holds,
// so `toString` or `__proto__` would pass as known fields and satisfy `required`.
function checkArguments(args, schema) {
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(args, name)) throw new Error(`missing field \`${name}\``);
  }
  for (const [name, value] of Object.entries(args)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!property) {
      if (schema.additionalProperties === false) throw new Error(`unknown field \`${name}\``);
      continue;
    }
    const isType = Object.hasOwn(JSON_TYPES, property.type) ? JSON_TYPES[property.type] : undefined;
    if (isType && !isType(value)) throw new Error(`\`${name}\` must be of type ${property.type}`);
    checkBounds(name, value, property);
  }
}

// A seam error (a result's error record, thrown by the bindings) keeps its code. The engine
// throws the bare string 'out of memory' when an allocation fails at the memory limit.
function asErrorResult(name, error) {
  const record = error?.payload ?? error;
  if (typeof record?.code === 'string') return errorResult(record.code, record.message ?? String(record));
  if (error === 'out of memory' || error?.message === 'out of memory') {
    return errorResult(MEMORY_LIMIT, `${name} ran out of memory: the plugin's memory limit (memory_mb) was reached`);
  }
  return errorResult(PLUGIN_FAILED, `${name} failed: ${error}`);
}

const TOOL_KEYS = ['name', 'description', 'schema', 'run'];

// A definition the host could not describe or call fails here, when app.js loads (at build
// time), naming the tool and the field: later it would be an opaque trap in `describe`.
function checkDefinition(tool, index) {
  if (!JSON_TYPES.object(tool)) throw new Error(`tool ${index}: expected { ${TOOL_KEYS.join(', ')} }, got ${kindOf(tool)}`);
  const unknown = Object.keys(tool).filter((key) => !TOOL_KEYS.includes(key));
  const hint = unknown.length ? `; unknown key ${unknown.map((key) => `\`${key}\``).join(', ')} (a tool has ${TOOL_KEYS.join(', ')})` : '';
  const fail = (which, field, wanted, value) => new Error(`${which}: \`${field}\` must be ${wanted} (got ${kindOf(value)})${hint}`);
  if (typeof tool.name !== 'string' || tool.name === '') throw fail(`tool ${index}`, 'name', 'a non-empty string', tool.name);
  const which = `tool "${tool.name}"`;
  if (typeof tool.description !== 'string') throw fail(which, 'description', 'a string', tool.description);
  if (!JSON_TYPES.object(tool.schema)) throw fail(which, 'schema', 'an object', tool.schema);
  if (typeof tool.run !== 'function') throw fail(which, 'run', 'a function', tool.run);
}

export function definePlugin(tools, seams = {}) {
  if (!Array.isArray(tools)) throw new Error(`definePlugin takes an array of tools, got ${kindOf(tools)}`);
  tools.forEach(checkDefinition);
  const byName = new Map();
  for (const tool of tools) {
    // A second tool of a name would silently replace the first, and its checks with it.
    if (byName.has(tool.name)) throw new Error(`two tools named "${tool.name}": each tool of a plugin needs its own name`);
    byName.set(tool.name, tool);
  }
  return {
    describe() {
      return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: JSON.stringify(t.schema) }));
    },
    invoke(call) {
      const tool = byName.get(call.name);
      if (!tool) return errorResult(UNKNOWN_TOOL, `this plugin has no tool named "${call.name}" (tools: ${[...byName.keys()].join(', ')})`);
      let args;
      try {
        args = parseObject(call.arguments);
        checkArguments(args, tool.schema);
      } catch (error) {
        return errorResult(INVALID_ARGUMENTS, `invalid arguments: ${error.message}`);
      }
      try {
        const result = tool.run(args, new Context(call, seams));
        if (typeof result === 'string') return textResult(result);
        if (isToolResult(result)) return result;
        // Anything else cannot be handed to the host: the call would trap instead of failing.
        return errorResult(PLUGIN_FAILED, `${call.name} returned ${kindOf(result)}; a tool returns text (a string) or a result { content, isError, code }`);
      } catch (error) {
        return asErrorResult(call.name, error);
      }
    },
  };
}
