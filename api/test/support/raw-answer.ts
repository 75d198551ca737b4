// An HTTP answer as it came: its body's bytes not decoded (fetch would undo a content encoding),
// on a connection of its own, closed after the answer: the client has every byte (Content-Length)
// a moment before the server ends the response, and a keep-alive connection closing meanwhile
// would hold the server's close() until its keep-alive timeout.
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

export function rawAnswer(
  url: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<RawAnswer>((resolve, reject) => {
    http
      .request(url, { method, agent: false, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject)
      .end();
  });
}
