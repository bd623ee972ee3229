import test from 'ava'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

// The README is a front page and docs/ its pages: every relative link between them (and from
// scripts/README.md and the examples' READMEs) reaches a file that exists, and a #fragment reaches a
// heading of that file as GitHub names it.

const root = process.cwd()

function markdownFiles(): string[] {
  const inFolder = (folder: string) => readdirSync(join(root, folder)).filter((name) => name.endsWith('.md')).map((name) => join(folder, name))
  const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'examples', entry.name, 'README.md')))
    .map((entry) => join('examples', entry.name, 'README.md'))
  return ['README.md', 'CHANGELOG.md', ...inFolder('docs'), 'scripts/README.md', ...examples]
}

/** The lines outside fenced code blocks, with inline code taken out: neither holds links or headings. */
function prose(markdown: string): string[] {
  let fenced = false
  const lines: string[] = []
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, (code) => (code.includes('](') ? '' : code)))
  }
  return lines
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '').replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    found.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return found
}

/** Every relative link of a file that does not resolve, as "file: target (why)". */
function brokenLinks(file: string, markdown: string, read: (path: string) => string | undefined): string[] {
  const broken: string[] = []
  for (const line of prose(markdown)) {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      const [path, fragment] = target.split('#') as [string, string | undefined]
      const linked = path === '' ? file : join(dirname(file), path)
      const text = read(linked)
      if (text === undefined) broken.push(`${file}: ${target} (no such file)`)
      else if (fragment !== undefined && linked.endsWith('.md') && !anchors(text).has(fragment)) broken.push(`${file}: ${target} (no such heading)`)
    }
  }
  return broken
}

function readFromDisk(path: string): string | undefined {
  const full = join(root, path)
  if (!existsSync(full)) return undefined
  return path.endsWith('.md') ? readFileSync(full, 'utf8') : ''
}

test('every relative link of the README, docs/, scripts/README.md and the examples resolves, #anchors included', (t) => {
  const files = markdownFiles()
  t.true(files.includes(join('docs', 'README.md')), 'docs/README.md is the index of the pages')
  t.deepEqual(files.flatMap((file) => brokenLinks(relative(root, join(root, file)), readFileSync(join(root, file), 'utf8'), readFromDisk)), [])
})

test('each page of docs/ is linked from the docs index', (t) => {
  const index = readFileSync(join(root, 'docs', 'README.md'), 'utf8')
  const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md')
  t.deepEqual(pages.filter((page) => !index.includes(`](${page}`)), [])
})

test('the README stays a front page of at most 300 lines', (t) => {
  t.true(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length <= 300)
})

test('the check finds a missing file and a missing heading, and reads headings as GitHub names them', (t) => {
  const pages: Record<string, string> = {
    'docs/a.md': '# `await page.goal(goal, options?)`\n## Limits\n## Limits\n```sh\n# not a heading\n```\n',
    'docs/index.md': '# Index\n[a](a.md#limits-1) [b](b.md) [c](a.md#not-a-heading) [d](#nowhere) [e](#index) [f](https://example.com/x.md) `[g](g.md)`\n',
  }
  const read = (path: string) => pages[path]
  t.deepEqual([...anchors(pages['docs/a.md'])], ['await-pagegoalgoal-options', 'limits', 'limits-1'])
  t.deepEqual(brokenLinks('docs/index.md', pages['docs/index.md'], read), [
    'docs/index.md: b.md (no such file)',
    'docs/index.md: a.md#not-a-heading (no such heading)',
    'docs/index.md: #nowhere (no such heading)',
  ])
})
