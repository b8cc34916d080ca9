#!/usr/bin/env node
// A stdio MCP server with side effects, for the action gate (issue 11). It keeps its own record of every effect in
// a file, so a test proves what reached it (once, twice, never) from the record, not from the gateway's answer.
//
//   node actions-server.mjs stdio --record FILE [--name NAME]
//
// Tools: pay_invoice {invoice, amount, currency} (appends {"tool","args"} to FILE, returns a receipt naming the
// payee's e-mail so a result has something to cloak), crm_patch {tenant, record, patch} (appends, returns "patched"),
// delete_record {record} (destructiveHint: appends, returns "deleted"), hang_pay {invoice} (appends, then never
// answers: the test kills the process mid-call), fail_pay {invoice} (appends, answers isError: true), whoami.
// The server's name is NAME (default "actions"), so a release can bind it (spec.mcpServers).

import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs, runStdio } from './lib/host.mjs';

const TAG = 'actions-server';
const { options } = parseArgs(process.argv.slice(2));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const record = (tool, args) => {
  if (options.record) fs.appendFileSync(options.record, JSON.stringify({ tool, args, pid: process.pid }) + '\n');
};
const obj = (properties, required) => ({ type: 'object', properties, required });

function createServer() {
  const server = new Server({ name: options.name ?? 'actions', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = [
    {
      name: 'pay_invoice',
      description: 'Pays an invoice',
      inputSchema: obj({ invoice: { type: 'string' }, amount: { type: 'number' }, currency: { type: 'string' } }, ['invoice', 'amount']),
    },
    {
      name: 'crm_patch',
      description: 'Patches a CRM record',
      inputSchema: obj({ tenant: { type: 'string' }, record: { type: 'string' }, patch: { type: 'object' } }, ['tenant', 'record', 'patch']),
    },
    {
      name: 'delete_record',
      description: 'Deletes a record',
      inputSchema: obj({ record: { type: 'string' } }, ['record']),
      annotations: { destructiveHint: true },
    },
    { name: 'hang_pay', description: 'Starts a payment and never answers', inputSchema: obj({ invoice: { type: 'string' } }, ['invoice']) },
    { name: 'fail_pay', description: 'A payment the server refuses', inputSchema: obj({ invoice: { type: 'string' } }, ['invoice']) },
    { name: 'whoami', description: 'The pid of this process', inputSchema: obj({}, []) },
  ];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    const name = request.params.name;
    switch (name) {
      case 'pay_invoice':
        record(name, args);
        return text(`paid ${args.invoice}: ${args.amount} ${args.currency ?? 'EUR'}; receipt sent to payee.ledger@example-pay.com`);
      case 'crm_patch':
        record(name, args);
        return text(`patched ${args.record}`);
      case 'delete_record':
        record(name, args);
        return text(`deleted ${args.record}`);
      case 'hang_pay':
        record(name, args);
        return new Promise(() => {}); // never answers: the process is killed mid-call
      case 'fail_pay':
        record(name, args);
        return { isError: true, content: [{ type: 'text', text: `invoice ${args.invoice} is closed` }] };
      case 'whoami':
        return text(`pid=${process.pid}`);
      default:
        throw Object.assign(new Error(`Unknown tool: ${name}`), { code: ErrorCode.InvalidParams });
    }
  });
  return server;
}

await runStdio(createServer, TAG);
