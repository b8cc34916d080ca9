#!/usr/bin/env node
// Runs the @modelcontextprotocol/conformance CLI on Node 20 (see conformance-shim/register.mjs
// for why it needs a shim there).
//
// Pass-through: every argument goes to the CLI, and its exit code is ours.
//   node run-conformance.mjs list --server
//   node run-conformance.mjs server --url http://127.0.0.1:PORT/mcp [--scenario S] [--suite all]
//
// Summary: runs the server scenarios and prints ONE JSON object to stdout,
//   {"<scenario>": {"success": n, "failure": n, "warning": n, "info": n}, ...}
// (the CLI's own output goes to stderr).
//   node run-conformance.mjs summary --url URL [--out FILE] [--suite all|active|pending]
//        [--scenario S]... [--spec-version V] [--results-dir DIR]
// --suite defaults to "all": the CLI's default "active" suite leaves out the pending scenarios
// (json-schema-2020-12, server-sse-polling) although `list --server` shows them.
// The CLI writes one checks.json per scenario under --results-dir (default
// results/summary-<time>-<pid>/ next to this file; kept for reading the details).
// Exit code: the CLI's (0 = no FAILURE check anywhere, 1 = some), or 2 when no summary could be made.

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHIM = pathToFileURL(join(HERE, 'conformance-shim', 'register.mjs')).href;
const CLI = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

/** Run the CLI. With captureStdout, its stdout is copied to our stderr and also returned. */
function runCli(args, { captureStdout = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', SHIM, CLI, ...args], {
      stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'inherit'],
    });
    let out = '';
    if (captureStdout) {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        process.stderr.write(chunk);
      });
    }
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolvePromise({ code: code ?? (signal ? 1 : 0), stdout: out });
    });
  });
}

function parseSummaryArgs(argv) {
  const opts = { suite: 'all', scenarios: [] };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined || !key.startsWith('--')) throw new Error(`unexpected argument ${key}`);
    i++;
    switch (key) {
      case '--url': opts.url = value; break;
      case '--out': opts.out = value; break;
      case '--suite': opts.suite = value; break;
      case '--scenario': opts.scenarios.push(value); break;
      case '--spec-version': opts.specVersion = value; break;
      case '--results-dir': opts.resultsDir = value; break;
      default: throw new Error(`unknown option ${key}`);
    }
  }
  if (!opts.url) throw new Error('--url is required');
  return opts;
}

// Result folders are named server-<scenario>-<ISO time with ':' and '.' turned into '-'>.
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function countChecks(checks) {
  const counts = { success: 0, failure: 0, warning: 0, info: 0 };
  for (const check of checks) {
    const key = String(check.status).toLowerCase();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function summary(argv) {
  const opts = parseSummaryArgs(argv);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = resolve(opts.resultsDir ?? join(HERE, 'results', `summary-${stamp}-${process.pid}`));
  mkdirSync(resultsDir, { recursive: true });
  process.stderr.write(`[run-conformance] results in ${resultsDir}\n`);

  const common = ['--url', opts.url, '-o', resultsDir];
  if (opts.specVersion) common.push('--spec-version', opts.specVersion);
  const runs = opts.scenarios.length > 0
    ? opts.scenarios.map((s) => ['server', ...common, '--scenario', s])
    : [['server', ...common, '--suite', opts.suite]];

  let exitCode = 0;
  const attempted = [];
  for (const args of runs) {
    const { code, stdout } = await runCli(args, { captureStdout: true });
    exitCode = Math.max(exitCode, code);
    // The CLI announces each scenario it starts; a scenario that crashes leaves no checks.json.
    for (const m of stdout.matchAll(/^Running client scenario '([^']+)'/gm)) attempted.push(m[1]);
  }

  const result = {};
  for (const entry of readdirSync(resultsDir).sort()) {
    const m = RESULT_DIR.exec(entry);
    const file = join(resultsDir, entry, 'checks.json');
    if (!m || !existsSync(file)) continue;
    result[m[1]] = countChecks(JSON.parse(readFileSync(file, 'utf8')));
  }
  for (const scenario of attempted) {
    if (!result[scenario]) {
      process.stderr.write(`[run-conformance] ${scenario}: no checks.json (the scenario crashed); counted as 1 failure\n`);
      result[scenario] = { success: 0, failure: 1, warning: 0, info: 0 };
      exitCode = Math.max(exitCode, 1);
    }
  }
  if (Object.keys(result).length === 0) {
    process.stderr.write('[run-conformance] no scenario produced results\n');
    return 2;
  }

  // Stable order: the order the CLI ran them in, then anything else.
  const ordered = {};
  for (const s of attempted) if (result[s]) ordered[s] = result[s];
  for (const s of Object.keys(result)) if (!ordered[s]) ordered[s] = result[s];

  const json = JSON.stringify(ordered, null, 2);
  if (opts.out) writeFileSync(opts.out, json + '\n');
  process.stdout.write(json + '\n');
  return exitCode;
}

const argv = process.argv.slice(2);
try {
  if (argv[0] === 'summary') {
    process.exitCode = await summary(argv.slice(1));
  } else {
    process.exitCode = (await runCli(argv)).code;
  }
} catch (err) {
  process.stderr.write(`[run-conformance] ${err.message}\n`);
  process.exitCode = 2;
}
