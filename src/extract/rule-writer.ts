import type { Page } from 'puppeteer-core'
import type { Rules } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { LIMITS } from '../collector/limits.ts'
import { generateJson } from '../models/call-language-model.ts'
import { invalidReplyReason, isInvalidReply } from '../models/invalid-reply.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../base/ledger.ts'
import { badSelectorError, runEngineInPage } from './apply-rules.ts'
import { mergeRules } from './merge-rules.ts'
import { fromModelRules, modelReplySchema, type ModelReply } from './model-rules.ts'
import { takeOutline, type PageOutline } from './page-outline.ts'
import { validateRules } from './validate-rules.ts'

export const UNUSABLE_RULES = 'The model did not write usable extraction rules.'
export const RULES_MATCHED_NOTHING = 'The rules the model wrote matched nothing on the page.'

// Room for the rules of a few dozen fields; reasoning is off by default, so this is all rules.
const MAX_OUTPUT_TOKENS = 4_000

export const RULE_WRITER_INSTRUCTIONS = `You write extraction rules for a web page. Code reads the values from the live page with your rules, so you never write values, only where to find them.

Reply with one JSON object: {"rules": {<field name>: <rule or list of rules>, ...}}. A rule has only these properties:
- "selector": a CSS selector for the first matching element.
- "selectorAll": a CSS selector for every matching element; the field becomes a list.
- "attr": what to read from the element: "text" (the default), "html", "val" (current value of a form field), "href", "src", any attribute name, a list of those to try in order, or an object of nested rules that are read relative to each matched element.
- "type": "number", "url", "image", "date", "string", or: "currency" (the ISO code of a currency sign or code in the text: "£" gives "GBP"), "availability" (gives InStock, OutOfStock, PreOrder, BackOrder, SoldOut… from a schema.org value, stock words in any language, or a buy button: "Add to cart" is InStock, a disabled one OutOfStock), "code" (the product code in a longer text: "Item no.: 123-45" gives "123-45", a URL its last segment's code).
- "jsonld": instead of a selector, a path into the page's JSON-LD: the @type of the object, then its properties, dotted, with [n] for the nth item of a list (the first otherwise) and [] for every item, e.g. "Product.offers.price", "Product.image[1]", "Product.offers[].price". It takes no "attr".
- "meta": instead of a selector, the property, name or itemprop of a <meta> tag whose content to read, e.g. "og:title", "product:price:amount". It takes no "attr".
- "json": a path (same syntax, without the @type) inside the JSON held by the attribute read, e.g. {"selector": "[data-product]", "attr": "data-product", "json": "sku"}.
- "after": a label in the text read; the code that follows it is kept, e.g. "after": "SKU".
- "reduce": one value out of the several found by "selectorAll" or a path with []: "min" or "max" (numbers), "any" (availability: in stock if any offer is), "first".
Nothing else: no code, no "evaluate". One of "selector", "selectorAll", "jsonld" or "meta" per rule.

How to write good rules:
- For a list of things (results, products, rows, comments), use "selectorAll" on the element that wraps one item, and "attr" with nested rules for its fields. Nested selectors are relative to that item; a nested rule without a selector reads the item itself.
- When the outline's "json-ld" or "meta" lines hold a value of the whole page (a product's price, name, brand, availability), prefer "jsonld" or "meta" with the name shown there: they do not change with the layout. A "jsonld" or "meta" rule inside nested rules reads only the metadata inside each matched item.
- A product's offers are often a list (one per size or colour): read a price with "reduce": "min" and the availability with "reduce": "any" over every offer ("Product.offers[].price").
- Read the main product's values from the "Main object" part of the outline, not from related products.
- A product's price is the current price its main object shows: when that differs from the metadata's (a sale price against a regular one), prefer the shown one, and never a struck-through old price, a per-unit, instalment or shipping price.
- A product's code (SKU, item number) is the one the page shows its readers as the product's own ("Product code: 64981901", "Ref. 1044/320", "Item no."), when it shows one: prefer it over a different code found only in metadata, hidden inputs or a variant's data, and keep the code alone with "after" or "type": "code".
- A field may be a list of up to 4 rules, tried in order until one finds a value: use it when the page has several sources (its JSON-LD, then the element that shows the value).
- Use "attr": "href" with "type": "url" for links, "attr": "src" with "type": "image" for images, "type": "number" for prices and counts, "type": "date" for dates.
- Prefer stable hooks: ids, data-* attributes, itemprop, aria-label, roles, element names and readable class names. Avoid class names that look generated (hashes such as "css-1x2y3z" or "card-module__ckj4h"): they change whenever the site is rebuilt.
- Selectors are plain CSS as used by document.querySelector: no jQuery extensions such as :contains() or :eq().
- Every selector must match something in the outline below. Rules select every match: do not try to limit a list to a number of items.

The page is given as an outline: first its metadata (meta <name> = "<content>" and json-ld <Type>.<path> = <value> lines), then its main object (the block with the page's title, price and buy button) and what is around it, nearest first, or else its main content and then the rest of the page. One element a line, as <depth> tag#id.class[attribute="value"] "its own text": the depth is a number, and a line is a child of the nearest line above it with a depth one less; "a > b" on one line is an element a whose only child is b. Generated class names are left out. Text is clipped at 80 characters, and of several similar siblings only the first three are shown, followed by a count of the rest.`

/**
 * Requests for rules per extraction: when a reply cannot be used (not the JSON asked for, rules of
 * the wrong shape, a selector the browser refuses, or nothing matched at all), the model is asked
 * once more, told why, with the same outline. A second reply that fails fails the extraction.
 */
const RULE_REQUESTS = 2
/** How much of the reply that could not be used is shown back: the rules of a few dozen fields. */
const REPLY_SHOWN = 4_000
const REASON_SHOWN = 1_000

/** A reply that could not be used: the error the extraction ends with, and what the model is told. */
interface Unusable {
  error: Error
  reason: string
  reply: string
}

function prompt(instruction: string, page: PageOutline, rules: Rules | undefined, unusable: Unusable | undefined): string {
  const parts = [`Instruction: ${instruction}`]
  if (rules) {
    parts.push(
      'Use exactly these fields and this nesting. For every field without a selector, write the selector; keep the "attr" and "type" shown. ' +
        'Fields that already have a selector stay as they are and can be left out of your reply.\n' +
        JSON.stringify(rules, null, 2),
    )
  }
  // The outline has its own cap; the URL and title come from the page whole.
  parts.push(`Page: ${clip(page.url, LIMITS.urlLimit)}\nTitle: ${clip(page.title, LIMITS.titleLimit)}\n\nOutline:\n${page.outline}`)
  if (unusable) {
    parts.push(
      `Your last reply could not be used: ${clip(unusable.reason, REASON_SHOWN)}\n` +
        `It was: ${clip(unusable.reply, REPLY_SHOWN)}\n` +
        'Write the rules again, mending that: read the outline once more for where each value is.',
    )
  }
  return parts.join('\n\n')
}

export interface WriteRulesInput {
  page: Page
  instruction: string
  rules: Rules | undefined
  settings: Settings
  ledger: Ledger
  /** Told the valid rules of each reply before they are tried: the last is what the extraction ran. */
  noteRules(rules: Rules): void
}

/**
 * Asks the text model for rules for the instruction, from an outline of the page, and tries them on
 * the page (`RULE_REQUESTS`). With rules of the caller's, the model only fills in the missing
 * selectors. Gives the rules and what they read; throws what a request threw, or how the last reply
 * failed: an invalid reply, rules that do not fit the caller's, unusable rules, or rules that matched
 * nothing.
 */
export async function writeRules(input: WriteRulesInput): Promise<{ rules: Rules; data: Record<string, unknown> }> {
  const outline = await takeOutline(input.page)
  let unusable: Unusable | undefined
  for (let request = 1; ; request += 1) {
    const written = await writeOnce(input, outline, unusable)
    if (!('error' in written)) return written
    if (request >= RULE_REQUESTS) throw written.error
    unusable = written
  }
}

async function writeOnce(input: WriteRulesInput, outline: PageOutline, unusable: Unusable | undefined): Promise<{ rules: Rules; data: Record<string, unknown> } | Unusable> {
  let reply: ModelReply
  try {
    reply = await generateJson({
      settings: input.settings,
      ledger: input.ledger,
      purpose: 'rules',
      instructions: RULE_WRITER_INSTRUCTIONS,
      prompt: prompt(input.instruction, outline, input.rules, unusable),
      schema: modelReplySchema,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    })
  } catch (error) {
    if (!isInvalidReply(error)) throw error
    const text = (error as { text?: unknown }).text
    return { error: error as Error, reason: invalidReplyReason(error as Error), reply: typeof text === 'string' ? text : '' }
  }
  const shown = JSON.stringify(reply)
  let rules: Rules
  try {
    rules = input.rules ? mergeRules(input.rules, reply.rules) : fromModelRules(reply.rules)
  } catch (error) {
    return { error: error as Error, reason: (error as Error).message, reply: shown }
  }
  try {
    validateRules(rules)
  } catch (error) {
    return { error: new Error(UNUSABLE_RULES, { cause: error }), reason: (error as Error).message, reply: shown }
  }
  input.noteRules(rules)
  const outcome = await runEngineInPage(input.page, rules)
  if (!outcome.ok) {
    const refused = badSelectorError(outcome)
    return { error: new Error(UNUSABLE_RULES, { cause: refused }), reason: refused.message, reply: shown }
  }
  if (!hasValue(outcome.data)) return { error: new Error(RULES_MATCHED_NOTHING), reason: 'no rule matched anything on the page.', reply: shown }
  return { rules, data: outcome.data }
}

function hasValue(value: unknown): boolean {
  if (value === null || value === undefined) return false
  if (Array.isArray(value)) return value.some(hasValue)
  if (typeof value === 'object') return Object.values(value).some(hasValue)
  return true
}
