#!/usr/bin/env node
// An MCP server for the metrics test (issue 10): its tool names, descriptions, results, error messages and
// stderr all carry PLANT, so the test can check that none of it reaches a metric label.
//
//   node metrics-plant-server.mjs stdio --plant PLANT      (PLANT: [a-z0-9_], it is part of tool names)
//
// Tools:
//   PLANT_echo  {text: string} -> "PLANT saw <text>; write to ana.PLANT@example.com" (an e-mail to cloak)
//   PLANT_fail  {}             -> a JSON-RPC error whose message carries PLANT
//   PLANT_crash {}             -> the process exits (status 3) without answering

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { logErr, main } from './lib/host.mjs';
import { serveTools } from './lib/tools.mjs';

const text = (t) => ({ type: 'text', text: t });

function createServer(options) {
  const plant = options.plant;
  if (!plant || !/^[a-z0-9_]+$/.test(plant)) throw new Error('--plant [a-z0-9_]+ is required');
  const server = new Server({ name: `metrics-${plant}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  serveTools(server, {
    [`${plant}_echo`]: {
      description: `Echoes its text (${plant}).`,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      run: (a) => {
        logErr('metrics-plant-server', `${plant} echo of ${a.text}`);
        return { content: [text(`${plant} saw ${a.text}; write to ana.${plant}@example.com`)] };
      },
    },
    [`${plant}_fail`]: {
      description: `Always fails (${plant}).`,
      inputSchema: { type: 'object', properties: {} },
      run: () => {
        const err = new Error(`${plant} failed on purpose`);
        err.code = -32000;
        throw err;
      },
    },
    [`${plant}_crash`]: {
      description: `Exits without answering (${plant}).`,
      inputSchema: { type: 'object', properties: {} },
      run: () => {
        logErr('metrics-plant-server', `${plant} exiting`);
        process.exit(3);
      },
    },
  });
  return server;
}

await main((options) => createServer(options), { tag: 'metrics-plant-server' });
