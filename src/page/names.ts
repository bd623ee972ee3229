import { attr, composedParent, inputType } from './dom.ts'
import { clip, collapse, textOf } from './text.ts'

// Which elements are controls, their ARIA role and their accessible name (a subset of the
// accessible-name computation: labelledby, aria-label, labels, alt, value, content, title, placeholder).

const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
  'switch', 'combobox', 'textbox', 'searchbox', 'treeitem', 'slider', 'spinbutton',
])
const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
  'switch', 'treeitem',
])

export function isCandidate(el: Element): boolean {
  switch (el.localName) {
    case 'a':
      if (el.hasAttribute('href')) return true
      break
    case 'button':
    case 'select':
    case 'textarea':
      return true
    case 'input':
      return inputType(el) !== 'hidden'
    case 'summary':
      return el.parentElement?.localName === 'details'
  }
  const role = attr(el, 'role').split(/\s+/)[0]
  if (role && INTERACTIVE_ROLES.has(role)) return true
  const editable = el.getAttribute('contenteditable')
  if (editable !== null && editable !== 'false') {
    const parent = composedParent(el) as Element | null
    const inherited = parent?.nodeType === 1 ? parent.closest('[contenteditable]') : null
    return !inherited || inherited.getAttribute('contenteditable') === 'false'
  }
  return false
}

export function roleOf(el: Element): string {
  const explicit = attr(el, 'role').split(/\s+/)[0]
  if (explicit && explicit !== 'presentation' && explicit !== 'none' && explicit !== 'generic') return explicit
  switch (el.localName) {
    case 'a':
      return 'link'
    case 'button':
    case 'summary':
      return 'button'
    case 'textarea':
      return 'textbox'
    case 'select':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
    case 'input': {
      const type = inputType(el)
      if (type === 'checkbox' || type === 'radio') return type
      if (type === 'range') return 'slider'
      if (type === 'number') return 'spinbutton'
      if (type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return 'button'
      if (el.hasAttribute('list')) return 'combobox'
      if (type === 'search') return 'searchbox'
      return 'textbox'
    }
  }
  return el.hasAttribute('contenteditable') ? 'textbox' : el.localName
}

function byIds(el: Element, ids: string): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot
  return ids
    .split(/\s+/)
    .map((id) => (id ? root.getElementById(id) : null))
    .filter((found): found is HTMLElement => found !== null)
}

export function nameOf(el: Element, role: string, limit: number): string {
  const budget = limit + 40
  const labelledBy = attr(el, 'aria-labelledby')
  if (labelledBy) {
    const text = collapse(byIds(el, labelledBy).map((ref) => textOf(ref, budget, null, true)).join(' '))
    if (text) return clip(text, limit)
  }
  const label = attr(el, 'aria-label')
  if (label) return clip(collapse(label), limit)
  const labels = (el as HTMLInputElement).labels
  if (labels && labels.length) {
    const text = collapse(Array.from(labels).map((found) => textOf(found, budget, el, false)).join(' '))
    if (text) return clip(text, limit)
  }
  const tag = el.localName
  const type = inputType(el)
  if (tag === 'img' || tag === 'area' || type === 'image') {
    const alt = attr(el, 'alt')
    if (alt) return clip(collapse(alt), limit)
  }
  if (type === 'submit' || type === 'reset' || type === 'button') {
    const value = (el as HTMLInputElement).value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '')
    if (value) return clip(collapse(value), limit)
  }
  if (NAME_FROM_CONTENT.has(role) || tag === 'summary' || tag === 'button' || tag === 'a') {
    const text = textOf(el, budget, null, false)
    if (text) return clip(text, limit)
  }
  const title = attr(el, 'title')
  if (title) return clip(collapse(title), limit)
  const placeholder = attr(el, 'placeholder') || attr(el, 'aria-placeholder')
  if (placeholder) return clip(collapse(placeholder), limit)
  return ''
}
