import type { ChecklistReport } from '../../types/index.d.ts'
import type { Writer } from './checklist-model.ts'

/** One run of one case: one JSON line of `npm run bench:outcome`. */
export interface OutcomeRecord {
  /** The case's number (`05`), as `--cases` names it. */
  case: string
  page: string
  /** 1-based repetition of the case. */
  run: number
  writer: Writer
  /** What the agent reported; `no_result` when the goal gave none (the page did not load, the goal did not return in time). */
  status: 'success' | 'error' | 'no_result'
  /** The failure tag of a run that did not succeed. */
  failure?: string
  /** The error's message, or why there is no result. */
  error?: string
  /** The agent's own `verified`. */
  verified: boolean
  /** The case's own check: the page shows its done text at the end (false when there is no result). */
  check: boolean
  /** The checklist as it stood at the end, each item with its status, `unproven` and evidence. */
  checklist?: ChecklistReport
  steps: number
  /** The operations taken, e.g. `CLICK "Save" > DONE`. */
  path?: string
  /** Why the oracle answered BLOCKED, when it did: the bench's script could not be played. */
  blocked?: string
  ms: number
}
