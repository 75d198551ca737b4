// docs/operations.md#logs: the request log of the console as `pnpm start` serves it leaves out the
// files of a page load (the shell's and the remotes') and keeps the page document and every call.
import { startServer, stopServer, type RunningServer } from '../support/server';
import { eventually } from '../../test-support/eventually';

/** The URLs of the requests the server's log has so far ('incoming request' lines), in order. */
function loggedRequests(server: RunningServer): string[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"incoming request"'))
    .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);
}

test("the request log leaves out the shell's and the remotes' files and keeps the page and the calls", async () => {
  const server = await startServer();
  try {
    const answer = async (path: string) => {
      const response = await fetch(new URL(path, server.url));
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return response;
    };
    const document = await (await answer('/login')).text();
    const shellScript = /<script[^>]*\ssrc="?(\/[^"\s>]+\.js)/.exec(document)?.[1];
    if (!shellScript) throw new Error(`no script in the page document:\n${document}`);
    const { remotes } = (await (await answer('/remotes.json')).json()) as {
      remotes: Record<string, { entry: string }>;
    };
    const remoteManifest = Object.values(remotes)[0]?.entry;
    if (!remoteManifest) throw new Error('no remote in the composition');
    await answer(shellScript);
    await answer(remoteManifest);
    // The last request: once its line is written, every line of the requests before it is.
    await answer('/veritas/health/live/');
    await eventually(() => loggedRequests(server).includes('/veritas/health/live/'), {
      withinMs: 5_000,
      saying: () => `the health call was not logged:\n${server.output()}`,
    });

    const logged = loggedRequests(server);
    expect(logged).toEqual(expect.arrayContaining(['/login', '/remotes.json', '/veritas/health/live/']));
    expect(logged).not.toContain(shellScript);
    expect(logged).not.toContain(remoteManifest);
  } finally {
    await stopServer(server);
  }
});
