// axe-core in the page under test, against WCAG 2.1 A and AA. The library is evaluated through the
// DevTools protocol (page.evaluate), not added as a <script>: a Content-Security-Policy without
// 'unsafe-inline' scripts would block a script tag, and does not apply to evaluation.
import axe from 'axe-core';
import { Page } from 'playwright-core';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/** At most this many elements are listed per rule; the count says how many failed. */
const NODES_LISTED = 8;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/**
 * The WCAG 2.1 A/AA violations of the page as it is now (only the fields a report needs cross over),
 * or those of the axe rules named, e.g. a best practice outside WCAG's tags.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<Violation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  const runOnly = rules ? { type: 'rule' as const, values: rules } : { type: 'tag' as const, values: WCAG_TAGS };
  return page.evaluate(async (only) => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const results = await inPage.run(document, { runOnly: only, resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' >>> '), summary: n.failureSummary ?? '' })),
    }));
  }, runOnly);
}

/** One violation as lines: rule, impact, help, then each failing element's selector and why. */
export function describeViolation(v: Violation): string {
  const lines = [
    `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? '' : 's'}) ${v.helpUrl}`,
  ];
  for (const node of v.nodes.slice(0, NODES_LISTED)) {
    // The summary's first line says "Fix any/all of the following:"; the reasons follow it.
    const why = node.summary
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean)
      .join('; ');
    lines.push(`    ${node.target}${why ? ` — ${why}` : ''}`);
  }
  if (v.nodes.length > NODES_LISTED) lines.push(`    … and ${v.nodes.length - NODES_LISTED} more`);
  return lines.join('\n');
}

/** Fails, listing each one, when axe finds a serious or critical WCAG 2.1 A/AA violation on the page. */
export async function expectNoSeriousViolations(page: Page, stateName: string): Promise<void> {
  const failing = (await axeViolations(page)).filter((v) => v.impact !== null && FAILING_IMPACTS.has(v.impact));
  if (failing.length > 0) {
    throw new Error(
      `${stateName}: ${failing.length} serious or critical accessibility violation(s)\n${failing.map(describeViolation).join('\n')}`,
    );
  }
}
