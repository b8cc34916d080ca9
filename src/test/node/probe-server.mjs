#!/usr/bin/env node
// A small, configurable MCP server for cloakgate's own tests. Every tool result, prompt and
// resource carries NAME, so a test that fronts two instances can tell which one answered.
//
//   node probe-server.mjs stdio --name NAME
//   node probe-server.mjs http <port> --name NAME [--retry-ms N] [--strict-version-header]
//
// NAME is used verbatim inside URIs (probe://NAME/doc): keep it to [a-z0-9-].
// Built on the SDK's low-level `Server`, so tool names and schemas are exactly as written here.
// See README.md for the full list of tools, prompts and resources.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { logErr, main } from './lib/host.mjs';

const TAG = 'probe-server';

// Process-wide records (shared by all HTTP sessions), so a test can check that something reached
// this process whichever upstream session the gateway used.
const cancelledRequestIds = []; // ids of requests the client cancelled while slow/hang ran
const subscriptions = new Set(); // resource URIs currently subscribed to

const GREET_NAMES = ['alice', 'alan', 'albert', 'bob', 'bobby', 'carol', 'dave'];
const PAGE_SIZE = 2;

// A JSON-RPC error whose message goes on the wire exactly as given (McpError would prefix
// "MCP error <code>: " to it).
function rpcError(code, message, data) {
  const err = new Error(message);
  err.code = code;
  if (data !== undefined) err.data = data;
  return err;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t) => ({ type: 'text', text: t });

function stringArg(args, key, { required = true } = {}) {
  const value = args?.[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') throw rpcError(ErrorCode.InvalidParams, `argument "${key}" (string) is required`);
  return value;
}

// Record the request id if the client cancels it (notifications/cancelled). The SDK then
// aborts extra.signal and drops whatever the handler returns.
function recordCancellation(extra) {
  extra.signal.addEventListener('abort', () => cancelledRequestIds.push(extra.requestId), { once: true });
}

function buildTools(name, server) {
  return {
    echo: {
      description: `Returns its text argument prefixed with "${name}:"`,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      run: async (args) => ({ content: [text(`${name}:${stringArg(args, 'text')}`)] }),
    },

    read__all: {
      description: 'A tool whose own name contains "__"',
      inputSchema: { type: 'object', properties: {} },
      run: async () => ({ content: [text(`${name} read__all`)] }),
    },

    slow: {
      description: 'Waits ms milliseconds; progress every 100 ms when a progressToken is given; can be cancelled',
      inputSchema: {
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0, description: 'How long to wait (default 1000)' } },
      },
      run: async (args, extra) => {
        const ms = Number.isInteger(args.ms) && args.ms >= 0 ? args.ms : 1000;
        recordCancellation(extra);
        const token = extra._meta?.progressToken;
        const started = Date.now();
        while (!extra.signal.aborted) {
          const elapsed = Date.now() - started;
          if (elapsed >= ms) break;
          await sleep(Math.min(100, ms - elapsed));
          if (token !== undefined && !extra.signal.aborted) {
            const done = Math.min(Date.now() - started, ms);
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: done, total: ms, message: `${name} waited ${done} of ${ms} ms` },
            });
          }
        }
        return { content: [text(`${name} slept ${ms} ms`)] };
      },
    },

    cancellations: {
      description: 'Returns, as JSON text, the ids of the requests cancelled so far in this process',
      inputSchema: { type: 'object', properties: {} },
      run: async () => ({ content: [text(JSON.stringify(cancelledRequestIds))] }),
    },

    subscriptions: {
      description: 'Returns, as JSON text, the resource URIs currently subscribed to in this process',
      inputSchema: { type: 'object', properties: {} },
      run: async () => ({ content: [text(JSON.stringify([...subscriptions].sort()))] }),
    },

    exit: {
      description: 'Exits the process with code 3 without answering (a crash mid-call)',
      inputSchema: { type: 'object', properties: {} },
      run: async () => {
        logErr(TAG, `${name}: exit tool called, exiting with code 3`);
        // Writes to a pipe are asynchronous: let the answers already written (to other requests)
        // reach the client first, then die without answering this one.
        process.stdout.write('', () => process.exit(3));
        return new Promise(() => {});
      },
    },

    hang: {
      description: 'Never answers (honours cancellation)',
      inputSchema: { type: 'object', properties: {} },
      run: (_args, extra) => {
        recordCancellation(extra);
        return new Promise(() => {});
      },
    },

    fail: {
      description: 'Answers with a JSON-RPC error -32000 "<NAME> failed: <text>"',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      run: async (args) => {
        throw rpcError(-32000, `${name} failed: ${stringArg(args, 'text', { required: false }) ?? ''}`);
      },
    },

    ask_sampling: {
      description: 'Asks the client to sample a reply to prompt (sampling/createMessage); returns the reply text',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      run: async (args, extra) => {
        const prompt = stringArg(args, 'prompt');
        if (!server.getClientCapabilities()?.sampling) {
          return { isError: true, content: [text(`${name}: the client does not support sampling`)] };
        }
        // Tied to this call: over HTTP it travels on the call's own SSE stream.
        const result = await extra.sendRequest(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: text(prompt) }], maxTokens: 100 },
          },
          CreateMessageResultSchema,
        );
        const parts = Array.isArray(result.content) ? result.content : [result.content];
        return { content: [text(parts.filter((p) => p?.type === 'text').map((p) => p.text).join('\n'))] };
      },
    },

    ask_elicitation: {
      description: 'Asks the client to fill a small form (elicitation/create); returns the answer as JSON text',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
      run: async (args, extra) => {
        if (!server.getClientCapabilities()?.elicitation) {
          return { isError: true, content: [text(`${name}: the client does not support elicitation`)] };
        }
        const result = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: stringArg(args, 'message', { required: false }) ?? `${name} would like to know a few things`,
              requestedSchema: {
                type: 'object',
                properties: {
                  nickname: { type: 'string', description: 'What to call you' },
                  age: { type: 'integer', minimum: 0, description: 'Your age' },
                  newsletter: { type: 'boolean', description: 'Subscribe to the newsletter', default: false },
                },
                required: ['nickname'],
              },
            },
          },
          ElicitResultSchema,
        );
        const { action, content } = result;
        return { content: [text(JSON.stringify(content === undefined ? { action } : { action, content }))] };
      },
    },

    log: {
      description: 'Sends an info log notification "<NAME>: <text>" (on the GET stream if standalone)',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, standalone: { type: 'boolean' } },
        required: ['text'],
      },
      run: async (args, extra) => {
        const message = `${name}: ${stringArg(args, 'text')}`;
        if (!server.isMessageIgnored('info', extra.sessionId)) {
          await notify(server, extra, args.standalone === true, {
            method: 'notifications/message',
            params: { level: 'info', logger: name, data: message },
          });
        }
        return { content: [text(`${name} logged`)] };
      },
    },

    touch: {
      description: `Sends resources/updated for probe://${name}/doc, resources/list_changed and tools/list_changed`,
      inputSchema: { type: 'object', properties: { standalone: { type: 'boolean' } } },
      run: async (args, extra) => {
        const standalone = args.standalone === true;
        await notify(server, extra, standalone, {
          method: 'notifications/resources/updated',
          params: { uri: `probe://${name}/doc` },
        });
        await notify(server, extra, standalone, { method: 'notifications/resources/list_changed' });
        await notify(server, extra, standalone, { method: 'notifications/tools/list_changed' });
        return { content: [text(`${name} touched`)] };
      },
    },
  };
}

// By default a notification is tied to the current request (over HTTP: sent on its SSE stream,
// before the result). standalone: not tied to any request (over HTTP: the GET stream).
function notify(server, extra, standalone, notification) {
  return standalone ? server.notification(notification) : extra.sendNotification(notification);
}

function createServer(options) {
  const name = options.name ?? 'probe';
  const server = new Server(
    { name: `probe-${name}`, version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {}, // the SDK answers logging/setLevel and remembers the level per session
        completions: {},
      },
      instructions: `Probe server ${name} for cloakgate tests.`,
    },
  );
  const tools = buildTools(name, server);
  const resources = [
    { uri: `probe://${name}/doc`, name: `${name}-doc`, description: `The document of ${name}`, mimeType: 'text/plain', text: `doc of ${name}` },
    { uri: `probe://${name}/a`, name: `${name}-a`, description: `Resource a of ${name}`, mimeType: 'text/plain', text: `a of ${name}` },
    { uri: `probe://${name}/b`, name: `${name}-b`, description: `Resource b of ${name}`, mimeType: 'text/plain', text: `b of ${name}` },
  ];
  const itemUri = new RegExp(`^probe://${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/items/([^/]+)$`);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([toolName, t]) => ({ name: toolName, description: t.description, inputSchema: t.inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools[request.params.name];
    if (!tool) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool.run(request.params.arguments ?? {}, extra);
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: 'greet',
        description: `Greets someone from ${name}`,
        arguments: [{ name: 'who', description: 'Who to greet', required: true }],
      },
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== 'greet') throw rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const who = request.params.arguments?.who;
    if (typeof who !== 'string') throw rpcError(ErrorCode.InvalidParams, 'Missing required argument: who');
    return {
      description: `Greets someone from ${name}`,
      messages: [{ role: 'user', content: text(`Hello ${who} from ${name}`) }],
    };
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    let values = [];
    if (ref.type === 'ref/prompt' && ref.name === 'greet' && argument.name === 'who') {
      values = GREET_NAMES.filter((v) => v.startsWith(argument.value ?? ''));
    }
    return { completion: { values, total: values.length, hasMore: false } };
  });

  // Two per page, so a client (or the gateway) must follow nextCursor to see all three.
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start >= resources.length) {
      throw rpcError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    }
    const page = resources.slice(start, start + PAGE_SIZE);
    const next = start + PAGE_SIZE;
    return {
      resources: page.map(({ uri, name: n, description, mimeType }) => ({ uri, name: n, description, mimeType })),
      ...(next < resources.length ? { nextCursor: String(next) } : {}),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `probe://${name}/items/{id}`,
        name: `${name}-item`,
        description: `An item of ${name}`,
        mimeType: 'text/plain',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const resource = resources.find((r) => r.uri === uri);
    if (resource) return { contents: [{ uri, mimeType: resource.mimeType, text: resource.text }] };
    const m = itemUri.exec(uri);
    if (m) return { contents: [{ uri, mimeType: 'text/plain', text: `item ${decodeURIComponent(m[1])} of ${name}` }] };
    throw rpcError(-32002, `Resource not found: ${uri}`, { uri });
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  return server;
}

await main(createServer, { tag: TAG });
