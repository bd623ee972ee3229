import { attributeOf } from './dom-safe.ts'
import { collapse, shorten, shortenValue } from './text.ts'

// What a page states about itself outside its visible body: `<meta>` tags (Open Graph, product
// prices, itemprop) and JSON-LD, which often hold the true price or title. The outline lists them as
// `meta <key> = "<content>"` and `json-ld <Type>.<path> = <value>` lines, the names rules read them by.

// A page states a few dozen of each at most; more are repeats (alternate-locale tags, long offer lists).
const MAX_META = 40
// Tags of one name beyond the first few are the microdata of a list (each related product's url).
const MAX_META_PER_NAME = 3
const MAX_JSON_LD = 80
// Deeper JSON-LD is nested reviews or item lists, rarely what an instruction asks for.
const MAX_JSON_LD_DEPTH = 5

/** Lines for the `<meta>` tags with a key (property, name or itemprop) and content, in document order. */
function metaLines(textChars: number): string[] {
  const lines: string[] = []
  const perName = new Map<string, number>()
  for (const meta of Array.from(document.querySelectorAll('meta[content]'))) {
    const key = attributeOf(meta, 'property') || attributeOf(meta, 'name') || attributeOf(meta, 'itemprop')
    const content = collapse(attributeOf(meta, 'content') ?? '')
    if (!key || !content) continue
    const seen = (perName.get(key) ?? 0) + 1
    perName.set(key, seen)
    if (seen > MAX_META_PER_NAME) continue
    if (lines.length === MAX_META) break
    lines.push(`meta ${shorten(key, textChars + 1)} = ${JSON.stringify(shortenValue(content, textChars + 1))}`)
  }
  return lines
}

/** The JSON-LD objects of the page: each script's object, its array's items and its `@graph`'s items. */
function jsonLdObjects(): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = []
  for (const script of Array.from(document.querySelectorAll('script'))) {
    // Matched as the jsonld rules match it (src/page/json-ld.ts), so every object listed can be read.
    if ((attributeOf(script, 'type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue
    let data: unknown
    try {
      data = JSON.parse(script.textContent ?? '')
    } catch {
      continue // a page's broken JSON-LD is no metadata
    }
    for (const item of Array.isArray(data) ? data : [data]) {
      if (!item || typeof item !== 'object') continue
      const graph = (item as Record<string, unknown>)['@graph']
      if (Array.isArray(graph)) objects.push(...graph.filter((node): node is Record<string, unknown> => !!node && typeof node === 'object'))
      else objects.push(item as Record<string, unknown>)
    }
  }
  return objects
}

// A property a path can name (src/page/json-ld.ts): no dot, bracket or space in it.
const PATH_NAME = /^[^\s.[\]]+$/

/** The object's first @type, without its vocabulary: "https://schema.org/Product" is "Product". */
function typeName(object: Record<string, unknown>): string | undefined {
  const type = Array.isArray(object['@type']) ? object['@type'][0] : object['@type']
  return typeof type === 'string' ? type.replace(/^.*[/:#]/, '') || undefined : undefined
}

/** Of the values a list's items hold at one path, this many different ones are shown. */
const LIST_VALUES_SHOWN = 4

/**
 * `Product.offers.price = 89.9` for every scalar of each JSON-LD object, named as a JSON-LD rule
 * reads it (src/page/json-ld.ts): the object's @type and the property path. A list of one item is
 * stepped through; the items of a longer one share a line per path, `[]` for the list, with their
 * different values: `Product.offers[].price = "74.95", "99.99" (8 items)`, which a rule reads with a
 * reduction. `@`-keywords are left out, and so are objects without a type and objects of a type
 * already listed, which such a path cannot reach.
 */
function jsonLdLines(textChars: number): string[] {
  // Each path's values in the order first met, and how many items gave one.
  const paths = new Map<string, { shown: string[]; count: number }>()
  const visit = (value: unknown, path: string, depth: number) => {
    if (paths.size === MAX_JSON_LD && !paths.has(path)) return
    if (Array.isArray(value)) {
      if (value.length === 1) visit(value[0], path, depth)
      else for (const item of value) visit(item, `${path}[]`, depth + 1)
      return
    }
    if (value && typeof value === 'object') {
      if (depth === MAX_JSON_LD_DEPTH) return
      for (const [key, child] of Object.entries(value)) if (!key.startsWith('@') && PATH_NAME.test(key)) visit(child, `${path}.${key}`, depth + 1)
      return
    }
    if (value === null || value === '') return
    const shown = typeof value === 'string' ? JSON.stringify(shortenValue(collapse(value), textChars + 1)) : String(value)
    const entry = paths.get(path) ?? { shown: [], count: 0 }
    entry.count += 1
    if (entry.shown.length < LIST_VALUES_SHOWN && !entry.shown.includes(shown)) entry.shown.push(shown)
    paths.set(path, entry)
  }
  const listed = new Set<string>()
  for (const object of jsonLdObjects()) {
    const type = typeName(object)
    if (!type || listed.has(type)) continue
    listed.add(type)
    visit(object, type, 0)
  }
  return Array.from(paths, ([path, { shown, count }]) => {
    if (!path.includes('[]')) return `json-ld ${path} = ${shown[0]}`
    return `json-ld ${path} = ${shown.join(', ')}${count > shown.length ? ` (${count} items)` : ''}`
  })
}

/** The page's metadata as outline lines, bounded in count and clipped like the outline's text. */
export function metadataLines(textChars: number): string[] {
  return [...metaLines(textChars), ...jsonLdLines(textChars)]
}
