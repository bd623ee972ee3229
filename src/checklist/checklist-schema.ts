import { z } from 'zod'
import type { ChecklistItem } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { UsageError } from '../errors.ts'

// The shape of a checklist, whoever wrote it: the text model (its reply) or the caller (the
// `checklist` option), and of the prompt it is written from. Kinds and typed arguments only: nothing here is a selector or code, and an item
// with any other property is refused. The reply schema is sent to providers as JSON Schema, so it holds
// only what JSON Schema can say (no transforms, no custom types).

/**
 * Items per checklist. Every item travels in every decision request, and a goal an agent can finish
 * is a handful of sub-goals: seed 004's checklists were two to five. More than this means the writer is
 * listing clicks rather than sub-goals.
 */
export const MAX_CHECKLIST_ITEMS = 8

/** Characters of a description, a name, a value or a text: a label or a sentence, never a page. */
export const MAX_CHECKLIST_TEXT = 200

/** A string that says something: trimmed, not empty, bounded. */
const words = z
  .string({ error: 'expected a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_CHECKLIST_TEXT, `must be at most ${MAX_CHECKLIST_TEXT} characters`)

const CHECKS = [
  z.strictObject({ kind: z.literal('field_value'), field: words, value: words }),
  z.strictObject({ kind: z.literal('checked'), control: words, checked: z.boolean({ error: 'expected true or false' }) }),
  z.strictObject({ kind: z.literal('selected'), control: words, option: words }),
  z.strictObject({ kind: z.literal('activated'), control: words }),
  z.strictObject({ kind: z.literal('text_visible'), text: words }),
  z.strictObject({ kind: z.literal('url_matches'), contains: words }),
  z.strictObject({ kind: z.literal('judgment') }),
] as const

const KINDS = CHECKS.map((check) => check.shape.kind.value)

function itemsOf(check: z.ZodType<ChecklistItem['check']>) {
  return z
    .array(z.strictObject({ description: words, check }), { error: 'expected a list of checklist items' })
    .min(1, 'must hold at least one item')
    .max(MAX_CHECKLIST_ITEMS, `must hold at most ${MAX_CHECKLIST_ITEMS} items`)
}

/**
 * The text model's reply: `{ "items": [...] }`. A plain union: JSON Schema gets `anyOf`, which strict
 * structured-output modes accept, where zod writes a discriminated union as `oneOf`, which OpenAI's
 * strict mode refuses.
 */
export const checklistReplySchema = z.strictObject({ items: itemsOf(z.union(CHECKS)) })

// The caller's list gets a discriminated union: the same checks, with an error that names the kinds.
const callerItemsSchema = itemsOf(z.discriminatedUnion('kind', CHECKS, { error: `expected kind to be one of ${KINDS.join(', ')}` }))

/**
 * Checks a checklist the caller passed as the `checklist` option and returns it trimmed. Throws a
 * UsageError naming `where`, the item and field at fault, what was wrong and the value found, e.g.
 * `goal options: checklist[2].check.kind: expected kind to be one of … (got "click")`.
 */
export function parseCallerChecklist(value: unknown, where: string): ChecklistItem[] {
  const result = callerItemsSchema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const at = `checklist${issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`
  // An unknown property's message names it already; any other names the value found.
  const found = issue.code === 'unrecognized_keys' ? '' : ` (got ${shown(valueAt(value, issue.path))})`
  throw new UsageError(`${where}: ${at}: ${issue.message}${found}`)
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined
  return value
}

/** A short rendering of a value for an error message: a caller may pass anything, of any size. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (typeof value === 'function') return 'a function'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return clip(text, 80)
}

/** A control as the checklist writer reads it: enough to name it and see what it holds, nothing to act on. */
export type PromptControl = {
  role: string
  name: string
  /** Where a name the page does not give came from (`ObservedElement.nameFrom`): `position` is its kind and place. */
  name_from?: 'layout' | 'icon' | 'position'
  type?: string
  /** What it holds at the start, clipped. */
  value?: string
  options?: string[]
}

/** What the text model reads; the offline writer reads the same. */
export type ChecklistPrompt = {
  goal: string
  /** `text`: the start of the page's visible text, clipped. */
  page: { url: string; title: string; text: string }
  controls: PromptControl[]
  /** Controls of the observation not listed. */
  controls_left_out?: number
}
