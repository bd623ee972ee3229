import { closestTo, formFields, localNameOf } from './dom-safe.ts'
import { attr, inputType } from './dom.ts'
import { callCache } from './layout.ts'
import { valueOf } from './control-state.ts'
import { HASH_START, hashOn, hashText, shorten, textOf } from './text.ts'

// A control's form and the other fields' values, so a decision sees what is already filled in.

export interface FormSummary {
  name: string
  entries: Array<[string, string, Element[]]>
  digest: string
}

const formCache = callCache<Element, FormSummary>()

export function formOf(el: Element): HTMLFormElement | null {
  // A form's own `form` would be its field of that name; a form is its own.
  const own = localNameOf(el) === 'form' ? undefined : (el as HTMLInputElement).form
  if (own !== undefined) return own
  return closestTo(el, 'form') as HTMLFormElement | null
}

function fieldKey(field: Element, index: number): string {
  const name = attr(field, 'name') || field.id
  if (name) return name
  const labels = (field as HTMLInputElement).labels
  const label = labels && labels.length ? textOf(labels[0]!, 40, field, false) : ''
  return label || attr(field, 'aria-label') || attr(field, 'placeholder') || `field${index + 1}`
}

export function formSummary(form: HTMLFormElement) {
  const cached = formCache.get(form)
  if (cached) return cached
  const entries: Array<[string, string, Element[]]> = []
  const groups = new Map<string, [string, string, Element[]]>()
  const fields = formFields(form)
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!
    const tag = field.localName
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') continue
    const type = inputType(field)
    if (type === 'hidden' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') continue
    const key = fieldKey(field, index)
    if (type === 'radio') {
      const group = groups.get(key) ?? [key, '', []]
      if (!groups.has(key)) {
        groups.set(key, group)
        entries.push(group)
      }
      group[2].push(field)
      if ((field as HTMLInputElement).checked) group[1] = (field as HTMLInputElement).value
      continue
    }
    const value = type === 'checkbox' ? ((field as HTMLInputElement).checked ? 'checked' : 'unchecked') : valueOf(field).full ?? ''
    entries.push([key, type === 'password' ? (value === '0' ? '' : '•••') : value, [field]])
  }
  const forms = Array.from(document.forms)
  const name = shorten(
    attr(form, 'aria-label') || attr(form, 'name') || attr(form, 'id') || (forms.length > 1 ? `form ${forms.indexOf(form) + 1}` : 'form'),
    40,
  )
  // The hash of every "key=value" line joined, taken line by line: a form of thousands of fields made a
  // string of tens of thousands of characters on each observation.
  let state = HASH_START
  entries.forEach(([key, value], i) => {
    state = hashOn(hashOn(hashOn(hashOn(state, i ? '\n' : ''), key), '='), value)
  })
  const summary = { name, entries, digest: hashText(state) }
  formCache.set(form, summary)
  return summary
}
