// Changes of one case made on the version shown: a success puts the case's new state in and
// invalidates every query of cases; a 409 (someone else changed it first) shows the case as it
// now is and says so, never overwriting their change.
import { notifyError, toast, type CaseDetail, type CaseSummary } from '@veritas/shared';
import { CASE_CHANGED_MESSAGE } from '@veritas/shared/case-vocabulary';
import { useMutation, useQueryClient } from '@veritas/shared/query';
import { useState } from 'react';
import { CASES_KEY, caseQuery, changeCase, conflictCase, type CaseChange } from '../api/cases';

export const CHANGE_FAILED = 'The case could not be changed.';

export interface Notice {
  kind: 'error' | 'success';
  text: string;
}

/** Puts `summary` into the cached detail of its case. */
function putSummary(client: ReturnType<typeof useQueryClient>, summary: CaseSummary) {
  client.setQueryData(caseQuery(summary.id).queryKey, (detail: CaseDetail | undefined) =>
    detail ? { ...detail, case: summary } : detail,
  );
}

export function useCaseChange(summary: CaseSummary) {
  const client = useQueryClient();
  const [notice, setNotice] = useState<Notice | null>(null);
  const mutation = useMutation({
    mutationFn: ({ on, change }: { on: CaseSummary; change: CaseChange; done: string }) => changeCase(on, change),
  });

  /** Sends `change` on the version shown; answers whether it was made. */
  async function run(change: CaseChange, done: string): Promise<boolean> {
    setNotice(null);
    try {
      const changed = await mutation.mutateAsync({ on: summary, change, done });
      if (changed && typeof changed === 'object' && changed.id === summary.id) putSummary(client, changed);
      toast.success(done);
      void client.invalidateQueries({ queryKey: CASES_KEY });
      return true;
    } catch (error) {
      const now = conflictCase(error);
      if (now) {
        putSummary(client, now);
        setNotice({ kind: 'error', text: CASE_CHANGED_MESSAGE });
        void client.invalidateQueries({ queryKey: caseQuery(summary.id).queryKey });
      } else {
        setNotice({ kind: 'error', text: notifyError(error, CHANGE_FAILED) });
      }
      return false;
    }
  }

  return { run, pending: mutation.isPending, notice, setNotice };
}
