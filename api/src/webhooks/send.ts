// One attempt to deliver a message (docs/webhooks.md#delivery): a POST of its body with the
// Standard Webhooks headers, signed by the `standardwebhooks` package (the specification's own), to
// the address the endpoint's host resolved to once for this attempt and checked (docs/webhooks.md#safety):
// the connection goes to that address, so a second resolution cannot point it elsewhere (DNS
// rebinding). No redirect is followed (node:http follows none); only a 2xx is a success.
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_URL_FORMAT } from '@veritas/shared/domain';

/** The ranges an endpoint may not resolve into unless local receivers are allowed: all but the public internet. */
const PUBLIC_RANGE = 'unicast';

/** The first characters of an answer kept in the delivery log. */
export const RESPONSE_START_CHARS = 500;

export interface SendPolicy {
  /** http:// and addresses outside the public internet (loopback, private, link-local…) allowed: tests and local receivers. */
  allowLocal: boolean;
  timeoutMs: number;
}

export interface Attempt {
  /** The HTTP status; null when no answer came. */
  status: number | null;
  latencyMs: number;
  /** The answer's start, or what went wrong. */
  response: string;
  /** Retry-After of a 429 or 503, in ms. */
  retryAfterMs: number | null;
}

export class RefusedAddress extends Error {}

/** The address `url` may be sent to, as a problem to tell an admin, or null when it may. */
export function urlProblem(url: string, policy: Pick<SendPolicy, 'allowLocal'>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return WEBHOOK_URL_FORMAT;
  }
  if (parsed.protocol !== 'https:' && !(policy.allowLocal && parsed.protocol === 'http:'))
    return 'The address must start with https://.';
  if (parsed.username || parsed.password) return 'The address may not hold a username or password.';
  if (parsed.hash) return 'The address may not hold a fragment (#…).';
  return null;
}

/**
 * IPv6's deprecated IPv4-compatible addresses (RFC 4291: ::a.b.c.d), which ipaddr.js calls
 * unicast: ::127.0.0.1 would otherwise pass as a public address.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * A range as the refusal names it to an admin, with its article: ipaddr.js names ranges as
 * identifiers (linkLocal, carrierGradeNat…). Its rarer special-purpose blocks keep their name.
 */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique local',
  multicast: 'a multicast',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  carrierGradeNat: 'a carrier-grade NAT',
  reserved: 'a reserved',
  ipv4Compatible: 'an IPv4-compatible',
};

/** The refusal of `host`, which resolves to `address` in `range`. */
function refusedRange(host: string, address: string, range: string): string {
  return `${host} resolves to ${address}, ${RANGE_NAMES[range] ?? `a special-purpose (${range})`} address: refused.`;
}

/** The range of `address` unless it is on the public internet (IPv4-mapped IPv6 read as IPv4). */
function nonPublicRange(address: string): string | null {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === PUBLIC_RANGE && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return range === PUBLIC_RANGE ? null : range;
}

/**
 * Resolves `host` once and checks every address: one outside the public internet (loopback,
 * private, link-local such as the cloud metadata address 169.254.169.254, unique-local…) is refused
 * unless local receivers are allowed. Answers the address to connect to.
 */
export async function resolveEndpoint(host: string, policy: Pick<SendPolicy, 'allowLocal'>) {
  const name = host.startsWith('[') ? host.slice(1, -1) : host;
  const addresses = ipaddr.isValid(name)
    ? [{ address: name, family: ipaddr.parse(name).kind() === 'ipv6' ? 6 : 4 }]
    : await dns.lookup(name, { all: true, verbatim: true });
  if (addresses.length === 0) throw new RefusedAddress(`${host} resolves to no address.`);
  if (!policy.allowLocal)
    for (const { address } of addresses) {
      const range = nonPublicRange(address);
      if (range) throw new RefusedAddress(refusedRange(host, address, range));
    }
  return addresses[0]!;
}

/** The signature header: one `v1,…` per secret that still signs (the new one, and the old until it expires). */
export function signatures(secrets: readonly string[], messageId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' ');
}

/**
 * Connections kept open between attempts, one pool per endpoint host and the address it resolved
 * to: a pooled connection goes to an address checked when it opened. Without them each message
 * paid a TCP (and TLS) handshake. Forgotten all at once past MAX_POOLS (endpoints are few).
 */
const pools = new Map<string, http.Agent>();
const MAX_POOLS = 200;

function poolFor(target: URL, address: string): http.Agent {
  const key = `${target.protocol}//${target.host}@${address}`;
  let pool = pools.get(key);
  if (!pool) {
    if (pools.size >= MAX_POOLS) {
      for (const old of pools.values()) old.destroy();
      pools.clear();
    }
    const options = { keepAlive: true, maxSockets: 16 };
    pool = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    pools.set(key, pool);
  }
  return pool;
}

/** Retry-After in ms: seconds or an HTTP date; null when absent or unreadable. */
function retryAfterOf(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Sends one attempt; never throws: every failure is an Attempt with its reason. */
export async function sendAttempt(
  url: string,
  message: { id: string; body: string },
  secrets: readonly string[],
  policy: SendPolicy,
): Promise<Attempt> {
  const started = Date.now();
  const failed = (response: string): Attempt => ({
    status: null,
    latencyMs: Date.now() - started,
    response,
    retryAfterMs: null,
  });
  const target = new URL(url);
  let resolved: { address: string; family: number };
  try {
    resolved = await resolveEndpoint(target.hostname, policy);
  } catch (error) {
    return failed(error instanceof RefusedAddress ? error.message : `${target.hostname} could not be resolved.`);
  }
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Veritas-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures(secrets, message.id, at, message.body),
  };
  // The connection goes to the address checked above: no second lookup.
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [resolved] as never);
    else callback(null, resolved.address, resolved.family);
  };
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise<Attempt>((settle) => {
    // The whole attempt, answer included, within the timeout; the log says whether a status came.
    let status: number | undefined;
    const deadline = setTimeout(() => {
      const seconds = policy.timeoutMs / 1000;
      request.destroy(
        new Error(
          status === undefined
            ? `No answer within ${seconds} s.`
            : `The answer (${status}) was not complete within ${seconds} s.`,
        ),
      );
    }, policy.timeoutMs);
    const resolve = (attempt: Attempt) => {
      clearTimeout(deadline);
      settle(attempt);
    };
    const agent = poolFor(target, resolved.address);
    const request = send(target, { method: 'POST', headers, lookup, agent }, (response) => {
      status = response.statusCode;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < RESPONSE_START_CHARS) text += chunk;
        else response.destroy();
      });
      const done = () =>
        resolve({
          status: response.statusCode ?? null,
          latencyMs: Date.now() - started,
          response: text.slice(0, RESPONSE_START_CHARS),
          retryAfterMs: retryAfterOf(response.headers['retry-after'], Date.now()),
        });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.on('error', (error) => resolve(failed(error.message)));
    request.end(message.body);
  });
}
