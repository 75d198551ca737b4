// The pick list table's fixed geometry, shared by the table and its scrolling.

/** Fixed heights (px) matching list-devices.css: rows are never measured, so scrolling stays cheap. */
export const ROW_HEIGHT = 56;
export const HEADER_HEIGHT = 40;
export const OVERSCAN = 10;
/**
 * Browsers cap an element's height (about 17.9 million px in Firefox): the scroll area holds at
 * most the rows that fit in 15 million px; beyond that, a longer list is reached by its filters.
 */
export const MAX_SCROLL_ROWS = Math.floor(15_000_000 / ROW_HEIGHT);

/** The index of the row at the top of the view, under the sticky header, at a scroll offset. */
export const topRow = (scrollTop: number) => Math.max(0, Math.floor(scrollTop / ROW_HEIGHT));
