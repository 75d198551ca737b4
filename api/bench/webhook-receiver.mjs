// The webhooks benchmark's receiver (webhooks.ts), in a process of its own as an order system's
// would be: it answers every message 200 at once and tells the benchmark, a few times a second,
// each message's type, its arrival time and, for record.submitted, the submission time it reports.
// In the benchmark's process it would take the simulator's event loop for its work. Plain
// JavaScript, so Node runs it without a compile step.
import http from 'node:http';

/** How often arrivals are told to the benchmark: one message between processes per batch. */
const TELL_MS = 25;

let arrivals = [];
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const submitTime = body.type === 'record.submitted' ? body.data.changed.submitTime : undefined;
    arrivals.push({ type: body.type, at, submitTime });
    response.end();
  });
});

setInterval(() => {
  if (arrivals.length === 0) return;
  process.send(arrivals);
  arrivals = [];
}, TELL_MS);

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
