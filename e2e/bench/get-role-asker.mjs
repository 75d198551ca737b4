// The user who asks `user/get_role/` every 20 ms while the Dashboards load (dashboards-get-role.ts),
// in a process of its own as a user's browser would be: in the benchmark's process its calls went
// through Playwright's request context, on the event loop that also carries every browser's
// protocol messages, so their times held the benchmark's own work. Signs in as the console does
// (the XSRF cookie of a first GET copied into the header of the login's POST), then asks between
// the benchmark's 'start' and 'stop', answering each round's times. Plain JavaScript, so Node runs
// it without a compile step.
import { setTimeout as sleep } from 'node:timers/promises';

const [baseUrl, username, password] = process.argv.slice(2);
const INTERVAL_MS = 20;
const cookies = new Map();

function keepCookies(response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** Calls `path` with the cookies kept so far, keeping those it sets; answers its status. */
async function call(path, init = {}) {
  const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(new URL(path, baseUrl), { ...init, headers: { ...init.headers, cookie } });
  keepCookies(response);
  await response.arrayBuffer();
  return response.status;
}

async function mustSucceed(path, init) {
  const status = await call(path, init);
  if (status >= 300) throw new Error(`${path} answered ${status}`);
}

let asking = false;
let round = null;

async function ask() {
  const times = [];
  while (asking) {
    const started = performance.now();
    await mustSucceed('/veritas/user/get_role/');
    times.push(performance.now() - started);
    await sleep(INTERVAL_MS);
  }
  return times;
}

process.on('message', async (message) => {
  if (message === 'start') {
    asking = true;
    round = ask();
  } else if (message === 'stop') {
    asking = false;
    process.send({ times: await round });
  }
});
process.on('disconnect', () => process.exit(0));

// Not signed in yet: a 401 that sets the XSRF cookie.
await call('/veritas/user/is_LoggedIn/');
await mustSucceed('/veritas/user/login/', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-xsrf-token': cookies.get('XSRF-TOKEN') },
  body: JSON.stringify({ username, password }),
});
process.send({ ready: true });
