// The messages of an event (docs/webhooks.md#events): what the fan-out (outbox.ts) makes of each row
// of the events table, thin (ids and the fields the change set, never a whole record), in the
// Standard Webhooks body `{type, timestamp, data}`. Each message's id is its event's id and its
// place among the event's messages: made again from the same event, it is the same message.
import type {
  CasesEvent,
  CaseWebhookData,
  DeviceRecord,
  RecordsEvent,
  RecordWebhookData,
  WebhookEventType,
} from '@veritas/shared/domain';

/** An event as the events table holds it. */
export interface OutboxEvent {
  id: number;
  type: string;
  data: string;
  createdMs: number;
}

export interface NewMessage {
  id: string;
  type: WebhookEventType;
  body: string;
}

/** A doorstep submission whose result is an error code flags the device (docs/field-scans.md). */
const isFlag = (result: string | null) => result !== null && result !== 'passed';

function recordData(record: DeviceRecord, changed: RecordWebhookData['changed']): RecordWebhookData {
  return {
    recordId: record.id,
    trackingId: record.tracking_id.tracking_id,
    hubCode: record.tracking_id.hub_code,
    changed,
  };
}

/** What each field step set, by the status it left the record in. */
const STEP_FIELDS: Readonly<
  Record<'submitted' | 'verified' | 'detached', (r: DeviceRecord) => RecordWebhookData['changed']>
> = {
  submitted: (r) => ({
    submitTime: r.submit_time,
    submittedBy: r.submitted_by?.username ?? null,
    submittedDeviceName: r.submitted_device_name,
    submittedManufacturer: r.submitted_manufacturer,
    result: r.device_result,
  }),
  verified: (r) => ({ verifyTime: r.verify_time, verifiedBy: r.verified_by?.username ?? null }),
  detached: (r) => ({ verifyTimeRc: r.verify_time_rc, verifiedByRc: r.verified_by_rc?.username ?? null }),
};

const CASE_TYPES: Partial<Record<CasesEvent['action'], WebhookEventType>> = {
  opened: 'case.opened',
  assigned: 'case.assigned',
  resolved: 'case.resolved',
};

/** The typed parts of each message of `event`, in order. */
function partsOf(event: OutboxEvent): [WebhookEventType, unknown][] {
  if (event.type === 'records') {
    const data = JSON.parse(event.data) as RecordsEvent;
    // An upload's batches: the shipment's own message says it once, at its end.
    if (data.action === 'uploaded') return [];
    const fields = STEP_FIELDS[data.action];
    return data.records.flatMap((record): [WebhookEventType, unknown][] => {
      const message = recordData(record, fields(record));
      const parts: [WebhookEventType, unknown][] = [[`record.${data.action}`, message]];
      if (data.action === 'submitted' && isFlag(record.device_result)) parts.push(['record.flagged', message]);
      return parts;
    });
  }
  if (event.type === 'cases') {
    const { action, case: c } = JSON.parse(event.data) as CasesEvent;
    const type = CASE_TYPES[action];
    if (!type) return [];
    const data: CaseWebhookData = {
      caseId: c.id,
      trackingId: c.tracking_id,
      reason: c.reason,
      state: c.state,
      queue: c.queue,
      assignee: c.assignee,
      disposition: c.disposition,
      dueAt: c.due_at,
      version: c.version,
    };
    return [[type, data]];
  }
  if (event.type === 'shipments') return [['shipment.ingested', JSON.parse(event.data)]];
  return [];
}

/** The messages of `event`: none for the events no endpoint can subscribe to. */
export function messagesOf(event: OutboxEvent): NewMessage[] {
  const timestamp = new Date(event.createdMs).toISOString();
  return partsOf(event).map(([type, data], index) => ({
    id: `msg_${event.id}_${index}`,
    type,
    body: JSON.stringify({ type, timestamp, data }),
  }));
}
