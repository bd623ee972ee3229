import { createHash } from 'node:crypto'

// Entries are shared by the pages of one template: their key holds the origin and the path with
// the parts that name one item (numbers, hashes, UUIDs, long tokens with digits) replaced.

/** A path segment that names an item rather than a section: it stands for any such segment. */
const ITEM_SEGMENT = /^(?:\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[^/]*\d)[\w-]{12,}|.*\d{3,}.*)$/i

/** `https://shop.test/product/:id` for `https://shop.test/product/123?ref=x`; the string itself when it is not a URL. */
export function pageShape(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  if (parsed.origin === 'null') return `${parsed.protocol}${shapeOfPath(parsed.pathname)}`
  return `${parsed.origin}${shapeOfPath(parsed.pathname)}`
}

function shapeOfPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment !== '' && ITEM_SEGMENT.test(decodeSegment(segment)) ? ':id' : segment))
    .join('/')
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** A key safe in any store and as a file name: the kind, then a digest of the parts. */
export function cacheKey(kind: 'goal' | 'rules', parts: readonly string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40)
  return `puppeteer-agent.${kind}.${digest}`
}
