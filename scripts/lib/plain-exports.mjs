// A rolldown plugin of the package's build (scripts/bundle.mjs), here so tests can run it on
// code of their own (test/plain-exports.test.ts).

/**
 * A chunk's exports as plain properties (`exports.x = x`) instead of the getters the bundler
 * writes for live bindings: V8 compiles each getter on its first read, and reading the sign-in
 * chunk's exports that way cost a quarter of a millisecond at every start-up. A plain property
 * is right only for a binding that is never reassigned, so a getter is rewritten only when the
 * chunk declares its local as a `const`, a function or a class (TypeScript refuses assignments to
 * the last two; `var X = class` is how the bundler writes a class with static members). Anything
 * else (`let`, `var`, a name a destructuring declares) keeps its getter: correct, only slower.
 * Runs before minification, where top-level declarations start their line.
 */
export const plainExports = {
  name: 'plain-exports',
  renderChunk(code) {
    const getter = /^Object\.defineProperty\(exports, ("[\w$]+"), \{\s*enumerable: true,\s*get: function\s*\(\)\s*\{\s*return ([\w$]+);\s*\}\s*\}\);$/gm;
    return code.replace(getter, (whole, key, local) => (neverReassigned(code, local) ? `exports.${key.slice(1, -1)} = ${local};` : whole));
  },
};
/** Whether a chunk declares `local` at its top level in a form that is never reassigned. */
function neverReassigned(code, local) {
  const name = local.replaceAll('$', '\\$');
  return new RegExp(`^(?:const ${name}(?![\\w$])|(?:async )?function\\*? ?${name}\\(|class ${name}(?![\\w$])|var ${name} = class\\b)`, 'm').test(code);
}
