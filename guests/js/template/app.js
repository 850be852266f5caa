// A seam tool plugin: `line_count` counts the lines of a text file read through the fs seam.
//
// Build: guests/js/build guests/js/template target/plugins/my_plugin.wasm

import * as context from 'seam:tool/context@0.1.0';
import * as fs from 'seam:fs/fs@0.1.0';
import { definePlugin } from './seam-plugin.js';

export const tool = definePlugin(
  [
    {
      name: 'line_count',
      description: 'Count the lines of a text file.',
      schema: {
        type: 'object',
        properties: { path: { type: 'string', description: "Absolute, `~/…`, or relative to the session's cwd." } },
        required: ['path'],
        additionalProperties: false,
      },
      run: (args, ctx) => String(ctx.readText(args.path).split('\n').length - 1),
    },
  ],
  { fs, context },
);
