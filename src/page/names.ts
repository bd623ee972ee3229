import { attr, composedParent, inputType } from './dom.ts'
import { clip, collapse, textOf } from './text.ts'

// Which elements are controls, their ARIA role and their accessible name (a subset of the
// accessible-name computation: labelledby, aria-label, labels, alt, value, content, title, placeholder;
// then, where that finds nothing, the hints real pages leave on icon buttons and logo links).

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
  return Array.from(new Set(ids.split(/\s+/)))
    .map((id) => (id ? root.getElementById(id) : null))
    .filter((found): found is HTMLElement => found !== null)
}

/** Joins the texts of several labels, each distinct text once: copies of a control share one ID and its labels. */
function joinDistinct(texts: string[]): string {
  return collapse(Array.from(new Set(texts.filter(Boolean))).join(' '))
}

/**
 * Content text with an image's alt left out where the same words are also written beside it (a
 * category tile whose picture and caption both say "Appliances"): read once, not twice.
 */
function contentOf(el: Element, budget: number): string {
  let text = textOf(el, budget, null, false)
  for (const img of Array.from(el.querySelectorAll('img[alt], area[alt]'))) {
    const alt = collapse(attr(img, 'alt'))
    const lower = text.toLowerCase()
    const first = lower.indexOf(alt.toLowerCase())
    const second = alt && first >= 0 ? lower.indexOf(alt.toLowerCase(), first + alt.length) : -1
    if (second < 0) continue
    // Drop the copy spelled as the alt is, so the words keep the case the page shows.
    const at = text.slice(second, second + alt.length) === alt && text.slice(first, first + alt.length) !== alt ? second : first
    text = collapse(text.slice(0, at) + text.slice(at + alt.length))
  }
  return text
}

/** Words of an image's file name ("/img/site-logo_dark@2x.png" gives "site logo dark"), hashes and numbers left out. */
function fileWords(img: Element): string {
  const src = attr(img, 'src')
  if (!src || src.startsWith('data:')) return ''
  let file = src.split(/[?#]/)[0]!.split('/').pop() ?? ''
  try {
    file = decodeURIComponent(file)
  } catch {
    // A malformed escape: read the name as written.
  }
  return file
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    // Digits alone (sizes, counters) and long hex runs (content hashes) name nothing.
    .filter((word) => word && !/^\d+$/.test(word) && !/^(?=.*\d)[0-9a-f]{8,}$/i.test(word) && !/^\d+x$/i.test(word))
    .join(' ')
}

export function nameOf(el: Element, role: string, limit: number): string {
  const budget = limit + 40
  const labelledBy = attr(el, 'aria-labelledby')
  if (labelledBy) {
    const text = joinDistinct(byIds(el, labelledBy).map((ref) => textOf(ref, budget, null, true)))
    if (text) return clip(text, limit)
  }
  const label = attr(el, 'aria-label')
  if (label) return clip(collapse(label), limit)
  const labels = (el as HTMLInputElement).labels
  if (labels && labels.length) {
    const text = joinDistinct(Array.from(labels).map((found) => textOf(found, budget, el, false)))
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
    const text = contentOf(el, budget)
    if (text) return clip(text, limit)
  }
  const title = attr(el, 'title')
  if (title) return clip(collapse(title), limit)
  const placeholder = attr(el, 'placeholder') || attr(el, 'aria-placeholder')
  if (placeholder) return clip(collapse(placeholder), limit)
  return clip(hintOf(el, budget), limit)
}

/** What an otherwise unnamed control still tells: a button's value, its description, its image. */
function hintOf(el: Element, budget: number): string {
  if (el.localName === 'button') {
    const value = collapse(attr(el, 'value'))
    if (value) return value
  }
  const describedBy = attr(el, 'aria-describedby')
  if (describedBy) {
    const text = joinDistinct(byIds(el, describedBy).map((ref) => textOf(ref, budget, null, true)))
    if (text) return text
  }
  const img = el.localName === 'img' || inputType(el) === 'image' ? el : el.querySelector('img')
  if (!img) return ''
  return collapse(attr(img, 'title')) || fileWords(img)
}
