// How an access token's expiry reads, a deploy token's on the Deployments page
// (docs/screens.md#deployments) and an API key's on the Integrations page. The server lets a token
// work through the end of its last valid day in UTC: `expiresAt` is 00:00 UTC of the day after
// (docs/deploying-a-remote.md#the-token). Both are shown in UTC whatever the browser's zone, months
// spelt out: '26 Dec 2026', 'until 27 Dec 2026, 00:00 UTC'.
import { formatDateTime, twoDigits } from './format';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dayText = (date: Date) => `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;

export interface TokenExpiry {
  /** The last day the token works, in UTC: '26 Dec 2026'. */
  lastDay: string;
  /** The same as YYYY-MM-DD (a <time>'s dateTime). */
  lastDayIso: string;
  /** The instant it stops working, in UTC: '27 Dec 2026, 00:00 UTC'. */
  ends: string;
}

/** The last valid day and the end of a token that works until `expiresAt`; null when that is no instant. */
export function tokenExpiry(expiresAt: string): TokenExpiry | null {
  const ms = Date.parse(expiresAt);
  if (Number.isNaN(ms)) return null;
  const end = new Date(ms);
  // The day of the token's last working millisecond.
  const last = new Date(ms - 1);
  const seconds = end.getUTCSeconds();
  const time = `${twoDigits(end.getUTCHours())}:${twoDigits(end.getUTCMinutes())}${seconds ? `:${twoDigits(seconds)}` : ''}`;
  return { lastDay: dayText(last), lastDayIso: last.toISOString().slice(0, 10), ends: `${dayText(end)}, ${time} UTC` };
}

/** Today in UTC, YYYY-MM-DD: the earliest last valid day the server takes. */
export const utcToday = (now = new Date(Date.now())) => now.toISOString().slice(0, 10);

/** The last valid day, and the instant the token ends, both in UTC. */
export function TokenExpiryText({ expiresAt }: { expiresAt: string }) {
  const expiry = tokenExpiry(expiresAt);
  if (!expiry) return <>{formatDateTime(expiresAt)}</>;
  return (
    <>
      <time dateTime={expiry.lastDayIso}>{expiry.lastDay}</time>{' '}
      <span className="vx-token-ends">
        until <time dateTime={expiresAt}>{expiry.ends}</time>
      </span>
    </>
  );
}
