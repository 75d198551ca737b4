// The calls an endpoint's row makes to the server (Enable/Disable, Rotate secret, Send test event,
// Delete) and what they come to: the row's button busy while its call runs, then a failure's reason,
// or a success said in the status line, which takes the focus when the row's button is gone.
import { serverMessage } from '@veritas/shared';
import type { WebhookEndpoint } from '@veritas/shared/domain';
import { useEffect, useRef, useState } from 'react';
import type { EndpointAction } from './endpoints-table';

/** The row's actions that call the server: Edit opens a dialog, Delivery log a panel. */
export type EndpointCall = Exclude<EndpointAction, 'edit' | 'log'>;

/** `failed`: what a call's failure says when the server gives no reason. */
export function useEndpointCalls(failed: Readonly<Record<EndpointCall, string>>) {
  const [busy, setBusy] = useState<ReadonlyMap<number, EndpointCall>>(new Map());
  // What the last change came to: said in the status line (which takes the focus when the row's button is gone).
  const [status, setStatus] = useState<{ text: string; focus: boolean } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const statusLine = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (status?.focus) statusLine.current?.focus();
  }, [status]);

  function report(text: string, focus = false) {
    setActionError(null);
    setStatus({ text, focus });
  }

  function clearOutcome() {
    setStatus(null);
    setActionError(null);
  }

  /** Runs the row's call, its button busy meanwhile; a failure says why and leaves the button usable. */
  async function run(endpoint: WebhookEndpoint, action: EndpointCall, call: () => Promise<void>) {
    setBusy((current) => new Map(current).set(endpoint.id, action));
    clearOutcome();
    try {
      await call();
    } catch (failure) {
      setActionError(serverMessage(failure) ?? failed[action]);
    } finally {
      setBusy((current) => {
        const next = new Map(current);
        next.delete(endpoint.id);
        return next;
      });
    }
  }

  return {
    /** The call the endpoint's row is running, if any. */
    busyWith: (id: number) => busy.get(id) ?? null,
    status,
    actionError,
    statusLine,
    report,
    clearOutcome,
    run,
  };
}
