// node:fs plus globSync for the conformance CLI (see register.mjs): the real one where Node has
// it (22+), otherwise a stub that fails when called (only the `tier-check` subcommand calls it).
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export const globSync =
  fs.globSync ??
  function globSync() {
    throw new Error('fs.globSync is not available on this Node version (conformance shim; only tier-check needs it)');
  };
