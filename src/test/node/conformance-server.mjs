#!/usr/bin/env node
// An MCP server that implements every tool, resource and prompt that the server scenarios of
// @modelcontextprotocol/conformance 0.1.16 expect, so that
//   node run-conformance.mjs server --url http://127.0.0.1:<port>/mcp --suite all
// passes. cloakgate's tests run the same suite once against this server directly and once through
// the gateway, and compare.
//
//   node conformance-server.mjs stdio
//   node conformance-server.mjs http <port> [--retry-ms N] [--strict-version-header]
//
// Built on the SDK's low-level `Server` so that names and JSON schemas are exactly what the
// scenarios check (json-schema-2020-12 needs `$schema`, `$defs` and `additionalProperties`
// verbatim, which McpServer's zod conversion would not produce).

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
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { main } from './lib/host.mjs';

const TAG = 'conformance-server';

// 1x1 red RGB PNG.
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

// A valid WAV file: 8 kHz, mono, 16-bit PCM, 8 samples of silence.
const SILENT_WAV = (() => {
  const samples = 8;
  const dataBytes = samples * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // channels
  buf.writeUInt32LE(8000, 24); // sample rate
  buf.writeUInt32LE(8000 * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  return buf.toString('base64');
})();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const NO_ARGS = { type: 'object', properties: {} };

function requireString(args, key) {
  const value = args?.[key];
  if (typeof value !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, `argument "${key}" (string) is required`);
  }
  return value;
}

function text(t) {
  return { type: 'text', text: t };
}

// ---------------------------------------------------------------------------------------------
// Tools. Each: description, inputSchema, run(args, extra, ctx) -> CallToolResult.
// ctx = { server, log(extra, level, data) }.

const TOOLS = {
  test_simple_text: {
    description: 'Returns a simple text content item.',
    inputSchema: NO_ARGS,
    run: async () => ({ content: [text('This is a simple text response for testing.')] }),
  },

  test_image_content: {
    description: 'Returns a 1x1 red PNG as image content.',
    inputSchema: NO_ARGS,
    run: async () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }),
  },

  test_audio_content: {
    description: 'Returns a tiny silent WAV as audio content.',
    inputSchema: NO_ARGS,
    run: async () => ({ content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] }),
  },

  test_embedded_resource: {
    description: 'Returns an embedded text resource.',
    inputSchema: NO_ARGS,
    run: async () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  },

  test_multiple_content_types: {
    description: 'Returns text, image and embedded resource content together.',
    inputSchema: NO_ARGS,
    run: async () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },

  test_tool_with_logging: {
    description: 'Sends three info log notifications, 50 ms apart, while it runs.',
    inputSchema: NO_ARGS,
    run: async (_args, extra, ctx) => {
      await ctx.log(extra, 'info', 'Tool execution started');
      await sleep(50);
      await ctx.log(extra, 'info', 'Tool processing data');
      await sleep(50);
      await ctx.log(extra, 'info', 'Tool execution completed');
      return { content: [text('Tool with logging executed successfully')] };
    },
  },

  test_error_handling: {
    description: 'Always fails with a tool error (isError: true).',
    inputSchema: NO_ARGS,
    run: async () => ({
      isError: true,
      content: [text('This tool intentionally returns an error for testing')],
    }),
  },

  test_tool_with_progress: {
    description: 'Reports progress 0/100, 50/100, 100/100 when the request carries a progressToken.',
    inputSchema: NO_ARGS,
    run: async (_args, extra) => {
      const token = extra._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 100, message: `${progress}% done` },
          });
        }
        if (progress < 100) await sleep(50);
      }
      return { content: [text(`Progress tool finished (token ${JSON.stringify(token ?? null)})`)] };
    },
  },

  test_sampling: {
    description: 'Asks the client to sample an LLM reply to `prompt` (sampling/createMessage).',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
      required: ['prompt'],
    },
    run: async (args, extra, ctx) => {
      const prompt = requireString(args, 'prompt');
      if (!ctx.server.getClientCapabilities()?.sampling) {
        return { isError: true, content: [text('The client does not support sampling')] };
      }
      // extra.sendRequest ties the request to this tool call, so over HTTP it travels on the
      // tool call's own SSE stream rather than the standalone GET stream.
      const result = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: text(prompt) }], maxTokens: 100 },
        },
        CreateMessageResultSchema,
      );
      return { content: [text(`LLM response: ${samplingText(result)}`)] };
    },
  },

  test_elicitation: {
    description: 'Asks the client for a username and email (elicitation/create) showing `message`.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
    run: async (args, extra, ctx) =>
      elicit(extra, ctx, requireString(args, 'message'), {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      }, 'User response'),
  },

  test_elicitation_sep1034_defaults: {
    description: 'Elicitation whose schema has a default for every primitive type (SEP-1034).',
    inputSchema: NO_ARGS,
    run: async (_args, extra, ctx) =>
      elicit(extra, ctx, 'Please review and update the form fields with defaults', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      }, 'Elicitation completed'),
  },

  test_elicitation_sep1330_enums: {
    description: 'Elicitation whose schema uses all five enum forms (SEP-1330).',
    inputSchema: NO_ARGS,
    run: async (_args, extra, ctx) =>
      elicit(extra, ctx, 'Please choose from each kind of enum', {
        type: 'object',
        properties: {
          untitledSingle: {
            type: 'string',
            description: 'Untitled single-select',
            enum: ['option1', 'option2', 'option3'],
          },
          titledSingle: {
            type: 'string',
            description: 'Titled single-select',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Legacy titled enum (enumNames, deprecated)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Untitled multi-select',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Titled multi-select',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      }, 'Elicitation completed'),
  },

  json_schema_2020_12_tool: {
    description: 'Tool with JSON Schema 2020-12 features',
    // Sent verbatim: the scenario checks that $schema, $defs and additionalProperties survive.
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
      },
      additionalProperties: false,
    },
    run: async (args) => ({ content: [text(`Received: ${JSON.stringify(args ?? {})}`)] }),
  },

  test_reconnection: {
    description:
      'Closes its own SSE stream mid-call (SEP-1699) and answers only after the client has had ' +
      'time to reconnect with GET + Last-Event-ID; the result then arrives on the resumed stream.',
    inputSchema: NO_ARGS,
    run: async (_args, extra, ctx) => {
      // The transport offers closeSSEStream only over HTTP with an event store and a client on
      // protocol >= 2025-11-25 (which has seen a priming event it can resume from).
      if (extra.closeSSEStream) {
        extra.closeSSEStream();
        // Answer after the announced retry interval, so a client that honours `retry:` has
        // reconnected and gets the result live; an earlier answer is replayed from the store.
        await sleep(ctx.retryInterval + 300);
      }
      return {
        content: [text('Reconnection test completed successfully: the result arrived after the stream was closed.')],
      };
    },
  },
};

function samplingText(result) {
  const content = Array.isArray(result.content) ? result.content : [result.content];
  return content.filter((c) => c?.type === 'text').map((c) => c.text).join('\n') || '(no text)';
}

async function elicit(extra, ctx, message, requestedSchema, label) {
  if (!ctx.server.getClientCapabilities()?.elicitation) {
    return { isError: true, content: [text('The client does not support elicitation')] };
  }
  const result = await extra.sendRequest(
    { method: 'elicitation/create', params: { message, requestedSchema } },
    ElicitResultSchema,
  );
  return {
    content: [text(`${label}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)],
  };
}

// ---------------------------------------------------------------------------------------------
// Resources.

const STATIC_RESOURCES = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
    read: () => ({ text: 'This is the content of the static text resource.' }),
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (1x1 red PNG)',
    mimeType: 'image/png',
    read: () => ({ blob: RED_PIXEL_PNG }),
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource that can be subscribed to',
    mimeType: 'text/plain',
    read: () => ({ text: 'Watched resource content' }),
  },
];

const TEMPLATE = {
  uriTemplate: 'test://template/{id}/data',
  name: 'template-data',
  description: 'Data for an id, substituted into the URI',
  mimeType: 'application/json',
  match: /^test:\/\/template\/([^/]+)\/data$/,
};

// ---------------------------------------------------------------------------------------------
// Prompts.

const PROMPTS = {
  test_simple_prompt: {
    description: 'A prompt without arguments',
    arguments: [],
    get: () => [{ role: 'user', content: text('This is a simple prompt for testing.') }],
  },
  test_prompt_with_arguments: {
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: (a) => [{ role: 'user', content: text(`Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'`) }],
  },
  test_prompt_with_embedded_resource: {
    description: 'A prompt that embeds the resource named by resourceUri',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: (a) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: a.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ],
  },
  test_prompt_with_image: {
    description: 'A prompt that includes image content',
    arguments: [],
    get: () => [
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ],
  },
};

// Completion candidates per prompt argument / template variable.
const COMPLETIONS = {
  'ref/prompt:test_prompt_with_arguments:arg1': ['paris', 'park', 'party', 'test', 'test-value-1', 'testing'],
  'ref/prompt:test_prompt_with_arguments:arg2': ['alpha', 'beta', 'gamma'],
  'ref/resource:test://template/{id}/data:id': ['1', '123', '42'],
};

// ---------------------------------------------------------------------------------------------

function createServer(options) {
  const retryInterval = options['retry-ms'] !== undefined ? Number(options['retry-ms']) : 500;
  const server = new Server(
    { name: 'cloakgate-conformance-server', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {}, // also makes the SDK answer logging/setLevel and remember the level per session
        completions: {},
      },
      instructions: 'Conformance fixture for cloakgate tests.',
    },
  );
  const subscriptions = new Set();

  const ctx = {
    server,
    retryInterval,
    // Log notification tied to the current request, dropped if below the session's level.
    log: async (extra, level, data) => {
      if (server.isMessageIgnored(level, extra.sessionId)) return;
      await extra.sendNotification({ method: 'notifications/message', params: { level, logger: TAG, data } });
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(TOOLS).map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS[request.params.name];
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool.run(request.params.arguments ?? {}, extra, ctx);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: STATIC_RESOURCES.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: TEMPLATE.uriTemplate, name: TEMPLATE.name, description: TEMPLATE.description, mimeType: TEMPLATE.mimeType },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const resource = STATIC_RESOURCES.find((r) => r.uri === uri);
    if (resource) return { contents: [{ uri, mimeType: resource.mimeType, ...resource.read() }] };
    const m = TEMPLATE.match.exec(uri);
    if (m) {
      const id = decodeURIComponent(m[1]);
      return {
        contents: [
          { uri, mimeType: TEMPLATE.mimeType, text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
        ],
      };
    }
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: Object.entries(PROMPTS).map(([name, p]) => ({ name, description: p.description, arguments: p.arguments })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = PROMPTS[request.params.name];
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    for (const a of prompt.arguments) {
      if (a.required && typeof args[a.name] !== 'string') {
        throw new McpError(ErrorCode.InvalidParams, `Missing required argument: ${a.name}`);
      }
    }
    return { description: prompt.description, messages: prompt.get(args) };
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
    const candidates = COMPLETIONS[`${ref.type}:${target}:${argument.name}`] ?? [];
    const values = candidates.filter((v) => v.startsWith(argument.value ?? ''));
    return { completion: { values, total: values.length, hasMore: false } };
  });

  return server;
}

await main(createServer, { tag: TAG });
