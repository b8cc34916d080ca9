#!/usr/bin/env node
// An MCP server that sends too much: results larger than the gateway accepts, floods of notifications, calls
// that never end. For the transport-limit tests.
//
//   node heavy-server.mjs stdio --name NAME
//   node heavy-server.mjs http <port> --name NAME
//
// Tools:
//   echo  {text}                 -> "NAME:<text>"
//   huge  {bytes, pii?}          -> one text block of exactly `bytes` characters (ASCII): "x" repeated, or with
//                                   pii: true a sentence carrying a name, an e-mail and a phone number, repeated
//   hang  {}                     -> never answers
//   flood {count, bytes}         -> answers "flooding", then sends `count` notifications/message (level info,
//                                   logger NAME) whose data is a string of `bytes` characters; they belong to no
//                                   request (over HTTP: on the GET stream)
// Capabilities: tools, logging.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { main } from './lib/host.mjs';

const TAG = 'heavy-server';
const text = (t) => ({ type: 'text', text: t });
const SENTENCE = 'Call Marie Dubois at +33 6 12 34 56 78 or write to marie.dubois@example-eu.fr about order 4242. ';

function filled(bytes, pii) {
  if (!pii) return 'x'.repeat(bytes);
  return SENTENCE.repeat(Math.ceil(bytes / SENTENCE.length)).slice(0, bytes);
}

function intArg(args, key, fallback) {
  const v = args?.[key];
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 0) {
    const err = new Error(`argument "${key}" must be a non-negative integer`);
    err.code = ErrorCode.InvalidParams;
    throw err;
  }
  return v;
}

function createServer(options) {
  const name = options.name ?? 'heavy';
  const server = new Server({ name: `heavy-${name}`, version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });

  const tools = {
    echo: {
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      run: async (a) => ({ content: [text(`${name}:${a.text}`)] }),
    },
    huge: {
      inputSchema: { type: 'object', properties: { bytes: { type: 'integer' }, pii: { type: 'boolean' } }, required: ['bytes'] },
      run: async (a) => ({ content: [text(filled(intArg(a, 'bytes', 0), a.pii === true))] }),
    },
    hang: {
      inputSchema: { type: 'object', properties: {} },
      run: () => new Promise(() => {}),
    },
    flood: {
      inputSchema: { type: 'object', properties: { count: { type: 'integer' }, bytes: { type: 'integer' } } },
      run: async (a) => {
        const count = intArg(a, 'count', 100);
        const data = 'f'.repeat(intArg(a, 'bytes', 65536));
        // after the answer has gone, so that the notifications belong to no request
        setTimeout(async () => {
          for (let i = 0; i < count; i++) {
            try {
              await server.notification({ method: 'notifications/message', params: { level: 'info', logger: name, data } });
            } catch {
              return; // the transport closed
            }
          }
        }, 50);
        return { content: [text('flooding')] };
      },
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([n, t]) => ({ name: n, description: `${n} (heavy-server)`, inputSchema: t.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools[request.params.name];
    if (!tool) {
      const err = new Error(`Unknown tool: ${request.params.name}`);
      err.code = ErrorCode.InvalidParams;
      throw err;
    }
    return tool.run(request.params.arguments ?? {});
  });
  return server;
}

await main((options) => createServer(options), { tag: TAG });
