import { attr, inputType } from './dom.ts'
import { callCache } from './layout.ts'
import { valueOf } from './control-state.ts'
import { hash, shorten, textOf } from './text.ts'

// A control's form and the other fields' values, so a decision sees what is already filled in.

export interface FormSummary {
  name: string
  entries: Array<[string, string, Element[]]>
  digest: string
}

const formCache = callCache<Element, FormSummary>()

export function formOf(el: Element): HTMLFormElement | null {
  const own = (el as HTMLInputElement).form
  if (own !== undefined) return own
  return el.closest('form')
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
  Array.from(form.elements).forEach((field, index) => {
    const tag = field.localName
    const type = inputType(field)
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') return
    if (type === 'hidden' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return
    const key = fieldKey(field, index)
    if (type === 'radio') {
      const group = groups.get(key) ?? [key, '', []]
      if (!groups.has(key)) {
        groups.set(key, group)
        entries.push(group)
      }
      group[2].push(field)
      if ((field as HTMLInputElement).checked) group[1] = (field as HTMLInputElement).value
      return
    }
    const value = type === 'checkbox' ? ((field as HTMLInputElement).checked ? 'checked' : 'unchecked') : valueOf(field).full ?? ''
    entries.push([key, type === 'password' ? (value === '0' ? '' : '•••') : value, [field]])
  })
  const forms = Array.from(document.forms)
  const name = shorten(
    attr(form, 'aria-label') || attr(form, 'name') || attr(form, 'id') || (forms.length > 1 ? `form ${forms.indexOf(form) + 1}` : 'form'),
    40,
  )
  const summary = { name, entries, digest: hash(entries.map(([key, value]) => `${key}=${value}`).join('\n')) }
  formCache.set(form, summary)
  return summary
}
