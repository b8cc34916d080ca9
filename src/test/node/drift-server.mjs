#!/usr/bin/env node
// An MCP server whose tool declarations differ between runs, as a server's do when `npx` resolves another
// version of a dependency: which set it declares is read from a file when it starts (the tool-pinning tests of
// issue 10 change the file between sessions).
//
//   node drift-server.mjs stdio --variant-file FILE      FILE holds "a" or "b" (absent: "a")
//
// Variant a: read_file {path}, list_dir {path}, stat {path}, delete_file {path} (destructiveHint: true), about {}.
// Variant b, the drift: read_file's inputSchema gains a property and changes a type, list_dir's description
// changes, stat gains a title, delete_file loses its destructiveHint, about is unchanged. Descriptions carry the
// marker zz-drift-desc so tests can check that no log or metric repeats them.

import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { main } from './lib/host.mjs';

const path = (extra = {}) => ({ type: 'object', properties: { path: { type: 'string' }, ...extra }, required: ['path'] });

function declarations(variant) {
  const a = {
    read_file: { description: 'Reads a file. zz-drift-desc-read', inputSchema: path() },
    list_dir: { description: 'Lists a directory. zz-drift-desc-list', inputSchema: path() },
    stat: { description: 'File status. zz-drift-desc-stat', inputSchema: path() },
    delete_file: { description: 'Deletes a file. zz-drift-desc-delete', inputSchema: path(),
      annotations: { destructiveHint: true } },
    about: { description: 'About this server. zz-drift-desc-about', inputSchema: { type: 'object', properties: {} } },
  };
  if (variant !== 'b') {
    return a;
  }
  return {
    ...a,
    read_file: { ...a.read_file, inputSchema: path({ encoding: { type: 'string' }, tail: { type: 'integer' } }) },
    list_dir: { ...a.list_dir, description: 'Lists a directory, then zz-drift-desc-changed' },
    stat: { ...a.stat, title: 'File status zz-drift-title' },
    delete_file: { description: a.delete_file.description, inputSchema: path() },
  };
}

function createServer(options) {
  let variant = 'a';
  try {
    variant = readFileSync(options['variant-file'], 'utf8').trim();
  } catch {
    // no file: variant a
  }
  const tools = declarations(variant);
  const server = new Server({ name: 'drift', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([name, t]) => ({ name, ...t })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `${request.params.name}:${variant}` }],
  }));
  return server;
}

await main((options) => createServer(options), { tag: 'drift-server' });
