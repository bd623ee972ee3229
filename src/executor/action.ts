import type { ElementHandle, Frame, Page } from 'puppeteer-core'
import type { Freshness, FreshnessOptions } from '../collector/check-freshness.ts'
import type { ObservedElement, Snapshot } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import type { InputResult } from './guarded-input.ts'
import type { TextEdit } from '../../types/index.d.ts'

// What the executor is given for one decision and what it reports back; every operation's module
// reads and returns these.

/** The collector's freshness guard: is the target still the node, state and place the decision saw? */
export type CheckFreshness = (snapshot: Snapshot, actionId: string, options?: FreshnessOptions) => Promise<Freshness>

export interface ActionInput {
  page: Page
  snapshot: Snapshot
  decision: Decision
  /** The observed target, for operations on an element. */
  element?: ObservedElement
  /** The value to write, for TYPE_TEXT; with `edit`, the text of the part edited. */
  text?: string
  /** For a TYPE_TEXT that changes part of the field's value. */
  edit?: TextEdit
  waitMs: number
  signal?: AbortSignal
  checkFreshness: CheckFreshness
}

/**
 * `acted` with the frames the input went to, for TYPE_TEXT `password` when the field was a password
 * one as it was typed into, `inputAt` when the input was delivered before the action returned, and
 * `target`, the element the input went to, for settling; or, before any input, the reason the target
 * failed a freshness check (`stale`) or the action could not be done as asked (`refused`: an edit's
 * quoted passage not in the field exactly once); or, after it, what the input reached instead of the target (`redirected`).
 */
export type ActionOutcome =
  | { acted: true; frames: Frame[]; password?: true; inputAt?: number; target?: ElementHandle<Element> }
  | { acted: false; stale: string }
  | { acted: false; refused: string }
  | { acted: false; redirected: string }

/** An input's result as the action's outcome, with the frame the input went to. */
export function outcomeOf(result: InputResult, handle: ElementHandle<Element>): ActionOutcome {
  if (result.done) return result.at === undefined ? { acted: true, frames: [handle.frame], target: handle } : { acted: true, frames: [handle.frame], inputAt: result.at, target: handle }
  return 'stale' in result ? { acted: false, stale: result.stale } : { acted: false, redirected: result.redirected }
}
