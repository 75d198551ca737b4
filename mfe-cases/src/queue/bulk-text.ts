// How the Cases queue's bulk actions word things (docs/screens.md#cases-queue): their messages, and
// the numbers and counts of cases their bar, the job's progress and the Assign to hint show.
import { MAX_CASE_JOB_IDS } from '@veritas/shared/case-vocabulary';

export const BULK_MESSAGES = {
  startFailed: 'Failed to start the job',
  progressFailed: 'Failed to read the job’s progress',
  tooManyIds: `Tick at most ${MAX_CASE_JOB_IDS} cases, or select all matching.`,
  assigneesFailed: 'Could not load who may work these cases.',
  anyQueue: 'The cases matching may be in any queue: type a username, or filter by a queue to choose from its users.',
} as const;

/** A number as the bulk actions show it: with thousands' separators. */
export const numberText = (n: number) => n.toLocaleString('en-US');
export const casesText = (n: number) => `${numberText(n)} ${n === 1 ? 'case' : 'cases'}`;
