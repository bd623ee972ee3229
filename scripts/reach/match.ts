import { POSITIONAL } from '../../src/collector/positional-names.ts'

// How bench:reach reads the ground truth against what the collector offered: by the text a person
// reads, case-folded with whitespace collapsed, never by an ID or a selector (the pages and the
// collector are free to change those).

/** What the bench keeps of an offered element; every field the old collector may lack is optional. */
export interface Offered {
  /** Position in the observation's element list: how a fresh load finds the element again. */
  index: number
  id: string
  frame: number
  role: string
  name: string
  tag: string
  type?: string
  value?: string
  operations: string[]
  state?: Record<string, unknown>
  options?: { id: string; label: string; selected: boolean }[]
}

/** Lower case, whitespace runs as one space, trimmed: how two texts are compared here. */
export function fold(text: string | undefined): string {
  return (text ?? '').toLowerCase().replace(/\s+/g, ' ').trim()
}

const WORD = /[\p{L}\p{N}]/u

/**
 * `name` holds `text` as whole words: "Add to cart" is in "Add to cart, Blue kettle", but "1" is not
 * in "21" (a calendar's days would all match "1"). A text that starts or ends with a sign ("#sunrise",
 * "‹ March") needs no boundary on that side.
 */
export function holds(name: string, text: string): boolean {
  const have = fold(name)
  const want = fold(text)
  if (want === '') return false
  for (let at = have.indexOf(want); at !== -1; at = have.indexOf(want, at + 1)) {
    const before = at === 0 || !WORD.test(want[0]!) || !WORD.test(have[at - 1]!)
    const end = at + want.length
    const after = end === have.length || !WORD.test(want[want.length - 1]!) || !WORD.test(have[end]!)
    if (before && after) return true
  }
  return false
}

/** An element's name is the text, or holds it. */
export function nameMatches(name: string, text: string): boolean {
  return fold(name) === fold(text) ? fold(text) !== '' : holds(name, text)
}

/** The element a person means by `text`: one named exactly that, else the first whose name holds it. */
export function findByText<T extends { name: string }>(elements: readonly T[], text: string): T | undefined {
  const want = fold(text)
  return elements.find((element) => fold(element.name) === want) ?? elements.find((element) => nameMatches(element.name, text))
}

/** Every element whose name is or holds `text`, in offered order. */
export function allByText<T extends { name: string }>(elements: readonly T[], text: string): T[] {
  return elements.filter((element) => nameMatches(element.name, text))
}

const FIELD_ROLES = new Set(['textbox', 'combobox', 'listbox', 'searchbox'])

/** A field a person fills in or picks from, as opposed to one they press. */
export function isField(element: Offered): boolean {
  return element.operations.includes('type') || element.operations.includes('select') || FIELD_ROLES.has(element.role)
}

/** The parts of an observed element the bench reads, copied so the snapshot can be released. */
export function offeredOf(element: Record<string, unknown>, index: number): Offered {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const offered: Offered = {
    index,
    id: String(element.id),
    frame: typeof element.frame === 'number' ? element.frame : 0,
    role: text(element.role) ?? '',
    // The page's name: one by the control's place (`text field 2`) names no text of the page, and the
    // bench counts such a field as unnamed, as it did before the collector named them so.
    name: element.nameFrom === POSITIONAL ? '' : (text(element.name) ?? ''),
    tag: text(element.tag) ?? '',
    operations: Array.isArray(element.operations) ? element.operations.map(String) : [],
  }
  if (text(element.type) !== undefined) offered.type = text(element.type)
  if (text(element.value) !== undefined) offered.value = text(element.value)
  if (element.state && typeof element.state === 'object') offered.state = { ...(element.state as Record<string, unknown>) }
  if (Array.isArray(element.options)) {
    offered.options = (element.options as Record<string, unknown>[]).map((option) => ({
      id: String(option.id),
      label: String(option.label ?? ''),
      selected: option.selected === true,
    }))
  }
  return offered
}

/** One line naming an element for the misses list: role, name, tag. */
export function describe(element: Pick<Offered, 'role' | 'name' | 'tag'>): string {
  return `${element.role || element.tag} "${element.name}"${element.role && element.role !== element.tag ? ` <${element.tag}>` : ''}`
}
