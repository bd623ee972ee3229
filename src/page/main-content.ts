import { attributeOf, closestTo, containsNode, firstChildOf, localNameOf, nextSiblingOf, nodeTypeOf, parentElementOf, queryAll } from './dom-safe.ts'

// Where a page's own content is, so the outline can show it before the header, menus and footer
// that come first in document order and, on large shops, filled the outline before the product.

// Page chrome by element or landmark role: shown after the content, and not content itself.
const CHROME_TAGS = new Set(['header', 'nav', 'footer', 'aside'])
const CHROME_ROLES = new Set(['banner', 'navigation', 'contentinfo', 'complementary'])
const CHROME = 'header, nav, footer, aside, [role="banner"], [role="navigation"], [role="contentinfo"], [role="complementary"]'
// HTML's landmark rule: a header or footer inside sectioning content belongs to it (a card's or an
// article's), not to the page; what is inside a nav or an aside is chrome already.
const SECTIONING = 'article, aside, main, nav, section'

/** Whether the element is page chrome: a header, nav, footer or aside of the page (or its landmark role). */
export function isChrome(element: Element): boolean {
  if (CHROME_ROLES.has(attributeOf(element, 'role') ?? '')) return true
  if (!CHROME_TAGS.has(localNameOf(element))) return false
  const parent = parentElementOf(element)
  return !parent || !closestTo(parent, SECTIONING)
}

/** The page chrome inside an element, outermost only. */
export function chromeWithin(element: Element): Element[] {
  return Array.from(queryAll(element, CHROME)).filter((found) => {
    if (!isChrome(found)) return false
    const parent = parentElementOf(found)
    const outer = parent && closestTo(parent, CHROME)
    return !outer || !containsNode(element, outer)
  })
}

/** Whether an element holds text or image alt text outside page chrome and skipped elements. */
function holdsContent(element: Element, skipped: ReadonlySet<string>): boolean {
  if (localNameOf(element) === 'img') return !!attributeOf(element, 'alt')?.trim()
  for (let child = firstChildOf(element); child; child = nextSiblingOf(child)) {
    const type = nodeTypeOf(child)
    if (type === 3 && (child as Text).data.trim()) return true
    if (type === 1 && isContent(child as Element, skipped) && holdsContent(child as Element, skipped)) return true
  }
  return false
}

function isContent(element: Element, skipped: ReadonlySet<string>): boolean {
  return !skipped.has(localNameOf(element)) && !isChrome(element)
}

/**
 * The page's `<main>` (or `[role=main]`), else its one `<article>`, else the smallest element that
 * holds all of the body's content outside page chrome: from the body, step into the only child with
 * content while there is just one. Undefined when that is the body itself.
 */
export function findMainContent(body: Element, skipped: ReadonlySet<string>): Element | undefined {
  const marked = body.querySelector('main, [role="main"]')
  if (marked) return marked
  const articles = body.querySelectorAll('article')
  if (articles.length === 1) return articles[0]
  let current = body
  for (;;) {
    let only: Element | undefined
    for (let child = firstChildOf(current); child; child = nextSiblingOf(child)) {
      const type = nodeTypeOf(child)
      const content = type === 3 ? !!(child as Text).data.trim() : type === 1 && isContent(child as Element, skipped) && holdsContent(child as Element, skipped)
      if (!content) continue
      if (only || type === 3) return current === body ? undefined : current
      only = child as Element
    }
    if (!only) return current === body ? undefined : current
    current = only
  }
}
