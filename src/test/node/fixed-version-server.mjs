#!/usr/bin/env node
// A deliberately minimal stdio MCP server that answers initialize with a FIXED protocol version, whatever the
// client asked for. The gateway must refuse to bridge it with an upstream that negotiated another version.
//
//   node fixed-version-server.mjs <protocolVersion>
import { createInterface } from 'node:readline';

const version = process.argv[2] ?? '2024-11-05';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: version, capabilities: { tools: {} },
      serverInfo: { name: 'fixed-version', version: '1.0.0' } } });
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools: [] } });
  } else {
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
