// The remote registry (docs/deploying-a-remote.md): the versions of each remote, its rollout (live,
// canary), the history of rollout changes, deploy tokens and the origins a team's own CDN may serve
// from. Answers of /veritas/registry/ and of /remotes.json.
import { Type, type Static } from '@sinclair/typebox';
import { Choice, Day, Id, Nullable, Text } from './fields';

/** A remote's name: lower-case letters, digits and hyphens, as in its folder `mfe-<name>`. */
export const REMOTE_NAME_PATTERN = '^[a-z][a-z0-9-]{0,39}$';

/** The path parameter naming a remote: any name; one the registry has never seen has no versions. */
export const RemoteParams = Type.Object({
  remote: Text(
    { missing: 'Name a remote.', pattern: 'A remote is named by lower-case letters, digits and hyphens: "{value}".' },
    { maxLength: 40, pattern: REMOTE_NAME_PATTERN },
  ),
});

/** One file of a build, as the deploy command sends it. */
export const PublishedFile = Type.Object({
  path: Text(
    { missing: 'Each file needs its path.', pattern: 'File paths are relative, without "..": "{value}".' },
    // Relative, forward slashes, no '.' or '..' segment, no empty segment.
    { maxLength: 512, pattern: '^(?!.*(^|/)\\.{1,2}(/|$))[A-Za-z0-9_.@~+-]+(/[A-Za-z0-9_.@~+-]+)*$' },
  ),
  content: Type.String({
    contentEncoding: 'base64',
    description: "The file's bytes, base64.",
    errorMessages: { missing: 'Each file needs its content, base64.' },
  }),
});

const FILES_MESSAGES = {
  missing: 'Send the files of the build, or baseUrl and integrity.',
  minItems: 'Send the files of the build, or baseUrl and integrity.',
  maxItems: 'A build may have at most 2000 files.',
};
const BaseUrl = Text(
  { missing: 'Give the https base URL of the build.', pattern: 'The base URL must be https and end with /.' },
  { maxLength: 500, pattern: '^https://[^\\s]+/$' },
);
const Integrity = Text(
  {
    missing: "Give the integrity of the build's entry script.",
    pattern: 'Integrity is sha256-, sha384- or sha512- followed by base64.',
  },
  { maxLength: 200, pattern: '^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$' },
);
const Files = Type.Array(PublishedFile, { minItems: 1, maxItems: 2000, errorMessages: FILES_MESSAGES });

/**
 * POST registry/remotes/{remote}/versions/: a build's files, or the https base URL of a team's CDN
 * with the integrity of its entry script. One object whose `if` chooses the form (rather than a
 * union of two), so that a refusal names the field at fault as every other call's does.
 */
export const PublishPayload = Type.Object(
  {
    files: Type.Optional(Files),
    baseUrl: Type.Optional(BaseUrl),
    integrity: Type.Optional(Integrity),
    note: Type.Optional(Text({ missing: 'Write a note or leave it out.' }, { maxLength: 500 })),
  },
  {
    if: { type: 'object', required: ['baseUrl'] },
    then: Type.Object({ baseUrl: BaseUrl, integrity: Integrity }),
    else: Type.Object({ files: Files }),
  },
);
export type PublishPayload = Static<typeof PublishPayload>;

/** A shared singleton a version needs, and the range it accepts. */
export const SharedNeed = Type.Object({ name: Type.String(), requiredVersion: Type.String() });

/** An immutable version of a remote. */
export const RemoteVersion = Type.Object({
  remote: Type.String(),
  /** 1, 2, 3… per remote, in publishing order. */
  version: Type.Integer(),
  /** sha256 of its mf-manifest.json, hex. */
  manifestHash: Type.String(),
  /** Subresource integrity of its entry script. */
  integrity: Type.String(),
  /** The @veritas/shared contract it was built against. */
  contract: Type.String(),
  shared: Type.Array(SharedNeed),
  /** The exposed modules, e.g. './ListDevices'. */
  exposes: Type.Array(Type.String()),
  /** Where its mf-manifest.json is: a path of this console, or the https URL of a team's CDN. */
  manifestUrl: Type.String(),
  source: Choice(['registry', 'external'] as const),
  /** Bytes stored for it that no earlier version had stored (0 for an external one). */
  bytes: Type.Integer(),
  publishedBy: Type.String(),
  publishedAt: Type.String({ format: 'date-time' }),
  note: Nullable(Type.String()),
});
export type RemoteVersion = Static<typeof RemoteVersion>;

/** retire: no version live any more (live and canary null), until one is promoted again. */
export const ROLLOUT_ACTIONS = ['promote', 'canary', 'stop-canary', 'rollback', 'retire'] as const;

/** One change of a rollout: who, when, from → to. */
export const RolloutChange = Type.Object({
  id: Type.Integer(),
  action: Choice(ROLLOUT_ACTIONS),
  /** The live version before (promote, rollback, retire) or the canary before (canary, stop-canary). */
  from: Nullable(Type.Integer()),
  to: Nullable(Type.Integer()),
  /** A canary's share of users, in percent. */
  percent: Nullable(Type.Integer()),
  by: Type.String(),
  at: Type.String({ format: 'date-time' }),
});
export type RolloutChange = Static<typeof RolloutChange>;

/** A remote's rollout, its kept versions (newest first) and its newest changes (newest first, HISTORY_PAGE_SIZE at most). */
export const RemoteDeployment = Type.Object({
  remote: Type.String(),
  live: Nullable(Type.Integer()),
  canary: Nullable(Type.Object({ version: Type.Integer(), percent: Type.Integer() })),
  /** What a rollback would make live again. */
  previous: Nullable(Type.Integer()),
  versions: Type.Array(RemoteVersion),
  history: Type.Array(RolloutChange),
});
export type RemoteDeployment = Static<typeof RemoteDeployment>;

/** How many changes a page of a rollout's history has unless `limit` says otherwise. */
export const HISTORY_PAGE_SIZE = 50;
/** The most changes a page of a rollout's history may ask for. */
export const HISTORY_PAGE_LIMIT = 200;
const historyLimitMessage = `limit must be a whole number from 1 to ${HISTORY_PAGE_LIMIT}.`;
const historyBeforeMessage = 'before must be the next value of an earlier page.';

/** GET registry/remotes/{remote}/history/: a page of changes older than `before`, `limit` of them. */
export const RolloutHistoryQuery = Type.Object({
  before: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,17}$',
      description: 'The `next` of the page before: changes older than it.',
      errorMessages: { missing: historyBeforeMessage, pattern: historyBeforeMessage },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      // 1 to 200 without leading zeros (a query's values are text; nothing is coerced).
      pattern: '^([1-9]\\d?|1\\d\\d|200)$',
      description: `Changes in the page, 1 to ${HISTORY_PAGE_LIMIT}; ${HISTORY_PAGE_SIZE} when left out.`,
      errorMessages: { missing: historyLimitMessage, pattern: historyLimitMessage },
    }),
  ),
});
export type RolloutHistoryQuery = Static<typeof RolloutHistoryQuery>;

/** A page of a rollout's history, newest first; `next` (an id, as text) reads the page after, null at the oldest. */
export const RolloutHistoryPage = Type.Object({
  changes: Type.Array(RolloutChange),
  next: Nullable(Type.String({ description: 'The `before` of the page after; null on the last.' })),
});
export type RolloutHistoryPage = Static<typeof RolloutHistoryPage>;

export const RemoteDeploymentList = Type.Object({ remotes: Type.Array(RemoteDeployment) });
export type RemoteDeploymentList = Static<typeof RemoteDeploymentList>;

/** What a publish answers: the version, new (201) or the same build published before (200). */
export const PublishAnswer = Type.Object({ created: Type.Boolean(), version: RemoteVersion });
export type PublishAnswer = Static<typeof PublishAnswer>;

const VersionNumber = Id('Choose a version.');

export const PromotePayload = Type.Object({ version: VersionNumber });
export type PromotePayload = Static<typeof PromotePayload>;

export const CanaryPayload = Type.Object({
  version: VersionNumber,
  percent: Type.Integer({
    minimum: 1,
    maximum: 99,
    errorMessages: {
      missing: 'Give the share of users, 1 to 99 percent.',
      minimum: 'The share of users is 1 to 99 percent.',
      maximum: 'The share of users is 1 to 99 percent.',
    },
  }),
});
export type CanaryPayload = Static<typeof CanaryPayload>;

/**
 * What a token may do: `deploy:<remote>` publishes, promotes, runs canaries and rolls back that
 * remote; `deploy:*` every remote. Later integrations add their own `<capability>:<target>`.
 */
export const TOKEN_SCOPE_PATTERN = `^deploy:(\\*|${REMOTE_NAME_PATTERN.slice(1, -1)})$`;
export type TokenScope = `deploy:${string}`;

/**
 * The longest a deploy token or an API key may work, in years from today in UTC: a secret that
 * leaks unnoticed stops working within that, and every expiry stays a four-digit year (RFC 3339).
 */
export const MAX_TOKEN_YEARS = 5;

/** The latest last valid day of a token made at `now`, YYYY-MM-DD: MAX_TOKEN_YEARS from today in UTC. */
export function latestTokenExpiry(now = Date.now()): string {
  const day = new Date(now);
  day.setUTCFullYear(day.getUTCFullYear() + MAX_TOKEN_YEARS);
  return day.toISOString().slice(0, 10);
}

export const TokenCreatePayload = Type.Object({
  label: Text({ missing: 'Give the token a label.' }, { maxLength: 100 }),
  scope: Text(
    { missing: 'Choose what the token may deploy.', pattern: 'Unknown scope "{value}": deploy:<remote> or deploy:*.' },
    { maxLength: 50, pattern: TOKEN_SCOPE_PATTERN },
  ),
  /** The last day the token works, YYYY-MM-DD (it ends at the end of that day, UTC). */
  expiresOn: Day({
    missing: 'Choose when the token expires.',
    pattern: 'Write the expiry as YYYY-MM-DD.',
    format: 'Write the expiry as a day of the calendar.',
  }),
});
export type TokenCreatePayload = Static<typeof TokenCreatePayload>;

export const AccessToken = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  scope: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
  lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
});
export type AccessToken = Static<typeof AccessToken>;

export const AccessTokenList = Type.Object({ tokens: Type.Array(AccessToken) });
export type AccessTokenList = Static<typeof AccessTokenList>;

/** A token just created: `secret` is shown this once, only its hash is kept. */
export const CreatedToken = Type.Object({ token: AccessToken, secret: Type.String() });
export type CreatedToken = Static<typeof CreatedToken>;

export const TokenParams = Type.Object({ id: Id('Name a token by its id.') });

export const OriginPayload = Type.Object({
  origin: Text(
    { missing: 'Give an origin.', pattern: 'An origin is https://host or https://host:port, nothing after it.' },
    { maxLength: 300, pattern: '^https://[A-Za-z0-9.-]+(:\\d{1,5})?$' },
  ),
});
export type OriginPayload = Static<typeof OriginPayload>;

export const AllowedOrigin = Type.Object({
  origin: Type.String(),
  addedBy: Type.String(),
  addedAt: Type.String({ format: 'date-time' }),
});
export type AllowedOrigin = Static<typeof AllowedOrigin>;

export const AllowedOriginList = Type.Object({ origins: Type.Array(AllowedOrigin) });
export type AllowedOriginList = Static<typeof AllowedOriginList>;

/**
 * GET /remotes.json: where the console loads each remote from, for this viewer (a canary's users
 * get its version). `entry` is the URL of its mf-manifest.json, a path of the console's origin or
 * an absolute URL; `version` and `integrity` come with a registry version.
 */
export const RemoteEntry = Type.Object({
  entry: Type.String(),
  version: Type.Optional(Type.Integer()),
  integrity: Type.Optional(Type.String()),
});
export type RemoteEntry = Static<typeof RemoteEntry>;
export const RemoteEntries = Type.Record(Type.String(), RemoteEntry);
export type RemoteEntries = Static<typeof RemoteEntries>;

/** The live event of a rollout change: whoever shows that remote loads /remotes.json again. */
export const RemotesEvent = Type.Object({ remote: Type.String() });
export type RemotesEvent = Static<typeof RemotesEvent>;
