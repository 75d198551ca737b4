// A body Fastify's parsing refuses before the route's schema sees it (docs/errors.md#server-error-bodies):
// malformed or empty JSON, a prototype key, a body too large, a media type the call does not take.
// Each answers in the API's words with `detail` and `error`, and a 400 names `body` as every 400
// names its input.
import { build } from './support/build';

const api = build();

async function post(body: string, contentType: string) {
  const client = api.superAdmin;
  const answer = await fetch(`${api.url}/veritas/user/create/`, {
    method: 'POST',
    headers: {
      cookie: client.cookieHeader('/veritas/user/create/'),
      'x-xsrf-token': client.cookie('XSRF-TOKEN')!,
      'content-type': contentType,
    },
    body,
  });
  return { status: answer.status, body: (await answer.json()) as unknown };
}

test('a body that cannot be read answers in the API words, a 400 naming body', async () => {
  const cases: [string, string, number, string][] = [
    ['{', 'application/json', 400, 'The body is not valid JSON, or holds a __proto__ or constructor key.'],
    [
      '{"username": "x", "__proto__": {"role": "super_admin"}}',
      'application/json',
      400,
      'The body is not valid JSON, or holds a __proto__ or constructor key.',
    ],
    ['', 'application/json', 400, 'The body is empty; JSON was announced.'],
    ['<user/>', 'application/xml', 415, 'The body is of a type this call does not take.'],
    [`{"username": "${'x'.repeat(2 * 1024 * 1024)}"}`, 'application/json', 413, 'The body is too large for this call.'],
  ];
  for (const [body, type, status, detail] of cases) {
    const answer = await post(body, type);
    expect([body.slice(0, 20), answer.status, answer.body]).toEqual([
      body.slice(0, 20),
      status,
      { detail, error: detail, ...(status === 400 ? { field: 'body' } : {}) },
    ]);
  }
});
