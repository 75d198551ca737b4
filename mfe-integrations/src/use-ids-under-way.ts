import { useState } from 'react';

/** The rows whose action (a redelivery, a revocation) is under way, by id: their button says so meanwhile. */
export function useIdsUnderWay() {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());

  /** Runs `work` for row `id`, the row under way until it ends, however it ends. */
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
