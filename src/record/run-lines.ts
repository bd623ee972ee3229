import type { Accuracy, CacheStatus, ChecklistStatus, Cost, DialogRecord, FailureTag, Operation, Timing } from '../../types/index.d.ts'
import type { Rect } from '../base/rect.ts'

// What a run folder's `run.jsonl` holds: one StepLine per decision of a goal (replayed ones included),
// then one ResultLine. The report is built from these lines alone, so `puppeteer-agent report <folder>`
// rebuilds it from the folder. Plain JSON; typed values are already masked when written.

export const RUN_FILE = 'run.jsonl'
export const REPORT_FILE = 'report.html'

/** One option of a decision head: an operation, or a target with its name then. */
export interface HeadOption {
  id: string
  /** For a target: its name (or `page` / the scroll container's name); absent for operations. */
  label?: string
  p: number
}

export interface StepLine {
  kind: 'step'
  /** Decision requests made so far, this one included (for a replayed step, those before it). */
  request: number
  /** Successful actions so far, this one included. */
  step: number
  url: string
  title: string
  operation: Operation
  /** The chosen target: its action ID, name, role, and its box in the screenshot (CSS pixels of the viewport). */
  target?: { id: string; name?: string; role?: string; box?: Rect }
  /** SELECT's option label. */
  option?: string
  /** PRESS's key. */
  key?: string
  /** DRAG's destination: the name of the control dropped on, or the move. */
  to?: string
  /** TYPE_TEXT's value as recorded: masked (`•••••`, one dot per character up to 12) unless values are kept; never a password. */
  text?: string
  /** `true` when the text is masked. */
  masked?: true
  cached?: true
  match?: 'exact' | 'scored'
  /** The top options of each head the step used, most likely first (at most 5). */
  heads: { operation?: HeadOption[]; target?: HeadOption[] }
  confidence?: number
  targetConfidence?: number
  risk?: number
  approved?: boolean
  /** Why the decision was discarded before any input. */
  stale?: string
  pageChanged: boolean
  /** Plain-language notes: stale, no change, dialogs, popups, open checklist items, a URL change. */
  notes: string[]
  dialogs?: DialogRecord[]
  popups?: string[]
  timing: { observeMs?: number; decisionMs: number; textMs?: number; actMs?: number; recordMs?: number }
  /** The model calls of this step (its decision, a typed value's text, the checklist on the first step). */
  cost: Pick<Cost, 'calls' | 'inputTokens' | 'outputTokens' | 'usd'>
  /** The screenshot taken before the action, beside run.jsonl; absent when it could not be taken. */
  screenshot?: string
  /** Size of the viewport the screenshot shows, in CSS pixels. */
  viewport?: { width: number; height: number }
}

export interface ResultLine {
  kind: 'result'
  call: 'goal' | 'extract'
  /** The goal, or the extraction's instruction (absent for rules alone). */
  goal?: string
  status: 'success' | 'error'
  /** The error's message, for a run that failed. */
  reason?: string
  failure?: FailureTag
  steps: number
  decisions: number
  verified?: boolean
  checklist?: { description: string; kind: string; status: ChecklistStatus; evidence?: string }[]
  cost: Cost
  timing: Timing
  accuracy?: Accuracy
  cache?: CacheStatus
  url: string
  title: string
  /** The final page, beside run.jsonl. */
  screenshot?: string
  viewport?: { width: number; height: number }
  /** An extraction's data as JSON, clipped at 20,000 characters. */
  data?: string
  /** An extraction's rules as JSON. */
  rules?: string
  startedAt: string
  endedAt: string
}

export type RunLine = StepLine | ResultLine
