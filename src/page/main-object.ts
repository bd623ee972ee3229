import { BUY_PHRASES } from './availability.ts'
import { attributeOf, closestTo, containsNode, localNameOf, nodeTypeOf, parentElementOf, queryAll } from './dom-safe.ts'
import { forgetJsonLd, readJsonLd } from './json-ld.ts'
import { once } from './lazy.ts'
import { isChrome } from './main-content.ts'
import { collapse, ownText, textPieces } from './text.ts'

// The block of a page that holds its one main object: a product's title, price, buy button and
// codes, which large shops put after hundreds of menu, filter and banner elements. The outline
// shows this block first and then what is nearest to it, so a cap cuts what is far from the
// product, never the product. Read from markup and text only: saved and offline pages often lack
// their style sheets, so what is hidden (a cart pop-up's headings) cannot be told by layout.

/** Elements looked at on each side of the title for its price and buy button: they sit near it. */
const SEARCH_AROUND_TITLE = 4_000
/** A price's own text is short: "€ 1.299,00", "Was £40, now £25". */
const PRICE_TEXT_CHARS = 40
/** A buy button says a few words: "Add to basket", "In den Warenkorb". */
const BUY_TEXT_CHARS = 60
/** Candidates for the title weighed against the page's own name for its product. */
const MAX_TITLE_CANDIDATES = 300
/** A title shares at least this share of its words with the page's name for the product. */
const TITLE_MATCH = 0.5
/** An `<h1>` is the page's own heading: it wins over a breadcrumb's or a card's name that matches a little better. */
const H1_BONUS = 0.2
/**
 * Words a title shares with the page's name at the least, unless it is an `<h1>`: one word
 * ("Length:" of a size table) is a label that happens to be in the name, not the product's title.
 */
const TITLE_MIN_WORDS = 2
/** A breadcrumb names the product's category, often in the page's title too ("Kids watches | Argos"); an `<h1>` in one is still the page's heading. */
const BREADCRUMB = '[class*="breadcrumb" i], [id*="breadcrumb" i], [aria-label*="breadcrumb" i], [itemtype*="BreadcrumbList"]'
/** A title is a line: a longer text is a block that holds one. Amazon's longest titles are about 200 characters. */
const TITLE_CHARS = 300

// A number beside a currency sign, code or word, either way round. A sign written in letters starts a
// word: the "rs" of "stars" in "2 stars0 reviews" is no rupee.
const CURRENCY =
  '(?:[€£$¥₹₽₴₸₩₺₪₫฿]|\\b(?:EUR|USD|GBP|CHF|PLN|CZK|HUF|RON|SEK|NOK|DKK|BRL|MXN|ARS|CLP|COP|PEN|INR|PKR|RUB|UAH|KZT|TRY|JPY|CNY|TWD|HKD|KRW|AUD|CAD|NZD|ZAR|BGN|ISK)\\b|(?<!\\p{L})(?:zł|Kč|Ft|kr\\.?|lei|руб\\.?|грн\\.?|тг\\.?|лв\\.?|р\\.|Rs\\.?|R\\$|S/\\.?)|元|円|원)'
const price = once(() => new RegExp(`${CURRENCY}\\s?\\d|\\d[\\d.,\\s\\u00a0\\u202f']*\\s?${CURRENCY}`, 'iu'))
// Ids, classes and test hooks of a buy button or its box, in the names shops give them.
const BUY_HOOK = /add[-_ ]?to[-_ ]?(cart|basket|bag|trolley)|addtocart|buy[-_ ]?(now|button|box)|purchase/i
const TITLE_HOOK = /product[-_]?(title|name)|item[-_]?(title|name)/i
const buyWords = once(() => BUY_PHRASES.map((phrase) => phrase.toLowerCase()))

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** What the page itself calls its product: its Open Graph title, JSON-LD product name and document title. */
function productNames(): string[][] {
  const names = [document.title]
  for (const meta of Array.from(document.querySelectorAll('meta[property="og:title"], meta[name="twitter:title"]'))) names.push(attributeOf(meta, 'content') ?? '')
  try {
    for (const name of readJsonLd(document, 'Product.name')) names.push(String(name))
  } finally {
    forgetJsonLd()
  }
  return names.map(words).filter((list) => list.length > 0)
}

/**
 * Share of the candidate's words found in the nearest of the page's names (whole texts, for scripts
 * without spaces); 0 when fewer than `minWords` are found and the name has that many.
 */
function nameMatch(candidate: string, names: readonly string[][], minWords: number): number {
  const own = words(candidate)
  if (own.length === 0) return 0
  let best = 0
  for (const name of names) {
    const set = new Set(name)
    const joined = name.join(' ')
    const found = own.filter((word) => set.has(word) || (word.length >= 4 && joined.includes(word))).length
    if (found < Math.min(minWords, name.length)) continue
    best = Math.max(best, found / own.length)
  }
  return best
}

/**
 * The element's text nodes joined by spaces, so that words its markup sets apart stay apart
 * ("MÖCKELBY<span>Table</span>"); undefined once longer than `TITLE_CHARS`, which no title is.
 */
function titleText(element: Element): string | undefined {
  return textPieces(element, { maxChars: TITLE_CHARS })?.join(' ')
}

function outsideChrome(element: Element): boolean {
  for (let node: Element | null = element; node; node = parentElementOf(node)) if (isChrome(node)) return false
  return true
}

/** Titles tried, best first, until one has a block of its own: the best match can be a promotion's heading. */
const TITLES_TRIED = 3

interface TitleCandidate {
  element: Element
  text: string
}

/**
 * The elements that pass `test`, with their text, the first `MAX_TITLE_CANDIDATES` that have any:
 * the rest are not read, so a page of thousands of nested titled elements costs no more.
 */
function candidatesOf(body: Element, selector: string, test: (element: Element) => boolean): TitleCandidate[] {
  const candidates: TitleCandidate[] = []
  for (const element of Array.from(queryAll(body, selector))) {
    if (!test(element)) continue
    const text = titleText(element)
    if (text) candidates.push({ element, text })
    if (candidates.length >= MAX_TITLE_CANDIDATES) break
  }
  return candidates
}

/** Of the candidates, those that name the page's product, best first: most of their words in its name, an `<h1>` preferred, then document order. */
function namingProduct(candidates: readonly TitleCandidate[], names: readonly string[][]): Element[] {
  return candidates
    .filter(({ element }) => localNameOf(element) === 'h1' || !closestTo(element, BREADCRUMB))
    .map(({ element, text }, order) => {
      const h1 = localNameOf(element) === 'h1'
      return { element, order, score: nameMatch(text, names, h1 ? 1 : TITLE_MIN_WORDS) + (h1 ? H1_BONUS : 0) }
    })
    .filter(({ score }) => score >= TITLE_MATCH)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, TITLES_TRIED)
    .map(({ element }) => element)
}

/** A class that says "title" (`title`, `pdp-title`, `titleBox`): a weaker sign than a heading, tried when no heading names the product. */
const TITLE_CLASS = /title/i

/**
 * The page's possible titles, best first: of its `<h1>`s, `<h2>`s and elements marked as a product's
 * name, those that name the page's product; else of the elements with a title's class (a shop that
 * writes its title in `<div class="title">`); else its first `<h1>` outside page chrome.
 */
function titlesOf(body: Element): Element[] {
  // An <h2> too: some shops title the product with one, under a site-wide <h1>.
  const candidates = candidatesOf(body, 'h1, h2, [itemprop="name"], [id], [class], [data-testid]', (element) => {
    const tag = localNameOf(element)
    return tag === 'h1' || tag === 'h2' || attributeOf(element, 'itemprop') === 'name' || TITLE_HOOK.test(`${attributeOf(element, 'id') ?? ''} ${attributeOf(element, 'class') ?? ''} ${attributeOf(element, 'data-testid') ?? ''}`)
  })
  const names = productNames()
  const named = namingProduct(candidates, names)
  if (named.length) return named
  // Only when no heading names the product: a page of cards titled this way would crowd out its <h1>.
  const classed = namingProduct(candidatesOf(body, '[class]', (element) => TITLE_CLASS.test(attributeOf(element, 'class') ?? '')), names)
  if (classed.length) return classed
  const first = candidates.find(({ element }) => localNameOf(element) === 'h1' && outsideChrome(element))
  return first ? [first.element] : []
}

const currencySign = once(() => new RegExp(CURRENCY, 'iu'))

/**
 * Whether the element shows a price: a short text with a number beside a currency, or `itemprop=price`.
 * Its own text holds the number or the currency: a block whose price sits in a child with both is not
 * the price, but "最低價$<span>99</span>元起/包" is.
 */
export function looksLikePrice(element: Element): boolean {
  if (attributeOf(element, 'itemprop') === 'price') return true
  const text = shortText(element, PRICE_TEXT_CHARS)
  if (!text || !price().test(text)) return false
  const own = ownText(element)
  return /\d/.test(own || text) || currencySign().test(own)
}

/** A price of the page's own: one inside a link is another product's (a card, a deal) or a link's words ("$19 billion deal"). */
function ownPrice(element: Element): boolean {
  return looksLikePrice(element) && !closestTo(element, 'a[href]')
}

/** Nodes read for a short text: a price or a button is a few elements; a block around them is not read through. */
const SHORT_TEXT_NODES = 24

/**
 * The element's text, whitespace collapsed, when it is at most `maxChars` long and within a few
 * nodes; undefined for anything longer. Read only that far: testing every element of a large page
 * by its whole text would read the page once per level of nesting.
 */
function shortText(element: Element, maxChars: number): string | undefined {
  let text = ''
  let nodes = 0
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (++nodes > SHORT_TEXT_NODES) return undefined
    if (nodeTypeOf(node) === 3) {
      text += (node as Text).data
      if (text.length > maxChars * 4 && collapse(text).length > maxChars) return undefined
    }
  }
  const collapsed = collapse(text)
  return collapsed.length <= maxChars ? collapsed : undefined
}

/** Whether the element is a buy button or its box: by the names shops give them, or a button's buy words. */
export function looksLikeBuyButton(element: Element): boolean {
  const hooks = `${attributeOf(element, 'id') ?? ''} ${attributeOf(element, 'name') ?? ''} ${attributeOf(element, 'class') ?? ''} ${attributeOf(element, 'data-testid') ?? ''} ${attributeOf(element, 'data-qa') ?? ''}`
  if (BUY_HOOK.test(hooks)) return true
  const tag = localNameOf(element)
  const input = tag === 'input' && /^(submit|button|image)$/i.test(attributeOf(element, 'type') ?? '')
  if (!(tag === 'button' || input || tag === 'a' || attributeOf(element, 'role') === 'button')) return false
  const own = shortText(element, BUY_TEXT_CHARS)
  if (own === undefined) return false
  const text = collapse(`${own} ${attributeOf(element, 'value') ?? ''} ${attributeOf(element, 'aria-label') ?? ''}`).toLowerCase()
  return text.length <= BUY_TEXT_CHARS && buyWords().some((word) => text.includes(word))
}

/** The element nearest to `start` in document order, after it or before it, that passes `test`; one after wins at up to twice the distance. */
function nearest(body: Element, start: Element, test: (element: Element) => boolean): Element | undefined {
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT)
  const find = (step: () => Node | null): { element: Element; distance: number } | undefined => {
    walker.currentNode = start
    for (let distance = 1, node = step(); node && distance <= SEARCH_AROUND_TITLE; node = step(), distance++) {
      // Inside the title is not beside it; an ancestor of it holds everything.
      if (!containsNode(start, node) && !containsNode(node, start) && test(node as Element)) return { element: node as Element, distance }
    }
    return undefined
  }
  const after = find(() => walker.nextNode())
  const before = find(() => walker.previousNode())
  if (!after || !before) return (after ?? before)?.element
  return after.distance <= 2 * before.distance ? after.element : before.element
}

/**
 * Whether the block holds the page's own header or footer: then it is the page's frame, not one
 * object's block. With a price and a buy button beside the title, a header holding the title is the
 * product's own (a shop's product header); with one of them only, an article's header with a deal
 * link in its sidebar would pass for one.
 */
function holdsPageFrame(block: Element, anchors: readonly Element[]): boolean {
  const title = anchors[0]!
  const ownHeader = (chrome: Element) => anchors.length === 3 && containsNode(chrome, title)
  return Array.from(queryAll(block, 'header, footer, [role="banner"], [role="contentinfo"]')).some((chrome) => isChrome(chrome) && !ownHeader(chrome))
}

function commonAncestor(elements: readonly Element[]): Element {
  let ancestor = elements[0]!
  for (const element of elements.slice(1)) while (!containsNode(ancestor, element)) ancestor = parentElementOf(ancestor)!
  return ancestor
}

export interface MainObject {
  /** The smallest element holding the title and the price and buy button found. */
  block: Element
  /** The title, price and buy button found. */
  anchors: Element[]
}

/**
 * The smallest element holding the page's title and the price and buy button nearest to it, when
 * it has a title and one of them (the next possible title otherwise), and that element is neither the whole body nor a frame holding the
 * page's header or footer (else the title and the nearer of the two). Undefined on pages without one
 * main object (a list, a home page, an article), which are outlined by their main content.
 */
export function findMainObject(body: Element): MainObject | undefined {
  for (const title of titlesOf(body)) {
    const price = nearest(body, title, ownPrice)
    const buy = nearest(body, title, looksLikeBuyButton)
    for (const group of [[title, price, buy], [title, price], [title, buy]]) {
      const anchors = group.filter((element): element is Element => element !== undefined)
      if (anchors.length < 2) continue
      const block = commonAncestor(anchors)
      if (block !== body && block !== document.documentElement && !holdsPageFrame(block, anchors)) return { block, anchors }
    }
  }
  return undefined
}
