// Loaded with `node --import ./conformance-shim/register.mjs`.
//
// @modelcontextprotocol/conformance 0.1.16 is built for Node 22+: its single bundled
// dist/index.js does `import { globSync } from "fs"`, and Node 20's fs has no globSync,
// so the whole CLI fails to link on Node 20. globSync is only used by the `tier-check`
// subcommand, which these tests never run, so we hand the conformance package (and only
// it) an `fs` that also exports a globSync stub.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
