import { readOnly } from './capabilities.ts'
import { attributeOf, closestTo, innerTextOf, localNameOf, matchesSelector, parentElementOf, queryAll, textContentOf } from './dom-safe.ts'
import { attr, inputType } from './dom.ts'
import { styledChosen } from './styled-state.ts'
import { collapse } from './text.ts'
import type { RawElement } from './types.ts'

// A control's value and state (ARIA's, or one shown only by styling), as offered to the model and compared by the freshness check. A
// value a person types is read as it is; what names a choice (a file's, an option's) is text, collapsed.

export function valueOf(el: Element): { shown?: string; full?: string } {
  const tag = localNameOf(el)
  if (tag === 'input') {
    const input = el as HTMLInputElement
    const type = inputType(el)
    if (type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return {}
    if (type === 'file') return { shown: collapse(Array.from(input.files ?? []).map((file) => file.name).join(', ')) }
    // Passwords never leave the page; only whether one is filled in.
    if (type === 'password') return { shown: input.value ? '•••' : '', full: String(input.value.length) }
    return { shown: input.value, full: input.value }
  }
  if (tag === 'textarea') return { shown: (el as HTMLTextAreaElement).value, full: (el as HTMLTextAreaElement).value }
  if (tag === 'select') {
    const chosen = Array.from((el as HTMLSelectElement).selectedOptions).map((option) => collapse(option.label || option.text))
    return { shown: chosen.join(', '), full: chosen.join('\n') }
  }
  const editable = attributeOf(el, 'contenteditable')
  if (editable !== null && editable !== 'false') {
    // Its text with its line breaks, as a textarea's value has them.
    const text = innerTextOf(el) ?? textContentOf(el) ?? ''
    return { shown: text, full: text }
  }
  const ariaValue = attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow')
  return ariaValue ? { shown: ariaValue, full: ariaValue } : {}
}

/**
 * A section header that says it is expanded, around the one button that opens it: the button is the
 * control a person clicks, and the header's state is its state.
 */
function wrapperExpanded(el: Element): string {
  const parent = parentElementOf(el)
  const tag = localNameOf(el)
  if (!parent || (tag !== 'button' && tag !== 'a')) return ''
  const state = attr(parent, 'aria-expanded')
  return state && queryAll(parent, 'button, a[href], [role=button]').length === 1 ? state : ''
}

/** The headers whose `aria-sort` a control inside them (a header's sort button) shows. */
const SORT_HEADERS = 'th, [role=columnheader], [role=rowheader]'

/** How the table is sorted by the column whose header the control is, or sits in (`none` says nothing). */
function sortOf(el: Element): NonNullable<RawElement['state']>['sort'] {
  const header = matchesSelector(el, SORT_HEADERS) ? el : closestTo(el, SORT_HEADERS)
  const sort = header ? attr(header, 'aria-sort') : ''
  return sort === 'ascending' || sort === 'descending' || sort === 'other' ? sort : undefined
}

/** A `<select multiple>` or a listbox that takes several options. */
function multiSelect(el: Element): boolean {
  return localNameOf(el) === 'select' ? (el as HTMLSelectElement).multiple : attr(el, 'aria-multiselectable') === 'true'
}

function tristate(value: string): boolean | 'mixed' | undefined {
  if (value === 'true') return true
  if (value === 'false') return false
  if (value === 'mixed') return 'mixed'
  return undefined
}

export function stateOf(el: Element, role: string): RawElement['state'] {
  const state: NonNullable<RawElement['state']> = {}
  const type = inputType(el)
  if (type === 'checkbox' || type === 'radio') {
    const input = el as HTMLInputElement
    state.checked = input.indeterminate ? 'mixed' : input.checked
  } else {
    const checked = tristate(attr(el, 'aria-checked'))
    if (checked !== undefined) state.checked = checked
    else if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') state.checked = false
  }
  const selected = attr(el, 'aria-selected')
  if (selected === 'true' || selected === 'false') state.selected = selected === 'true'
  const expanded = attr(el, 'aria-expanded') || wrapperExpanded(el)
  if (expanded === 'true' || expanded === 'false') state.expanded = expanded === 'true'
  else if (localNameOf(el) === 'summary') state.expanded = (el.parentElement as HTMLDetailsElement).open
  const pressed = tristate(attr(el, 'aria-pressed'))
  if (pressed !== undefined) state.pressed = pressed
  // `aria-current` names what the control is the current one of (a page, a step, a date).
  const current = attr(el, 'aria-current')
  if (current && current !== 'false') state.current = current
  // ARIA, when it says anything of the choice, wins over the styling.
  const aria = state.checked !== undefined || state.selected !== undefined || state.pressed !== undefined || state.current !== undefined
  if (!aria && localNameOf(el) !== 'option' && styledChosen(el, role)) {
    if (role === 'button') state.pressed = true
    else state.selected = true
  }
  const sort = sortOf(el)
  if (sort) state.sort = sort
  const listbox = role === 'listbox' || localNameOf(el) === 'select' ? el : null
  if (listbox && multiSelect(listbox)) state.multiple = true
  // Said so that a field offered only a click reads as one that is not typed into, and what the click opens.
  if (readOnly(el)) state.readonly = true
  const popup = attr(el, 'aria-haspopup')
  if (popup && popup !== 'false') state.haspopup = popup === 'true' ? 'menu' : popup
  return Object.keys(state).length ? state : undefined
}
