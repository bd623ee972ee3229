import {
  childrenOf,
  closestTo,
  localNameOf,
  matchesSelector,
  nextElementOf,
  nextSiblingOf,
  nodeTypeOf,
  parentElementOf,
  previousElementOf,
  previousSiblingOf,
  queryOne,
} from './dom-safe.ts'
import { inputType } from './dom.ts'
import { callCache, remembered } from './layout.ts'
import { HEADINGS } from './nearby.ts'
import { BLOCK_TAGS, collapse, textOf } from './text.ts'

// A field's name (or that of a control drawn without text, a toggle's track) read from the layout
// when the markup names it nowhere (no label, aria-label, title or placeholder), as a person reads it:
// the cell to its left (or its column's header), the `<dt>` of its `<dd>`, the text before it on its
// line, the label written above its box, the heading of a group that holds only this field, and for a
// checkbox or radio the text right after it.

const WORDS = /[\p{L}\p{N}]/u

/** Characters read for a name: a label is short, and a paragraph before a field is not its name. */
const NAME_CHARS = 60
/** Text before a field on its line that is longer than this is prose, not a label. */
const LABEL_WORDS = 8

/** What a toolbar is built of: text inside such controls names them, not the field after them. */
const CONTROLS = 'button, a[href], [role=button], [aria-pressed], [onclick]'
const TOOLBARS = `[role=toolbar], ${CONTROLS}`

const FIELD_SELECTOR = 'input:not([type=hidden]), select, textarea, [contenteditable]:not([contenteditable=false])'

/** Whether an element holds more than one field, answered once per call: the controls of one page share their ancestors. */
const manyFieldAnswers = callCache<Element, boolean>()

function holdsManyFields(box: Element): boolean {
  return remembered(manyFieldAnswers, box, holdsManyFieldsNow)
}

/**
 * Looks for a second field only from the first one on: counting them all made a box holding a shop's
 * 3,000 filter inputs match every one of them for each control beside it.
 */
function holdsManyFieldsNow(box: Element): boolean {
  const first = queryOne(box, FIELD_SELECTOR)
  if (!first) return false
  if (queryOne(first, FIELD_SELECTOR)) return true
  for (let node: Element | null = first; node && node !== box; node = parentElementOf(node)) {
    for (let next = nextElementOf(node); next; next = nextElementOf(next)) {
      if (matchesSelector(next, FIELD_SELECTOR) || queryOne(next, FIELD_SELECTOR)) return true
    }
  }
  return false
}

function tidy(text: string): string {
  // "Year:" and "Genre *" are labels with their punctuation.
  return collapse(text).replace(/\s*[:：*]+\s*$/, '').trim()
}

/**
 * A label: a few words, not a line of content ("to: Audrey", a value after its key) nor a sentence
 * ("Tell us what happened in your own words."); a question ("What is your name?") is a label.
 */
function labelLike(text: string): string {
  const name = tidy(text)
  const words = name.split(' ').length
  if (!name || words > LABEL_WORDS || /[:：]\s*\S/.test(name)) return ''
  return words > 2 && /[.!…]$/.test(name) ? '' : name
}

/** A control made by script shows a pointer cursor: its text names it, not the field or icon after it. */
function drawnAsControl(el: Element): boolean {
  return localNameOf(el) !== 'label' && getComputedStyle(el).cursor === 'pointer'
}

/** The cell to the left in the field's row, else the header of its column. */
function fromTable(el: Element): string {
  const cell = closestTo(el, 'td, th, [role=gridcell], [role=cell]')
  const row = cell && parentElementOf(cell)
  if (!cell || !row) return ''
  for (let before = previousElementOf(cell); before; before = previousElementOf(before)) {
    if (queryOne(before, FIELD_SELECTOR)) break
    const text = labelLike(textOf(before, NAME_CHARS, null, false))
    if (text) return text
  }
  const table = closestTo(row, 'table')
  const index = Array.from(childrenOf(row)).indexOf(cell)
  const headerRow = table?.querySelector('thead tr') ?? null
  if (!headerRow || headerRow === row) return ''
  const header = headerRow.children[index]
  return header ? labelLike(textOf(header, NAME_CHARS, null, false)) : ''
}

/** The `<dt>` before the field's `<dd>`. */
function fromTerm(el: Element): string {
  const dd = closestTo(el, 'dd')
  if (!dd) return ''
  for (let before = previousElementOf(dd); before; before = previousElementOf(before)) {
    if (localNameOf(before) === 'dt') return labelLike(textOf(before, NAME_CHARS, null, false))
  }
  return ''
}

/** Text before the field within its line: back through its siblings, then its inline parents, to a block edge. */
function fromLine(el: Element): string {
  let node: Node = el
  let text = ''
  for (let hops = 0; hops < 6 && !text; hops++) {
    for (let before = previousSiblingOf(node); before; before = previousSiblingOf(before)) {
      const type = nodeTypeOf(before)
      if (type === 1) {
        const element = before as Element
        const tag = localNameOf(element)
        if (tag === 'br' || matchesSelector(element, FIELD_SELECTOR) || queryOne(element, FIELD_SELECTOR)) break
        // A toolbar over an editor is made of controls, not of the editor's label: read past it.
        if (matchesSelector(element, TOOLBARS) || queryOne(element, CONTROLS) || drawnAsControl(element)) continue
        if (BLOCK_TAGS.has(tag) && tag !== 'label') {
          // A heading names the field right after it, unless more bare fields follow it under that heading.
          if (!matchesSelector(element, HEADINGS) || !sharesHeading(node)) text = leadText(element)
          break
        }
      }
      const piece = type === 3 ? (before as Text).data : type === 1 ? textOf(before, NAME_CHARS, null, false) : ''
      // A stepper's "−" or a bullet before a field is a glyph, not its label.
      if (WORDS.test(piece)) {
        text = piece
        break
      }
    }
    const parent: Element | null = parentElementOf(node)
    if (text || !parent || BLOCK_TAGS.has(localNameOf(parent))) break
    node = parent
  }
  return labelLike(text)
}

/**
 * The label of a block: its first line when it is a label over a hint ("Dark mode" over "Use a dark
 * colour scheme"), two or more blocks stacked, else its whole text.
 */
function leadText(block: Element): string {
  const lines = Array.from(childrenOf(block)).filter((child) => textOf(child, NAME_CHARS, null, false) !== '')
  const stacked = lines.length >= 2 && lines.every((line) => BLOCK_TAGS.has(localNameOf(line)) || /^(?:block|flex|grid)/.test(getComputedStyle(line).display))
  return textOf(stacked ? lines[0]! : block, NAME_CHARS, null, false)
}

/**
 * The label written above the field's own box: the block right before the smallest box that holds the
 * field and no other ("Quantity" over a stepper's − [1] +), when it is no heading and holds no field
 * or control itself.
 */
function fromAbove(el: Element): string {
  for (let box = parentElementOf(el), hops = 0; box && localNameOf(box) !== 'body' && hops < 3; box = parentElementOf(box), hops++) {
    if (holdsManyFields(box)) return ''
    const above = previousElementOf(box)
    if (!above) continue
    // A heading over the box titles a part of the page, not this field (a group's heading is read below).
    if (matchesSelector(above, HEADINGS) || matchesSelector(above, FIELD_SELECTOR) || queryOne(above, FIELD_SELECTOR) || matchesSelector(above, TOOLBARS) || queryOne(above, CONTROLS) || drawnAsControl(above)) return ''
    return labelLike(leadText(above))
  }
  return ''
}

/** The field (or its inline wrapper) is followed by another bare field: a run of fields under one heading. */
function sharesHeading(node: Node): boolean {
  const next = nodeTypeOf(node) === 1 ? nextElementOf(node as Element) : null
  return !!next && matchesSelector(next, FIELD_SELECTOR)
}

/** The heading of the smallest group that holds this field and no other. */
function fromGroup(el: Element): string {
  for (let group = parentElementOf(el), hops = 0; group && localNameOf(group) !== 'body' && hops < 4; group = parentElementOf(group), hops++) {
    if (holdsManyFields(group)) return ''
    // Its own children only: a selector with `:scope >` would still search the whole subtree.
    const heading = Array.from(childrenOf(group)).find((child) => localNameOf(child) === 'legend' || matchesSelector(child, HEADINGS))
    if (heading) return labelLike(textOf(heading, NAME_CHARS, null, false))
  }
  return ''
}

/** Text right after a checkbox or radio: "<input type=checkbox> Remember me". */
function fromNext(el: Element): string {
  for (let after = nextSiblingOf(el); after; after = nextSiblingOf(after)) {
    const type = nodeTypeOf(after)
    if (type === 1 && (localNameOf(after as Element) === 'br' || matchesSelector(after as Element, FIELD_SELECTOR))) return ''
    const piece = type === 3 ? (after as Text).data : type === 1 ? textOf(after, NAME_CHARS, null, false) : ''
    if (/\S/.test(piece)) return labelLike(piece)
  }
  return ''
}

/** The name a person reads beside a field the markup leaves unnamed, or ''. */
export function layoutName(el: Element): string {
  const type = inputType(el)
  if (type === 'checkbox' || type === 'radio') {
    const after = fromNext(el)
    if (after) return after
  }
  const onItsLine = fromTable(el) || fromTerm(el) || fromLine(el)
  // A control that is no field (an icon of a post's action bar) is not named after a region it sits
  // in, whose text it does not hold (the post's): only after its own label on its line.
  return onItsLine || (isField(el) ? fromAbove(el) || fromGroup(el) : '')
}

/** Whether an element is a field a person fills in or chooses in (what a layout name may name). */
export function isField(el: Element): boolean {
  try {
    return matchesSelector(el, FIELD_SELECTOR)
  } catch {
    return false
  }
}
