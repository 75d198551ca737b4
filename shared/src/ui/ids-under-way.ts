// The rows of a table whose action is under way, by id (a redelivery, a revocation, a user's
// deactivation): their buttons are disabled and say so until the action ends, however it ends.
import { useState } from 'react';

export function useIdsUnderWay() {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());

  /** Runs `work` for row `id`, the row under way until it ends. */
  async function whileUnderWay(id: number, work: () => Promise<void>): Promise<void> {
    setIds((current) => new Set(current).add(id));
    try {
      await work();
    } finally {
      setIds((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    }
  }

  return { isUnderWay: (id: number) => ids.has(id), whileUnderWay };
}
