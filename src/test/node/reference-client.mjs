#!/usr/bin/env node
// The conformance suite's reference TypeScript client (examples/clients/typescript/everything-client.ts and
// helpers/withOAuthRetry.ts, ConformanceOAuthProvider.ts of @modelcontextprotocol/conformance v0.1.16), with its
// types stripped so it runs on Node 20 with the installed SDK and no TypeScript tool: the baseline the gateway's
// OAuth client is measured against (`run-conformance.mjs client --command "node reference-client.mjs" ...`).
// Only the scenarios the issue names (initialize, auth/*) are ported; the behaviour is the original's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { auth, extractWWWAuthenticateParams, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const CIMD_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

class ConformanceOAuthProvider {
  constructor(redirectUrl, clientMetadata, clientMetadataUrl) {
    this._redirectUrl = redirectUrl;
    this._clientMetadata = clientMetadata;
    this._clientMetadataUrl = clientMetadataUrl;
  }
  get redirectUrl() { return this._redirectUrl; }
  get clientMetadata() { return this._clientMetadata; }
  get clientMetadataUrl() { return this._clientMetadataUrl?.toString(); }
  clientInformation() { return this._clientInformation; }
  saveClientInformation(info) { this._clientInformation = info; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; }
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(authorizationUrl.toString(), { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`No redirect location received, from '${authorizationUrl}'`);
    const code = new URL(location).searchParams.get('code');
    if (!code) throw new Error('No auth code in redirect URL');
    this._authCode = code;
  }
  async getAuthCode() {
    if (this._authCode) return this._authCode;
    throw new Error('No authorization code');
  }
  saveCodeVerifier(v) { this._codeVerifier = v; }
  codeVerifier() {
    if (!this._codeVerifier) throw new Error('No code verifier saved');
    return this._codeVerifier;
  }
}

async function handle401(response, provider, next, serverUrl) {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  let result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, fetchFn: next });
  if (result === 'REDIRECT') {
    const authorizationCode = await provider.getAuthCode();
    result = await auth(provider, { serverUrl, resourceMetadataUrl, scope, authorizationCode, fetchFn: next });
    if (result !== 'AUTHORIZED') throw new UnauthorizedError(`Authentication failed with result: ${result}`);
  }
}

function withOAuthRetryWithProvider(provider, baseUrl) {
  return (next) => async (input, init) => {
    const makeRequest = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set('Authorization', `Bearer ${tokens.access_token}`);
      return await next(input, { ...init, headers });
    };
    let response = await makeRequest();
    if (response.status === 401 || response.status === 403) {
      const serverUrl = baseUrl || (typeof input === 'string' ? new URL(input).origin : input.origin);
      await handle401(response, provider, next, serverUrl);
      response = await makeRequest();
    }
    if (response.status === 401 || response.status === 403) {
      throw new UnauthorizedError(`Authentication failed for ${typeof input === 'string' ? input : input.toString()}`);
    }
    return response;
  };
}

function withOAuthRetry(clientName, baseUrl, clientMetadataUrl) {
  const provider = new ConformanceOAuthProvider('http://localhost:3000/callback',
    { client_name: clientName, redirect_uris: ['http://localhost:3000/callback'] }, clientMetadataUrl);
  return withOAuthRetryWithProvider(provider, baseUrl);
}

function context() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) throw new Error('MCP_CONFORMANCE_CONTEXT not set');
  return JSON.parse(raw);
}

async function session(serverUrl, transportOptions, name, callTool) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), transportOptions);
  await client.connect(transport);
  await client.listTools();
  if (callTool) await client.callTool({ name: 'test-tool', arguments: {} });
  await transport.close();
}

async function basic(serverUrl) {
  await session(serverUrl, {}, 'test-client', false);
}

async function authClient(serverUrl) {
  const oauthFetch = withOAuthRetry('test-auth-client', new URL(serverUrl), CIMD_CLIENT_METADATA_URL)(fetch);
  await session(serverUrl, { fetch: oauthFetch }, 'test-auth-client', true);
}

async function clientCredentialsJwt(serverUrl) {
  const ctx = context();
  const provider = new PrivateKeyJwtProvider({ clientId: ctx.client_id, privateKey: ctx.private_key_pem,
    algorithm: ctx.signing_algorithm || 'ES256' });
  await session(serverUrl, { authProvider: provider }, 'conformance-client-credentials-jwt', false);
}

async function clientCredentialsBasic(serverUrl) {
  const ctx = context();
  const provider = new ClientCredentialsProvider({ clientId: ctx.client_id, clientSecret: ctx.client_secret });
  await session(serverUrl, { authProvider: provider }, 'conformance-client-credentials-basic', false);
}

async function preRegistration(serverUrl) {
  const ctx = context();
  const provider = new ConformanceOAuthProvider('http://localhost:3000/callback',
    { client_name: 'conformance-pre-registration', redirect_uris: ['http://localhost:3000/callback'] });
  provider.saveClientInformation({ client_id: ctx.client_id, client_secret: ctx.client_secret,
    redirect_uris: ['http://localhost:3000/callback'] });
  const oauthFetch = withOAuthRetryWithProvider(provider, new URL(serverUrl))(fetch);
  await session(serverUrl, { fetch: oauthFetch }, 'conformance-pre-registration', false);
}

async function crossAppAccess(serverUrl) {
  const ctx = context();
  const prm = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', serverUrl))).json();
  const asMetadataResponse = await fetch(new URL('/.well-known/oauth-authorization-server', prm.authorization_servers[0]));
  if (!asMetadataResponse.ok) throw new Error(`Auth server metadata discovery failed: ${asMetadataResponse.status}`);
  const as = await asMetadataResponse.json();
  if (!(as.grant_types_supported || []).includes('urn:ietf:params:oauth:grant-type:jwt-bearer')) {
    throw new Error('Auth server does not support jwt-bearer grant type');
  }
  const exchange = await fetch(ctx.idp_token_endpoint, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: as.issuer, resource: prm.resource, subject_token: ctx.idp_id_token,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token', client_id: ctx.idp_client_id }),
  });
  if (!exchange.ok) throw new Error(`Token exchange failed: ${await exchange.text()}`);
  const idJag = (await exchange.json()).access_token;
  const basicAuth = Buffer.from(`${encodeURIComponent(ctx.client_id)}:${encodeURIComponent(ctx.client_secret)}`)
    .toString('base64');
  const tokenResponse = await fetch(as.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basicAuth}` },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: idJag }),
  });
  if (!tokenResponse.ok) throw new Error(`JWT bearer grant failed: ${await tokenResponse.text()}`);
  const token = (await tokenResponse.json()).access_token;
  await session(serverUrl, { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
    'conformance-cross-app-access', true);
}

const handlers = {
  initialize: basic,
  'tools-call': basic,
  'auth/client-credentials-jwt': clientCredentialsJwt,
  'auth/client-credentials-basic': clientCredentialsBasic,
  'auth/pre-registration': preRegistration,
  'auth/cross-app-access-complete-flow': crossAppAccess,
};
for (const name of ['auth/basic-cimd', 'auth/basic-dcr', 'auth/metadata-default', 'auth/metadata-var1',
  'auth/metadata-var2', 'auth/metadata-var3', 'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback', 'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none',
  'auth/resource-mismatch', 'auth/offline-access-scope', 'auth/offline-access-not-supported']) {
  handlers[name] = authClient;
}

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const serverUrl = process.argv[2];
const handler = handlers[scenario];
if (!handler || !serverUrl) {
  console.error(`usage: MCP_CONFORMANCE_SCENARIO=<scenario> reference-client.mjs <server-url> (unknown: ${scenario})`);
  process.exit(1);
}
try {
  await handler(serverUrl);
  process.exit(0);
} catch (error) {
  console.error('Error:', error);
  process.exit(1);
}
