import { availabilityOfText, BUY_PHRASES } from '../../src/page/availability.ts'
import { convert } from '../../src/page/rule-values.ts'
import type { Truth } from './score.ts'

// Whether what a person needs to write a product's rules is inside the outline a model is shown: a
// line holding the true price next to a sign that it is a price, the true SKU, and a line that says
// the stock (a schema.org value, a stock phrase or a buy button's text).

export interface OutlineHolds {
  price: boolean | undefined
  sku: boolean | undefined
  stock: boolean
  /** The same, on the lines of the page's elements alone (the metadata left out): what the page shows. */
  shown: { price: boolean | undefined; sku: boolean | undefined; stock: boolean }
}

// A number on such a line is read as a price: a currency sign or code, or a word for price.
const PRICE_SIGN = /price|amount|preis|prix|precio|prezzo|preço|prijs|cena|hinta|pris|ár|fiyat|цена|ціна|価格|价格|價格|가격|[€£$¥₹₽₴₸₩₺₪₫฿]|zł|kč|ft|kr|lei|chf|eur|gbp|usd|pln|czk|brl|rs\b|руб|грн|тг|元|円/i
const NUMBER = /\d(?:[\d.,\u00a0\u202f' ]*\d)?/g

function holdsPrice(lines: readonly string[], prices: readonly string[]): boolean {
  const wanted = prices.map(Number)
  return lines.some((line) => {
    if (!PRICE_SIGN.test(line)) return false
    for (const token of line.match(NUMBER) ?? []) {
      const value = convert(token, 'number', 'http://127.0.0.1/')
      if (typeof value === 'number' && wanted.some((price) => Math.abs(price - value) < 0.005)) return true
    }
    return false
  })
}

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

function holdsSku(lines: readonly string[], skus: readonly string[]): boolean {
  return skus.some((sku) => {
    const wanted = letters(sku)
    if (!wanted) return false
    // A short code ("9470") is found as a whole number, not inside a longer one.
    const whole = new RegExp(`(^|[^\\p{L}\\p{N}])${wanted}([^\\p{L}\\p{N}]|$)`, 'u')
    return lines.some((line) => (wanted.length >= 6 ? letters(line).includes(wanted) : whole.test(line.toLowerCase())))
  })
}

const buyWords = BUY_PHRASES.map((phrase) => phrase.toLowerCase())

function holdsStock(lines: readonly string[]): boolean {
  return lines.some((line) => {
    const lower = line.toLowerCase()
    if (/availability|instock|outofstock|in_stock|out_of_stock/.test(lower)) return true
    const quoted = [...line.matchAll(/"([^"]{1,200})"/g)].map((match) => match[1]!)
    return quoted.some((text) => availabilityOfText(text) !== undefined || buyWords.some((word) => text.toLowerCase().includes(word)))
  })
}

function holds(lines: readonly string[], truth: Truth) {
  return {
    price: truth.price?.length ? holdsPrice(lines, truth.price) : undefined,
    sku: truth.sku?.length ? holdsSku(lines, truth.sku) : undefined,
    stock: holdsStock(lines),
  }
}

/** `request` is the whole rule-writing request; only its outline (after "Outline:") is looked at. */
export function outlineHolds(request: string, truth: Truth): OutlineHolds {
  const lines = request.slice(request.indexOf('\nOutline:\n') + 1).split('\n')
  // Element lines start with their depth; metadata lines with "meta " or "json-ld ".
  const elements = lines.filter((line) => /^\d+ /.test(line))
  return { ...holds(lines, truth), shown: holds(elements, truth) }
}
