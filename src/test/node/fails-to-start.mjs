#!/usr/bin/env node
// A stdio "server" that cannot start: it writes a few lines to stderr, as a misconfigured server does, and exits
// with code 7 before reading anything. The lines carry what stderr can carry (an e-mail address, an AWS key id,
// a terminal escape), then one very long line and many more lines, so a test can check that the gateway's log
// names the cause bounded and scrubbed.
//
//   node fails-to-start.mjs

const lines = [
  'Error: cannot read configuration /srv/app/config.yaml',
  'contact operator.contact@example-broken.org for access',
  'using key AKIAQ3EGRT6SLPXY7VZ2 \u001b[31mred\u001b[0m',
  'L'.repeat(5000),
];
for (let i = 1; i <= 40; i++) lines.push(`later line ${i}`);
process.stderr.write(lines.join('\n') + '\n', () => process.exit(7));
