// The latest message of a form or page: shown as a toast and repeated in an inline line
// (docs/errors.md#how-messages-are-shown), so it stays readable after the toast closes and screen readers announce it where it happened.
import { toast } from '@veritas/shared';
import { useCallback, useState } from 'react';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const show = useCallback((kind: Notice['kind'], text: string) => {
    if (kind === 'success') toast.success(text);
    else toast.error(text);
    setNotice({ kind, text });
  }, []);
  return { notice, show };
}

export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return notice.kind === 'success' ? (
    <p className="vx-notice vx-notice--success" role="status">
      {notice.text}
    </p>
  ) : (
    <p className="vx-notice vx-notice--error" role="alert">
      {notice.text}
    </p>
  );
}
