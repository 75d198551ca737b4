// Run-time composition (docs/architecture.md#composition): what a remote adds to the console is
// data it publishes with each version (its `remote.json`), checked by the registry; the server
// composes, per viewer, the pages, menu entries and extensions of the live versions, and sends
// that composition inlined in the page document and as GET /remotes.json.
import { Type, type Static } from '@sinclair/typebox';
import { SERVER_FEATURES } from '../features';
import { Choice } from './fields';
import { REMOTE_NAME_PATTERN, RemoteEntry } from './registry';

/** The file beside a remote's package.json that declares what it adds; its build carries it in dist/. */
export const DECLARATION_FILE = 'remote.json';

/**
 * Who may open a page, see a menu entry or get an extension: every role of the web console,
 * the roles named, or the holders of a permission the server knows (GET /remotes.json has no
 * list of them: an unknown one is refused at publish).
 */
export const Access = Type.Union([
  Type.Literal('everyone'),
  Type.Object({ roles: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object({ permission: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
]);
export type Access = Static<typeof Access>;

const ExposedModule = Type.String({
  pattern: '^\\./[A-Za-z0-9_-]+$',
  description: "An exposed module, e.g. './ListDevices'.",
});

const ParamName = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,40}$' });

/**
 * A GET the shell starts with a page's code (docs/architecture.md#first-rows): the path, the URL
 * query parameters of the page it forwards and the values it accepts of them, fixed parameters,
 * and the server feature it needs.
 * The page's own call uses its answer only when it asks for that very request (@veritas/shared/first-calls).
 */
export const FirstCall = Type.Object(
  {
    /** A path of the API under the console's HTTP client, e.g. 'api/devices/' (checked at publish). */
    path: Type.String({ minLength: 1, maxLength: 200 }),
    /** The page URL's query parameters it sends, those the URL has and not empty, as written. */
    forward: Type.Optional(Type.Array(ParamName, { maxItems: 20 })),
    /**
     * The values a forwarded parameter is sent with, as a regular expression its whole value must
     * match (checked at publish), e.g. { "status": "pending|submitted" }: any other value is left
     * out, as by a page that ignores what it does not know, instead of a call the server refuses.
     */
    accept: Type.Optional(Type.Record(ParamName, Type.String({ minLength: 1, maxLength: 500 }), { maxProperties: 20 })),
    /** Parameters it always sends, e.g. { "limit": "100" }. */
    params: Type.Optional(Type.Record(ParamName, Type.String({ maxLength: 200 }), { maxProperties: 20 })),
    /** A server feature it needs (checked at publish): without it the call is not started. */
    feature: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type FirstCall = Static<typeof FirstCall>;

export const DeclaredPage = Type.Object(
  {
    /** The route path under the layout, without slashes: 'ListDevices' is /ListDevices. */
    path: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
    module: ExposedModule,
    /** How loading and error states name it. */
    title: Type.String({ minLength: 1, maxLength: 60 }),
    access: Access,
    /** The GETs the shell starts with its code. */
    firstCalls: Type.Optional(Type.Array(FirstCall, { minItems: 1, maxItems: 4 })),
    /**
     * The console's home page: `/`, a sign-in, a page the viewer may not open and a path that is
     * no page lead there. One page of the served versions at most, open to everyone.
     */
    home: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type DeclaredPage = Static<typeof DeclaredPage>;

/** An entry of a top-bar menu: opens one of the remote's pages, or runs a command (an exposed module's default export). */
export const DeclaredMenuEntry = Type.Object(
  {
    menu: Type.String({ minLength: 1 }),
    label: Type.String({ minLength: 1, maxLength: 40 }),
    /** Place in the menu, lowest first. */
    order: Type.Integer({ minimum: 0, maximum: 10_000 }),
    page: Type.Optional(Type.String({ minLength: 1 })),
    command: Type.Optional(ExposedModule),
    /** Who sees it: a page's entry defaults to the page's access; a command's is required. */
    access: Type.Optional(Access),
  },
  { additionalProperties: false },
);
export type DeclaredMenuEntry = Static<typeof DeclaredMenuEntry>;

/** A contribution into a named slot that the shell or another remote renders. */
export const DeclaredExtension = Type.Object(
  {
    slot: Type.String({ minLength: 1 }),
    /** The version of the slot's props contract it was written against (SLOT_CONTRACTS). */
    contract: Type.Integer({ minimum: 1 }),
    module: ExposedModule,
    order: Type.Integer({ minimum: 0, maximum: 10_000 }),
    access: Access,
  },
  { additionalProperties: false },
);
export type DeclaredExtension = Static<typeof DeclaredExtension>;

/** What a remote adds to the console: published with each version (the build's remote.json). */
export const RemoteDeclaration = Type.Object(
  {
    name: Type.String({ pattern: REMOTE_NAME_PATTERN }),
    /** Workspace tooling only (WORKSPACE_FIELDS): the dev server's port and its standalone page's title, the exposed modules' sources. */
    devPort: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65_535 })),
    title: Type.Optional(Type.String()),
    exposes: Type.Optional(Type.Record(Type.String(), Type.String())),
    pages: Type.Array(DeclaredPage, { maxItems: 50 }),
    menus: Type.Array(DeclaredMenuEntry, { maxItems: 50 }),
    extensions: Type.Array(DeclaredExtension, { maxItems: 50 }),
    /** The slots its pages render, each with the version of its props contract. */
    slots: Type.Record(Type.String(), Type.Integer({ minimum: 1 })),
    /** API capabilities it calls, with a semver range each, e.g. { "records": "^1" }. */
    needs: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: false },
);
export type RemoteDeclaration = Static<typeof RemoteDeclaration>;

/**
 * The fields of remote.json only the workspace's tooling reads: not part of what a version
 * declares. The build leaves them out of the declaration it publishes (scripts/workspace-remotes.cjs
 * keeps the same list: CommonJS cannot import this), and the registry drops them from one that has them.
 */
export const WORKSPACE_FIELDS = ['devPort', 'title', 'exposes'] as const satisfies readonly (keyof RemoteDeclaration)[];

/** A page of the composition: the route, the remote and module that render it. */
export const ComposedPage = Type.Object({
  path: Type.String(),
  remote: Type.String(),
  module: Type.String(),
  title: Type.String(),
  firstCalls: Type.Optional(Type.Array(FirstCall)),
});
export type ComposedPage = Static<typeof ComposedPage>;

export const ComposedMenuEntry = Type.Object({
  menu: Type.String(),
  label: Type.String(),
  remote: Type.String(),
  /** The page it opens, or the module whose default export it runs. */
  page: Type.Optional(Type.String()),
  command: Type.Optional(Type.String()),
});
export type ComposedMenuEntry = Static<typeof ComposedMenuEntry>;

export const ComposedExtension = Type.Object({
  slot: Type.String(),
  remote: Type.String(),
  module: Type.String(),
});
export type ComposedExtension = Static<typeof ComposedExtension>;

/**
 * GET /remotes.json, and the page document's inlined copy: for this viewer, where each live remote
 * loads from (its canary for a user in it), the pages they may open, their menu entries and
 * extensions in display order, and the paths of pages no live version declares any more.
 */
export const Composition = Type.Object({
  /** The signed-in user it was made for; null: nobody (only what every role may open). */
  viewer: Type.Union([Type.String(), Type.Null()]),
  remotes: Type.Record(Type.String(), RemoteEntry),
  pages: Type.Array(ComposedPage),
  menus: Type.Array(ComposedMenuEntry),
  extensions: Type.Array(ComposedExtension),
  unavailable: Type.Array(Type.String()),
  /** The path of the home page (a served page declared `home`); null while no served version declares one. */
  home: Type.Union([Type.String(), Type.Null()]),
  /** The server's features, as user/get_role/ answers them: a page load starts its first calls before that answer. */
  features: Type.Array(Choice(SERVER_FEATURES)),
});
export type Composition = Static<typeof Composition>;

/** The id of the page document's script element that carries the composition (JSON). */
export const COMPOSITION_ELEMENT_ID = 'veritas-composition';
