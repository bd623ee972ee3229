import { ownerDocumentOf, queryAll, textContentOf } from './dom-safe.ts'
import { markupText } from './text.ts'

// Shops in Romania, Poland, the US and elsewhere write the cents of a price as a superscript:
// "173<sup>34</sup> Lei". Read as text that is "17334 Lei", so for `type: 'number'` the engine asks
// here first whether the element holds such a price.

const CENTS = /^\d{2}$/

/**
 * The text before the first superscript of `element` that holds two digits right after the integer
 * part (no space between them), and those digits; otherwise undefined. Other superscripts are passed
 * over: US shops raise the currency sign too ("<sup>$</sup>19<sup>99</sup>").
 */
export function superscriptCents(element: Element): { whole: string; cents: string } | undefined {
  for (const sup of queryAll(element, 'sup')) {
    const cents = markupText(sup)
    const previous = sup.previousSibling
    if (!CENTS.test(cents) || previous === null || !/\d$/.test(textContentOf(previous) ?? '')) continue
    const range = ownerDocumentOf(element).createRange()
    range.selectNodeContents(element)
    range.setEndBefore(sup)
    return { whole: markupText(range.cloneContents()), cents }
  }
  return undefined
}
