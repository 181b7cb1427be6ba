// Sign-in (authorize over a loopback redirect + token exchange) against one emulator: our
// client.signIn() against an openid-client + node:http reference, interleaved round by round.
import { clientFor, loadPackage, machine, mean, median, num, quantile, ratio, run, table, verdict } from './lib/common.mjs';
import { createReferenceSignIn } from './lib/reference.mjs';

const WARMUP = 20;
const ROUNDS = 10;
const PER_ROUND = 20;
const TIME_BUDGET_MS = 180_000;
const SCOPE = 'openid sdk.social_layer';

async function timed(signIn) {
  const start = process.hrtime.bigint();
  const tokens = await signIn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // A sign-in only counts if it really produced tokens.
  if (!(tokens.accessToken ?? tokens.access_token) || !(tokens.idToken ?? tokens.id_token)) {
    throw new Error('a sign-in finished without an access token and an ID token');
  }
  return ms;
}

run(async () => {
  console.log(`bench/signin: ${machine()}`);
  const { pkg, emulator: emulatorModule } = await loadPackage();
  const emulator = await emulatorModule.startEmulator();
  const client = clientFor(pkg, emulator);
  try {
    const contenders = [
      { name: 'ours: client.signIn()', signIn: () => client.signIn({ scopes: SCOPE }), samples: [], rounds: [] },
      {
        name: 'reference: openid-client + node:http listener',
        signIn: await createReferenceSignIn(emulator, SCOPE),
        samples: [],
        rounds: [],
      },
    ];
    const [ours, reference] = contenders;
    for (let i = 0; i < WARMUP; i++) for (const c of contenders) await timed(c.signIn);

    const started = Date.now();
    let rounds = 0;
    for (; rounds < ROUNDS && Date.now() - started < TIME_BUDGET_MS; rounds++) {
      // Alternate who goes first, so neither always runs on a warmer (or more tired) process.
      const order = rounds % 2 === 0 ? contenders : [...contenders].reverse();
      for (const c of order) {
        const round = [];
        for (let i = 0; i < PER_ROUND; i++) round.push(await timed(c.signIn));
        c.samples.push(...round);
        c.rounds.push(median(round));
      }
    }
    if (rounds < ROUNDS) console.log(`Stopped after ${rounds} of ${ROUNDS} rounds: the ${TIME_BUDGET_MS / 1000} s budget ran out.`);

    const base = median(reference.samples);
    table(
      `Sequential sign-ins against one emulator (${ours.samples.length} each after ${WARMUP} warm-up each, ${rounds} interleaved rounds of ${PER_ROUND})`,
      ['contender', 'median', 'p10', 'p90', 'mean', 'vs reference'],
      contenders.map((c) => [
        c.name,
        `${num(median(c.samples), 3)} ms`,
        `${num(quantile(c.samples, 0.1), 3)} ms`,
        `${num(quantile(c.samples, 0.9), 3)} ms`,
        `${num(mean(c.samples), 3)} ms`,
        ratio(median(c.samples) / base),
      ]),
    );
    const perRound = ours.rounds.map((m, i) => m / reference.rounds[i]);
    console.log(`Per-round ratio of medians (ours / reference): ${perRound.map((r) => r.toFixed(2)).join(' ')}`);
    const overall = median(ours.samples) / base;
    table('Sign-in target', ['measure', 'measured', 'target', 'result'], [
      ['our overhead over the reference', `${overall >= 1 ? '+' : ''}${((overall - 1) * 100).toFixed(1)}%`, '≤ +10%', verdict(overall <= 1.1)],
    ]);
  } finally {
    client.close();
    await emulator.close();
  }
});
