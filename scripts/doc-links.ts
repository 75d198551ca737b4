// The repo's links into its Markdown files, checked: every `*.md` path with or without a `#section`
// that the docs, README and the code name (a link in Markdown, a citation in a comment) must be a
// file, and its section a heading of that file, as GitHub makes a heading's anchor (github-slugger).
// `pnpm test:scripts` runs it over the repo (test/doc-links.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';

/** A link that leads nowhere: where it is, what it names, and why it fails. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', '.bench', 'coverage']);
const SCANNED = /\.(md|ts|tsx|js|cjs|mjs|json|css|html|yaml|yml)$/;
// A path to a Markdown file, not in the middle of a URL or of another path nor a link's text, with
// its section.
const MD_LINK = /(?<![\w/.:@[-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]+\.md)(#[\w-]*)?/g;
// A Markdown link's target: a section of its own file, or a path (a URL has a scheme).
const LINK_TARGET = /\]\((#[\w-]+|(?![a-z]+:)[^)\s#]+\.md(?:#[\w-]*)?)\)/g;
const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const EXPLICIT_ANCHOR = /<a\s+(?:id|name)="([^"]+)"/g;

/** Every file of `root` the check reads, relative to it, in a stable order. */
function scannedFiles(root: string, folder = ''): string[] {
  const entries = fs.readdirSync(path.join(root, folder), { withFileTypes: true });
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : scannedFiles(root, relative);
      return SCANNED.test(entry.name) ? [relative] : [];
    });
}

/** The anchors of a Markdown text's headings (and of explicit `<a id>`), as GitHub writes them. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = HEADING.exec(line);
    // The anchor is made from the heading's text as shown: without link targets and code marks.
    if (heading) anchors.add(slugger.slug(heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')));
    for (const [, id] of line.matchAll(EXPLICIT_ANCHOR)) anchors.add(id!);
  }
  return anchors;
}

/**
 * The links of every scanned file under `root` that lead nowhere. A Markdown link is read relative
 * to its file, as GitHub reads it; any other mention of a path relative to the file that names it,
 * else relative to `root`, as the code's comments cite docs (`docs/architecture.md#first-rows`). Files in `skip` (paths relative to `root`) are not read.
 */
export function brokenDocLinks(root: string, { skip = [] }: { skip?: string[] } = {}): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) anchorCache.set(file, (anchors = anchorsOf(fs.readFileSync(path.join(root, file), 'utf8'))));
    return anchors;
  };
  const exists = (file: string) => fs.existsSync(path.join(root, file)) && fs.statSync(path.join(root, file)).isFile();
  const broken: BrokenLink[] = [];
  for (const file of scannedFiles(root).filter((name) => !skip.includes(name.split(path.sep).join('/')))) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, index) => {
      const at = (target: string) => ({ file, line: index + 1, target });
      // A Markdown link is read beside its file only, as GitHub reads it (`besideOnly`).
      const check = (target: string, linked: string, section: string | undefined, besideOnly = false) => {
        const beside = path.normalize(path.join(path.dirname(file), linked));
        const candidates = besideOnly ? [beside] : [beside, path.normalize(linked)];
        const resolved = candidates.find((candidate) => !candidate.startsWith('..') && exists(candidate));
        if (!resolved) broken.push({ ...at(target), problem: 'no such file' });
        else if (section && section !== '#' && !anchorsIn(resolved).has(section.slice(1))) {
          broken.push({ ...at(target), problem: `no section ${section} in ${resolved}` });
        }
      };
      if (file.endsWith('.md')) {
        for (const [, target] of text.matchAll(LINK_TARGET) as Iterable<[string, string]>) {
          const hash = target.indexOf('#');
          if (hash > 0) check(target, target.slice(0, hash), target.slice(hash), true);
          else if (hash < 0) check(target, target, undefined, true);
          else if (!anchorsIn(file).has(target.slice(1))) {
            broken.push({ ...at(target), problem: `no section ${target} in ${file}` });
          }
        }
      }
      for (const match of text.matchAll(MD_LINK)) {
        const [target, linked, section] = match as unknown as [string, string, string | undefined];
        // A Markdown link's target is checked above; a file named in prose ("screens.md says") is
        // no link: a citation has a folder or a section.
        if (file.endsWith('.md') && text.slice(match.index - 2, match.index) === '](') continue;
        if (!linked.includes('/') && !section) continue;
        check(target, linked, section);
      }
    });
  }
  return broken;
}
