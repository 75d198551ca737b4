// The secret of an API key just created (docs/screens.md#integrations), shown once in a read-only
// field with a Copy button: the server keeps only its hash. Done removes it for good.
import type { CreatedToken } from '@veritas/shared';
import { useEffect, useId, useRef, useState } from 'react';

export const SECRET_MESSAGES = {
  warning: 'Copy this key now: it is not shown again.',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Copying failed: select the key and copy it yourself.',
} as const;

export function NewKeySecret({ created, onDone }: { created: CreatedToken; onDone(): void }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const { label } = created.token;

  // The focus goes to the key, selected: the warning describes it.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  async function copy() {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="ig-secret" role="status" aria-label={`New key ${label}`}>
      <p id={`${id}-warning`} className="ig-secret__warning">
        <strong>{SECRET_MESSAGES.warning}</strong> The key {label} is created; Veritas keeps only its hash and cannot
        show it again.
      </p>
      <label className="vx-label" htmlFor={`${id}-secret`}>
        Key {label}
      </label>
      <div className="vx-input-group ig-secret__row">
        <input
          ref={field}
          id={`${id}-secret`}
          className="vx-input ig-secret__value"
          readOnly
          value={created.secret}
          aria-describedby={`${id}-warning`}
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
      <p className={copied === false ? 'vx-error-text' : 'vx-hint'}>
        {copied === null ? '' : copied ? SECRET_MESSAGES.copied : SECRET_MESSAGES.copyFailed}
      </p>
    </div>
  );
}
