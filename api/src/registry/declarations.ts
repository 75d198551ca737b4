// What a remote declares it adds to the console (its remote.json, docs/deploying-a-remote.md#the-declaration),
// read and checked: at publish, promote and canary, a version's declaration must fit the server and
// the live state of the other remotes at that moment (docs/deploying-a-remote.md#the-checks). Pure
// functions over the declaration, the build's exposed modules and the other remotes' declarations.
import {
  CONSOLE_ROLES,
  DECLARATION_FILE,
  RemoteDeclaration,
  SERVER_FEATURES,
  SHELL_MENUS,
  SHELL_ROUTES,
  SERVER_PATHS,
  SHELL_SLOTS,
  WORKSPACE_FIELDS,
  acceptPattern,
  compatibilityProblems,
  type Access,
  type ConsoleShared,
  type FirstCall,
} from '@veritas/shared/domain';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import satisfies from 'semver/functions/satisfies';
import validRange from 'semver/ranges/valid';
import { API_CAPABILITIES } from './api-capabilities';
import { PERMISSIONS } from '../auth/rights';

/** A remote's declaration that counts: one of the versions it serves (live or canary). */
export interface DeclaredRemote {
  remote: string;
  declaration: RemoteDeclaration;
}

const compiled = TypeCompiler.Compile(RemoteDeclaration);

/**
 * `value` (remote.json as parsed) as the declaration of `remote`, without the workspace's fields;
 * or the problem, one sentence: the first place where it does not match the schema, or another name.
 */
export function readDeclaration(
  remote: string,
  value: unknown,
): { declaration: RemoteDeclaration; problem?: undefined } | { problem: string } {
  const error = compiled.Errors(value).First();
  if (error) {
    return {
      problem: `${DECLARATION_FILE} is not a remote's declaration: at ${error.path || '/'}, ${error.message.replace(/\.$/, '')}.`,
    };
  }
  const declaration = { ...(value as RemoteDeclaration) };
  if (declaration.name !== remote) {
    return { problem: `${DECLARATION_FILE} declares "${declaration.name}", not "${remote}".` };
  }
  for (const field of WORKSPACE_FIELDS) delete declaration[field];
  return { declaration };
}

/** The exposed modules a declaration names: its pages', commands' and extensions'. */
export function modulesNamedBy(declaration: RemoteDeclaration): string[] {
  const modules = [
    ...declaration.pages.map((page) => page.module),
    ...declaration.menus.flatMap((entry) => (entry.command === undefined ? [] : [entry.command])),
    ...declaration.extensions.map((extension) => extension.module),
  ];
  return [...new Set(modules)];
}

const key = (path: string) => path.toLowerCase();

/** Why `access`, given to `what`, names something the server does not know; empty when it does not. */
function accessProblems(what: string, access: Access | undefined): string[] {
  if (access === undefined || access === 'everyone') return [];
  if ('roles' in access) {
    return access.roles
      .filter((role) => !(CONSOLE_ROLES as readonly string[]).includes(role))
      .map((role) => `gives ${what} the role "${role}", which is not a role of the web console`);
  }
  return Object.hasOwn(PERMISSIONS, access.permission)
    ? []
    : [`gives ${what} the permission "${access.permission}", which the server does not know`];
}

/**
 * A path of the API: segments of letters, digits, `_` and `-` under `api/`, so a first call stays
 * with the console's own server and asks nothing else of it (no `..`, query or other origin).
 */
const API_PATH = /^api(?:\/[A-Za-z0-9_-]+)+\/?$/;

/** Why the first call `call` of the page `page` is not one the shell may start; empty when it is. */
function firstCallProblems(page: string, call: FirstCall): string[] {
  const problems: string[] = [];
  if (!API_PATH.test(call.path)) {
    problems.push(`asks on ${page} for the first call "${call.path}", which is not a path of the API`);
  }
  if (call.feature !== undefined && !(SERVER_FEATURES as readonly string[]).includes(call.feature)) {
    problems.push(
      `asks on ${page} for a first call needing the feature "${call.feature}", which the server does not know`,
    );
  }
  for (const [name, pattern] of Object.entries(call.accept ?? {})) {
    if (!(call.forward ?? []).includes(name)) {
      problems.push(
        `accepts on ${page} values of "${name}" for the first call "${call.path}", which does not forward it`,
      );
    } else if (acceptPattern(pattern) === null) {
      problems.push(
        `accepts on ${page} values of "${name}" for the first call "${call.path}" by "${pattern}", which is not a regular expression`,
      );
    }
  }
  return problems;
}

/**
 * Why `declaration` does not fit this server beside the other remotes' declarations `others` (their
 * live and canary versions'); empty when it does. Each problem is one sentence about the version:
 * - its pages: none at a path (compared case-insensitively) the shell routes, the server serves
 *   (the API, the registry's files) or another remote declares, none twice, each first call a GET of the API needing a server feature it knows,
 *   accepting values (a regular expression) only of parameters it forwards; at most one home page
 *   among its and the others', open to everyone;
 * - every access names roles of the web console or permissions of the server;
 * - its menu entries: in a menu of the shell, each opening a page it declares or running a command
 *   with an access of its own;
 * - every API capability it needs is provided at a version in its range;
 * - no slot it renders is one the shell or another remote renders (a slot has one owner);
 * - every extension goes into a slot rendered (by the shell, another remote or itself) at the
 *   contract version it names.
 * The exposed modules it names are checked against the build's manifest by compatibilityProblems.
 */
export function declarationProblems(
  declaration: RemoteDeclaration,
  others: readonly DeclaredRemote[],
  capabilities: Readonly<Record<string, string>> = API_CAPABILITIES,
): string[] {
  const problems: string[] = [];

  const taken = new Map<string, string>();
  for (const route of SHELL_ROUTES) taken.set(key(route), 'is a route of the shell');
  for (const path of SERVER_PATHS) taken.set(key(path), 'is a path of the server');
  for (const other of others) {
    for (const page of other.declaration.pages) {
      if (!taken.has(key(page.path))) taken.set(key(page.path), `${other.remote} declares`);
    }
  }
  let home = others.flatMap((other) =>
    other.declaration.pages.filter((page) => page.home).map((page) => `${other.remote}'s /${page.path}`),
  )[0];
  const own = new Set<string>();
  for (const page of declaration.pages) {
    const owner = taken.get(key(page.path));
    if (owner) problems.push(`declares the page /${page.path}, which ${owner}`);
    if (own.has(key(page.path))) problems.push(`declares the page /${page.path} twice`);
    own.add(key(page.path));
    if (page.home) {
      // Every role lands there, and one place is home.
      if (home !== undefined) problems.push(`declares /${page.path} the home page, which ${home} is`);
      else home = `its /${page.path}`;
      if (page.access !== 'everyone') problems.push(`declares the home page /${page.path} open to fewer than everyone`);
    }
    problems.push(...accessProblems(`the page /${page.path}`, page.access));
    for (const call of page.firstCalls ?? []) problems.push(...firstCallProblems(`/${page.path}`, call));
  }

  const pages = new Set(declaration.pages.map((page) => page.path));
  for (const entry of declaration.menus) {
    const what = `the menu entry "${entry.label}"`;
    if (!(SHELL_MENUS as readonly string[]).includes(entry.menu)) {
      problems.push(`puts ${what} in the menu "${entry.menu}", which the shell does not have`);
    }
    if (entry.page === undefined && entry.command === undefined) {
      problems.push(`gives ${what} neither a page nor a command`);
    } else if (entry.page !== undefined && entry.command !== undefined) {
      problems.push(`gives ${what} both a page and a command`);
    } else if (entry.page !== undefined && !pages.has(entry.page)) {
      problems.push(`has ${what} open the page "${entry.page}", which it does not declare`);
    } else if (entry.command !== undefined && entry.access === undefined) {
      problems.push(`gives the command of ${what} no access`);
    }
    problems.push(...accessProblems(what, entry.access));
  }

  for (const [capability, range] of Object.entries(declaration.needs)) {
    const provided = Object.hasOwn(capabilities, capability) ? capabilities[capability] : undefined;
    if (provided === undefined) {
      problems.push(`needs the API capability "${capability}", which the server does not provide`);
    } else if (!validRange(range)) {
      problems.push(`gives the API capability ${capability} the range "${range}", which is not one`);
    } else if (!satisfies(provided, range)) {
      problems.push(`needs the API capability ${capability} ${range}, the server provides ${provided}`);
    }
  }

  // Who renders each slot, at which contract versions. A slot has one owner, the shell or the remote
  // that offered it first: another that claimed it could name a contract version the slot's page
  // does not render and so let contributions at that version through.
  const rendered = new Map<string, Set<number>>();
  const owners = new Map<string, string>();
  const renders = (owner: string, slots: Readonly<Record<string, number | undefined>>) => {
    for (const [slot, version] of Object.entries(slots)) {
      if (version === undefined) continue;
      rendered.set(slot, (rendered.get(slot) ?? new Set()).add(version));
      if (!owners.has(slot)) owners.set(slot, owner);
    }
  };
  renders('the shell', SHELL_SLOTS);
  for (const other of others) renders(other.remote, other.declaration.slots);
  for (const slot of Object.keys(declaration.slots)) {
    const owner = owners.get(slot);
    if (owner) problems.push(`renders the slot "${slot}", which ${owner} renders`);
  }
  renders(declaration.name, declaration.slots);
  for (const extension of declaration.extensions) {
    const what = `the extension ${extension.module}`;
    const versions = rendered.get(extension.slot);
    if (!versions) {
      problems.push(`puts ${what} into the slot "${extension.slot}", which nothing live renders`);
    } else if (!versions.has(extension.contract)) {
      const at = [...versions].sort((a, b) => a - b).join(', ');
      problems.push(
        `puts ${what} into ${extension.slot} at contract ${extension.contract}, which is rendered at ${at}`,
      );
    }
    problems.push(...accessProblems(what, extension.access));
  }
  return problems;
}

/**
 * Every reason a version of `remote` (its manifest and declaration) cannot be served beside
 * `others`: the gate of shared/src/remote-compatibility.ts (with the modules its declaration names),
 * then the declaration's own problems.
 */
export function versionProblems(
  remote: string,
  manifest: unknown,
  consoleShared: ConsoleShared,
  declaration: RemoteDeclaration,
  others: readonly DeclaredRemote[],
): string[] {
  return [
    ...compatibilityProblems(remote, manifest, consoleShared, modulesNamedBy(declaration)),
    ...declarationProblems(declaration, others),
  ];
}
