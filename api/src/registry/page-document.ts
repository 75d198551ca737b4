// The console's page document (docs/deploying-a-remote.md#the-page-document): the shell's
// index.html with the viewer's composition inlined, so the first render knows the pages and menus
// without waiting for /remotes.json; its status says whether the path is a page this viewer may
// open (200), one the server refuses this signed-in viewer (403), or one no longer served (404).
// scripts/serve.mjs answers every page path with it.
import {
  COMPOSITION_ELEMENT_ID,
  LAST_EVENT_ID_MARK,
  SHELL_ROUTES,
  type Composition,
  type Role,
} from '@veritas/shared/domain';
import { canDeploy } from '../auth/rights';
import type { ComposedView } from './composition';

/** Who may open each of the shell's own pages (the shell's routes guard them the same way). */
const SHELL_PAGE_ACCESS: Record<Lowercase<(typeof SHELL_ROUTES)[number]>, (role: Role) => boolean> = {
  login: () => true,
  deployments: canDeploy,
};

const HEAD_END = '</head>';

/** Checks the shell's index.html once, at start: the composition goes in before its `</head>`. */
export function checkShellDocument(html: string): void {
  if (!html.toLowerCase().includes(HEAD_END)) {
    throw new Error(`The shell's index.html has no ${HEAD_END}: the composition cannot be inlined in it.`);
  }
}

/**
 * `html` with `composition` as `<script type="application/json" id="veritas-composition">` just
 * before `</head>`, after `preloads` (elements the server made, src/registry/preloads.ts). Every
 * `<` of the JSON is written \u003c, so no text of it (a title, a label) can end the element or
 * open another; JSON.parse reads it back the same. For a signed-in viewer, `lastEventId` (the
 * newest event the server had read) goes before them as `<meta name="veritas-last-event-id">`: the
 * tab's first event stream resumes after it (docs/events.md#the-first-stream).
 */
export function inlineComposition(html: string, composition: Composition, preloads = '', lastEventId?: number): string {
  const json = JSON.stringify(composition).replace(/</g, '\\u003c');
  const mark =
    composition.viewer !== null && lastEventId !== undefined
      ? `<meta name="${LAST_EVENT_ID_MARK}" content="${lastEventId}">`
      : '';
  const element = `<script type="application/json" id="${COMPOSITION_ELEMENT_ID}">${json}</script>`;
  const at = html.toLowerCase().lastIndexOf(HEAD_END);
  return html.slice(0, at) + mark + preloads + element + html.slice(at);
}

/**
 * The status of the page document at `pathname` (without query; compared case-insensitively, a
 * trailing slash ignored): 403 when the signed-in viewer may not open that page (one a served
 * version declares, or the shell's own), 404 when the page is no longer served (`unavailable`), 200
 * otherwise (`/`, a page the viewer may open, nobody signed in, any other path).
 */
export function pageStatus(pathname: string, { composition, role, servedPages }: ComposedView): 200 | 403 | 404 {
  let path = pathname.replace(/^\/+/, '').replace(/\/+$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded text: compared as it is.
  }
  const key = path.toLowerCase();
  if (key === '') return 200;
  if (Object.hasOwn(SHELL_PAGE_ACCESS, key)) {
    const mayOpen = SHELL_PAGE_ACCESS[key as keyof typeof SHELL_PAGE_ACCESS];
    return role !== null && !mayOpen(role) ? 403 : 200;
  }
  if (servedPages.has(key)) {
    const mayOpen = composition.pages.some((page) => page.path.toLowerCase() === key);
    return composition.viewer !== null && !mayOpen ? 403 : 200;
  }
  if (composition.unavailable.some((gone) => gone.toLowerCase() === key)) return 404;
  return 200;
}
