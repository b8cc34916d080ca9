#!/usr/bin/env node
// An MCP server that plants known personal values on every surface MCP gives a server to reach the
// client, so a test can check that none of them gets through the gateway uncloaked.
//
//   node leak-probe-server.mjs stdio --plants FILE
//   node leak-probe-server.mjs http <port> --plants FILE [--retry-ms N] [--strict-version-header]
//
// FILE is a JSON object mapping a category to the values planted for it, e.g.
//   {"EMAIL": ["marie.dubois@example-eu.fr"], "PERSON": ["Marie Dubois"], "PHONE": ["+33 6 12 34 56 78"]}
// Any category name is accepted; EMAIL and PERSON are preferred where a spot reads naturally as an
// address or a name, other spots take the values round-robin across all categories.
//
// Every surface is its own tool, resource or prompt (the `surfaces` tool lists them), and
// `plant_everything` triggers all call-time surfaces in one call. Declarations (initialize result,
// tools/list, prompts/list) stay free of planted values: the gateway does not cloak them by design.
// Binary payloads (image/audio `data`, resource `blob`) are harmless bytes: they must pass through
// untouched, and the gateway does not scan blobs.

import fs from 'node:fs';
import zlib from 'node:zlib';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
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
import { logErr, main, parseArgs } from './lib/host.mjs';

const TAG = 'leak-probe-server';

/** JSON-RPC error code for the tool that fails on purpose. */
const TOOL_ERROR_CODE = -32000;
/** JSON-RPC error code for resources/read of an unknown URI (as in the MCP spec). */
const RESOURCE_NOT_FOUND = -32002;

// ---------------------------------------------------------------------------------------------
// Planted values

/** Characters a value may hold to be embedded verbatim in a URI path (RFC 3986 pchar, unencoded). */
const URI_SAFE = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

// A small stable hash, so each surface starts its round-robin at its own (reproducible) place.
function seedOf(name) {
  let h = 7;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

class Plants {
  /** @param {Record<string, string[]>} byCategory */
  constructor(byCategory) {
    this.byCategory = byCategory;
    // Interleaved: the first value of every category, then the second of every category, ...
    // so consecutive picks cycle through the categories.
    this.order = [];
    const longest = Math.max(...Object.values(byCategory).map((v) => v.length));
    for (let i = 0; i < longest; i++) {
      for (const values of Object.values(byCategory)) {
        if (i < values.length) this.order.push(values[i]);
      }
    }
    this.uriSafe = this.order.filter((v) => URI_SAFE.test(v));
  }

  /** Every planted value once, interleaved by category. */
  all() {
    return [...this.order];
  }

  /** A fresh round-robin picker; the same surface name always yields the same sequence. */
  picker(surface) {
    return new Picker(this, seedOf(surface));
  }

  static load(file) {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error('the plants file must hold a JSON object {"CATEGORY": ["value", ...], ...}');
    }
    const byCategory = {};
    for (const [category, values] of Object.entries(parsed)) {
      const list = typeof values === 'string' ? [values] : values;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || v.length === 0)) {
        throw new Error(`category ${category}: expected an array of non-empty strings`);
      }
      if (list.length > 0) byCategory[category] = list;
    }
    if (Object.keys(byCategory).length === 0) throw new Error('the plants file holds no values');
    return new Plants(byCategory);
  }
}

class Picker {
  #plants;
  #seed;
  #cursor;
  #cursors = new Map(); // per category, and one for URI-safe values

  constructor(plants, seed) {
    this.#plants = plants;
    this.#seed = seed;
    this.#cursor = seed;
  }

  #cycle(key, list) {
    const at = this.#cursors.get(key) ?? this.#seed;
    this.#cursors.set(key, at + 1);
    return list[at % list.length];
  }

  /** The next value, any category. */
  next() {
    const order = this.#plants.order;
    return order[this.#cursor++ % order.length];
  }

  /** The next value of a category, or any value when the file has none of that category. */
  of(category) {
    const list = this.#plants.byCategory[category];
    return list ? this.#cycle(category, list) : this.next();
  }

  /**
   * A value that can sit verbatim in a URI path: preferably of `category`, else any URI-safe value.
   * If no value is URI-safe at all it is percent-encoded (then the literal value is not in the URI).
   */
  forUri(category = 'EMAIL') {
    const own = (this.#plants.byCategory[category] ?? []).filter((v) => URI_SAFE.test(v));
    if (own.length > 0) return this.#cycle(`uri:${category}`, own);
    if (this.#plants.uriSafe.length > 0) return this.#cycle('uri', this.#plants.uriSafe);
    return encodeURIComponent(this.next());
  }
}

// ---------------------------------------------------------------------------------------------
// Harmless binary payloads, built here so they are real files of their type

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8x8 RGB PNG with a simple gradient. */
function buildPng() {
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0]; // filter: none
    for (let x = 0; x < size; x++) row.push(x * 32, y * 32, 128);
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 16 ms, 8 kHz, 8-bit mono WAV with a short square wave. */
function buildWav() {
  const samples = Buffer.from(Array.from({ length: 128 }, (_, i) => (i % 16 < 8 ? 96 : 160)));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

const PNG_BASE64 = buildPng().toString('base64');
const WAV_BASE64 = buildWav().toString('base64');

// ---------------------------------------------------------------------------------------------
// Surfaces

/**
 * Every surface this server plants values on. `via` says how to reach it; `inPlantEverything`
 * whether plant_everything exercises it. Returned as JSON text by the `surfaces` tool.
 */
const SURFACES = [
  ['tool.text', 'tools/call text_content', true],
  ['tool.long_text', 'tools/call long_text', true],
  ['tool.structured_values', 'tools/call structured_content', true],
  ['tool.structured_keys', 'tools/call structured_keys', true],
  ['tool.is_error', 'tools/call error_result', false],
  ['tool.embedded_resource', 'tools/call embedded_resource', true],
  ['tool.resource_link', 'tools/call resource_link', true],
  ['tool.binary_content', 'tools/call binary_content', true],
  ['tool.custom_content', 'tools/call custom_content', true],
  ['tool.result_meta', 'tools/call result_meta', true],
  ['rpc.error', 'tools/call rpc_error', false],
  // issue 14: a name between slashes in an error, as a JSON-RPC error and as a result with isError
  ['rpc.no_invoice', 'tools/call no_invoice_rpc_error', false],
  ['tool.no_invoice', 'tools/call no_invoice_is_error', false],
  ['sampling', 'tools/call ask_sampling', true],
  ['elicitation', 'tools/call ask_elicitation', true],
  ['notifications.log', 'tools/call log_notifications', true],
  ['notifications.progress', 'tools/call progress_notifications (with a progressToken; "halfway through NAME (step 2 of 4)")', true],
  ['notifications.standalone', 'tools/call standalone_notifications', true],
  // issue 14: members beside params, which JSON-RPC does not define and a client may still show
  ['notifications.envelope', 'tools/call log_notifications and progress_notifications (a member beside params)', true],
  ['notifications.resource_updated', 'tools/call resource_updated', true],
  ['resources.list', 'resources/list', false],
  ['resources.templates', 'resources/templates/list', false],
  ['resources.read_text', 'resources/read of the text resources and of template URIs', false],
  ['resources.read_blob', 'resources/read of the blob resource (harmless bytes; only its uri carries a value)', false],
  ['resources.read_error', 'resources/read of the listed-but-gone resource or of any unknown URI', false],
  ['prompts.messages', 'prompts/get prompt_messages', false],
  ['prompts.embedded_resource', 'prompts/get prompt_embedded_resource', false],
  ['prompts.arguments_echo', 'prompts/get prompt_echo', false],
  ['completion', 'completion/complete (any prompt argument or template variable)', false],
  // values written differently (Unicode, obfuscation, encodings)
  ['tool.split_fields', 'tools/call split_fields (cards split over sibling JSON values, as structuredContent and as JSON text)', false],
].map(([name, via, inPlantEverything]) => ({ name, via, inPlantEverything }));

const text = (t) => ({ type: 'text', text: t });

// A JSON-RPC error whose message goes on the wire exactly as given (McpError would prefix
// "MCP error <code>: " to it); the SDK copies `code`, `message` and `data` into the response.
function rpcError(code, message, data) {
  const err = new Error(message);
  err.code = code;
  if (data !== undefined) err.data = data;
  return err;
}

// --- tool result parts (pure functions of the plants, so plant_everything reuses them verbatim) ---

function textContent(plants) {
  const p = plants.picker('tool.text');
  return [
    text(`Customer ${p.of('PERSON')} can be reached at ${p.of('EMAIL')} or ${p.of('PHONE')}.`),
    text(`Last login from ${p.next()}; backup contact ${p.next()}`),
    text(p.next()), // a block that is nothing but the value
  ];
}

function longText(plants) {
  // Every planted value, in prose, with a variety of surroundings.
  const shapes = [
    (v) => `According to the ticket, the customer mentioned ${v} twice.`,
    (v) => `Reference: ${v}.`,
    (v) => `(${v})`,
    (v) => `"${v}", said the agent,`,
    (v) => `value=${v};`,
    (v) => `\n- ${v}`,
  ];
  const parts = plants.all().map((v, i) => shapes[i % shapes.length](v));
  return [text(`CRM export, ${parts.length} noteworthy items follow. ${parts.join(' ')}\nEnd of export.`)];
}

function structuredValues(plants) {
  const p = plants.picker('tool.structured_values');
  return {
    customer: {
      name: p.of('PERSON'),
      contact: { email: p.of('EMAIL'), phone: p.of('PHONE'), alternates: [p.next(), p.next()] },
      addresses: [{ label: 'home', lastSeenIp: p.of('IP_ADDRESS') }, { label: 'work', note: `ask for ${p.of('PERSON')}` }],
    },
    payment: { card: p.of('CREDIT_CARD'), iban: p.of('IBAN'), amount: 129.9, currency: 'EUR', installments: 3 },
    identifiers: [p.of('US_SSN'), p.of('SECRET')],
    // Every value once, so this surface alone covers the whole plants file.
    records: plants.all().map((value, i) => ({ id: i + 1, value, verified: i % 2 === 0 })),
    // issue 14: every name under a key that says so, as a CRM record holds them: the cloak knows them from here on,
    // whatever the PERSON model makes of them in prose, errors and notifications later in the session
    people: (plants.byCategory.PERSON ?? []).map((name) => ({ name, role: 'contact' })),
  };
}

function structuredKeys(plants) {
  const p = plants.picker('tool.structured_keys');
  const contacts = {};
  for (let i = 0; i < 2; i++) contacts[p.of('EMAIL')] = { phone: p.of('PHONE'), name: p.of('PERSON') };
  return {
    contacts, // {"marie.dubois@example-eu.fr": {"phone": ..., "name": ...}, ...}
    byAnyValue: { [p.next()]: { seen: 2 }, [p.next()]: { seen: 5, nested: { [p.next()]: true } } },
  };
}

function embeddedResources(plants) {
  const p = plants.picker('tool.embedded_resource');
  const home = `file:///home/${p.forUri('EMAIL')}`;
  return [
    {
      type: 'resource',
      resource: {
        uri: `${home}/notes.txt`,
        mimeType: 'text/plain',
        text: `Notes about ${p.of('PERSON')}: prefers ${p.of('PHONE')}, card on file ${p.of('CREDIT_CARD')}.`,
      },
    },
    // Blob payloads are harmless; only the uri carries a value.
    { type: 'resource', resource: { uri: `${home}/id-scan.png`, mimeType: 'image/png', blob: PNG_BASE64 } },
  ];
}

function resourceLinks(plants) {
  const p = plants.picker('tool.resource_link');
  const person = p.of('PERSON');
  return [
    {
      type: 'resource_link',
      uri: `file:///home/${p.forUri('EMAIL')}/contract.pdf`,
      name: `Contract of ${person}`,
      title: `Contract ${person} / ${p.of('EMAIL')}`,
      description: `Signed by ${person} (${p.of('PHONE')}), paid by ${p.of('IBAN')}, see also ${p.next()}`,
      mimeType: 'application/pdf',
    },
  ];
}

function binaryContent(plants) {
  const p = plants.picker('tool.binary_content');
  return [
    {
      type: 'image',
      data: PNG_BASE64,
      mimeType: 'image/png',
      annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-15T10:30:00Z' },
      _meta: { capturedBy: p.of('PERSON'), uploadedFrom: p.of('IP_ADDRESS') },
    },
    {
      type: 'audio',
      data: WAV_BASE64,
      mimeType: 'audio/wav',
      annotations: { audience: ['user'], priority: 0.2 },
      _meta: { caller: p.of('PHONE'), transcriptOwner: p.next() },
    },
  ];
}

function customContent(plants) {
  const p = plants.picker('tool.custom_content');
  return [
    {
      type: 'x-crm-record',
      owner: p.of('EMAIL'),
      meta: { secondaryContact: p.of('PHONE'), tags: [p.of('PERSON'), p.next()] },
      history: [{ at: '2025-02-01T09:00:00Z', by: p.next(), note: `called ${p.of('PHONE')}` }],
      score: 42,
    },
    { type: 'x-ledger-entry', counterparty: { name: p.of('PERSON'), account: p.of('IBAN') }, amount: '12.50' },
  ];
}

// card numbers split over sibling JSON values, which no single string holds whole
// Every 16-digit card written with ASCII digits, as four strings of four digits and as two fields named
// card_1 and card_2; the test searches for the quoted parts.
function splitFields(plants) {
  const cards = (plants.byCategory.CREDIT_CARD ?? []).map((v) => v.replace(/[^0-9]/g, '')).filter((d) => d.length === 16);
  const groups = (d) => [d.slice(0, 4), d.slice(4, 8), d.slice(8, 12), d.slice(12)];
  return {
    payments: cards.map((d) => {
      const g = groups(d);
      return { holder: 'on file', card_1: `${g[0]} ${g[1]}`, card_2: `${g[2]} ${g[3]}`, expires: '12/29' };
    }),
    pan_parts: cards.map(groups),
  };
}

function resultMeta(plants) {
  const p = plants.picker('tool.result_meta');
  return {
    content: [text('Result metadata attached.'), { ...text('Block with metadata.'), _meta: { reviewer: p.of('PERSON') } }],
    _meta: {
      'com.example.crm/owner': p.of('EMAIL'),
      'com.example.crm/audit': [{ by: p.next(), from: p.of('IP_ADDRESS') }],
      'com.example.crm/index': { [p.of('EMAIL')]: p.of('PHONE') },
    },
  };
}

// --- call-time actions (notifications and server-to-client requests) ---
// `ctx` is { server, extra, subscriptions }: the session's Server, the tools/call handler's `extra`
// (request id, progress token, sendNotification/sendRequest tied to the call), and the URIs the
// session subscribed to.

function sendLog(ctx, standalone, level, logger, data) {
  if (ctx.server.isMessageIgnored(level, ctx.extra.sessionId)) return Promise.resolve(); // honours logging/setLevel
  const notification = { method: 'notifications/message', params: { level, logger, data } };
  // Tied to the call (over HTTP: on its POST SSE stream), or to no request (over HTTP: the GET stream).
  return standalone ? ctx.server.notification(notification) : ctx.extra.sendNotification(notification);
}

async function logNotifications(ctx, plants) {
  const p = plants.picker('notifications.log');
  await sendLog(ctx, false, 'info', `crm.sync/${p.of('EMAIL')}`, `Synced contact ${p.of('PERSON')} <${p.of('EMAIL')}>`);
  await sendLog(ctx, false, 'warning', 'crm.sync', {
    event: 'duplicate-contact',
    contact: { name: p.of('PERSON'), phone: p.of('PHONE') },
    seenFrom: [p.of('IP_ADDRESS'), p.next()],
    byValue: { [p.next()]: p.next() },
  });
  await sendLog(ctx, false, 'error', 'crm.billing', `Card ${p.of('CREDIT_CARD')} declined for ${p.next()}`);
  // issue 14: a name between slashes, data as a string and as an object
  await sendLog(ctx, false, 'error', 'crm.billing', noInvoice(p));
  await sendLog(ctx, false, 'error', 'crm.billing', { error: noInvoice(p), progress: `halfway through ${p.of('PERSON')} (step 2 of 4)` });
  // issue 14: a family name alone, after the full name was mentioned (in an earlier message)
  await sendLog(ctx, false, 'warning', 'crm.billing', `${familyName(p.of('PERSON'))} has not paid invoice 2025-001`);
  if (!ctx.server.isMessageIgnored('info', ctx.extra.sessionId)) {
    // the SDK sends every member of the notification object, beside params too
    await ctx.extra.sendNotification({
      method: 'notifications/message',
      params: { level: 'info', logger: 'crm.sync', data: 'see detail' },
      detail: { customer: p.of('PERSON'), note: `halfway through ${p.of('PERSON')} (step 2 of 4)` },
    });
  }
}

/** The last word of a name: "Dubois" of "Marie Dubois". */
function familyName(name) {
  const words = name.trim().split(/\s+/);
  return words[words.length - 1];
}

/** "no invoice for EMAIL / NAME / SSN SSN": the shape of a real server's error (issue 14). */
function noInvoice(p) {
  return `no invoice for ${p.of('EMAIL')} / ${p.of('PERSON')} / SSN ${p.of('US_SSN')}`;
}

async function progressNotifications(ctx, plants) {
  const token = ctx.extra._meta?.progressToken;
  if (token === undefined) return false;
  const p = plants.picker('notifications.progress');
  const steps = [
    `Looking up ${p.of('PERSON')}`,
    `halfway through ${p.of('PERSON')} (step 2 of 4)`, // issue 14: what a real server's progress message says
    `Checking ${p.of('EMAIL')} and ${p.of('PHONE')}`,
    `Verifying ${p.next()}`,
  ];
  for (let i = 0; i < steps.length; i++) {
    await ctx.extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress: i + 1, total: steps.length, message: steps[i] },
      ...(i === 1 ? { status: steps[i] } : {}), // a member beside params (issue 14)
    });
  }
  return true;
}

async function standaloneNotifications(ctx, plants) {
  const p = plants.picker('notifications.standalone');
  await sendLog(ctx, true, 'info', `crm.watch/${p.of('EMAIL')}`, `Background check finished for ${p.of('PERSON')}`);
  await sendLog(ctx, true, 'warning', 'crm.watch', {
    alert: 'login-from-new-address',
    user: p.of('EMAIL'),
    address: p.of('IP_ADDRESS'),
    details: [p.next(), { [p.next()]: p.next() }],
  });
  // issue 14: the same shapes on the standalone stream
  await sendLog(ctx, true, 'error', 'crm.watch', noInvoice(p));
  await sendLog(ctx, true, 'info', 'crm.watch', { status: `halfway through ${p.of('PERSON')} (step 2 of 4)`, last: noInvoice(p) });
}

// URIs carrying values: the listed resources' plus whatever this session subscribed to.
async function resourceUpdated(ctx, plants, { standalone = false } = {}) {
  const uris = new Set([...listedResources(plants).map((r) => r.uri), ...ctx.subscriptions]);
  for (const uri of uris) {
    const notification = { method: 'notifications/resources/updated', params: { uri } };
    await (standalone ? ctx.server.notification(notification) : ctx.extra.sendNotification(notification));
  }
  return uris.size;
}

async function askSampling(ctx, plants) {
  if (!ctx.server.getClientCapabilities()?.sampling) {
    return 'sampling: skipped, the client has no sampling capability';
  }
  const p = plants.picker('sampling');
  const person = p.of('PERSON');
  // extra.sendRequest ties the request to the call (over HTTP: sent on the call's own SSE stream).
  await ctx.extra.sendRequest(
    {
      method: 'sampling/createMessage',
      params: {
        systemPrompt: `You assist the account manager of ${person} (${p.of('EMAIL')}).`,
        messages: [
          { role: 'user', content: text(`Draft a reply to ${person}, phone ${p.of('PHONE')}.`) },
          { role: 'assistant', content: text(`Sure. Should I mention the card ${p.of('CREDIT_CARD')}?`) },
          { role: 'user', content: text(`Yes, and the IBAN ${p.of('IBAN')} and ${p.next()}.`) },
        ],
        maxTokens: 200,
      },
    },
    CreateMessageResultSchema,
  );
  return 'sampling: answered'; // never echo the answer: it is the client's, not a planted surface
}

async function askElicitation(ctx, plants) {
  if (!ctx.server.getClientCapabilities()?.elicitation) {
    return 'elicitation: skipped, the client has no elicitation capability';
  }
  const p = plants.picker('elicitation');
  const person = p.of('PERSON');
  const email = p.of('EMAIL');
  const phone = p.of('PHONE');
  const result = await ctx.extra.sendRequest(
    {
      method: 'elicitation/create',
      params: {
        message: `Please confirm the contact details of ${person} (${email}).`,
        requestedSchema: {
          type: 'object',
          properties: {
            email: {
              type: 'string',
              format: 'email',
              title: `E-mail of ${person}`,
              description: `Currently ${email}`,
              default: email,
            },
            phone: { type: 'string', title: 'Phone', description: `On file: ${phone}`, default: phone },
            preferred: {
              type: 'string',
              title: 'Preferred channel',
              oneOf: [
                { const: email, title: `E-mail ${email}` },
                { const: phone, title: `Phone ${phone}` },
              ],
              default: email,
            },
            confirmed: { type: 'boolean', description: `I confirm that ${p.next()} belongs to ${person}`, default: true },
          },
          required: ['confirmed'],
        },
      },
    },
    ElicitResultSchema,
  );
  return `elicitation: answered (${result.action})`; // the content is the client's: not echoed
}

// ---------------------------------------------------------------------------------------------
// Resources, templates, prompts, completions

/** The listed resources (computed from the plants, hence the same on every call). */
function listedResources(plants) {
  const p = plants.picker('resources.list');
  const person = p.of('PERSON');
  const email = p.of('EMAIL');
  const home = `file:///home/${p.forUri('EMAIL')}`;
  return [
    {
      uri: `${home}/`,
      name: `Home of ${person}`,
      title: `Home folder of ${person}`,
      description: `Files of ${person} <${email}>`,
      mimeType: 'text/plain',
      read: () => {
        const r = plants.picker('resources.read_text.home');
        return { text: `owner: ${r.of('PERSON')} <${r.of('EMAIL')}>\nnotes.txt\nid-scan.png\ndeleted.txt\n` };
      },
    },
    {
      uri: `${home}/notes.txt`,
      name: `Notes about ${person}`,
      title: `Notes (${email})`,
      description: `Call notes; phone ${p.of('PHONE')}`,
      mimeType: 'text/plain',
      read: () => {
        const r = plants.picker('resources.read_text');
        return {
          text:
            `Notes about ${r.of('PERSON')}\nPhone: ${r.of('PHONE')}\n` +
            `SSN: ${r.of('US_SSN')}\nSee ${r.next()} and ${r.next()}.\n`,
        };
      },
    },
    {
      uri: `crm://customers/${p.forUri('EMAIL')}/invoice-2025-001.txt`,
      name: `Invoice for ${p.of('PERSON')}`,
      title: `Invoice 2025-001 for ${p.of('PERSON')}`,
      description: `Sent to ${p.of('EMAIL')}, paid with card ${p.of('CREDIT_CARD')}`,
      mimeType: 'text/plain',
      read: () => {
        const r = plants.picker('resources.read_text.invoice');
        return {
          text:
            `INVOICE 2025-001\nBill to: ${r.of('PERSON')} <${r.of('EMAIL')}>\n` +
            `IBAN: ${r.of('IBAN')}\nCard: ${r.of('CREDIT_CARD')}\nTotal: 129.90 EUR\n`,
        };
      },
    },
    {
      uri: `net://hosts/${p.forUri('IP_ADDRESS')}/audit.log`,
      name: `Audit log of ${p.next()}`,
      description: `Logins of ${p.of('PERSON')} from ${p.of('IP_ADDRESS')}`,
      mimeType: 'text/plain',
      read: () => {
        const r = plants.picker('resources.read_text.audit');
        return { text: `login ok user=${r.of('EMAIL')} from=${r.of('IP_ADDRESS')} key=${r.of('SECRET')}\n` };
      },
    },
    {
      uri: `${home}/id-scan.png`,
      name: `ID scan of ${p.of('PERSON')}`,
      description: `Scanned ID card, owner ${p.next()}`,
      mimeType: 'image/png',
      read: () => ({ blob: PNG_BASE64 }), // harmless bytes: binary that is not text passes the gateway unchanged
    },
    {
      uri: `${home}/deleted.txt`,
      name: `Deleted note of ${p.of('PERSON')}`,
      description: 'Listed, but reading it fails like a file removed meanwhile',
      mimeType: 'text/plain',
      read: null,
    },
  ];
}

function resourceTemplates(plants) {
  const p = plants.picker('resources.templates');
  const person = p.of('PERSON');
  const email = p.forUri('EMAIL');
  return [
    {
      uriTemplate: `file:///home/${email}/{path}`,
      name: `Files of ${person}`,
      title: `Any file of ${person}`,
      description: `Any file in the home folder of ${person} (${p.of('EMAIL')})`,
      mimeType: 'text/plain',
      prefix: `file:///home/${email}/`,
    },
    {
      uriTemplate: 'crm://customers/{customer}/profile',
      name: `Customer profile, e.g. ${p.of('PERSON')}`,
      description: `Profile of a customer by e-mail address, for instance ${p.of('EMAIL')} or ${p.next()}`,
      mimeType: 'text/plain',
      pattern: /^crm:\/\/customers\/([^/]+)\/profile$/,
    },
  ];
}

function readTemplated(plants, uri) {
  const [files, profiles] = resourceTemplates(plants);
  const r = plants.picker('resources.read_text.template');
  if (uri.startsWith(files.prefix) && uri.length > files.prefix.length) {
    return { text: `Contents of ${uri.slice(files.prefix.length)}, owned by ${r.of('PERSON')} (${r.of('PHONE')}).\n` };
  }
  const m = profiles.pattern.exec(uri);
  if (m) {
    const customer = decodeURIComponent(m[1]);
    return { text: `Profile of ${customer}: ${r.of('PERSON')}, ${r.of('PHONE')}, ${r.of('US_SSN')}, ${r.next()}\n` };
  }
  return null;
}

function notFound(uri) {
  // Like @modelcontextprotocol/server-filesystem, the message echoes the requested path.
  const path = uri.startsWith('file://') ? uri.slice('file://'.length) : uri;
  const message = `Resource not found: ${uri} (ENOENT: no such file or directory, open '${path}')`;
  return rpcError(RESOURCE_NOT_FOUND, message, { uri });
}

const PROMPTS = [
  { name: 'prompt_messages', description: 'A short conversation between a user and an assistant' },
  { name: 'prompt_embedded_resource', description: 'A prompt with an embedded resource and a resource link' },
  {
    name: 'prompt_echo',
    description: 'Echoes its arguments into the prompt',
    arguments: [
      { name: 'customer', description: 'Whose account to summarize', required: true },
      { name: 'note', description: 'An extra note', required: false },
    ],
  },
];

function getPrompt(plants, name, args) {
  switch (name) {
    case 'prompt_messages': {
      const p = plants.picker('prompts.messages');
      const person = p.of('PERSON');
      return {
        description: `Conversation about ${person}`, // the get result, unlike prompts/list, may carry values
        messages: [
          { role: 'user', content: text(`What do we know about ${person}?`) },
          {
            role: 'assistant',
            content: text(`${person} uses ${p.of('EMAIL')} and ${p.of('PHONE')}; SSN ${p.of('US_SSN')}.`),
          },
          { role: 'user', content: text(`And the card ${p.of('CREDIT_CARD')} and ${p.next()}?`) },
        ],
      };
    }
    case 'prompt_embedded_resource': {
      const p = plants.picker('prompts.embedded_resource');
      const home = `file:///home/${p.forUri('EMAIL')}`;
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: `${home}/notes.txt`,
                mimeType: 'text/plain',
                text: `Notes: ${p.of('PERSON')}, ${p.of('PHONE')}, ${p.next()}`,
              },
            },
          },
          {
            role: 'user',
            content: {
              type: 'resource_link',
              uri: `${home}/contract.pdf`,
              name: `Contract of ${p.of('PERSON')}`,
              description: `Mentions ${p.next()}`,
            },
          },
          { role: 'assistant', content: text(`I read the notes of ${p.of('PERSON')}.`) },
        ],
      };
    }
    case 'prompt_echo': {
      const customer = args?.customer;
      if (typeof customer !== 'string') throw rpcError(ErrorCode.InvalidParams, 'Missing required argument: customer');
      const note = typeof args.note === 'string' ? args.note : '';
      const p = plants.picker('prompts.arguments_echo');
      return {
        description: `Account summary for ${customer}`,
        messages: [
          { role: 'user', content: text(`Summarize the account of ${customer}. Note: ${note}`) },
          {
            role: 'assistant',
            content: text(`Account of ${customer}: e-mail ${p.of('EMAIL')}, IBAN ${p.of('IBAN')}, ${p.next()}.`),
          },
        ],
      };
    }
    default:
      throw rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Tools

function buildTools(plants) {
  const content = (blocks) => async () => ({ content: blocks(plants) });
  return {
    surfaces: {
      description: 'Lists, as JSON text, the surfaces this server plants values on and how to reach each',
      run: async () => ({ content: [text(JSON.stringify(SURFACES))] }),
    },
    text_content: { description: 'Text content blocks', run: content(textContent) },
    long_text: { description: 'One long text with every planted value', run: content(longText) },
    structured_content: {
      description: 'structuredContent with nested objects and arrays',
      run: async () => ({ content: [text('See structuredContent.')], structuredContent: structuredValues(plants) }),
    },
    structured_keys: {
      description: 'structuredContent whose keys are planted values',
      run: async () => ({ content: [text('See structuredContent.')], structuredContent: structuredKeys(plants) }),
    },
    error_result: {
      description: 'A tool result with isError: true',
      run: async () => {
        const p = plants.picker('tool.is_error');
        return {
          isError: true,
          content: [
            text(`Could not charge ${p.of('CREDIT_CARD')} for ${p.of('PERSON')}: the bank rejected ${p.of('IBAN')}.`),
            text(`Contact ${p.of('EMAIL')} or ${p.next()}.`),
          ],
        };
      },
    },
    embedded_resource: { description: 'Embedded resources (text and blob)', run: content(embeddedResources) },
    resource_link: { description: 'A resource_link block', run: content(resourceLinks) },
    binary_content: { description: 'Image and audio blocks with annotations and _meta', run: content(binaryContent) },
    custom_content: { description: 'Content blocks of types no spec defines', run: content(customContent) },
    result_meta: { description: '_meta on the result and on a content block', run: async () => resultMeta(plants) },
    // values written differently (Unicode, obfuscation, encodings)
    split_fields: {
      description: 'Card numbers split over sibling JSON values, as structuredContent and as JSON text',
      run: async () => ({ content: [text(JSON.stringify(splitFields(plants)))], structuredContent: splitFields(plants) }),
    },
    rpc_error: {
      description: `Answers with a JSON-RPC error ${TOOL_ERROR_CODE}`,
      run: async () => {
        const p = plants.picker('rpc.error');
        const email = p.of('EMAIL');
        const message = `Lookup failed for ${p.of('PERSON')} <${email}>: card ${p.of('CREDIT_CARD')} is blocked`;
        throw rpcError(TOOL_ERROR_CODE, message, {
          customer: { email, phones: [p.of('PHONE'), p.next()] },
          byEmail: { [email]: { ssn: p.of('US_SSN') } },
          attempts: [{ from: p.of('IP_ADDRESS'), key: p.of('SECRET') }],
          retryable: false,
        });
      },
    },
    // issue 14: a name between slashes in an error
    no_invoice_rpc_error: {
      description: `Answers with a JSON-RPC error ${TOOL_ERROR_CODE} whose message is "no invoice for EMAIL / NAME / SSN SSN"`,
      run: async () => {
        throw rpcError(TOOL_ERROR_CODE, noInvoice(plants.picker('rpc.no_invoice')));
      },
    },
    no_invoice_is_error: {
      description: 'A tool result with isError: true saying "no invoice for EMAIL / NAME / SSN SSN"',
      run: async () => ({ isError: true, content: [text(noInvoice(plants.picker('tool.no_invoice')))] }),
    },
    ask_sampling: {
      description: 'Sends sampling/createMessage to the client during the call',
      run: async (_args, ctx) => ({ content: [text(await askSampling(ctx, plants))] }),
    },
    ask_elicitation: {
      description: 'Sends elicitation/create to the client during the call',
      run: async (_args, ctx) => ({ content: [text(await askElicitation(ctx, plants))] }),
    },
    log_notifications: {
      description: 'Sends logging notifications tied to the call',
      run: async (_args, ctx) => {
        await logNotifications(ctx, plants);
        return { content: [text('logged')] };
      },
    },
    progress_notifications: {
      description: 'Sends progress notifications with messages (needs a progressToken)',
      run: async (_args, ctx) => {
        const sent = await progressNotifications(ctx, plants);
        return { content: [text(sent ? 'progress sent' : 'no progressToken: nothing sent')] };
      },
    },
    standalone_notifications: {
      description: 'Sends logging notifications tied to no request (over HTTP: the GET stream), after delay_ms if given',
      inputSchema: { type: 'object', properties: { delay_ms: { type: 'integer', minimum: 0 } } },
      run: async (args, ctx) => {
        const delay = Number.isInteger(args.delay_ms) && args.delay_ms > 0 ? args.delay_ms : 0;
        if (delay === 0) {
          await standaloneNotifications(ctx, plants);
          return { content: [text('standalone notifications sent')] };
        }
        setTimeout(() => {
          standaloneNotifications(ctx, plants).catch((err) => logErr(TAG, 'standalone send failed:', err?.message ?? err));
        }, delay);
        return { content: [text(`standalone notifications follow in ${delay} ms`)] };
      },
    },
    resource_updated: {
      description: 'Sends notifications/resources/updated for the listed and the subscribed resources',
      inputSchema: { type: 'object', properties: { standalone: { type: 'boolean' } } },
      run: async (args, ctx) => {
        const n = await resourceUpdated(ctx, plants, { standalone: args.standalone === true });
        return { content: [text(`${n} updates sent`)] };
      },
    },
    plant_everything: {
      description: 'Exercises every call-time surface in one call and returns content of every kind',
      inputSchema: {
        type: 'object',
        properties: { sampling: { type: 'boolean' }, elicitation: { type: 'boolean' } },
      },
      run: async (args, ctx) => {
        await logNotifications(ctx, plants);
        const progressed = await progressNotifications(ctx, plants);
        await standaloneNotifications(ctx, plants);
        await resourceUpdated(ctx, plants);
        const sampled = args.sampling === false ? 'sampling: skipped by argument' : await askSampling(ctx, plants);
        const elicited = args.elicitation === false ? 'elicitation: skipped by argument' : await askElicitation(ctx, plants);
        const meta = resultMeta(plants);
        return {
          content: [
            ...textContent(plants),
            ...longText(plants),
            ...embeddedResources(plants),
            ...resourceLinks(plants),
            ...binaryContent(plants),
            ...customContent(plants),
            ...meta.content,
            text([sampled, elicited, progressed ? 'progress sent' : 'no progressToken: no progress'].join('; ')),
          ],
          structuredContent: { ...structuredValues(plants), ...structuredKeys(plants) },
          _meta: meta._meta,
        };
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server

function createServer(plants) {
  const server = new Server(
    { name: 'leak-probe', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {}, // the SDK answers logging/setLevel; isMessageIgnored honours it per session
        completions: {},
      },
      instructions: 'Leak probe for cloakgate tests.',
    },
  );
  const tools = buildTools(plants);
  const subscriptions = new Set(); // per session (one Server per HTTP session)

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([name, t]) => ({
      name,
      description: t.description,
      inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
    })),
  }));

  // Installed with Protocol's setRequestHandler on purpose: Server's own override parses every
  // tools/call result with the SDK's zod schema, which rejects content blocks of invented types
  // (custom_content) and strips fields it does not know. This server must put on the wire exactly
  // what it builds.
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, async (request, extra) => {
    const tool = tools[request.params.name];
    if (!tool) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool.run(request.params.arguments ?? {}, { server, extra, subscriptions });
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: listedResources(plants).map(({ read: _read, ...resource }) => resource),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resourceTemplates(plants).map(({ prefix: _p, pattern: _q, ...template }) => template),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const listed = listedResources(plants).find((r) => r.uri === uri);
    if (listed?.read) return { contents: [{ uri, mimeType: listed.mimeType, ...listed.read() }] };
    if (listed) throw notFound(uri);
    const templated = readTemplated(plants, uri);
    if (templated) return { contents: [{ uri, mimeType: 'text/plain', ...templated }] };
    throw notFound(uri);
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    getPrompt(plants, request.params.name, request.params.arguments),
  );

  // Every planted value is offered for any argument, those starting with what was typed first,
  // so a test always sees values whatever it types.
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const typed = (request.params.argument?.value ?? '').toLowerCase();
    const all = plants.all();
    const matching = all.filter((v) => v.toLowerCase().startsWith(typed));
    const values = [...matching, ...all.filter((v) => !matching.includes(v))].slice(0, 100); // spec: at most 100
    return { completion: { values, total: all.length, hasMore: all.length > values.length } };
  });

  return server;
}

// Load the plants once, before serving, so a bad file fails fast (exit 2) rather than per session.
let plants;
try {
  const { options } = parseArgs(process.argv.slice(2), { switches: ['strict-version-header'] });
  if (typeof options.plants !== 'string') throw new Error('--plants FILE is required');
  plants = Plants.load(options.plants);
} catch (err) {
  logErr(TAG, `usage error: ${err.message}`);
  logErr(TAG, 'usage: node leak-probe-server.mjs stdio|http <port> --plants FILE');
  process.exit(2);
}
logErr(TAG, `planting ${plants.all().length} values of ${Object.keys(plants.byCategory).length} categories`);

await main(() => createServer(plants), { tag: TAG });
