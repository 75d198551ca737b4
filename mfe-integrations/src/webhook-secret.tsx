// A webhook endpoint's signing secret, shown once when the endpoint is added or its secret rotated
// (docs/screens.md#integrations). It behaves as NewTokenSecret of @veritas/shared/access-tokens
// (a read-only field, focused and selected, Copy and Done, its classes) but says what is true of a
// webhook secret: the server keeps it to sign with (docs/webhooks.md#secrets), it does not keep a
// hash of it, and after a rotation the old one still signs for a while.
import type { WebhookSecretAnswer } from '@veritas/shared/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { When } from './webhook-text';

export const SECRET_MESSAGES = {
  once: 'Copy this secret now: it is shown once.',
  use: 'The receiver checks the signature of each message with it; the console cannot show it again.',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Copying failed: select the secret and copy it yourself.',
} as const;

export function WebhookSecret({
  answer,
  rotated,
  onDone,
}: {
  answer: WebhookSecretAnswer;
  /** A rotation's new secret: the old one still signs until the endpoint's previousSecretExpiresAt. */
  rotated: boolean;
  onDone(): void;
}) {
  const fieldId = useId();
  const warningId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const { url, previousSecretExpiresAt } = answer.endpoint;
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  async function copy() {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(answer.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="vx-token-secret ig-secret" role="region" aria-label={`Secret of the endpoint ${url}`}>
      <div id={warningId}>
        <p className="vx-token-secret__warning">
          <strong>{SECRET_MESSAGES.once}</strong> {SECRET_MESSAGES.use}
        </p>
        {rotated && previousSecretExpiresAt && (
          <p className="vx-token-secret__warning">
            The old secret signs too until <When iso={previousSecretExpiresAt} />: each message carries both signatures
            until then, so change the secret on the receiver before that.
          </p>
        )}
      </div>
      <label className="vx-label" htmlFor={fieldId}>
        {rotated ? 'New secret' : 'Secret'} of {url}
      </label>
      <div className="vx-input-group vx-token-secret__row">
        <input
          ref={field}
          id={fieldId}
          className="vx-input vx-token-secret__value"
          readOnly
          value={answer.secret}
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
        {copied === null ? '' : copied ? SECRET_MESSAGES.copied : SECRET_MESSAGES.copyFailed}
      </p>
    </div>
  );
}
