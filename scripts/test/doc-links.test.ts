// The check of the repo's links into its Markdown files (scripts/doc-links.ts), and the repo held to it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchorsOf, brokenDocLinks } from '../doc-links';

const repoRoot = path.resolve(__dirname, '../..');

test('every link between the code, README and docs/ leads to a file, and to a section of it', () => {
  // This file's own cases name the files of their temporary folders.
  expect(brokenDocLinks(repoRoot, { skip: ['scripts/test/doc-links.test.ts'] })).toEqual([]);
});

describe('the check', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-links-'));
    fs.mkdirSync(path.join(root, 'docs'));
    fs.mkdirSync(path.join(root, 'src'));
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const write = (file: string, text: string) => fs.writeFileSync(path.join(root, file), text);

  test('a missing file, a missing section and a same-file link to no heading are reported, with where they are', () => {
    write('docs/guide.md', '# Guide\n\n## The `pnpm start` command\n\nSee [below](#nowhere) and [there](other.md).\n');
    write('src/a.ts', '// docs/guide.md#the-pnpm-start-command is kept\n// docs/guide.md#gone is not\n');

    expect(brokenDocLinks(root)).toEqual([
      { file: 'docs/guide.md', line: 5, target: '#nowhere', problem: 'no section #nowhere in docs/guide.md' },
      { file: 'docs/guide.md', line: 5, target: 'other.md', problem: 'no such file' },
      { file: 'src/a.ts', line: 2, target: 'docs/guide.md#gone', problem: 'no section #gone in docs/guide.md' },
    ]);
  });

  test('a Markdown link is read beside its file only, as GitHub reads it', () => {
    write('docs/guide.md', '# Guide\n\n[wrong](docs/other.md#part) but `docs/other.md#part` is a citation\n');
    write('docs/other.md', '## Part\n');

    expect(brokenDocLinks(root)).toEqual([
      { file: 'docs/guide.md', line: 3, target: 'docs/other.md#part', problem: 'no such file' },
    ]);
  });

  test('a path is read beside the file that names it, else from the root', () => {
    write('docs/guide.md', '# Guide\n\n[the other](other.md#part) and [the readme](../README.md#top)\n');
    write('docs/other.md', '## Part\n');
    write('README.md', '# Top\n\nIn [docs/guide.md](docs/guide.md#guide).\n');
    write('src/a.ts', '// docs/other.md#part\n');

    expect(brokenDocLinks(root)).toEqual([]);
  });

  test('prose naming a file, a link text, a URL and headings in code blocks are no links', () => {
    write('docs/guide.md', '# Guide\n\n```\n## Not a heading\n```\n\nAs guide.md says, see [guide.md](#guide).\n');
    write('src/a.ts', '// https://example.com/docs/x.md#y and docs/guide.md#not-a-heading\n');

    expect(brokenDocLinks(root)).toEqual([
      {
        file: 'src/a.ts',
        line: 1,
        target: 'docs/guide.md#not-a-heading',
        problem: 'no section #not-a-heading in docs/guide.md',
      },
    ]);
  });
});

test("a heading's anchor is GitHub's: lower case, punctuation dropped, a repeated one numbered; an explicit <a id> counts", () => {
  const anchors = anchorsOf('## A team\'s own CDN\n## Retire\n### Retire\n<a id="kept-anchor"></a>\n');
  expect([...anchors]).toEqual(['a-teams-own-cdn', 'retire', 'retire-1', 'kept-anchor']);
});
