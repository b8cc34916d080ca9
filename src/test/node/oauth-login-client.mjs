// Issue 16: a standard MCP client logging in through the gateway with the TypeScript SDK's own OAuth support.
//   node oauth-login-client.mjs <tenant MCP URL> <tool name>
// It connects without a token, gets the gateway's 401, discovers the protected resource metadata and the
// authorization server by itself, registers (RFC 7591), follows the authorization redirect (the test's server
// approves at once), hands the code back with finishAuth, then initializes again with its token and calls the tool.
// Prints one JSON line: {"result": <the tool result>, "token": <the access token>, "scope": <its scope>,
// "resource": <the resource indicator the SDK sent>}; exits 1 with {"error": ...} on stderr otherwise.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const [serverUrl, tool] = process.argv.slice(2);
const REDIRECT = 'http://127.0.0.1:9/oauth/callback'; // never fetched: the code is read from the redirect's Location

/** An in-memory OAuthClientProvider whose "browser" is one fetch that does not follow the redirect. */
class Provider {
  constructor() {
    this.client = undefined;
    this.saved = undefined;
    this.verifier = undefined;
    this.code = undefined;
    this.authorizationUrl = undefined;
  }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return {
      client_name: 'cloakgate OAuth login test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() { return 'state-' + Math.random().toString(36).slice(2); }
  clientInformation() { return this.client; }
  saveClientInformation(info) { this.client = info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) {
    this.authorizationUrl = url;
    const r = await fetch(url, { redirect: 'manual' });
    const location = r.headers.get('location');
    if (r.status !== 302 || !location) throw new Error(`authorization endpoint answered ${r.status}`);
    const back = new URL(location);
    if (back.searchParams.get('error')) throw new Error(`authorization refused: ${back.searchParams.get('error')}`);
    this.code = back.searchParams.get('code');
  }
}

async function connect(provider) {
  const client = new Client({ name: 'oauth-login-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider });
  return { client, transport, connected: client.connect(transport) };
}

try {
  const provider = new Provider();
  const first = await connect(provider);
  try {
    await first.connected;
    throw new Error('the gateway let the client in without a token');
  } catch (e) {
    if (!(e instanceof UnauthorizedError) || !provider.code) throw e;
  }
  // the transport that got the 401 knows the resource metadata URL of the challenge
  await first.transport.finishAuth(provider.code);
  const session = await connect(provider);
  await session.connected;
  const result = await session.client.callTool({ name: tool, arguments: {} });
  await session.client.close();
  process.stdout.write(JSON.stringify({
    result,
    token: provider.saved.access_token,
    scope: provider.saved.scope ?? null,
    resource: provider.authorizationUrl.searchParams.get('resource'),
  }) + '\n');
  process.exit(0);
} catch (e) {
  process.stderr.write(JSON.stringify({ error: String(e?.stack ?? e) }) + '\n');
  process.exit(1);
}
