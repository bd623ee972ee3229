import type { ChecklistItem, ChecklistItemResult, ChecklistReport, TraceEntry } from '../../types/index.d.ts'
import type { Decision } from '../decision/decision.ts'
import { ChecklistTracker, type ResolveSecrets } from '../checklist/track-checklist.ts'
import { writeChecklist, type WrittenChecklist } from '../checklist/write-checklist.ts'
import type { Observation } from '../collector/observation.ts'
import type { ChecklistLine } from '../decision/decision.ts'
import { clip } from '../clip.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../base/ledger.ts'

// The goal loop's side of the checklist: where the items come from (the caller, the text model, or
// nowhere), their status after every observation, what the decision request shows of them, and
// whether a DONE may end the run.

/** Characters of an item as a request shows it: the model wrote it, but within the request bound. */
const LINE_LIMIT = 200
/** Characters of the report's note: a sentence and a few item descriptions. */
const NOTE_LIMIT = 600

/**
 * How the decision request shows an item: one the page met before the run is not work left to do (the
 * model must not undo it), and an unmatched one may still turn up on a later page.
 */
function requestStatus(item: ChecklistItemResult): ChecklistLine['status'] {
  if (item.unproven === 'met_at_start' || item.unproven === 'unprompted') return 'done'
  if (item.unproven === 'unmatched') return 'open'
  return item.status
}

/** An item's ID in the requests: its place in the checklist as written, from 1. */
const idOf = (index: number) => `c${index + 1}`
const indexOf = (id: string) => Number(id.slice(1)) - 1

export interface GoalChecklist {
  /** Re-checks every item against the newest observation and the trace. */
  update(observation: Observation, trace: TraceEntry[]): void
  /** The items for the decision request: open first, in order, the next one marked; empty without a checklist. */
  lines(): ChecklistLine[]
  /**
   * What the decision said about the checklist, noted on its trace entry: the judgment item its action
   * serves (bound to the action's target once the input lands and changes the page), an item disputed.
   */
  answer(decision: Pick<Decision, 'serves' | 'dispute'>, entry: TraceEntry): void
  /** Descriptions of the checkable items still open: a DONE now is not verified. */
  open(): string[]
  /** Every item checkable and verified: a judgment item is something the page cannot prove. */
  verified(): boolean
  /** Open items remain, and every one is gone: its control left the page after the run's last input. */
  onlyGone(): boolean
  /** Reports the gone items as such: the run ends on them. */
  concede(): void
  report(): ChecklistReport
}

/**
 * Takes the caller's checklist, asks the text model for one, or has none, as `settings.checklist`
 * says. `stored` is one the text model wrote for the goal before, kept by the replay cache.
 */
export async function startChecklist(input: {
  goal: string
  resolve: ResolveSecrets
  observation: Observation
  settings: Settings
  ledger: Ledger
  stored?: ChecklistItem[] | undefined
}): Promise<GoalChecklist> {
  const { checklist } = input.settings
  if (checklist === false) return tracked(null, 'none')
  const { resolve } = input
  if (Array.isArray(checklist)) return tracked(checklist, 'caller', undefined, resolve)
  if (input.stored) return tracked(input.stored, 'model', undefined, resolve)
  let written: WrittenChecklist
  try {
    written = await writeChecklist(input)
  } catch (error) {
    // The run's own end (abort, closed page) ends it; a text model that fails only costs the checklist.
    if (input.settings.signal?.aborted) throw error
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    return tracked(null, 'none', clip(`The text model failed to write the checklist, so the run went on without one: ${reason}`, NOTE_LIMIT))
  }
  if (written.items === null) return tracked(null, 'none', written.note)
  return tracked(written.items, 'model', undefined, resolve)
}

/** No checklist, and why: the run ended before the one asked for was written. */
export function unwritten(note: string): GoalChecklist {
  return tracked(null, 'none', clip(note, NOTE_LIMIT))
}

function tracked(items: ChecklistItem[] | null, source: ChecklistReport['source'], note?: string, resolve?: ResolveSecrets): GoalChecklist {
  const tracker = items ? new ChecklistTracker(items, resolve) : null
  return {
    update(observation, trace) {
      tracker?.update(observation, trace)
    },
    lines() {
      if (!tracker) return []
      const results = tracker.results().map((item, index) => ({ id: idOf(index), description: item.description, status: requestStatus(item), disputed: item.unproven === 'disputed' }))
      const open = results.filter((item) => item.status === 'open')
      const rest = results.filter((item) => item.status !== 'open')
      return [...open, ...rest].map((item, index) => {
        const line: ChecklistLine = { id: item.id, item: clip(item.description, LINE_LIMIT), status: item.status }
        if (index === 0 && item.status === 'open') line.next = true
        if (item.disputed) line.disputed = true
        return line
      })
    },
    answer(decision, entry) {
      if (!tracker) return
      const items = tracker.results()
      const served = decision.serves === undefined ? undefined : indexOf(decision.serves)
      if (served !== undefined && items[served] && tracker.serve(served, entry)) entry.serves = items[served].description
      const disputed = decision.dispute
      const index = disputed === undefined ? undefined : indexOf(disputed.item)
      if (disputed && index !== undefined && items[index] && tracker.dispute(index, disputed.reason, entry.step)) {
        entry.disputed = { item: items[index].description, reason: disputed.reason }
      }
    },
    open() {
      return tracker ? tracker.open().map((item) => item.description) : []
    },
    verified() {
      if (!tracker) return false
      return tracker.verified() && tracker.results().every((item) => item.status !== 'judgment')
    },
    onlyGone() {
      if (!tracker) return false
      const open = tracker.results().flatMap((item, index) => (item.status === 'open' ? [index] : []))
      return open.length > 0 && open.every((index) => tracker.gone(index))
    },
    concede() {
      tracker?.concede()
    },
    report() {
      const items = tracker?.results() ?? []
      const report: ChecklistReport = { source, items }
      const said = note ?? unverifiedNote(items)
      if (said !== undefined) report.note = said
      return report
    },
  }
}

/** Why items that hold no DONE back still leave the run unverified, or undefined when none does. */
function unverifiedNote(items: ChecklistItemResult[]): string | undefined {
  const listed = (why: ChecklistItemResult['unproven']) =>
    items
      .filter((item) => item.unproven === why)
      .map((item) => `"${item.description}"`)
      .join(', ')
  const parts: string[] = []
  const met = listed('met_at_start')
  if (met) parts.push(`The page showed ${met} before the run acted, so the run did not bring it about: not verified.`)
  const unprompted = listed('unprompted')
  if (unprompted) parts.push(`The page came to show ${unprompted} with no input of the run before it: not verified.`)
  const unmatched = listed('unmatched')
  if (unmatched) parts.push(`No observation offered the control of ${unmatched}, so nothing on the page could check it: not verified.`)
  const gone = listed('gone')
  if (gone) parts.push(`The page took away the control of ${gone} after the run's last input, so it could not be checked: not verified.`)
  const disputed = listed('disputed')
  if (disputed) parts.push(`The decision model disputed ${disputed} as wrong for the page: not verified.`)
  return parts.length > 0 ? clip(parts.join(' '), NOTE_LIMIT) : undefined
}
