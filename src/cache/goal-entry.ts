import { z } from 'zod'
import type { ChecklistItem } from '../../types/index.d.ts'
import type { Rect } from '../base/rect.ts'
import { MAX_CHECKLIST_ITEMS, parseCallerChecklist } from '../checklist/checklist-schema.ts'
import { LIMITS } from '../collector/limits.ts'
import { MAX_TEXT_LENGTH } from '../decision/write-text.ts'
import { DRAG_MOVES, OPERATIONS, PRESS_KEYS, specOf, type PageOperation, type PressKey } from '../operations.ts'

// What a goal's cache entry holds: the path of a run that succeeded, step by step, in terms that
// outlive one page load (roles, names, nearby text; never snapshot IDs), so a later run on a page of
// the same template can find each target again. Plain JSON a person can read.

export const GOAL_ENTRY_VERSION = 1

/** An element as the run that recorded it observed it. */
export interface RecordedTarget {
  role: string
  name: string
  tag: string
  type?: string
  /** The name of the form it belongs to. */
  form?: string
  nearby?: string
  /** The shape of its frame's URL; '' for the top document. */
  frame: string
  /**
   * What the freshness check compared (src/collector/observation.ts `fingerprint`). Absent with
   * `typedValues: false`: it holds hashes of the control's value and its form's values.
   */
  fingerprint?: string
  /** Its place among the elements with the same role, name, tag, type, form and frame, for repeated controls. */
  ordinal: number
  /** Where it was in the viewport then: the last tie-breaker of a scored match. */
  rect: Rect
}

export interface RecordedStep {
  operation: PageOperation
  target?: RecordedTarget
  /** For SCROLL_*: `page`, or the name of the scrolled container. */
  scroll?: string
  /** For SELECT: the option's label. */
  option?: string
  /** For PRESS: the key; `onFocus` when it went to whatever held focus rather than to a target. */
  key?: PressKey
  onFocus?: true
  /** For DRAG: the control it was dropped on, or the move (`right-25`). */
  to?: RecordedTarget | string
  /** For TYPE_TEXT: the value typed, unless values are not kept (then the text model writes it again). */
  text?: string
  /** The model's risk rating: a risky step asks `approve` again at replay. */
  risk?: number
  /** The page the step acted on: the shape of its URL, and its title for a reader. */
  page: { shape: string; title: string }
}

export interface GoalEntry {
  version: typeof GOAL_ENTRY_VERSION
  kind: 'goal'
  /** The goal, for a reader; absent with `typedValues: false` (a goal may carry a value), where the key alone names it. */
  goal?: string
  /** The shape of the start page's URL. */
  page: string
  steps: RecordedStep[]
  /** The checklist the text model wrote for the goal, so a replay does not ask again. */
  checklist?: ChecklistItem[]
  savedAt: string
}

const PAGE_OPERATIONS = Object.entries(OPERATIONS)
  .filter(([, spec]) => !spec.ends)
  .map(([name]) => name) as [PageOperation, ...PageOperation[]]

/**
 * Characters of each string an entry holds. A person or a program can edit a stored entry, so it is
 * read like a model's answer: every string and list has a bound, checked before anything walks it
 * (a 20 MB name matched word by word held the event loop for seconds). Each bound is what the run that
 * wrote it can record (the collector's bounds, src/collector/limits.ts, and the text model's), with
 * room for a secret's placeholder in page text; an entry past one is refused whole.
 */
export const ENTRY_BOUNDS = {
  /** A name, nearby text, form name, option label or scroll container's name: the collector keeps at most 80. */
  label: 200,
  /** A role, tag or input type: words of the page's markup. */
  word: 100,
  /** Seven hashes and their dots. */
  fingerprint: 100,
  title: LIMITS.titleLimit + 200,
  /** A URL's shape: at most the clipped URL, with `:id` for short segments. */
  shape: 2 * LIMITS.urlLimit,
  /** A TYPE_TEXT value: what the text model may write. */
  text: MAX_TEXT_LENGTH,
  /** The caller's goal: longer ones are run, not stored. */
  goal: 10_000,
  savedAt: 40,
  /** Elements offered per observation: a place among equals past it was never observed. */
  ordinal: LIMITS.maxElements,
} as const

const bounded = (max: number) => z.string().max(max, `must be at most ${max.toLocaleString('en')} characters`)

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })

const recordedTarget = z.object({
  role: bounded(ENTRY_BOUNDS.word),
  name: bounded(ENTRY_BOUNDS.label),
  tag: bounded(ENTRY_BOUNDS.word),
  type: bounded(ENTRY_BOUNDS.word).optional(),
  form: bounded(ENTRY_BOUNDS.label).optional(),
  nearby: bounded(ENTRY_BOUNDS.label).optional(),
  frame: bounded(ENTRY_BOUNDS.shape),
  fingerprint: bounded(ENTRY_BOUNDS.fingerprint).optional(),
  ordinal: z.number().int().nonnegative().max(ENTRY_BOUNDS.ordinal),
  rect,
})

const recordedStep = z.object({
  operation: z.enum(PAGE_OPERATIONS),
  target: recordedTarget.optional(),
  scroll: bounded(ENTRY_BOUNDS.label).optional(),
  option: bounded(ENTRY_BOUNDS.label).optional(),
  key: z.enum(PRESS_KEYS as [string, ...string[]]).optional(),
  onFocus: z.literal(true).optional(),
  to: z.union([z.enum(DRAG_MOVES as [string, ...string[]]), recordedTarget]).optional(),
  text: bounded(ENTRY_BOUNDS.text).optional(),
  risk: z.number().min(0).max(1).optional(),
  page: z.object({ shape: bounded(ENTRY_BOUNDS.shape), title: bounded(ENTRY_BOUNDS.title) }),
})

/** Steps an entry may hold: a run longer than the step budget's default is not a path worth replaying. */
export const MAX_RECORDED_STEPS = 60

const goalEntry = z.object({
  version: z.literal(GOAL_ENTRY_VERSION),
  kind: z.literal('goal'),
  goal: bounded(ENTRY_BOUNDS.goal).optional(),
  page: bounded(ENTRY_BOUNDS.shape),
  steps: z.array(recordedStep).min(1).max(MAX_RECORDED_STEPS, `must hold at most ${MAX_RECORDED_STEPS} steps`),
  // Its items are checked as the caller's checklist would be; the count first, before any item is read.
  checklist: z.array(z.unknown()).max(MAX_CHECKLIST_ITEMS, `must hold at most ${MAX_CHECKLIST_ITEMS} items`).optional(),
  savedAt: bounded(ENTRY_BOUNDS.savedAt),
})

/**
 * A stored value as a goal entry for `goal`, or why it is not one. An element step without a target,
 * or a checklist that would not pass as the caller's, makes the whole entry unusable: it was not
 * written by this library, or not by this version.
 */
export function parseGoalEntry(value: unknown, goal: string): { entry: GoalEntry } | { invalid: string } {
  const parsed = goalEntry.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const found = issue?.code === 'too_big' ? sizeAt(value, issue.path) : ''
    return { invalid: `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}${found}` }
  }
  const entry = parsed.data as GoalEntry
  // Without a goal the entry was written with typedValues: false; its key is the goal's digest.
  if (entry.goal !== undefined && entry.goal !== goal) return { invalid: 'the entry was written for another goal' }
  for (const [index, step] of entry.steps.entries()) {
    const kind = OPERATIONS[step.operation].target.kind
    if (kind === 'element' && !step.target && !step.onFocus) return { invalid: `steps.${index}: ${step.operation} without a target` }
    const detail = specOf(step.operation).detail?.kind
    if (detail === 'key' && step.key === undefined) return { invalid: `steps.${index}: ${step.operation} without a key` }
    if (detail === 'destination' && step.to === undefined) return { invalid: `steps.${index}: ${step.operation} without a destination` }
    if (kind === 'scroll' && step.scroll === undefined) return { invalid: `steps.${index}: ${step.operation} without a scroll target` }
    if (step.operation === 'SELECT' && step.option === undefined) return { invalid: `steps.${index}: SELECT without an option` }
  }
  if (parsed.data.checklist !== undefined) {
    try {
      entry.checklist = parseCallerChecklist(parsed.data.checklist, 'the cache entry')
    } catch (error) {
      return { invalid: error instanceof Error ? error.message : String(error) }
    }
  }
  return { entry }
}

/** ` (got 20,971,520 characters)` for a string or list at `path` of `root`; '' for anything else. */
function sizeAt(root: unknown, path: readonly PropertyKey[]): string {
  let value = root
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined
  if (typeof value === 'string') return ` (got ${value.length.toLocaleString('en')} characters)`
  if (Array.isArray(value)) return ` (got ${value.length.toLocaleString('en')} items)`
  return ''
}
