import { attributeOf, childrenOf, classNameOf, localNameOf, matchesSelector, parentElementOf } from './dom-safe.ts'
import { controlRole } from './names.ts'

// A state a page shows only by styling (a toggle's `active` class, a segment's darker background),
// read from the control itself where ARIA says nothing.

/** Class words that mark a control as the chosen or switched-on one. */
const STATE_WORDS = new Set(['active', 'selected', 'checked', 'pressed', 'on', 'chosen', 'current', 'liked'])

/** A group larger than this is a list, not a set of toggles; its members are not compared. */
const MAX_ALIKE = 12

/** A class of the control names a state: a whole word of it (split on - and _), in any case. */
function stateClass(el: Element): boolean {
  for (const name of classNameOf(el).split(/\s+/)) {
    if (name.toLowerCase().split(/[-_]+/).some((word) => STATE_WORDS.has(word))) return true
  }
  return false
}

/** ARIA attributes that say whether a control is the chosen one. */
const CHOICE_ATTRIBUTES = ['aria-selected', 'aria-pressed', 'aria-checked', 'aria-current']

function markedChoice(el: Element): boolean {
  return stateClass(el) || CHOICE_ATTRIBUTES.some((name) => attributeOf(el, name) !== null)
}

/** What sets a chosen member of a group apart: its background, border and font weight. */
function lookOf(el: Element): string {
  const style = getComputedStyle(el)
  return [style.backgroundColor, style.borderTopColor, style.borderTopWidth, style.fontWeight].join('|')
}

/** The pointer or focus restyles a control (`:hover`, `:focus`): such a look says nothing of its state. */
function restyled(el: Element): boolean {
  return matchesSelector(el, ':hover') || matchesSelector(el, ':focus')
}

/** A form's submit button stands out as its main action, not as a choice. */
function submitsForm(el: Element): boolean {
  const tag = localNameOf(el)
  if (tag !== 'button' && tag !== 'input') return false
  const control = el as HTMLButtonElement | HTMLInputElement
  return control.type === 'submit' && control.form !== null
}

/**
 * The control looks unlike every other of its kind (same tag and role) in its parent, and those look
 * alike: the one chosen segment of three or more. Two differ from each other, so neither is the odd one.
 */
function oddOneOut(el: Element, role: string): boolean {
  const parent = parentElementOf(el)
  if (!parent) return false
  const tag = localNameOf(el)
  if (submitsForm(el)) return false
  const alike = Array.from(childrenOf(parent)).filter((child) => localNameOf(child) === tag && controlRole(child) === role)
  if (alike.length < 3 || alike.length > MAX_ALIKE || restyled(el)) return false
  // A group that marks its choice in markup says which member is chosen; its looks add nothing.
  if (alike.some(markedChoice)) return false
  const others = alike.filter((child) => child !== el && !restyled(child)).map(lookOf)
  if (others.length < 2 || others.some((look) => look !== others[0])) return false
  return lookOf(el) !== others[0]
}

/** The control is shown chosen by a class word or by a look that differs from its alike siblings. */
export function styledChosen(el: Element, role: string): boolean {
  return stateClass(el) || oddOneOut(el, role)
}
