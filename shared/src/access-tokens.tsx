// What the Deployments page (deploy tokens, docs/screens.md#deployments) and the Integrations page
// (API keys, docs/screens.md#integrations) show of an access token alike: its secret, once, when
// it is created, and its expiry. The server lets a token
// work through the end of its last valid day in UTC: `expiresAt` is 00:00 UTC of the day after
// (docs/deploying-a-remote.md#the-token). Both are shown in UTC whatever the browser's zone, months
// spelt out: '26 Dec 2026', 'until 27 Dec 2026, 00:00 UTC'.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { latestTokenExpiry, type CreatedToken } from './api/registry';
import { FormField, type FieldFaults } from './field-faults';
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

/** How many days a new deploy token or API key works unless its maker chooses otherwise. */
export const DEFAULT_TOKEN_DAYS = 90;

const DAY_MS = 86_400_000;

/** The UTC day DEFAULT_TOKEN_DAYS from now, YYYY-MM-DD: the last valid day a token form starts at. */
export const defaultExpiry = () => utcToday(new Date(Date.now() + DEFAULT_TOKEN_DAYS * DAY_MS));

/**
 * A token form's last valid day (its `expiresOn`, YYYY-MM-DD): a date field that offers no day
 * before today in UTC, the earliest the server takes, whatever the browser's zone, nor one after
 * the latest it takes.
 */
export function ExpiresOnField({
  faults,
  label,
  hint,
  value,
  onChange,
}: {
  faults: FieldFaults<'expiresOn'>;
  label: string;
  hint: string;
  value: string;
  onChange(day: string): void;
}) {
  return (
    <FormField
      faults={faults}
      field="expiresOn"
      label={label}
      hint={hint}
      input={(wiring) => (
        <input
          {...wiring}
          className="vx-input"
          type="date"
          min={utcToday()}
          max={latestTokenExpiry()}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    />
  );
}

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

/**
 * A secret shown once (an access token's, a webhook endpoint's signing secret) in a read-only field,
 * focused and selected, with Copy and Done. `name` names what it is the secret of, `notice` says
 * what the server keeps of it; `fieldLabel` defaults to 'Secret of <name>'.
 */
export function ShownOnceSecret({
  secret,
  name,
  notice,
  fieldLabel = `Secret of ${name}`,
  onDone,
}: {
  secret: string;
  name: string;
  notice: ReactNode;
  fieldLabel?: string;
  onDone(): void;
}) {
  const fieldId = useId();
  const warningId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  async function copy() {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="vx-token-secret" role="region" aria-label={`Secret of ${name}`}>
      <div id={warningId}>{notice}</div>
      <label className="vx-label" htmlFor={fieldId}>
        {fieldLabel}
      </label>
      <div className="vx-input-group vx-token-secret__row">
        <input
          ref={field}
          id={fieldId}
          className="vx-input vx-token-secret__value"
          readOnly
          value={secret}
          aria-describedby={warningId}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="vx-btn" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="vx-btn vx-btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
      <p className={copied === false ? 'vx-error-text' : 'vx-hint'} role="status">
        {copied === null
          ? ''
          : copied
            ? 'Copied to the clipboard.'
            : 'Copying failed: select the secret and copy it yourself.'}
      </p>
    </div>
  );
}

/**
 * The secret of a token just created, shown once: the server keeps only its hash. `noun` names the
 * token: 'token' or 'key'. Done hands the keyboard back to the first field of the form that created
 * it (the first form of its section), for the next one: the secret's field is gone with the panel.
 */
export function NewTokenSecret({ created, noun, onDone }: { created: CreatedToken; noun: string; onDone(): void }) {
  const { label } = created.token;
  const panel = useRef<HTMLDivElement>(null);
  function done() {
    panel.current?.closest('section')?.querySelector<HTMLElement>('form input')?.focus();
    onDone();
  }
  return (
    <div ref={panel}>
      <ShownOnceSecret
        secret={created.secret}
        name={`the ${noun} ${label}`}
        fieldLabel={`Secret of ${label}`}
        notice={
          <p className="vx-token-secret__warning">
            <strong>Copy this secret now: it is shown once.</strong> The server keeps only its hash; it cannot show it
            again.
          </p>
        }
        onDone={done}
      />
    </div>
  );
}
