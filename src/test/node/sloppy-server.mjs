#!/usr/bin/env node
// An MCP server over stdio that answers the way careless servers do, written without the SDK (which would not
// let it): a JSON-RPC error or a result that is a bare string, list requests that fail with personal values in
// the error, and members beside "error" that JSON-RPC does not define. Personal values sit where the cloak finds
// them whatever its PERSON model does: e-mail addresses, SSNs, and names under keys that name a person.
//
//   node sloppy-server.mjs
//
// Tools: string_error (error is a string), string_result (result is a string). prompts/list and resources/list
// fail with such values in message, data and a member beside error.

import readline from 'node:readline';

const EMAIL = 'marie.dubois@example-eu.fr';
const SSN = '123-45-6789';

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function answer(request) {
  const { id, method, params } = request;
  switch (method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {}, prompts: {}, resources: {} },
          serverInfo: { name: 'sloppy', version: '1.0.0' },
        },
      };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          tools: ['string_error', 'string_result'].map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
        },
      };
    case 'tools/call':
      if (params?.name === 'string_error') {
        return { jsonrpc: '2.0', id, error: `lookup failed for ${EMAIL}, SSN ${SSN}` };
      }
      if (params?.name === 'string_result') {
        return { jsonrpc: '2.0', id, result: `customer ${EMAIL}, SSN ${SSN}` };
      }
      return { jsonrpc: '2.0', id, error: { code: -32602, message: 'unknown tool' } };
    case 'prompts/list':
    case 'resources/list':
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32603,
          message: `${method} unavailable: the licence of ${EMAIL} (SSN ${SSN}) expired`,
          data: { owner: 'Marie Dubois', contact: EMAIL },
        },
        detail: { customer: 'James Okafor', ssn: SSN }, // beside error: JSON-RPC defines no such member
      };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined || message.method === undefined) return; // notifications, answers
  send(answer(message));
});
lines.on('close', () => process.exit(0));
