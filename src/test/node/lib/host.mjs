// Runs an MCP server (a low-level SDK `Server` built by a factory) over stdio or streamable HTTP.
//
// Shared by conformance-server.mjs and probe-server.mjs, so both behave the same on the wire:
//   stdio:  newline-delimited JSON-RPC on stdin/stdout; diagnostics on stderr; exits when stdin ends.
//   http:   streamable HTTP at http://127.0.0.1:<port>/mcp with sessions (one Server per session),
//           an in-memory event store (resumability, priming events, retry field), the standalone
//           GET stream, DELETE, and DNS-rebinding protection. Prints exactly one line
//           `LISTENING <port>` to stdout once listening; everything else goes to stderr.

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { MemoryEventStore } from './event-store.mjs';

/** Write a diagnostic line to stderr (stdout is reserved for the protocol or the LISTENING line). */
export function logErr(tag, ...parts) {
  process.stderr.write(`[${tag}] ${parts.join(' ')}\n`);
}

/**
 * Parse `<stdio|http> [port] [--flag value | --switch]...`.
 * Returns { mode, port, options } where options maps flag names (without --) to values (true for switches).
 */
export function parseArgs(argv, { switches = [] } = {}) {
  const [mode, ...rest] = argv;
  const positional = [];
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg.startsWith('--')) {
      const key = arg.slice(2);
      if (switches.includes(key)) options[key] = true;
      else if (i + 1 < rest.length) options[key] = rest[++i];
      else throw new Error(`missing value for ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (mode !== 'stdio' && mode !== 'http') throw new Error(`mode must be "stdio" or "http", got ${JSON.stringify(mode)}`);
  let port;
  if (mode === 'http') {
    port = Number(positional[0]);
    if (positional.length === 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error('http mode needs a port (0 picks a free one)');
    }
  }
  return { mode, port, options };
}

/** Serve one Server over stdin/stdout. */
export async function runStdio(createServer, tag) {
  const server = createServer();
  const transport = new StdioServerTransport();
  // The process is a child of whoever spawned it: when that side closes stdin, we are done
  // (after what was already written to stdout has been flushed).
  const finish = () => process.stdout.write('', () => process.exit(0));
  process.stdin.once('end', finish);
  process.stdin.once('close', finish);
  server.onerror = (err) => logErr(tag, 'server error:', err?.message ?? err);
  await server.connect(transport);
  logErr(tag, 'serving MCP over stdio');
}

// Hosts that a localhost server answers to; anything else is a DNS-rebinding attempt.
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLocalHostHeader(hostHeader) {
  if (!hostHeader) return false;
  try {
    return LOCAL_HOSTNAMES.has(new URL(`http://${hostHeader}`).hostname.toLowerCase());
  } catch {
    return false;
  }
}

function isLocalOrigin(origin) {
  if (origin === null) return true; // non-browser clients send no Origin
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTNAMES.has(url.hostname.toLowerCase());
  } catch {
    return false; // includes the literal "null" origin of sandboxed pages
  }
}

function jsonRpcError(status, code, message, headers = {}) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function negotiatedVersion(initializeRequest) {
  const requested = initializeRequest.params.protocolVersion;
  // Same rule as the SDK's Server._oninitialize.
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * Serve MCP over streamable HTTP on 127.0.0.1:<port>/mcp.
 *
 * options.retryInterval    ms announced in the `retry:` field of priming events.
 * options.jsonResponse     answer each POST with one JSON body instead of an SSE stream (the SDK's
 *                          enableJsonResponse).
 * options.strictVersionHeader
 *   The SDK transport decides per request, from the MCP-Protocol-Version header, whether to send a
 *   priming event and whether a handler may close its SSE stream (only for >= 2025-11-25). A client
 *   that negotiated 2025-11-25 but labels a request with an older (still supported) version, or with
 *   none, would silently lose resumability. By default this host uses the version negotiated for the
 *   session instead (and says so on stderr). With strictVersionHeader the header is passed on as sent.
 *
 * Returns { port, close }.
 */
export async function runHttp(createServer, { port, tag, retryInterval = 500, strictVersionHeader = false, jsonResponse = false }) {
  /** @type {Map<string, {transport: WebStandardStreamableHTTPServerTransport, server: any, protocolVersion: string}>} */
  const sessions = new Map();

  async function openSession(request, body, bodyText) {
    const record = { transport: undefined, server: createServer(), protocolVersion: negotiatedVersion(body) };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval,
      enableJsonResponse: jsonResponse,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, record);
        logErr(tag, `session ${sessionId} opened (protocol ${record.protocolVersion})`);
      },
    });
    record.transport = transport;
    // Set before connect(): Protocol.connect chains its own onclose after ours.
    transport.onclose = () => {
      if (transport.sessionId && sessions.delete(transport.sessionId)) {
        logErr(tag, `session ${transport.sessionId} closed`);
      }
    };
    record.server.onerror = (err) => logErr(tag, 'server error:', err?.message ?? err);
    await record.server.connect(transport);
    return transport.handleRequest(forwardable(request, bodyText, undefined));
  }

  // A copy of the incoming request (its body was already read here) for the transport,
  // with MCP-Protocol-Version replaced by the session's negotiated version unless strict.
  function forwardable(request, bodyText, session) {
    const headers = new Headers(request.headers);
    if (session && !strictVersionHeader) {
      const sent = headers.get('mcp-protocol-version');
      const useVersion = sent === null || SUPPORTED_PROTOCOL_VERSIONS.includes(sent) ? session.protocolVersion : sent;
      if (useVersion !== sent) {
        headers.set('mcp-protocol-version', useVersion);
        logErr(tag, `${request.method}: MCP-Protocol-Version ${sent ?? '(none)'} -> session's ${useVersion}`);
      }
    }
    return new Request(request.url, { method: request.method, headers, body: bodyText, signal: request.signal });
  }

  async function handle(request) {
    const url = new URL(request.url);
    // DNS-rebinding protection first, before anything else is read.
    if (!isLocalHostHeader(request.headers.get('host'))) {
      return jsonRpcError(403, -32000, 'Forbidden: Host header is not localhost');
    }
    if (!isLocalOrigin(request.headers.get('origin'))) {
      return jsonRpcError(403, -32000, 'Forbidden: Origin is not localhost');
    }
    if (url.pathname !== '/mcp') return jsonRpcError(404, -32000, 'Not found: the MCP endpoint is /mcp');

    const sessionId = request.headers.get('mcp-session-id');
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !session) return jsonRpcError(404, -32001, 'Session not found');

    switch (request.method) {
      case 'POST': {
        const bodyText = await request.text();
        if (session) return session.transport.handleRequest(forwardable(request, bodyText, session));
        let body;
        try {
          body = JSON.parse(bodyText);
        } catch {
          return jsonRpcError(400, -32700, 'Parse error');
        }
        if (!isInitializeRequest(body)) {
          return jsonRpcError(400, -32000, 'Bad Request: no valid session ID (only initialize may come without one)');
        }
        return openSession(request, body, bodyText);
      }
      case 'GET':
      case 'DELETE':
        if (!session) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return session.transport.handleRequest(forwardable(request, undefined, session));
      default:
        return jsonRpcError(405, -32000, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
    }
  }

  const listener = getRequestListener(
    async (request) => {
      try {
        return await handle(request);
      } catch (err) {
        logErr(tag, 'request failed:', err?.stack ?? err);
        return jsonRpcError(500, -32603, 'Internal error');
      }
    },
    { overrideGlobalObjects: false },
  );
  const httpServer = http.createServer(listener);
  await new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, '127.0.0.1', resolve);
  });
  const actualPort = httpServer.address().port;

  const close = async () => {
    for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
    httpServer.closeAllConnections?.();
    await new Promise((resolve) => httpServer.close(() => resolve()));
  };
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      close().finally(() => process.exit(0));
    });
  }

  process.stdout.write(`LISTENING ${actualPort}\n`);
  logErr(tag, `serving MCP at http://127.0.0.1:${actualPort}/mcp`);
  return { port: actualPort, close };
}

/** Entry point shared by the servers: parse argv and run in the chosen mode. */
export async function main(createServerFromOptions, { tag, switches = [] }) {
  let parsed;
  try {
    parsed = parseArgs(process.argv.slice(2), { switches: ['strict-version-header', 'json-response', ...switches] });
  } catch (err) {
    logErr(tag, `usage error: ${err.message}`);
    process.exit(2);
  }
  const { mode, port, options } = parsed;
  const createServer = () => createServerFromOptions(options);
  if (mode === 'stdio') {
    await runStdio(createServer, tag);
  } else {
    await runHttp(createServer, {
      port,
      tag,
      retryInterval: options['retry-ms'] !== undefined ? Number(options['retry-ms']) : undefined,
      strictVersionHeader: options['strict-version-header'] === true,
      jsonResponse: options['json-response'] === true,
    });
  }
}
