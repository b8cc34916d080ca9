// Module-customisation hooks (see register.mjs for why they exist).
// Only modules of the conformance package are redirected; every other module, including the
// shim itself, still gets the real node:fs.
const SHIM_URL = new URL('./fs-shim.mjs', import.meta.url).href;
const CONFORMANCE_DIR = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(CONFORMANCE_DIR)) {
    return { url: SHIM_URL, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
