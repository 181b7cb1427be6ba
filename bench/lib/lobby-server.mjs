// A server for bench/lobbies, in its own process so the load generator and the clients measured
// do not share its CPU time: `emulator` (the built emulator, rate limits off, one lobby with
// members ready) or `bare` (node:http answering a fixed JSON body). Prints one JSON line with
// what the bench needs, then serves until stdin closes.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { paths } from './common.mjs';

const require = createRequire(import.meta.url);
const kind = process.argv[2];
const USERS = Array.from({ length: 30 }, (_, i) => ({ id: String(300000000000000001n + BigInt(i)), username: `bench${i + 1}` }));

let close;
if (kind === 'emulator') {
  const { startEmulator } = require(paths.emulator);
  const emulator = await startEmulator({ rateLimits: 'off', users: USERS });
  const auth = { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' };
  const created = await fetch(`${emulator.apiBase}/lobbies`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ members: USERS.slice(0, 10).map((u) => ({ id: u.id })), metadata: { mode: 'bench' } }),
  });
  const lobby = await created.json();
  const player = emulator.createAccessToken({ userId: USERS[0].id }).accessToken;
  const message = await fetch(`${emulator.apiBase}/lobbies/${lobby.id}/messages`, {
    method: 'POST',
    headers: { ...auth, authorization: `Bearer ${player}` },
    body: JSON.stringify({ content: 'hello' }),
  });
  if (!created.ok || !message.ok) throw new Error(`setting up the bench lobby failed: ${created.status} ${message.status}`);
  console.log(JSON.stringify({ apiBase: emulator.apiBase, botToken: emulator.botToken, lobbyId: lobby.id, userIds: USERS.map((u) => u.id) }));
  close = () => emulator.close();
} else if (kind === 'bare') {
  const body = JSON.stringify({ id: '1', application_id: '1', metadata: { mode: 'bench' }, members: [], flags: 0 });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ apiBase: `http://127.0.0.1:${server.address().port}/api/v10` }));
  close = () => new Promise((resolve) => server.close(resolve));
} else {
  console.error('usage: lobby-server.mjs emulator|bare');
  process.exit(2);
}
process.stdin.resume();
process.stdin.on('end', () => {
  close().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
