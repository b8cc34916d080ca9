// Serves a table of tools on a low-level SDK `Server`: tools/list from the table, tools/call to the named tool's
// `run(arguments)`, an unknown name answered with InvalidParams. The table is
//   { name: { description, inputSchema, annotations?, run(args) } }
// or a function returning one (for servers whose tools change while they run).

import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export function serveTools(server, table) {
  const current = typeof table === 'function' ? table : () => table;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(current()).map(([name, t]) => ({
      name, description: t.description, inputSchema: t.inputSchema, ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = current()[request.params.name];
    if (!tool) {
      const err = new Error(`Unknown tool: ${request.params.name}`);
      err.code = ErrorCode.InvalidParams;
      throw err;
    }
    return tool.run(request.params.arguments ?? {});
  });
}
