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
  if (CHROME_ROLES.has(element.getAttribute('role') ?? '')) return true
  return CHROME_TAGS.has(element.localName) && !element.parentElement?.closest(SECTIONING)
}

/** The page chrome inside an element, outermost only. */
export function chromeWithin(element: Element): Element[] {
  return Array.from(element.querySelectorAll(CHROME)).filter((found) => {
    if (!isChrome(found)) return false
    const outer = found.parentElement?.closest(CHROME)
    return !outer || !element.contains(outer)
  })
}

/** Whether an element holds text or image alt text outside page chrome and skipped elements. */
function holdsContent(element: Element, skipped: ReadonlySet<string>): boolean {
  if (element.localName === 'img') return !!element.getAttribute('alt')?.trim()
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 && (child as Text).data.trim()) return true
    if (child.nodeType === 1 && isContent(child as Element, skipped) && holdsContent(child as Element, skipped)) return true
  }
  return false
}

function isContent(element: Element, skipped: ReadonlySet<string>): boolean {
  return !skipped.has(element.localName) && !isChrome(element)
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
    for (let child = current.firstChild; child; child = child.nextSibling) {
      const content = child.nodeType === 3 ? !!(child as Text).data.trim() : child.nodeType === 1 && isContent(child as Element, skipped) && holdsContent(child as Element, skipped)
      if (!content) continue
      if (only || child.nodeType === 3) return current === body ? undefined : current
      only = child as Element
    }
    if (!only) return current === body ? undefined : current
    current = only
  }
}
