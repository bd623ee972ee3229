import { availabilityOfText } from './availability.ts'
import {
  attributeOf,
  attributesOf,
  childElementCountOf,
  classNameOf,
  firstElementChildOf,
  localNameOf,
  nextElementOf,
  parentElementOf,
  previousElementOf,
  textContentOf,
} from './dom-safe.ts'
import { hasCodeLabel } from './codes.ts'
import { isGeneratedName } from './generated-names.ts'
import { looksLikeBuyButton, looksLikePrice } from './main-object.ts'
import { collapse, ownText, shorten, shortenValue, textPieces } from './text.ts'

// One element's line in the outline, and what the line is worth: whether it says something of a
// product (a price, a stock line, a code, a buy button) that the outline keeps before anything else.

// Elements, not text: a select's options are outlined, unlike in read text. A `<meta>` in the body
// (itemprop microdata) is outlined: its content is often the price.
export const SKIPPED: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'link'])
// Attributes besides id, class and data-* that tell a model what an element is or holds.
const SHOWN = ['role', 'aria-label', 'name', 'type', 'itemprop', 'href', 'src', 'alt', 'title', 'placeholder', 'datetime', 'content', 'for', 'value', 'disabled']
// Microdata and data attributes that hold a product's values.
const PRODUCT_ITEMPROPS = new Set(['price', 'pricecurrency', 'lowprice', 'sku', 'gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14', 'mpn', 'productid', 'availability'])
const PRODUCT_DATA = /^data-.*(sku|gtin|ean|mpn|product-?id|item-?id|price|availability|stock)/i
/** A label beside a value is a few words: "eBay item number:", "Art.-Nr.". */
const LABEL_CHARS = 40
/** Elements a label may wrap its words in: `<span><b>SKU</b>:</span>`. */
const LABEL_CHILDREN = 2
/** A stock line is short; a longer text is a description that mentions stock. */
const STOCK_LINE_CHARS = 200
/** A value split over a few elements ("£" and "450", "SKU:" and a bold code) is read whole up to this length. */
const SPLIT_VALUE_CHARS = 60
/** Nodes read for such a value: it is a few elements; a block around it is not read through. */
const SPLIT_VALUE_NODES = 24
/**
 * The elements a value is split into: text-level markup. A card of a heading, a link and a button is
 * several things, each on its own line; a link is a thing of its own too.
 */
const VALUE_PARTS = new Set(['span', 'b', 'strong', 'em', 'i', 'sup', 'sub', 'small', 'big', 'abbr', 'bdi', 'bdo', 'font', 'u', 'mark', 'data', 'time', 's', 'strike', 'del', 'ins', 'var', 'code', 'kbd', 'label', 'br', 'wbr'])

/** `tag#id.class`, generated ids and class names left out: a rule built on them breaks at the next build. */
export function nameOf(element: Element): string {
  let name = localNameOf(element)
  // The attribute, not the property: a form's `id` is its field named "id" when it has one.
  const id = attributeOf(element, 'id')
  if (id && !isGeneratedName(id)) name += `#${id}`
  const className = classNameOf(element)
  const classes = typeof className === 'string' ? className : (attributeOf(element, 'class') ?? '')
  for (const token of classes.split(/\s+/)) if (token && !isGeneratedName(token)) name += `.${token}`
  return name
}

/**
 * The text of a short value its markup splits over text-level elements, its pieces in order, a space
 * between two ("£ 450", "SKU: 64981901", "Availability: In stock"): without layout, a space cannot be
 * told from none, and two numbers run together ("Item 0" and "0 €") would read as another. Undefined
 * when the element holds no such value: text with a number, or text of its own around its children's;
 * the words of two spans alone are a menu's or a card's, and repeating them would only take room.
 */
function splitValue(element: Element, own: string): string | undefined {
  const first = firstElementChildOf(element)
  // With no text of its own and one child, the value is not split here: the child's line shows it.
  if (!first || (!own && !nextElementOf(first))) return undefined
  const pieces = textPieces(element, { maxChars: SPLIT_VALUE_CHARS, maxNodes: SPLIT_VALUE_NODES, within: VALUE_PARTS })
  if (!pieces) return undefined
  const whole = pieces.join(' ')
  return pieces.length > 1 && (own || /\d/.test(whole)) ? whole : undefined
}

/** The element's line without its depth: name, shown attributes, own text (or a value split over its children), values clipped. */
export function label(element: Element, textChars: number): string {
  let line = nameOf(element)
  for (const attribute of Array.from(attributesOf(element))) {
    const name = attribute.name
    if (name.startsWith('data-') || SHOWN.includes(name)) line += `[${name}=${JSON.stringify(shortenValue(attribute.value, textChars + 1))}]`
  }
  const own = ownText(element)
  const text = splitValue(element, own) ?? own
  if (text) line += ` ${JSON.stringify(shorten(text, textChars + 1))}`
  return line
}

// Same tag, same classes, same children (by tag and classes): one of a run of list items or cards.
export function shape(element: Element): string {
  let key = nameOf(element) + '>'
  for (let child = firstElementChildOf(element); child; child = nextElementOf(child)) key += `${nameOf(child)},`
  return key
}

/** Whether the line says something besides its tag and classes: attributes it shows, or text. */
export function informative(element: Element, line: string): boolean {
  return line !== nameOf(element)
}

/** Whether the element holds a value of a product: a price, a stock line, a code, a buy button. */
export function productSignal(element: Element): boolean {
  const itemprop = attributeOf(element, 'itemprop')?.toLowerCase()
  if (itemprop && PRODUCT_ITEMPROPS.has(itemprop)) return true
  for (const attribute of Array.from(attributesOf(element))) if (PRODUCT_DATA.test(attribute.name)) return true
  if (looksLikePrice(element) || looksLikeBuyButton(element)) return true
  const own = ownText(element)
  if (own.length === 0 || own.length > STOCK_LINE_CHARS) return false
  return availabilityOfText(own) !== undefined || hasCodeLabel(own) || labelledBefore(element)
}

/** A value whose label stands just before it: "SKU:" in the previous element or in the parent's own text. */
function labelledBefore(element: Element): boolean {
  const previous = previousElementOf(element)
  const parent = parentElementOf(element)
  // A label is a leaf or nearly: a larger sibling is not read through, once per element of the page.
  const label = previous
    ? ownText(previous) || (childElementCountOf(previous) <= LABEL_CHILDREN ? collapse(textContentOf(previous) ?? '') : '')
    : parent
      ? ownText(parent)
      : ''
  return label.length > 0 && label.length <= LABEL_CHARS && hasCodeLabel(label)
}
