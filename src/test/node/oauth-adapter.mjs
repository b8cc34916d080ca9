#!/usr/bin/env node
// Issue 16: puts the gateway in front of a conformance client scenario's server, so that the GATEWAY is the OAuth
// client under test. The conformance CLI runs `node oauth-adapter.mjs <serverUrl>` with MCP_CONFORMANCE_SCENARIO
// and MCP_CONFORMANCE_CONTEXT set. The adapter
//   1. writes a tenant file (one HTTP upstream "up" at <serverUrl>, with an oauth block derived from the scenario's
//      context, as an operator would) into the watched tenants dir of a running gateway, and waits for it to load;
//   2. drives an MCP session through the gateway with the SDK's client: initialize, tools/list, tools/call test-tool;
//   3. for the authorization-code grant, plays the operator when the gateway reports upstream_auth_required: asks
//      the admin API to connect the upstream, opens the authorization URL (the scenario's server approves at once
//      and redirects to the gateway's /oauth/callback), hands the redirect to the gateway, and tries again.
// Environment (set by UpstreamOAuthConformanceIT): CLOAKGATE_URL (the gateway's base URL, also its public URL),
// CLOAKGATE_TENANTS_DIR, CLOAKGATE_OPERATOR_TOKEN (its sha256 goes into the tenant file), CLOAKGATE_WORK_DIR
// (where key and secret files are written: mounted-Secret style, never in the tenant file).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const ctx = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const GW = process.env.CLOAKGATE_URL;
const TENANTS = process.env.CLOAKGATE_TENANTS_DIR;
const OPS = process.env.CLOAKGATE_OPERATOR_TOKEN;
const WORK = process.env.CLOAKGATE_WORK_DIR;
if (!serverUrl || !GW || !TENANTS || !OPS || !WORK) {
  console.error('usage: CLOAKGATE_URL=.. CLOAKGATE_TENANTS_DIR=.. CLOAKGATE_OPERATOR_TOKEN=.. CLOAKGATE_WORK_DIR=.. '
    + 'oauth-adapter.mjs <serverUrl>');
  process.exit(2);
}
const log = (...a) => console.error('[oauth-adapter]', ...a);
const tenant = `oa-${scenario.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${process.pid}`.slice(0, 60);
const dir = join(WORK, tenant);
mkdirSync(dir, { recursive: true });

/** The oauth block an operator would write for this scenario (secrets in files, never in the tenant file). */
function oauthBlock() {
  if (scenario === 'initialize') return undefined;
  if (scenario.startsWith('auth/client-credentials-')) {
    if (ctx.private_key_pem) {
      writeFileSync(join(dir, 'client.key'), ctx.private_key_pem, { mode: 0o600 });
      return { grant: 'client_credentials', client_id: ctx.client_id, private_key_file: join(dir, 'client.key') };
    }
    writeFileSync(join(dir, 'client.secret'), ctx.client_secret, { mode: 0o600 });
    return { grant: 'client_credentials', client_id: ctx.client_id, client_secret_file: join(dir, 'client.secret') };
  }
  if (scenario === 'auth/cross-app-access-complete-flow') {
    // the enterprise identity provider's ID token, mounted as a file, and the client registered at the upstream's AS
    writeFileSync(join(dir, 'id.token'), ctx.idp_id_token, { mode: 0o600 });
    writeFileSync(join(dir, 'client.secret'), ctx.client_secret, { mode: 0o600 });
    return {
      grant: 'cross_app_access', client_id: ctx.client_id, client_secret_file: join(dir, 'client.secret'),
      id_token_file: join(dir, 'id.token'), idp_token_endpoint: ctx.idp_token_endpoint, idp_client_id: ctx.idp_client_id,
    };
  }
  if (ctx.client_id) {
    // a client the operator registered beforehand
    const block = { grant: 'authorization_code', client_id: ctx.client_id };
    if (ctx.client_secret) {
      writeFileSync(join(dir, 'client.secret'), ctx.client_secret, { mode: 0o600 });
      block.client_secret_file = join(dir, 'client.secret');
    }
    return block;
  }
  return { grant: 'authorization_code' };
}

async function admin(method, path) {
  const r = await fetch(`${GW}/admin/t/${tenant}/upstreams/up/oauth${path}`,
    { method, headers: { Authorization: `Bearer ${OPS}` } });
  const text = await r.text();
  let body;
  try { body = JSON.parse(text); } catch { body = { raw: text }; }
  return { status: r.status, body };
}

async function writeTenant() {
  const upstream = { url: serverUrl };
  const oauth = oauthBlock();
  if (oauth) upstream.oauth = oauth;
  const file = {
    upstreams: { up: upstream },
    namespace: 'none',
    sanitize: false,
    auth: { mode: 'none', principals: { ops: { roles: ['operator'],
      tokens_sha256: [createHash('sha256').update(OPS).digest('hex')] } } },
  };
  // written beside, then renamed in: the watcher never reads half a file (dot files are ignored)
  const tmp = join(TENANTS, `.${tenant}.json.tmp`);
  writeFileSync(tmp, JSON.stringify(file, null, 2));
  renameSync(tmp, join(TENANTS, `${tenant}.json`));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const r = await fetch(`${GW}/admin/t/${tenant}/status`, { headers: { Authorization: `Bearer ${OPS}` } });
    if (r.status === 200) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`tenant ${tenant} was not loaded within 60 s`);
}

/** The operator's part: start the connection, open the authorization URL, hand the redirect to the gateway. */
async function connect() {
  const start = await admin('POST', '/connect');
  if (start.status !== 200) throw new Error(`connect refused: ${start.status} ${JSON.stringify(start.body)}`);
  const auth = await fetch(start.body.authorization_url, { redirect: 'manual' });
  const location = auth.headers.get('location');
  if (!location) throw new Error(`the authorization server did not redirect (HTTP ${auth.status})`);
  if (!location.startsWith(`${GW}/oauth/callback`)) throw new Error('redirected elsewhere than the gateway');
  const done = await fetch(location);
  if (done.status !== 200) throw new Error(`the callback refused: ${done.status} ${await done.text()}`);
  // the state is single-use: the same redirect again is refused, and nothing is exchanged for it
  const replay = await fetch(location);
  const replayBody = await replay.json().catch(() => ({}));
  if (replay.status !== 400 || replayBody.error !== 'oauth_state_invalid') {
    throw new Error(`a replayed callback was not refused: ${replay.status} ${JSON.stringify(replayBody)}`);
  }
  log('connected', JSON.stringify((await admin('GET', '')).body));
}

async function session() {
  const client = new Client({ name: 'cloakgate-oauth-adapter', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${GW}/t/${tenant}/mcp`));
  await client.connect(transport);
  try {
    const tools = await client.listTools();
    const names = tools.tools.map((t) => t.name);
    if (scenario !== 'initialize' && names.length === 0) throw new Error('the upstream listed no tools');
    if (names.includes('test-tool')) {
      const result = await client.callTool({ name: 'test-tool', arguments: {} });
      if (result.isError) throw new Error(`test-tool failed: ${JSON.stringify(result.content)}`);
    }
  } finally {
    await transport.close().catch(() => {});
  }
}

await writeTenant();
const oauth = oauthBlock();
for (let round = 1; ; round++) {
  try {
    await session();
    log(`session complete in round ${round}`);
    process.exit(0);
  } catch (e) {
    const status = oauth ? (await admin('GET', '')).body : {};
    log(`round ${round}: ${e.message}; upstream oauth state: ${JSON.stringify(status)}`);
    if (oauth?.grant === 'authorization_code' && status.state === 'upstream_auth_required' && round <= 5) {
      await connect();
      continue;
    }
    process.exit(1);
  }
}
