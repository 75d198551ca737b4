// The server's background jobs (src/jobs.ts, docs/operations.md#background-jobs): started once the
// server is ready, in order; stopped as it closes, in the reverse order, each after the one before
// has let go; the database closed after the last.
import Fastify from 'fastify';
import { runJobs, type BackgroundJob } from '../src/jobs';

test('jobs start when the server is ready, and stop in reverse order as it closes, before the database closes', async () => {
  const happened: string[] = [];
  const job = (name: string): BackgroundJob => ({
    start: () => void happened.push(`${name} started`),
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      happened.push(`${name} stopped`);
    },
  });
  const app = Fastify();
  runJobs(app, [job('checkpoints'), job('sweeper'), job('hub')], async () => void happened.push('database closed'));
  expect(happened).toEqual([]);

  await app.ready();
  expect(happened).toEqual(['checkpoints started', 'sweeper started', 'hub started']);

  await app.close();
  expect(happened.slice(3)).toEqual(['hub stopped', 'sweeper stopped', 'checkpoints stopped', 'database closed']);
});
