// The code of the composition's pages, one load per page and remote entry (the URL of the remote's
// manifest), kept across navigations: a new version of a remote is a new entry, so its pages load
// anew while a page of the old version already shown keeps its component. A failed one is dropped
// so the next render (Retry, or coming back to the route) starts a new load.
// A chunk of its own: a page load starts its page's code with it, before the signed-in routes'
// chunk (the layout, the query client) has arrived (bootstrap.tsx).
import { useComposition, type ComposedPage, type RemoteEntry } from '@veritas/shared';
import { PageCode } from './page-code';
import { knownLocation, loadRemotePage, locateRemote, pageId } from './remotes';

const pageCodes = new Map<string, PageCode>();

function pageCodeAt(page: ComposedPage, location: RemoteEntry): PageCode {
  const key = `${pageId(page)} ${location.entry}`;
  let code = pageCodes.get(key);
  if (!code) {
    code = new PageCode(
      loadRemotePage(page, location).catch((error: unknown) => {
        pageCodes.delete(key);
        throw error;
      }),
    );
    pageCodes.set(key, code);
  }
  return code;
}

/**
 * The page's code for this navigation: with /remotes.json fresh, the one of the remote's current
 * entry; otherwise one that reads /remotes.json again first (a rollout may have changed the entry)
 * and then loads the page from where it says.
 */
export function pageCode(page: ComposedPage): PageCode {
  const location = knownLocation(page.remote);
  if (location) return pageCodeAt(page, location);
  return new PageCode(locateRemote(page.remote).then((located) => pageCodeAt(page, located).load));
}

/** A path as routes compare it: without surrounding slashes, and without regard to case, as the router's do. */
export const routePath = (path: string) => path.replace(/^\/+|\/+$/g, '').toLowerCase();

/** The composition's page at `pathname`, if it is one. */
export function composedPageAt(pathname: string): ComposedPage | undefined {
  const path = routePath(pathname);
  return useComposition.getState().composition?.pages.find((candidate) => routePath(candidate.path) === path);
}

/** Whether the page document was composed for a signed-in user: their session is very likely still good. */
export function composedForSignedIn(): boolean {
  const composition = useComposition.getState().composition;
  return composition !== null && composition.viewer !== null;
}

/**
 * On a page load of a remote's page (bootstrap.tsx), its code starts loading while the sign-in is
 * checked (docs/architecture.md#first-rows), from the composition the document carries. A failure
 * is left to the route, which loads again.
 */
export function preloadPageAt(pathname: string): void {
  const page = composedPageAt(pathname);
  if (page) pageCode(page).load.catch(() => {});
}
