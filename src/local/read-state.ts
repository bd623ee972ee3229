import type { Experimental_DecisionModelV4State } from '@ai-sdk/provider'
import { POSITIONAL } from '../collector/positional-names.ts'

// Reads the decision state leniently: the goal loop sends `{ goal, checklist, page, elements, recent_actions }`,
// the evaluator something close to it, and a caller may send anything. Missing parts stay empty.

export interface LocalElement {
  id: string
  /** The accessible name, as recent actions refer to it. */
  name: string
  /** Label-like text: name, text, placeholder, value. */
  primary: string
  /** Everything else said about the element (role, nearby text, form, a name by its place). */
  secondary: string
  typeable: boolean
  value: string
  options: { id: string; text: string }[]
}

export interface LocalAction {
  operation: string
  target?: string
  targetName?: string
  text?: string
  outcome?: string
}

export interface LocalState {
  goal: string
  /** Title, URL and visible text of the page. */
  pageText: string
  elements: Map<string, LocalElement>
  actions: LocalAction[]
  /** Checklist items not done yet, in order (the next one first); empty without a checklist. */
  openItems: string[]
}

type Json = Record<string, unknown>

const PRIMARY_KEYS = ['name', 'label', 'text', 'title', 'placeholder', 'value', 'alt']
const TYPEABLE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton'])

export function readState(state: Experimental_DecisionModelV4State): LocalState {
  const record: Json = {}
  const freeText: string[] = []
  for (const part of state) {
    if (part.type === 'json') mergeObject(record, part.value)
    else if (part.type === 'text') {
      const parsed = parseJson(part.text)
      if (isObject(parsed)) mergeObject(record, parsed)
      else freeText.push(part.text)
    }
  }
  const page = record.page
  const goal = str(record.goal) ?? str(record.task) ?? goalLine(freeText.join('\n')) ?? ''
  const pageText = [isObject(page) ? flatText(page) : str(page), flatText(record.text ?? ''), ...freeText].filter(Boolean).join('\n')
  const elementList = pickList(record, ['elements', 'controls', 'fields']) ?? (isObject(page) ? pickList(page, ['elements', 'controls']) : undefined)
  const elements = new Map<string, LocalElement>()
  for (const element of elementList ?? []) {
    const read = readElement(element)
    if (read) elements.set(read.id, read)
  }
  const actionList = pickList(record, ['recent_actions', 'recentActions', 'actions', 'actions_taken', 'history']) ?? []
  const openItems = (Array.isArray(record.checklist) ? record.checklist : []).flatMap((line) =>
    isObject(line) && line.status === 'open' && str(line.item) ? [str(line.item) as string] : [],
  )
  return { goal, pageText, elements, actions: actionList.flatMap(readAction), openItems }
}

function readElement(value: unknown): LocalElement | undefined {
  if (!isObject(value)) return undefined
  const id = str(value.id) ?? str(value.action_id) ?? str(value.actionId)
  if (!id) return undefined
  // A name made of the control's kind and place is not a label the page shows: it says what the role says.
  const labels = value.name_from === POSITIONAL ? PRIMARY_KEYS.filter((key) => key !== 'name') : PRIMARY_KEYS
  const primary = labels.map((key) => str(value[key])).filter(Boolean).join(' ')
  const rest = Object.entries(value)
    .filter(([key]) => key !== 'id' && key !== 'options' && !labels.includes(key))
    .map(([, field]) => flatText(field))
    .join(' ')
  const role = (str(value.role) ?? '').toLowerCase()
  const tag = (str(value.tag) ?? '').toLowerCase()
  const operations = Array.isArray(value.operations) ? value.operations.map(String) : []
  const typeable =
    TYPEABLE_ROLES.has(role) || operations.some((op) => /^type/i.test(op)) || tag === 'textarea' || (tag === 'input' && !/button|submit|checkbox|radio/.test(str(value.type) ?? ''))
  const options = (Array.isArray(value.options) ? value.options : []).flatMap((option) =>
    isObject(option) && str(option.id) ? [{ id: str(option.id) as string, text: [str(option.label), str(option.value)].filter(Boolean).join(' ') }] : [],
  )
  return { id, name: str(value.name) ?? str(value.label) ?? '', primary, secondary: rest, typeable, value: str(value.value) ?? '', options }
}

function readAction(value: unknown): LocalAction[] {
  if (!isObject(value)) return []
  const operation = str(value.operation) ?? str(value.op) ?? str(value.action)
  if (!operation) return []
  return [
    {
      operation: operation.toUpperCase(),
      target: str(value.target),
      targetName: str(value.targetName) ?? str(value.target_name) ?? str(value.name),
      text: str(value.text) ?? str(value.value),
      outcome: str(value.outcome) ?? str(value.result) ?? changedFlag(value.page_changed ?? value.pageChanged),
    },
  ]
}

// The evaluator states actions as `page_changed: true/false` rather than an outcome.
function changedFlag(value: unknown): string | undefined {
  if (typeof value !== 'boolean') return undefined
  return value ? 'page_changed' : 'no_change'
}

function goalLine(text: string): string | undefined {
  return /^\s*goal\s*:\s*(.+)$/im.exec(text)?.[1]?.trim()
}

function mergeObject(target: Json, value: unknown): void {
  if (isObject(value)) Object.assign(target, value)
}

function pickList(record: Json, keys: string[]): unknown[] | undefined {
  for (const key of keys) {
    const value = record[key]
    if (Array.isArray(value)) return value
    // A map keyed by action ID, e.g. { e1: {...} }.
    if (isObject(value)) return Object.entries(value).map(([id, element]) => (isObject(element) ? { id, ...element } : { id, name: flatText(element) }))
  }
  return undefined
}

/** Every string and number inside a value, space-separated. */
export function flatText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (depth > 4 || value === null || typeof value !== 'object') return ''
  const parts = Array.isArray(value) ? value : Object.values(value)
  return parts.map((part) => flatText(part, depth + 1)).filter(Boolean).join(' ')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}
