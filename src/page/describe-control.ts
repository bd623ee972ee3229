import { attributeOf, idOf, localNameOf, parentElementOf, textContentOf } from './dom-safe.ts'
import { attr, inputType, listOptions } from './dom.ts'
import { capabilitiesOf, type InputSignals } from './capabilities.ts'
import { formOf, formSummary } from './forms.ts'
import { isField, layoutName } from './layout-names.ts'
import { classIconName } from './icon-names.ts'
import { accessibleName, controlRole } from './names.ts'
import { nearbyOf } from './nearby.ts'
import { stateOf, valueOf } from './control-state.ts'
import { collapse, hash, shorten } from './text.ts'
import type { RawElement } from './types.ts'
import { keptValue, type ValueLimits } from './value-window.ts'

// What the model is told about a control, and its fingerprint: one hash per part, so the freshness
// check can say which part changed. Observe and check describe through this one function.

/** Other fields of its form shown with a control: what is filled in, not the whole form. */
const FORM_FIELDS_SHOWN = 10

export type Description = Omit<RawElement, 'nodeId' | 'rect' | 'at' | 'fingerprint'> & { parts: string[] }

/** A hidden checkbox or radio is offered through its visible label; the label then stands for it. */
export function subjectOf(el: Element): Element {
  if (localNameOf(el) !== 'label') return el
  const control = (el as HTMLLabelElement).control
  const type = control ? inputType(control) : ''
  return control && (type === 'checkbox' || type === 'radio') ? control : el
}

/** Characters of an option's label: a time zone's "(GMT+05:30) India Standard Time - Kolkata" whole. */
const OPTION_LABEL = 60

/** A select's options, each with the label of its `<optgroup>`, or an ARIA listbox's (found again by their text when one is chosen). */
function optionsOf(el: Element, role: string): RawElement['options'] {
  if (localNameOf(el) === 'select') {
    return Array.from((el as HTMLSelectElement).options).map((option) => {
      const group = parentElementOf(option)
      const groupLabel = group && localNameOf(group) === 'optgroup' ? collapse((group as HTMLOptGroupElement).label) : ''
      return {
        label: shorten(collapse(option.label || option.text), OPTION_LABEL),
        value: option.value,
        selected: option.selected,
        ...(groupLabel ? { group: shorten(groupLabel, OPTION_LABEL) } : {}),
      }
    })
  }
  if (role !== 'listbox') return undefined
  return listOptions(el).map((option) => {
    const text = collapse(textContentOf(option) ?? '')
    return { label: shorten(text, OPTION_LABEL), value: text, selected: attr(option, 'aria-selected') === 'true' || attr(option, 'aria-checked') === 'true' }
  })
}

/** How a control is described: the bounds of its name, nearby text and value. */
export interface DescribeLimits extends ValueLimits {
  nameLimit: number
  nearbyLimit: number
}

function multiline(el: Element): boolean {
  const editable = attributeOf(el, 'contenteditable')
  return localNameOf(el) === 'textarea' || (editable !== null && editable !== 'false') || attributeOf(el, 'aria-multiline') === 'true'
}

/** The control as the model reads it; `signals` (the observation's listeners) are needed for its operations, which are left empty without them. */
export function describe(node: Element, limits: DescribeLimits, signals?: InputSignals): Description {
  const { nameLimit, nearbyLimit } = limits
  const el = subjectOf(node)
  const role = controlRole(el)
  const tag = localNameOf(el)
  const type = inputType(el)
  const given = accessibleName(el, role, nameLimit)
  let name = given.name
  let nameFrom: Description['nameFrom'] = given.from
  // A field, or a control drawn without text (a toggle's track), is named by the text beside it.
  const inferred = name ? '' : shorten(layoutName(el), nameLimit)
  if (inferred) {
    name = inferred
    nameFrom = 'layout'
  }
  // Last, the class list of a textless control (not a field's `form-control`), when it says what it does (`class="trash"`).
  const classed = name || isField(el) ? '' : shorten(classIconName(el), nameLimit)
  if (classed) {
    name = classed
    nameFrom = 'icon'
  }
  const value = valueOf(el)
  const state = stateOf(el, role)
  // The freshness check compares the parts only: it skips what can be done, whose hover rules read
  // the page's style sheets, on the path of every input.
  const operations = signals ? capabilitiesOf(el, role, signals) : []
  const options = optionsOf(el, role)
  const form = formOf(el)
  const summary = form ? formSummary(form) : null
  const fields: Record<string, string> = {}
  if (summary) {
    // The other fields, ten at most: a shop's filter form has thousands.
    let shown = 0
    for (const [key, fieldValue, members] of summary.entries) {
      if (shown >= FORM_FIELDS_SHOWN) break
      if (members.includes(el)) continue
      const shortKey = shorten(key, 30)
      if (!(shortKey in fields)) shown += 1
      fields[shortKey] = shorten(fieldValue, 40)
    }
  }
  const nearby = nearbyOf(node, name, nearbyLimit)
  const parts = [
    [tag, type, role, idOf(el), attr(el, 'name'), attr(el, 'href')].join('|'),
    name,
    value.full ?? '',
    JSON.stringify(state ?? {}),
    options ? options.map((option) => `${option.value}=${option.label}`).join('\n') : '',
    nearby,
    summary ? `${summary.name}:${summary.digest}` : '',
  ]
  const description: Description = { role, name, tag, operations, parts }
  if (nameFrom) description.nameFrom = nameFrom
  if (type) description.type = type
  if (multiline(el)) description.multiline = true
  // The value as it is: a model copies or rewrites it from the request.
  if (value.shown !== undefined) Object.assign(description, keptValue(el, value.shown, limits, multiline(el)))
  if (state) description.state = state
  if (options) description.options = options.slice(0, 100)
  if (summary) description.form = { name: summary.name, fields }
  if (nearby) description.nearby = nearby
  return description
}

export const PART_REASONS = [
  'attributes changed',
  'name changed',
  'value changed',
  'state changed',
  'options changed',
  'nearby text changed',
  'form values changed',
]

export function fingerprintOf(parts: string[]): string {
  return parts.map(hash).join('.')
}
