import type { ObservedElement } from './observation.ts'

// A control the page names nowhere (no label, no text, nothing beside it either) is named by its
// kind and its place among the offered unnamed controls of that kind, in the order they are offered:
// `text field 2`. The decision request, the checklist writer, the trace and the tracker all read
// `name`, so they all call it so, and a checklist item can name it. Adding or removing an unnamed
// control of its kind before it renumbers it; anything else (a named field above it, a button)
// does not. Only controls in view are offered, so a scroll that takes one out of view does too.
//
// Named on the merged frames, before the cap: the page script sees one frame and its freshness
// check one control (the name stays out of the fingerprint, so no target goes stale by it), and a
// control the character budget drops elsewhere does not move the number of the ones kept.

/** `name_from` of a name made of a kind and a place: not the page's words. */
export const POSITIONAL = 'position'

/** What a person calls a field of an input type that says more than its role. */
const TYPE_KINDS = new Map([
  ['date', 'date field'],
  ['time', 'time field'],
  ['datetime-local', 'date and time field'],
  ['month', 'month field'],
  ['week', 'week field'],
  ['email', 'email field'],
  ['password', 'password field'],
  ['tel', 'phone field'],
  ['url', 'web address field'],
  ['color', 'colour picker'],
])

/** What a person calls a control of a role; any other role (the page may write anything) is a `control`. */
const ROLE_KINDS = new Map([
  ['textbox', 'text field'],
  ['searchbox', 'search field'],
  ['spinbutton', 'number field'],
  ['combobox', 'dropdown'],
  ['listbox', 'list box'],
  ['checkbox', 'checkbox'],
  ['radio', 'radio button'],
  ['switch', 'switch'],
  ['slider', 'slider'],
  ['button', 'button'],
  ['link', 'link'],
  ['tab', 'tab'],
  ['menuitem', 'menu item'],
  ['menuitemcheckbox', 'menu item'],
  ['menuitemradio', 'menu item'],
  ['option', 'option'],
  ['treeitem', 'tree item'],
])

function kindOf(element: ObservedElement): string {
  return TYPE_KINDS.get(element.type ?? '') ?? ROLE_KINDS.get(element.role) ?? 'control'
}

/** Names each unnamed control of `elements` (in the order they are offered) by its kind and place, in place. */
export function nameByPosition(elements: readonly ObservedElement[]): void {
  const counts = new Map<string, number>()
  for (const element of elements) {
    if (element.name !== '') continue
    const kind = kindOf(element)
    const place = (counts.get(kind) ?? 0) + 1
    counts.set(kind, place)
    element.name = `${kind} ${place}`
    element.nameFrom = POSITIONAL
  }
}

/** The name the page gives the control: '' for one named by its place, which another control may have on another page. */
export function pageGivenName(element: Pick<ObservedElement, 'name' | 'nameFrom'>): string {
  return element.nameFrom === POSITIONAL ? '' : element.name
}
