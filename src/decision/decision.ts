import type { ChecklistDispute, Operation, TextEdit } from '../../types/index.d.ts'
import type { PressKey } from '../operations.ts'
import type { RequestImage } from '../vision/request-image.ts'

// The data the decision client hands to the executor and the goal loop.

/** What came of an earlier decision, as the next request is told. */
export interface RecentAction {
  operation: Operation
  target?: string
  /** Name of the target at the time, so the model can read the history without old IDs. */
  targetName?: string
  option?: string
  /** For PRESS: the key. */
  key?: string
  /** For DRAG: the destination's name then, or the move (`right-25`). */
  to?: string
  text?: string
  /** For a TYPE_TEXT that changed part of the value: how; `text` is the new text of that part. */
  edit?: TextEdit
  outcome: 'page_changed' | 'no_change' | 'stale_discarded' | 'refused' | 'dialog' | 'declined' | 'not_verified'
  /** Short detail: the stale check that failed, the dialog text, the URL it led to, what a scroll brought into view. */
  detail?: string
  /** The note the model wrote with this decision (scrubbed): model text, never evidence. */
  note?: string
}

/** One checklist item as the decision request shows it. */
export interface ChecklistLine {
  /** Stable through the run (`c1` is the first item written), for the serves and dispute answers. */
  id: string
  item: string
  status: 'open' | 'done' | 'judgment'
  /** The first open item: what to do next. */
  next?: true
  /** A judgment the model disputed: it cannot be served. */
  disputed?: true
}

export interface Decision {
  operation: Operation
  /** Snapshot action ID (element or scroll container) when the operation has a target. */
  target?: string
  /** For SELECT: the option ID within the target. */
  option?: string
  /** For PRESS: the key, one of PRESS_KEYS. */
  key?: PressKey
  /** For DRAG: the snapshot action ID of the element to drop on, or one of DRAG_MOVES. */
  to?: string
  /** Probability of the chosen operation; absent when the text model decides. */
  confidence?: number
  probabilities?: Record<string, number>
  /** Probability of the chosen target; absent without a target or when the text model decides. */
  targetConfidence?: number
  targetProbabilities?: Record<string, number>
  /**
   * Probability that the chosen action is risky (payment, purchase, deletion, sending), for actions on an
   * element. From the text model 1 or 0, and 1 when its reply did not rate the action.
   */
  risk?: number
  /** The ID of the judgment checklist item the model said this action carries out (a ChecklistLine's `id`). */
  serves?: string
  /** An open checklist item the model said is wrong for the page, and why. */
  dispute?: { item: string; reason: ChecklistDispute }
  /** With `decisions: false`: what the model wrote down to remember, at most `REQUEST_LIMITS.note` characters. */
  note?: string
  /** The model request plus building and checking it (the image included). */
  decisionMs: number
  /** With `vision`: the badged screenshot the request carried. */
  image?: RequestImage
}
