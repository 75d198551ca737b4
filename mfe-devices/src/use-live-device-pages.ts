// The pick list's loaded rows following the server's changes (docs/screens.md#live-updates).
import { gatherBursts, subscribeLiveEvents, throttle } from '@veritas/shared';
import { MAX_IDS } from '@veritas/shared/domain';
import { useQueryClient, type QueryClient } from '@veritas/shared/query';
import { useEffect, useEffectEvent, useMemo } from 'react';
import { deviceCountKey, devicePagesKey, devicesByIds, fetchDevicePage, FIRST_PAGE } from './api/devices';
import { placeChangedRows } from './device-rows';
import { changeRows, type DevicePages } from './loaded-pages';

/**
 * A changed record is re-read at once; those changed while a re-read is on its way, or within this
 * long after one began, are gathered and re-read together after it (docs/screens.md#live-updates).
 */
export const REREAD_AFTER_MS = 100;
/** The total, and the first page after an upload or a reset, are fetched again at most this often. */
export const REFRESH_EVERY_MS = 1000;

// docs/errors.md#device-pick-list: failures are only logged.
const logPageError = (error: unknown) => console.error('Failed to fetch device records', error);

interface LiveDevicePages {
  /** Follows the live event stream for the list `shown()` names at each event; answers how to stop. */
  follow(shown: () => string): () => void;
  /** Tells the row at the top of the view (the table's onRangeStart). */
  showFrom(index: number): void;
}

/**
 * docs/screens.md#live-updates. The records of 'submitted', 'verified' and 'detached' events are
 * re-read through the list's own query (api/devices/?ids=, at most MAX_IDS a call): at once, or,
 * those coming while a re-read is on its way or within REREAD_AFTER_MS of its start, together
 * after it (one re-read at a time, so an older answer never lands over a newer one). Each goes to
 * its place, stays, or leaves the rows loaded, and the total is asked again (at most once per
 * REFRESH_EVERY_MS). An upload's records carry their created date, which may fall anywhere in the
 * list: while the top of the list is in view its first page is fetched again; otherwise only the
 * total, and the first page once the user is back at the top, so the rows the user is reading do
 * not move. A reset fetches the list again.
 */
function liveDevicePages(client: QueryClient): LiveDevicePages {
  /** Whether the row at the top of the view is the list's first. */
  let atTop = true;
  /** An upload happened while the user was further down: its rows are fetched once back at the top. */
  let uploadMissed = false;
  let reloadTop = () => {};

  function follow(shown: () => string): () => void {
    const changed = new Set<number>();
    const recount = throttle(
      () => void client.invalidateQueries({ queryKey: deviceCountKey(shown()), exact: true }),
      REFRESH_EVERY_MS,
    );
    // The first page replaces the pages loaded once it has answered; the rows shown stay until then.
    const reload = throttle(() => {
      const key = shown();
      fetchDevicePage(key, FIRST_PAGE.after, FIRST_PAGE.limit).then(
        (page) => client.setQueryData<DevicePages>(devicePagesKey(key), { pages: [page], pageParams: [FIRST_PAGE] }),
        logPageError,
      );
      recount();
    }, REFRESH_EVERY_MS);
    reloadTop = reload;
    const reread = gatherBursts(() => {
      const key = shown();
      const ids = [...changed];
      changed.clear();
      const calls = [];
      for (let at = 0; at < ids.length; at += MAX_IDS) {
        const asked = new Set(ids.slice(at, at + MAX_IDS));
        calls.push(
          devicesByIds(key, [...asked]).then((matching) => {
            client.setQueryData<DevicePages>(
              devicePagesKey(key),
              (data) => data && changeRows(data, (rows, boundary) => placeChangedRows(rows, asked, matching, boundary)),
            );
          }, logPageError),
        );
      }
      recount();
      return Promise.all(calls);
    }, REREAD_AFTER_MS);
    const unsubscribe = subscribeLiveEvents('records', (message) => {
      if (message.type === 'reset') {
        changed.clear();
        reread.cancel();
        return reload();
      }
      const event = message.data;
      if (event.action !== 'uploaded') {
        for (const record of event.records) changed.add(record.id);
        return reread();
      }
      if (atTop) return reload();
      uploadMissed = true;
      recount();
    });
    return () => {
      unsubscribe();
      reread.cancel();
      recount.cancel();
      reload.cancel();
    };
  }

  function showFrom(index: number) {
    atTop = index <= 0;
    if (atTop && uploadMissed) {
      uploadMissed = false;
      reloadTop();
    }
  }

  return { follow, showFrom };
}

/** Keeps the rows loaded of the list named `key` current with the live event stream; answers showFrom. */
export function useLiveDevicePages(key: string): (index: number) => void {
  const client = useQueryClient();
  const live = useMemo(() => liveDevicePages(client), [client]);
  // Each event acts on the list shown when it comes, without subscribing again.
  const shown = useEffectEvent(() => key);
  useEffect(() => live.follow(() => shown()), [live]);
  return live.showFrom;
}
