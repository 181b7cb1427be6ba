// Runs a fast-check property with a fixed seed (FUZZ_SEED overrides it, FUZZ_PATH replays one
// shrunk case) and, on failure, records the seed, path and counterexample in test/fuzz/failures/
// so the exact run can be replayed and the input added to the corpus.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

/** The seed every property uses unless FUZZ_SEED says otherwise. */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 0x5d_a0_7e_11;

export async function runProperty<Ts>(name: string, property: fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  const runs = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : numRuns;
  const details = await fc.check(property, {
    seed: FUZZ_SEED,
    numRuns: runs,
    path: process.env.FUZZ_PATH,
    // Runs and shrinking do real I/O: a time limit keeps the whole check bounded.
    plugins: [fc.interruptAfterTimeLimit(60_000)],
  });
  if (!details.failed) return;
  const record = {
    property: name,
    seed: details.seed,
    path: details.counterexamplePath,
    counterexample: details.counterexample,
    error: String(details.errorInstance),
    replay: `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} npx vitest run test/fuzz`,
  };
  const dir = path.join(__dirname, '..', 'failures');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${details.seed}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\nRecorded in ${file}\nReplay: ${record.replay}`);
}
