import { z } from 'zod'
import type { ChecklistItem } from '../../types/index.d.ts'
import { parseCallerChecklist } from '../checklist/checklist-schema.ts'
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
  /** What the freshness check compared (src/collector/observation.ts `fingerprint`). */
  fingerprint: string
  /** Its place among the elements with the same role, name, tag, type, form and frame, for repeated controls. */
  ordinal: number
  /** Where it was in the viewport then: the last tie-breaker of a scored match. */
  rect: { x: number; y: number; width: number; height: number }
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
  goal: string
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

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })

const recordedTarget = z.object({
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  type: z.string().optional(),
  form: z.string().optional(),
  nearby: z.string().optional(),
  frame: z.string(),
  fingerprint: z.string(),
  ordinal: z.number().int().nonnegative(),
  rect,
})

const recordedStep = z.object({
  operation: z.enum(PAGE_OPERATIONS),
  target: recordedTarget.optional(),
  scroll: z.string().optional(),
  option: z.string().optional(),
  key: z.enum(PRESS_KEYS).optional(),
  onFocus: z.literal(true).optional(),
  to: z.union([z.enum(DRAG_MOVES as [string, ...string[]]), recordedTarget]).optional(),
  text: z.string().optional(),
  risk: z.number().min(0).max(1).optional(),
  page: z.object({ shape: z.string(), title: z.string() }),
})

/** Steps an entry may hold: a run longer than the step budget's default is not a path worth replaying. */
const MAX_RECORDED_STEPS = 60

const goalEntry = z.object({
  version: z.literal(GOAL_ENTRY_VERSION),
  kind: z.literal('goal'),
  goal: z.string(),
  page: z.string(),
  steps: z.array(recordedStep).min(1).max(MAX_RECORDED_STEPS),
  checklist: z.unknown().optional(),
  savedAt: z.string(),
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
    return { invalid: `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}` }
  }
  const entry = parsed.data as GoalEntry
  if (entry.goal !== goal) return { invalid: 'the entry was written for another goal' }
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
