// Fuzzes the desktop client's IPC frame and JSON readers (native/core/test/fuzz_ipc.cpp) with
// clang's libFuzzer, seeded with the frames a client meets, for a bounded time. Not part of
// `npm test` (native/core/test/test_ipc.cpp runs a seeded fuzz under ctest).
//   node scripts/fuzz-ipc.mjs [seconds=30]
// Needs clang++ with compiler-rt (Debian: apt-get install -y clang). Crashing inputs are written
// to build-fuzz-ipc/ as crash-*.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fuzz } from './lib/fuzz.mjs';

function frame(opcode, body) {
  const payload = Buffer.from(body, 'utf8');
  const header = Buffer.alloc(8);
  header.writeUInt32LE(opcode, 0);
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}
const bodies = [
  [1, '{"cmd":"DISPATCH","evt":"READY","nonce":null,"data":{"v":1,"config":{}}}'],
  [1, '{"cmd":"AUTHORIZE","nonce":"abc","evt":null,"data":{"code":"xyz"}}'],
  [1, '{"cmd":"AUTHORIZE","nonce":"abc","evt":"ERROR","data":{"code":4000,"message":"Unknown command"}}'],
  [2, '{"code":4000,"message":"Invalid Client ID"}'],
  [3, '{"n":[1,2.5e3,-0.1,true,false,null,"\\u00e9\\ud83d\\ude00"]}'],
];

fuzz({
  script: 'fuzz-ipc.mjs',
  harness: 'fuzz_ipc',
  outDir: 'build-fuzz-ipc',
  // Each seed: the byte that picks how the stream is cut, then the frames.
  writeSeeds: (seeds) => {
    bodies.forEach(([opcode, body], i) => {
      writeFileSync(path.join(seeds, `seed-${i}`), Buffer.concat([Buffer.from([i * 13]), frame(opcode, body), frame(4, '{}')]));
    });
    return bodies.length;
  },
});
