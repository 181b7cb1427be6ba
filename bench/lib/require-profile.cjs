// Where the first require of the package spends its time: wraps Module._load to record each
// module's inclusive and self time. Used by `node bench/pkce.mjs --explain`. argv: <entry>.
const Module = require('node:module');
const path = require('node:path');

const entry = process.argv[2];
const root = path.resolve(__dirname, '..', '..');
const original = Module._load;
const stack = [];
const records = new Map();
Module._load = function timedLoad(request, parent, isMain) {
  const frame = { child: 0n };
  stack.push(frame);
  const start = process.hrtime.bigint();
  try {
    return original.apply(this, arguments);
  } finally {
    const spent = process.hrtime.bigint() - start;
    stack.pop();
    if (stack.length) stack[stack.length - 1].child += spent;
    let name = request;
    if (!Module.isBuiltin(request)) {
      try {
        name = path.relative(root, Module._resolveFilename(request, parent, isMain));
      } catch {}
    } else if (!name.startsWith('node:')) name = `node:${name}`;
    const record = records.get(name) ?? { inclusive: 0n, self: 0n };
    // Only the first (uncached) load of a module costs anything worth listing.
    if (record.inclusive === 0n) {
      record.inclusive = spent;
      record.self = spent - frame.child;
      records.set(name, record);
    }
  }
};
const t0 = process.hrtime.bigint();
const pkg = require(entry);
const t1 = process.hrtime.bigint();
void pkg.Client.defaultCommunicationScopes;
const t2 = process.hrtime.bigint();
const rows = [...records];
process.stdout.write(
  JSON.stringify({
    jsMs: Number(t1 - t0) / 1e6,
    addonMs: Number(t2 - t1) / 1e6,
    modules: rows.map(([n, r]) => ({ name: n, inclusiveMs: Number(r.inclusive) / 1e6, selfMs: Number(r.self) / 1e6 })),
  }) + '\n',
);
