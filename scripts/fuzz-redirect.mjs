// Builds native/core/test/fuzz_redirect.cpp with clang's libFuzzer, AddressSanitizer and
// UndefinedBehaviorSanitizer, seeds it from the checked-in corpus (test/fuzz/corpus/*.jsonl,
// one file per input) and runs it for a bounded time. Not part of `npm test`.
//   node scripts/fuzz-redirect.mjs [seconds=30]
// Needs clang++ with compiler-rt (Debian: apt-get install -y clang). Crashing inputs are written
// to build-fuzz/ as crash-*; add them to the corpus once fixed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fuzz, root } from './lib/fuzz.mjs';

fuzz({
  script: 'fuzz-redirect.mjs',
  harness: 'fuzz_redirect',
  outDir: 'build-fuzz',
  writeSeeds: (seeds) => {
    // One file per corpus input, placeholders expanded as the JavaScript tests do.
    const values = { STATE: 'Fuzz-state_0.~9', SCHEME: 'discord-1234567890123456789' };
    let count = 0;
    for (const name of readdirSync(path.join(root, 'test', 'fuzz', 'corpus'))) {
      if (!name.endsWith('.jsonl')) continue;
      for (const line of readFileSync(path.join(root, 'test', 'fuzz', 'corpus', name), 'utf8').split('\n')) {
        if (line.trim() === '' || line.startsWith('#')) continue;
        const input = JSON.parse(line)
          .input.replace(/\{([^{}*]+)\*(\d+)\}/g, (_, text, n) => text.repeat(Math.min(Number(n), 10_000)))
          .replace(/\{([A-Z]+)\}/g, (whole, key) => values[key] ?? whole);
        // Both the whole URL and its query, since EvaluateRedirect takes a query.
        const query = input.includes('?') ? input.slice(input.indexOf('?') + 1) : input;
        writeFileSync(path.join(seeds, `seed-${String(count++).padStart(4, '0')}`), input);
        writeFileSync(path.join(seeds, `seed-${String(count++).padStart(4, '0')}`), query);
      }
    }
    return count;
  },
});
