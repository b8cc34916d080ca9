#!/usr/bin/env node
// A stateless stdio MCP server for the gateway's shared mode ("shared": true, issue 10): one process may serve
// many gateway sessions, so it keeps nothing between calls. Tests tell processes apart by the pid it reports and
// prove what reached it from the record file, not from what the gateway answers.
//
//   node stateless-server.mjs stdio [--record FILE]
//
// Tools: whoami (its pid), echo {text} (appends {"pid","text"} to FILE, returns the text), wait {ms} (sleeps,
// with progress every 100 ms when the call carries a progressToken), exit (exits with code 3 at once).

import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { logErr, parseArgs, runStdio } from './lib/host.mjs';

const TAG = 'stateless-server';
const { options } = parseArgs(process.argv.slice(2));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function createServer() {
  const server = new Server({ name: 'stateless', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = [
    { name: 'whoami', description: 'The pid of this process', inputSchema: { type: 'object', properties: {} } },
    {
      name: 'echo',
      description: 'Records and returns its text argument',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    {
      name: 'wait',
      description: 'Waits ms milliseconds, reporting progress when asked',
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
    },
    { name: 'exit', description: 'Exits the process with code 3', inputSchema: { type: 'object', properties: {} } },
  ];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'whoami':
        return text(`pid=${process.pid}`);
      case 'echo': {
        if (typeof args.text !== 'string') throw Object.assign(new Error('text (string) is required'), { code: ErrorCode.InvalidParams });
        if (options.record) fs.appendFileSync(options.record, JSON.stringify({ pid: process.pid, text: args.text }) + '\n');
        return text(args.text);
      }
      case 'wait': {
        const ms = Number(args.ms) || 0;
        const token = request.params._meta?.progressToken;
        for (let done = 0; done < ms; done += 100) {
          if (token !== undefined) {
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total: ms } });
          }
          await sleep(Math.min(100, ms - done));
        }
        return text(`waited ${ms} ms`);
      }
      case 'exit':
        logErr(TAG, 'exit tool called, exiting with code 3');
        process.exit(3);
        return text('unreachable');
      default:
        throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
    }
  });
  return server;
}

await runStdio(createServer, TAG);
