// The secret of a deploy token just created (docs/screens.md#deployments), shown once, with a
// read-only field to copy it from: the registry keeps only its hash.
import { toast, type CreatedToken } from '@veritas/shared';
import { useEffect, useId, useRef, useState } from 'react';

export function NewSecret({ created, onDone }: { created: CreatedToken; onDone(): void }) {
  const fieldId = useId();
  const warningId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
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
      toast.error('Copying failed: select the secret and copy it yourself.');
    }
  }

  return (
    <div className="dp-secret" role="region" aria-label={`Secret of the token ${created.token.label}`}>
      <p id={warningId} className="dp-secret__warning">
        <strong>Copy this secret now: it is shown once.</strong> The registry keeps only its hash; it cannot show it
        again.
      </p>
      <label className="vx-label" htmlFor={fieldId}>
        Secret of {created.token.label}
      </label>
      <div className="vx-input-group">
        <input
          ref={field}
          id={fieldId}
          className="vx-input dp-secret__value"
          readOnly
          value={created.secret}
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
      <p className="vx-hint" role="status">
        {copied ? 'Copied to the clipboard.' : ''}
      </p>
    </div>
  );
}
