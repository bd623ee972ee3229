import {
  attributeOf,
  closestTo,
  hasAttr,
  localNameOf,
  nodeTypeOf,
  parentElementOf,
  queryAll,
  queryOne,
  rootNodeOf,
} from './dom-safe.ts'
import { attr, composedParent, inputType } from './dom.ts'
import { classIconName, COUNT, iconName } from './icon-names.ts'
import { labelsOf } from './labels.ts'
import { collapse, shorten, textOf } from './text.ts'

// Which elements are controls, their ARIA role and their accessible name (a subset of the
// accessible-name computation: labelledby, aria-label, labels, alt, value, content, title, placeholder;
// then, where that finds nothing, the hints real pages leave on icon buttons and logo links).

export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
  'switch', 'combobox', 'textbox', 'searchbox', 'treeitem', 'slider', 'spinbutton',
])
/**
 * Widgets that hold their items and take the keys for them (arrows move, Enter picks): a control of
 * their own when they take focus themselves (`tabindex`, or `aria-activedescendant` naming the item).
 */
export const COMPOSITE_ROLES = new Set(['listbox', 'menu', 'menubar', 'grid', 'tree', 'treegrid', 'tablist', 'radiogroup'])

/**
 * A listbox whose options a person chooses several of: a control of its own, since a plain click on
 * an option would replace the choice (SELECT Ctrl-clicks).
 */
export function multipleListbox(el: Element): boolean {
  return attr(el, 'role').split(/\s+/)[0] === 'listbox' && attr(el, 'aria-multiselectable') === 'true'
}

/** A composite widget that keeps keyboard focus itself while its items are chosen. */
export function focusableComposite(el: Element): boolean {
  const role = attr(el, 'role').split(/\s+/)[0]
  if (!role || !COMPOSITE_ROLES.has(role)) return false
  const tabindex = attr(el, 'tabindex')
  return hasAttr(el, 'aria-activedescendant') || (tabindex !== '' && Number(tabindex) >= 0)
}

const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
  'switch', 'treeitem', 'clickable', 'gridcell', 'row', 'cell', 'columnheader', 'rowheader', 'listitem', 'heading',
])

/** Roles a page gives that say nothing of what the element does. */
const GENERIC_ROLES = new Set(['presentation', 'none', 'generic'])

export function isCandidate(el: Element): boolean {
  switch (localNameOf(el)) {
    case 'a':
      if (hasAttr(el, 'href')) return true
      break
    case 'button':
    case 'select':
    case 'textarea':
      return true
    case 'input':
      return inputType(el) !== 'hidden'
    case 'summary': {
      const parent = parentElementOf(el)
      return parent !== null && localNameOf(parent) === 'details'
    }
  }
  const role = attr(el, 'role').split(/\s+/)[0]
  if (role && INTERACTIVE_ROLES.has(role)) return true
  if (focusableComposite(el) || multipleListbox(el)) return true
  const editable = attributeOf(el, 'contenteditable')
  if (editable !== null && editable !== 'false') {
    const parent = composedParent(el) as Element | null
    const inherited = parent && nodeTypeOf(parent) === 1 ? closestTo(parent, '[contenteditable]') : null
    return !inherited || attributeOf(inherited, 'contenteditable') === 'false'
  }
  return false
}

/** The role the page or the tag gives, or null for an element with none (a `div`, a `span`). */
function ownRole(el: Element): string | null {
  const explicit = attr(el, 'role').split(/\s+/)[0]
  if (explicit && !GENERIC_ROLES.has(explicit)) return explicit
  switch (localNameOf(el)) {
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
      if (hasAttr(el, 'list')) return 'combobox'
      if (type === 'search') return 'searchbox'
      return 'textbox'
    }
  }
  return hasAttr(el, 'contenteditable') ? 'textbox' : null
}

export function roleOf(el: Element): string {
  return ownRole(el) ?? localNameOf(el)
}

/** The role a control is offered with: its own, or `clickable` for an element made clickable by script alone. */
export function controlRole(el: Element): string {
  return ownRole(el) ?? 'clickable'
}

function byIds(el: Element, ids: string): Element[] {
  const root = rootNodeOf(el) as Document | ShadowRoot
  return Array.from(new Set(ids.split(/\s+/)))
    .map((id) => (id ? root.getElementById(id) : null))
    .filter((found): found is HTMLElement => found !== null)
}

/** Joins the texts of several labels, each distinct text once: copies of a control share one ID and its labels. */
function joinDistinct(texts: string[]): string {
  return collapse(Array.from(new Set(texts.filter(Boolean))).join(' '))
}

/**
 * The distinct texts of a control's labels, read only until they fill the name: a page that repeats an
 * ID gives one hidden checkbox hundreds of labels.
 */
function labelsText(labels: HTMLLabelElement[], budget: number, el: Element): string {
  const texts: string[] = []
  let length = 0
  for (let i = 0; i < labels.length && length < budget; i++) {
    const text = textOf(labels[i]!, budget, el, false)
    if (!text || texts.includes(text)) continue
    texts.push(text)
    length += text.length + 1
  }
  return joinDistinct(texts)
}

/**
 * Content text with an image's alt left out where the same words are also written beside it (a
 * category tile whose picture and caption both say "Appliances"): read once, not twice.
 */
function contentOf(el: Element, role: string, budget: number): string {
  // A tree item's name is its own line, not the branch of items below it.
  const branch = role === 'treeitem' ? queryOne(el, ':scope > [role=group], :scope > ul, :scope > ol') : null
  // The items of a flex or grid box are laid out apart: "Ana Gomez" and "Admin" are two words.
  const apart = /flex|grid/.test(getComputedStyle(el).display)
  let text = textOf(el, budget, branch, false, apart)
  for (const img of Array.from(queryAll(el, 'img[alt], area[alt]'))) {
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

/** A control's name, and `icon` when its words came from the icon that draws it. */
export interface Name {
  name: string
  from?: 'icon'
}

export function nameOf(el: Element, role: string, limit: number): string {
  return accessibleName(el, role, limit).name
}

export function accessibleName(el: Element, role: string, limit: number): Name {
  const named = accessibleText(el, role, limit)
  return typeof named === 'string' ? { name: shorten(named, limit) } : { name: shorten(named.name, limit), from: 'icon' }
}

/** The name as the page gives it, or as its icon does (then as a `Name`), before it is shortened. */
function accessibleText(el: Element, role: string, limit: number): string | Name {
  const budget = limit + 40
  const labelledBy = attr(el, 'aria-labelledby')
  if (labelledBy) {
    const text = joinDistinct(byIds(el, labelledBy).map((ref) => textOf(ref, budget, null, true)))
    if (text) return text
  }
  const label = attr(el, 'aria-label')
  if (label) return collapse(label)
  const labels = labelsOf(el)
  if (labels.length) {
    const text = labelsText(labels, budget, el)
    if (text) return text
  }
  const tag = localNameOf(el)
  const type = inputType(el)
  if (tag === 'img' || tag === 'area' || type === 'image') {
    const alt = attr(el, 'alt')
    if (alt) return collapse(alt)
  }
  if (type === 'submit' || type === 'reset' || type === 'button') {
    const value = (el as HTMLInputElement).value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '')
    if (value) return collapse(value)
  }
  const title = collapse(attr(el, 'title'))
  if (NAME_FROM_CONTENT.has(role) || tag === 'summary' || tag === 'button' || tag === 'a') {
    const text = contentOf(el, role, budget)
    // A glyph alone ("☆", "▸", "×") is an icon: the title says what it does.
    if (text && (!title || /[\p{L}\p{N}]/u.test(text))) {
      // A count beside an icon ("0" on a cart, "1.2K" shares) names nothing alone: the icon says what it counts.
      const icon = COUNT.test(text) ? iconName(el) || classIconName(el) : ''
      if (icon) return { name: `${icon} ${text}`, from: 'icon' }
      return abbreviated(text, title) ? `${text} (${title})` : text
    }
  }
  if (title) return title
  const placeholder = attr(el, 'placeholder') || attr(el, 'aria-placeholder')
  if (placeholder) return collapse(placeholder)
  // A combobox drawn from a div shows its choice as its text ("Sort: Featured").
  if (role === 'combobox' && tag !== 'input' && tag !== 'select') {
    const text = contentOf(el, role, budget)
    if (text) return text
  }
  return hintOf(el, budget)
}

/** Longest text read as an abbreviation: initials on an avatar ("JM"), a toolbar's "B" or "I". */
const ABBREVIATION_CHARS = 3

/** The text is a letter or initials and the title spells out what it stands for: a person hovering reads both. */
function abbreviated(text: string, title: string): boolean {
  return title !== '' && text.length <= ABBREVIATION_CHARS && !/\s/.test(text) && title.toLowerCase() !== text.toLowerCase()
}

/** What an otherwise unnamed control still tells: a button's value, its description, its image. */
function hintOf(el: Element, budget: number): string | Name {
  const tag = localNameOf(el)
  if (tag === 'button') {
    const value = collapse(attr(el, 'value'))
    if (value) return value
  }
  const describedBy = attr(el, 'aria-describedby')
  if (describedBy) {
    const text = joinDistinct(byIds(el, describedBy).map((ref) => textOf(ref, budget, null, true)))
    if (text) return text
  }
  const icon = iconName(el)
  return icon ? { name: icon, from: 'icon' } : ''
}
