// Every migration, in order. Add new ones at the end; never edit one that has shipped.
import type { Migration } from 'kysely';
import type { Engine } from '../schema';
import { initial } from './001-initial';
import { uploads } from './002-uploads';
import { whitelabel } from './003-whitelabel';
import { fieldScans } from './004-field-scans';
import { loginThrottle } from './005-login-throttle';
import { pickList } from './006-pick-list';
import { dashboardFigures } from './007-dashboard-figures';
import { fleet } from './008-fleet';
import { registry } from './009-registry';
import { auditLog } from './010-audit-log';
import { createdOrder } from './011-created-order';
import { trackingIdGrams } from './012-tracking-id-grams';
import { chunksUncompressed } from './013-chunks-uncompressed';
import { searchTable } from './014-search-table';
import { summariesFillfactor } from './015-summaries-fillfactor';
import { uploadFailed } from './016-upload-failed';
import { remoteDeclarations } from './017-remote-declarations';
import { cases } from './018-cases';
import { caseQueueIndexes } from './019-case-queue-indexes';
import { tokenRateWindow } from './020-token-rate-window';
import { caseEventActorName } from './021-case-event-actor-name';
import { recordChangeOrder } from './022-record-change-order';
import { keyUploads } from './023-key-uploads';
import { webhooks } from './024-webhooks';

export function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '001_initial': initial(engine),
    '002_uploads': uploads(engine),
    '003_whitelabel': whitelabel(engine),
    '004_field_scans': fieldScans(),
    '005_login_throttle': loginThrottle(engine),
    '006_pick_list': pickList(engine),
    '007_dashboard_figures': dashboardFigures(engine),
    '008_fleet': fleet(engine),
    '009_registry': registry(engine),
    '010_audit_log': auditLog(engine),
    '011_created_order': createdOrder(),
    '012_tracking_id_grams': trackingIdGrams(engine),
    '013_chunks_uncompressed': chunksUncompressed(engine),
    '014_search_table': searchTable(engine),
    '015_summaries_fillfactor': summariesFillfactor(engine),
    '016_upload_failed': uploadFailed(engine),
    '017_remote_declarations': remoteDeclarations(),
    '018_cases': cases(engine),
    '019_case_queue_indexes': caseQueueIndexes(),
    '020_token_rate_window': tokenRateWindow(),
    '021_case_event_actor_name': caseEventActorName(),
    '022_record_change_order': recordChangeOrder(engine),
    '023_key_uploads': keyUploads(engine),
    '024_webhooks': webhooks(engine),
  };
}
