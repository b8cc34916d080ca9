#!/usr/bin/env node
// An MCP client that is not cloakgate's: the official TypeScript SDK `Client` over streamable HTTP.
// cloakgate's tests use it to show that a standard client works through the gateway.
//
//   node independent-client.mjs [--bearer TOKEN] <url> [tool-name [json-arguments]]
//
// --bearer sends "Authorization: Bearer TOKEN" on every request (the transport's requestInit headers), as an
// agent of a tenant that asks for a credential does.
// Connects, lists tools, calls <tool-name> with <json-arguments> (default {}) if given, lists prompts
// and resources if the server offers them (following nextCursor), and prints ONE line of JSON:
//   {"serverInfo":{...},"protocolVersion":"...","capabilities":{...},"tools":[names],
//    "callResult":{...}|null,"prompts":[names],"resources":[uris]}
// prompts/resources are [] when the server does not offer them (see capabilities).
// Exit 0 on success; otherwise the error goes to stderr and the exit code is 1 (2 for bad usage).
//
// It declares the sampling and elicitation capabilities and answers such requests from the server:
// sampling with the fixed text "sampled-by-independent-client", elicitation with action "accept"
// and every required field filled with a simple value of its type (its default when it has one).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const SAMPLED_TEXT = 'sampled-by-independent-client';

function usage(message) {
  process.stderr.write(`${message}\nusage: node independent-client.mjs [--bearer TOKEN] <url> [tool-name [json-arguments]]\n`);
  process.exit(2);
}

// A simple valid value for one property of an elicitation form schema.
function simpleValue(schema) {
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string':
      if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
      if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) return schema.oneOf[0].const;
      if (schema.format === 'email') return 'independent@example.com';
      if (schema.format === 'uri') return 'https://example.com/independent';
      if (schema.format === 'date') return '2025-01-01';
      if (schema.format === 'date-time') return '2025-01-01T00:00:00Z';
      return 'independent'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array': {
      const items = schema.items ?? {};
      const first = items.enum?.[0] ?? items.anyOf?.[0]?.const ?? items.oneOf?.[0]?.const;
      return first === undefined ? [] : [first];
    }
    default:
      return 'independent';
  }
}

async function listAll(fetchPage, key) {
  const all = [];
  let cursor;
  do {
    const page = await fetchPage(cursor === undefined ? undefined : { cursor });
    all.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

async function run() {
  const argv = process.argv.slice(2);
  let bearer;
  if (argv[0] === '--bearer') {
    bearer = argv[1];
    if (!bearer) usage('--bearer needs a token');
    argv.splice(0, 2);
  }
  const [url, toolName, rawArgs] = argv;
  if (!url) usage('missing url');
  let toolArgs = {};
  if (rawArgs !== undefined) {
    try {
      toolArgs = JSON.parse(rawArgs);
    } catch (err) {
      usage(`json-arguments is not JSON: ${err.message}`);
    }
  }

  const client = new Client(
    { name: 'independent-client', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: SAMPLED_TEXT },
    model: 'independent-client',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const schema = request.params.requestedSchema ?? { properties: {} };
    const content = {};
    for (const field of schema.required ?? []) {
      content[field] = simpleValue(schema.properties?.[field] ?? {});
    }
    return { action: 'accept', content };
  });

  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    bearer === undefined ? undefined : { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } },
  );
  await client.connect(transport);
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = await listAll((p) => client.listTools(p), 'tools');
    const callResult = toolName ? await client.callTool({ name: toolName, arguments: toolArgs }) : null;
    const prompts = capabilities.prompts ? await listAll((p) => client.listPrompts(p), 'prompts') : [];
    const resources = capabilities.resources ? await listAll((p) => client.listResources(p), 'resources') : [];
    process.stdout.write(
      JSON.stringify({
        serverInfo: client.getServerVersion(),
        protocolVersion: transport.protocolVersion,
        capabilities,
        tools: tools.map((t) => t.name),
        callResult,
        prompts: prompts.map((p) => p.name),
        resources: resources.map((r) => r.uri),
      }) + '\n',
    );
  } finally {
    // End the session politely (DELETE); a server that does not allow it answers 405, which is fine.
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
}

run().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`independent-client: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
