// The API capabilities this server provides, each with its version (semver): a remote's declaration
// names those it calls with a range each (`"needs": { "records": "^1" }`), and the registry refuses
// a version needing one the server does not provide, or at a version outside the range
// (docs/deploying-a-remote.md#the-checks). A capability's version goes up with its calls: a new
// call or field is a minor step, a removed or changed one a major step.
export const API_CAPABILITIES: Readonly<Record<string, string>> = {
  /** The device records: api/get_status/, api/devices/, records' live events. */
  records: '1.0.0',
  /** api/dashboard/: the dashboard's figures. */
  dashboard: '1.0.0',
  /** user/get_groups/, user/create_group/. */
  groups: '1.0.0',
  /** user/create/, user/get_users/, activation, deletion and password resets. */
  users: '1.0.0',
  /** api/upload/: the shipment CSV in chunks. */
  upload: '1.0.0',
  /** api/generate_csv/: the report CSV. */
  report: '1.0.0',
  /** api/whitelable/ and the manufacturers' registry. */
  'white-labels': '1.0.0',
  /** audit/: the trail, its pages and export. */
  audit: '1.0.0',
  /** registry/: versions, rollouts, tokens and origins. */
  registry: '1.0.0',
  /** api/events/: the live event stream. */
  events: '1.0.0',
  /** api/cases/: the case queue, a case's work, saved views, bulk jobs, photos, export. */
  cases: '1.0.0',
  /** api/integrations/: API keys; 1.1: webhook endpoints and their delivery log (the order systems' own calls, api/v1/, are no console's). */
  integrations: '1.1.0',
};
