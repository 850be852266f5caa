// `markdown_outline`: the headings of a Markdown file read through the fs seam, with their line
// numbers (the world file must grant this plugin `fs`).

import * as context from 'seam:tool/context@0.1.0';
import * as fs from 'seam:fs/fs@0.1.0';
import { definePlugin } from './seam-plugin.js';

// Larger files are refused (FS_TOO_LARGE) rather than read whole.
const MAX_BYTES = 16 << 20;

function outline(text, maxLevel) {
  const lines = [];
  let fence = null;
  text.split('\n').forEach((line, index) => {
    const opener = line.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (opener) {
      // A fence closes only with the same character, at least as long.
      if (fence === null) fence = opener[1];
      else if (opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
      return;
    }
    const heading = fence === null && line.match(/^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (heading && heading[1].length <= maxLevel) {
      lines.push(`${index + 1}: ${'  '.repeat(heading[1].length - 1)}${heading[2]}`);
    }
  });
  return lines.length ? lines.join('\n') : 'no headings';
}

export const tool = definePlugin(
  [
    {
      name: 'markdown_outline',
      description: 'List the headings of a Markdown file, indented by level, each with its line number.',
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: "The file: absolute, `~/…` in the home directory, or relative to the session's working directory." },
          max_level: { type: 'integer', minimum: 1, maximum: 6, description: 'Deepest heading level shown (default 6).' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      run: (args, ctx) => outline(ctx.readText(args.path, MAX_BYTES), args.max_level ?? 6),
    },
  ],
  { fs, context },
);
