import type { ChecklistItem, ChecklistReport, TraceEntry } from '../../types/index.d.ts'
import { ChecklistTracker } from '../checklist/track-checklist.ts'
import { writeChecklist } from '../checklist/write-checklist.ts'
import type { Observation } from '../collector/observation.ts'
import type { ChecklistLine } from '../decision/decision.ts'
import { clip } from '../clip.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../profiling/ledger.ts'

// The goal loop's side of the checklist: where the items come from (the caller, the text model, or
// nowhere), their status after every observation, what the decision request shows of them, and
// whether a DONE may end the run.

/** Characters of an item as a request shows it: the model wrote it, but within the request bound. */
const LINE_LIMIT = 200

export interface GoalChecklist {
  /** Re-checks every item against the newest observation and the trace. */
  update(observation: Observation, trace: TraceEntry[]): void
  /** The items for the decision request: open first, in order, the next one marked; empty without a checklist. */
  lines(): ChecklistLine[]
  /** Descriptions of the checkable items still open: a DONE now is not verified. */
  open(): string[]
  /** Every item checkable and verified: a judgment item is something the page cannot prove. */
  verified(): boolean
  report(): ChecklistReport
}

/**
 * Takes the caller's checklist, asks the text model for one, or has none, as `settings.checklist`
 * says. `stored` is one the text model wrote for the goal before, kept by the replay cache.
 */
export async function startChecklist(input: {
  goal: string
  observation: Observation
  settings: Settings
  ledger: Ledger
  stored?: ChecklistItem[] | undefined
}): Promise<GoalChecklist> {
  const { checklist } = input.settings
  if (checklist === false) return tracked(null, 'none')
  if (Array.isArray(checklist)) return tracked(checklist, 'caller')
  if (input.stored) return tracked(input.stored, 'model')
  const written = await writeChecklist(input)
  if (written.items === null) return tracked(null, 'none', written.note)
  return tracked(written.items, 'model')
}

function tracked(items: ChecklistItem[] | null, source: ChecklistReport['source'], note?: string): GoalChecklist {
  const tracker = items ? new ChecklistTracker(items) : null
  return {
    update(observation, trace) {
      tracker?.update(observation, trace)
    },
    lines() {
      if (!tracker) return []
      const results = tracker.results()
      const open = results.filter((item) => item.status === 'open')
      const rest = results.filter((item) => item.status !== 'open')
      return [...open, ...rest].map((item, index) => {
        const line: ChecklistLine = { item: clip(item.description, LINE_LIMIT), status: item.status }
        if (index === 0 && item.status === 'open') line.next = true
        return line
      })
    },
    open() {
      return tracker ? tracker.open().map((item) => item.description) : []
    },
    verified() {
      if (!tracker) return false
      return tracker.verified() && tracker.results().every((item) => item.status !== 'judgment')
    },
    report() {
      const report: ChecklistReport = { source, items: tracker?.results() ?? [] }
      if (note !== undefined) report.note = note
      return report
    },
  }
}
