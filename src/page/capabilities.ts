import type { ElementCapability } from '../operations.ts'
import { DATE_FORMATS } from './date-formats.ts'
import { attributeOf, childrenOf, hasAttr, localNameOf, ownerDocumentOf, parentElementOf, shadowRootOf } from './dom-safe.ts'
import { attr, inputType } from './dom.ts'
import { callCache } from './layout.ts'
import { COMPOSITE_ROLES, focusableComposite, isCandidate, multipleListbox } from './names.ts'
import { focusable, hasHandlerAttribute } from './script-controls.ts'

// What a person can do with a control besides clicking it: type into it, choose from it, submit it,
// press keys in it, hover it, drag it, drop something on it. Read from the markup, from the listeners
// Node saw through CDP (`InputSignals`), and from the page's own style sheets (a `:hover` rule that
// shows another element is a menu or tooltip opening on hover). Nothing runs in the page's world.

const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number'])
const DATE_INPUTS = new Set(DATE_FORMATS.keys())
/** Form fields, which a listener on the press never makes draggable. */
const FORM_FIELDS = new Set(['input', 'textarea', 'select'])

/** Roles whose widgets a person drives with the keyboard: arrows move, Enter or Space picks, Escape closes. */
const KEY_ROLES = new Set([
  'listbox', 'option', 'menu', 'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'grid', 'gridcell',
  'tree', 'treeitem', 'treegrid', 'tablist', 'tab', 'slider', 'spinbutton', 'combobox', 'radiogroup', 'radio',
  'textbox', 'searchbox', 'scrollbar',
])

/** The elements Node saw a listener on, by what the listener is for. */
export interface InputSignals {
  click: ReadonlySet<Element>
  hover: ReadonlySet<Element>
  drag: ReadonlySet<Element>
  drop: ReadonlySet<Element>
  keys: ReadonlySet<Element>
}

export const NO_SIGNALS: InputSignals = { click: new Set(), hover: new Set(), drag: new Set(), drop: new Set(), keys: new Set() }

/** Ancestors whose hover or drop listener a control shares: hovering a menu's label hovers its item too. */
const ANCESTOR_REACH = 3

/**
 * Style rules that show something when an element is hovered are read for at most this many
 * selectors, from at most this many rules: a page's style sheets can hold tens of thousands of rules,
 * and they are read again on every observation.
 */
const HOVER_SELECTORS = 300
const HOVER_RULES = 20_000

function isEditable(el: Element): boolean {
  const editable = attributeOf(el, 'contenteditable')
  return editable !== null && editable !== 'false'
}

/** A field that takes text: clicking it puts the caret there. */
export function takesText(el: Element, role: string): boolean {
  const tag = localNameOf(el)
  if (tag === 'input') return TEXT_INPUTS.has(inputType(el))
  return tag === 'textarea' || isEditable(el) || role === 'textbox' || role === 'searchbox'
}

/** A field whose text can be read and selected but not changed. */
export function readOnly(el: Element): boolean {
  return (el as HTMLInputElement).readOnly === true || attributeOf(el, 'aria-readonly') === 'true'
}

/** What the markup alone says can be done to the control. */
function basic(el: Element, role: string, signals: InputSignals): ElementCapability[] {
  const tag = localNameOf(el)
  const type = inputType(el)
  if (tag === 'select') return ['select']
  // A read-only field is clicked into (to select or copy its text), never typed into.
  if (tag === 'input') {
    if (TEXT_INPUTS.has(type)) return readOnly(el) ? ['click'] : ['click', 'type', 'submit']
    if (DATE_INPUTS.has(type)) return readOnly(el) ? ['click'] : ['click', 'type']
    return ['click']
  }
  if (takesText(el, role)) return readOnly(el) ? ['click'] : ['click', 'type']
  // A listbox's options are chosen through it; a listbox or menu that keeps focus is driven by keys,
  // and a click goes to one of its items.
  if (role === 'listbox') return ['select']
  if (COMPOSITE_ROLES.has(role) && (focusableComposite(el) || multipleListbox(el))) return []
  // An element offered only for being draggable is picked up, not clicked; one listened only for drops
  // is dropped on.
  const scripted = !isCandidate(el) && !signals.click.has(el) && !hasHandlerAttribute(el)
  if (scripted && (attr(el, 'draggable') === 'true' || (signals.drop.has(el) && !signals.drag.has(el)))) return []
  return ['click']
}

function takesKeys(el: Element, role: string): boolean {
  const tag = localNameOf(el)
  if (tag === 'select' || tag === 'textarea' || isEditable(el)) return true
  if (tag === 'input') return inputType(el) !== 'hidden'
  // A listbox or menu takes keys only where it holds focus itself; its items otherwise.
  if (COMPOSITE_ROLES.has(role)) return focusableComposite(el)
  return KEY_ROLES.has(role)
}

/**
 * An element that reads keys itself and holds no value (a terminal, a game's canvas): a person tabs to
 * it and types, and the page's listener takes each key. A field's keys go into its value instead.
 */
function readsKeys(el: Element, role: string, signals: InputSignals): boolean {
  return signals.keys.has(el) && focusable(el) && !FORM_FIELDS.has(localNameOf(el)) && !takesText(el, role)
}

function isSlider(el: Element, role: string): boolean {
  return role === 'slider' || (localNameOf(el) === 'input' && inputType(el) === 'range')
}

function draggable(el: Element, role: string, signals: InputSignals): boolean {
  if (isSlider(el, role)) return true
  if (attributeOf(el, 'draggable') === 'true' || hasAttr(el, 'aria-grabbed')) return true
  // A press listener on a field places the caret or opens its picker: it does not pick the field up.
  if (FORM_FIELDS.has(localNameOf(el)) || takesText(el, role)) return false
  if (signals.drag.has(el)) return true
  // An item of a list whose container listens for the press (a sortable list's delegated handler).
  const parent = parentElementOf(el)
  return parent !== null && signals.drag.has(parent) && childrenOf(parent).length > 1
}

function withinReach(el: Element, set: ReadonlySet<Element>): boolean {
  let node: Element | null = el
  for (let depth = 0; node && depth <= ANCESTOR_REACH; depth += 1, node = parentElementOf(node)) {
    if (set.has(node)) return true
  }
  return false
}

function droppable(el: Element, signals: InputSignals): boolean {
  if (hasAttr(el, 'aria-dropeffect') || hasAttr(el, 'ondrop') || hasAttr(el, 'ondragover')) return true
  return withinReach(el, signals.drop)
}

const revealers = callCache<Document, Set<Element>>()

/** The selector a `:hover` rule hovers, when the rule styles something else (`li:hover > ul`), else null. */
function hoveredPart(selector: string): string | null {
  const at = selector.indexOf(':hover')
  if (at <= 0) return null
  // A rule on the hovered element itself restyles it (a colour); one on a relative shows something.
  if (!/^:hover[^\s>+~]*\s*[\s>+~]\s*\S/.test(selector.slice(at))) return null
  const trigger = selector.slice(0, at).trim()
  // A hover of the whole page (`body:hover .x`) is no control's.
  if (!trigger || /[\s>+~]$/.test(trigger) || /^(\*|html|body|:root)$/.test(trigger)) return null
  return trigger
}

/** Properties by which a rule shows what was hidden; a rule that only recolours (`tr:hover td`) shows nothing new. */
const REVEALING = ['display', 'visibility', 'opacity', 'max-height', 'height', 'transform', 'clip-path']

function reveals(rule: CSSStyleRule): boolean {
  return REVEALING.some((property) => rule.style.getPropertyValue(property) !== '')
}

/** Reads `rules` (and the rules nested in them) into `into`; `budget` counts the rules still to read. */
function hoverSelectors(rules: CSSRuleList, into: Set<string>, budget: { rules: number }): void {
  for (let index = 0; index < rules.length; index += 1) {
    if (into.size >= HOVER_SELECTORS || budget.rules <= 0) return
    budget.rules -= 1
    const rule = rules[index]!
    if ('selectorText' in rule && typeof rule.selectorText === 'string' && rule.selectorText.includes(':hover') && reveals(rule as CSSStyleRule)) {
      for (const selector of rule.selectorText.split(',')) {
        const part = hoveredPart(selector.trim())
        if (part) into.add(part)
      }
    }
    const inner = (rule as CSSGroupingRule).cssRules
    if (inner) hoverSelectors(inner, into, budget)
  }
}

/** A document's readable style sheets and their rule counts: when neither changed, neither did its hover rules. */
interface SheetsSeen {
  sheets: CSSStyleSheet[]
  counts: number[]
}

/**
 * The hover selectors read from a document's sheets, kept from one call to the next: reading every
 * rule of a large site's sheets took about a millisecond of each observation after a change.
 */
const keptSelectors = new WeakMap<Document, { seen: SheetsSeen; selectors: Set<string> }>()

function sheetsOf(doc: Document): SheetsSeen {
  const seen: SheetsSeen = { sheets: [], counts: [] }
  for (const sheet of Array.from(doc.styleSheets)) {
    try {
      seen.counts.push(sheet.cssRules.length)
      seen.sheets.push(sheet)
    } catch {
      // A cross-origin sheet cannot be read; its hover menus go unseen.
    }
  }
  return seen
}

function sameSheets(a: SheetsSeen, b: SheetsSeen): boolean {
  return a.sheets.length === b.sheets.length && a.sheets.every((sheet, i) => sheet === b.sheets[i] && a.counts[i] === b.counts[i])
}

/** The selectors whose hover shows something, read again only when a sheet came, went or changed its count of rules. */
function hoverSelectorsOf(doc: Document): Set<string> {
  const seen = sheetsOf(doc)
  const kept = keptSelectors.get(doc)
  if (kept && sameSheets(kept.seen, seen)) return kept.selectors
  const selectors = new Set<string>()
  const budget = { rules: HOVER_RULES }
  for (const sheet of seen.sheets) hoverSelectors(sheet.cssRules, selectors, budget)
  keptSelectors.set(doc, { seen, selectors })
  return selectors
}

/** The elements a same-origin style sheet shows something for on hover (read once per call). */
function hoverRevealers(doc: Document): Set<Element> {
  let found = revealers.get(doc)
  if (found) return found
  found = new Set()
  for (const selector of hoverSelectorsOf(doc)) {
    try {
      for (const el of Array.from(doc.querySelectorAll(selector))) found.add(el)
    } catch {
      // A selector this engine parses in a sheet but not in a query (a vendor pseudo-class): skipped.
    }
  }
  revealers.set(doc, found)
  return found
}

/** Whether hovering the element (or its near ancestors, which a hover reaches too) shows something. */
function hoverable(el: Element, signals: InputSignals): boolean {
  if (hasAttr(el, 'aria-haspopup')) return true
  return withinReach(el, signals.hover) || withinReach(el, hoverRevealers(ownerDocumentOf(el)))
}

/** What can be done to the control, in the operations table's terms. */
export function capabilitiesOf(el: Element, role: string, signals: InputSignals = NO_SIGNALS): ElementCapability[] {
  const capabilities = basic(el, role, signals)
  if (readsKeys(el, role, signals)) capabilities.push('type', 'press', 'keys')
  else if (takesKeys(el, role)) capabilities.push('press')
  if (hoverable(el, signals)) capabilities.push('hover')
  const drags = draggable(el, role, signals)
  if (drags) capabilities.push('drag')
  // A sortable list's items are where another item is dropped; a slider's thumb is not.
  if ((drags && !isSlider(el, role)) || droppable(el, signals)) capabilities.push('drop')
  return capabilities
}

/** The element holding keyboard focus, through open shadow roots. */
export function focusedElement(doc: Document): Element | null {
  let active = doc.activeElement
  for (let inner = active && shadowRootOf(active)?.activeElement; inner; inner = shadowRootOf(inner)?.activeElement) active = inner
  return active
}
