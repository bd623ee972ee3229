import { classesOf, hasAttr, localNameOf, matchesSelector, textContentOf } from './dom-safe.ts'
import { attr, inputType } from './dom.ts'
import { once } from './lazy.ts'
import { escapePattern } from '../base/pattern.ts'
import { phraseAlternation, UNSPACED, type PhraseForm } from './phrase-pattern.ts'
import { BUY_PHRASES, NEGATIONS, STOCK_PHRASES } from './stock-words.ts'

// A product's availability as the rules engine reads it: from a schema.org value, from a stock line
// in one of many languages, or from the state of the shop's buy button. Text rules only, no layout;
// the phrases are data in src/page/stock-words.ts.

/** schema.org ItemAvailability names. */
export const AVAILABILITIES = [
  'InStock', 'OutOfStock', 'PreOrder', 'BackOrder', 'LimitedAvailability', 'SoldOut', 'Discontinued', 'InStoreOnly', 'OnlineOnly',
] as const
export type Availability = (typeof AVAILABILITIES)[number]

export { BUY_PHRASES }

// A whole page body or a description mentions the stock of many things (other sizes, related items),
// so no single answer read from it is trustworthy; a stock line or product box is far shorter.
const MAX_TEXT = 2000
// Up to this length a text is one stock line with qualifiers ("In stock. Usually dispatched within
// 24 hours", "Size M: out of stock"), and PRECEDENCE picks among its phrases. In a longer text the
// first phrase decides: later ones are likely about something else.
const SHORT_TEXT = 200

// Lower wins in a short text. Pre- and back-order explain an out-of-stock ("Sold out, pre-order the
// next batch" can still be bought); out-of-stock beats in-stock; a qualified stock beats plain stock.
const PRECEDENCE: Record<Availability, number> = {
  PreOrder: 0, BackOrder: 0, OutOfStock: 1, SoldOut: 1, Discontinued: 1, LimitedAvailability: 2, InStoreOnly: 2, OnlineOnly: 2, InStock: 3,
}

const OUT_OF_STOCK: ReadonlySet<Availability> = new Set(['OutOfStock', 'SoldOut', 'Discontinued'])

/** Case, width, diacritics and hyphens folded away; one space between words ("OUT_OF_STOCK" → "out of stock"). */
function simplify(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .replace(/[\u2018\u2019\u00b4`]/g, "'")
    .replace(/[-_\u2010-\u2015]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const WORDLIKE = /[\p{L}\p{N}#]/u

// Phrases in their folded form: `#` is a number; an edge that is a spaced word's letter or a number sits at a word boundary.
const PHRASE: PhraseForm = {
  body: (phrase) => phrase.split('#').map(escapePattern).join('\\d+'),
  edge: (char) => WORDLIKE.test(char) && !UNSPACED.test(char),
}
const alternation = (phrases: readonly string[]) => phraseAlternation(phrases, PHRASE)

const PHRASES: Record<Availability, readonly string[]> = STOCK_PHRASES
const patterns = once(() => {
  const stockOf = new Map<string, Availability>()
  for (const availability of AVAILABILITIES) for (const phrase of PHRASES[availability]) stockOf.set(simplify(phrase), availability)
  return {
    stockOf,
    stock: new RegExp(alternation([...stockOf.keys()]), 'gu'),
    buy: new RegExp(alternation(BUY_PHRASES.map(simplify)), 'u'),
    negated: new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternation(NEGATIONS.map(simplify))}) $`, 'u'),
  }
})

/**
 * The availability a text states: a schema.org value in any spelling ("http://schema.org/InStock",
 * "out_of_stock") or a stock phrase in one of the languages of src/page/stock-words.ts.
 */
export function availabilityOfText(text: string): Availability | undefined {
  const folded = simplify(text)
  if (folded.length > MAX_TEXT) return undefined
  // Feeds write "limited"; in a sentence the word says nothing about stock ("limited edition").
  if (folded === 'limited') return 'LimitedAvailability'
  const { stock, stockOf, negated } = patterns()
  let best: Availability | undefined
  for (const match of folded.matchAll(stock)) {
    let found = stockOf.get(match[0].replace(/\d+/g, '#'))
    if (found === undefined) continue
    if (found === 'InStock' && negated.test(folded.slice(0, match.index))) found = 'OutOfStock'
    if (folded.length > SHORT_TEXT) return found
    if (best === undefined || PRECEDENCE[found] < PRECEDENCE[best]) best = found
  }
  return best
}

const BUTTON_INPUTS = new Set(['submit', 'button', 'image'])
const DISABLED_CLASSES = ['disabled', 'is-disabled', 'btn-disabled']

function isControl(el: Element): boolean {
  const tag = localNameOf(el)
  if (tag === 'button' || tag === 'a') return true
  if (tag === 'input') return BUTTON_INPUTS.has(inputType(el))
  return attr(el, 'role').toLowerCase().split(/\s+/).includes('button')
}

/** What the control says: its text (an input's value, an image button's alt), aria-label and title. */
function wordsOf(el: Element): string[] {
  const own = localNameOf(el) !== 'input' ? (textContentOf(el) ?? '') : inputType(el) === 'image' ? attr(el, 'alt') : (el as HTMLInputElement).value
  return [own, attr(el, 'aria-label'), attr(el, 'title')].filter((words) => words.trim() !== '')
}

function isDisabled(el: Element): boolean {
  if (hasAttr(el, 'disabled') || (el as HTMLButtonElement).disabled === true) return true
  if (attr(el, 'aria-disabled').toLowerCase() === 'true') return true
  if (DISABLED_CLASSES.some((name) => classesOf(el).contains(name))) return true
  try {
    // Also true inside a disabled fieldset (outside its first legend).
    return matchesSelector(el, ':disabled')
  } catch {
    return false
  }
}

/**
 * The availability a buy button shows: a stock phrase on it decides ("Sold out", "Notify me");
 * otherwise a buy phrase ("Add to cart") is in stock when the button is enabled, out of stock when not.
 */
export function availabilityOfControl(element: Element): Availability | undefined {
  if (!isControl(element)) return undefined
  const words = wordsOf(element)
  for (const said of words) {
    const stated = availabilityOfText(said)
    if (stated !== undefined) return stated
  }
  if (!words.some((said) => patterns().buy.test(simplify(said)))) return undefined
  return isDisabled(element) ? 'OutOfStock' : 'InStock'
}

/** Availabilities under which the product cannot be ordered now (pre- and back-order can be). */
export function isOutOfStock(value: Availability): boolean {
  return OUT_OF_STOCK.has(value)
}
