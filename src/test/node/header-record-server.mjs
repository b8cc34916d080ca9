// Issue 16: an HTTP MCP upstream that writes down the headers of every request it receives, so a test can prove
// what the gateway forwards (an agent's OAuth bearer must never be among them: no token passthrough).
//   node header-record-server.mjs http <port> --record FILE
// Each request appends {"method","path","headers"} as one JSON line to FILE.
// Tools: whoami {} -> a text with a contact address (cloaked by a tenant with sanitize on).

import http from 'node:http';
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { main, parseArgs } from './lib/host.mjs';
import { serveTools } from './lib/tools.mjs';

const { options } = parseArgs(process.argv.slice(2));
if (!options.record) {
  process.stderr.write('[header-record] usage: header-record-server.mjs http <port> --record FILE\n');
  process.exit(2);
}
// lib/host.mjs builds its server with http.createServer: wrapped here, every request is recorded before it is served
const createServer = http.createServer;
http.createServer = (listener) => createServer((req, res) => {
  appendFileSync(options.record, JSON.stringify({ method: req.method, path: req.url, headers: req.headers }) + '\n');
  listener(req, res);
});

function create() {
  const server = new Server({ name: 'header-record', version: '1.0.0' }, { capabilities: { tools: {} } });
  serveTools(server, {
    whoami: {
      description: 'Says who runs this server.',
      inputSchema: { type: 'object', properties: {} },
      run: () => ({ content: [{ type: 'text', text: 'This server is run by ops.lead@example.org.' }] }),
    },
  });
  return server;
}

await main(() => create(), { tag: 'header-record' });
