import type { ChecklistCheck, ChecklistItem, ChecklistItemResult, ChecklistStatus, TraceEntry } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { operationsWhere } from '../operations.ts'
import { bestMatches, nameFit, textShows, urlContains, valueMatches } from './match-names.ts'

// The status of each checklist item, from evidence only: what the newest observation shows and what the
// trace says the agent did. No model, no guess; a few milliseconds for a full observation.
//
// - State items (`field_value`, `checked`, `selected`) are judged on the newest observation when it
//   offers a control of that name: done when one of them holds the value, the checked state or the
//   selected option; open when they hold something else, so a field the page cleared is undone. When
//   the observation offers no such control (the page moved on, e.g. after submitting), the last
//   evidence stands: what was filled in before leaving is not unfilled by leaving. A done item is undone
//   only by the control that proved it: a new page's search box of the same name, empty, is not it.
//   Controls named equally beat controls whose name only contains the wanted one (`bestMatches`).
// - `activated` is an event: done once the trace holds a CLICK, SUBMIT or SELECT on the control that
//   was not stale and changed the page, chosen while every checkable item above it was done (a form
//   sent before it was filled does not count), and never undone. The control being on the page never counts
//   (seed 004: "click X" ended as a success because X was visible). A control whose name only contains
//   the wanted one counts unless the observation the action was chosen on offered one named exactly so.
//   SUBMIT in a field of a form counts for that form's button (Enter sends the form the button would).
// - End-state items (`text_visible`, `url_matches`) are judged on the newest observation only: the
//   viewport's text, the URL. Leaving the page opens them again.
// - `judgment` items are never checked: status `judgment`, never done, never open.

/** Characters of a page-supplied piece (a name, a value, a URL) in an evidence string. */
const EVIDENCE_PART = 60
/** Characters of a URL in an evidence string: a URL says little before its path. */
const URL_PART = 100
/** Characters of an evidence string: one line for a reader or a decision request. */
const EVIDENCE_LIMIT = 120

/** The operations that activate a control; TYPE_TEXT only fills it. */
const ACTIVATING = operationsWhere((spec) => spec.activates)

/** Roles of controls that hold a checked state; a checkbox offered through its label has its role. */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'])

/** Roles of controls that show a chosen option when they are not native selects. */
const CHOOSING_ROLES = new Set(['combobox', 'listbox'])

interface Judged {
  status: ChecklistStatus
  evidence?: string
  /** For a state item: the node ID of the control the evidence is about. */
  node?: string
}

export class ChecklistTracker {
  readonly #items: ChecklistItem[]
  readonly #judged: Judged[]
  /** Trace entries already read for `activated` items. */
  #read = 0
  /** The observation of the previous update: the one the next trace entries were chosen on. */
  #previous: Observation | undefined

  constructor(items: ChecklistItem[]) {
    this.#items = items
    this.#judged = items.map((item) => (item.check.kind === 'judgment' ? { status: 'judgment' } : { status: 'open' }))
  }

  /**
   * Re-evaluates every item against the newest observation and the trace so far; deterministic, a few ms
   * at most. Call it after every observation, with the run's trace (which only grows): the entries added
   * since the last call were chosen on the observation of that call.
   */
  update(observation: Observation, trace: TraceEntry[]): void {
    const step = trace.at(-1)?.step ?? 0
    const fresh = trace.slice(this.#read)
    this.#read = trace.length
    // The statuses the new trace entries were chosen with, for the order rule of `activated`.
    const before = [...this.#judged]
    this.#items.forEach((item, index) => {
      const judged = this.#judged[index]!
      const ready = before.slice(0, index).every((earlier) => earlier.status !== 'open')
      const next = this.#judge(item.check, judged, observation, fresh, step, ready)
      if (next) this.#judged[index] = next
    })
    this.#previous = observation
  }

  /** Each item with its status and evidence, in the checklist's order. */
  results(): ChecklistItemResult[] {
    return this.#items.map((item, index) => {
      const { status, evidence } = this.#judged[index]!
      const result: ChecklistItemResult = { description: item.description, check: item.check, status }
      if (evidence !== undefined) result.evidence = evidence
      return result
    })
  }

  /** Checkable items not done, in order. */
  open(): ChecklistItemResult[] {
    return this.results().filter((item) => item.status === 'open')
  }

  /** True when there is at least one checkable item and every one is done. */
  verified(): boolean {
    const checkable = this.#judged.filter((judged) => judged.status !== 'judgment')
    return checkable.length > 0 && checkable.every((judged) => judged.status === 'done')
  }

  /** The item's new status, or undefined to keep the last one. */
  #judge(check: ChecklistCheck, last: Judged, observation: Observation, fresh: TraceEntry[], step: number, ready: boolean): Judged | undefined {
    switch (check.kind) {
      case 'field_value':
        return keepProof(last, judgeField(check, observation.elements, step), observation)
      case 'checked':
        return keepProof(last, judgeChecked(check, observation.elements, step), observation)
      case 'selected':
        return keepProof(last, judgeSelected(check, observation.elements, step), observation)
      case 'activated':
        return last.status === 'done' ? undefined : judgeActivated(check, fresh, this.#previous, ready)
      case 'text_visible':
        return textShows(observation.text, check.text)
          ? { status: 'done', evidence: evidence(`The page shows ${quote(check.text)}`, step) }
          : { status: 'open' }
      case 'url_matches':
        return urlContains(observation.url, check.contains)
          ? { status: 'done', evidence: evidence(`URL is ${clip(observation.url, URL_PART)}`, step) }
          : { status: 'open', evidence: evidence(`URL is ${clip(observation.url, URL_PART)}`, step) }
      case 'judgment':
        return undefined
    }
  }
}

/**
 * A state item proven on one control is undone only by that control: another control of the same name
 * (the search box of the results page, a new document's form) holding something else leaves the proof.
 */
function keepProof(last: Judged, next: Judged | undefined, observation: Observation): Judged | undefined {
  if (!next || next.status === 'done' || last.status !== 'done' || last.node === undefined) return next
  return observation.elements.some((element) => element.nodeId === last.node) ? next : undefined
}

function judgeField(check: Extract<ChecklistCheck, { kind: 'field_value' }>, elements: ObservedElement[], step: number): Judged | undefined {
  const fields = bestMatches(
    elements.filter((element) => element.value !== undefined),
    (element) => element.name,
    check.field,
  )
  if (fields.length === 0) return undefined
  const holding = fields.find((element) => valueMatches(element.value, check.value))
  const shown = holding ?? fields[0]!
  return {
    status: holding ? 'done' : 'open',
    evidence: evidence(`${named(shown)} holds ${quote(shown.value ?? '')}`, step),
    node: shown.nodeId,
  }
}

function judgeChecked(check: Extract<ChecklistCheck, { kind: 'checked' }>, elements: ObservedElement[], step: number): Judged | undefined {
  const controls = bestMatches(
    elements.filter((element) => CHECKABLE_ROLES.has(element.role) || element.state?.checked !== undefined),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  // 'mixed' is neither checked nor unchecked, so it proves neither.
  const holding = controls.find((element) => (element.state?.checked ?? false) === check.checked)
  const shown = holding ?? controls[0]!
  const state = shown.state?.checked === 'mixed' ? 'partly checked' : shown.state?.checked ? 'checked' : 'not checked'
  return { status: holding ? 'done' : 'open', evidence: evidence(`${named(shown)} is ${state}`, step), node: shown.nodeId }
}

function judgeSelected(check: Extract<ChecklistCheck, { kind: 'selected' }>, elements: ObservedElement[], step: number): Judged | undefined {
  const controls = bestMatches(
    elements.filter((element) => element.options !== undefined || CHOOSING_ROLES.has(element.role)),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  const holding = controls.find((element) => chosen(element).some((label) => valueMatches(label, check.option)))
  const shown = holding ?? controls[0]!
  return {
    status: holding ? 'done' : 'open',
    evidence: evidence(`${named(shown)} shows ${quote(chosen(shown).join(', '))}`, step),
    node: shown.nodeId,
  }
}

/** What a choosing control shows as chosen: a native select's selected options, else its value. */
function chosen(element: ObservedElement): string[] {
  const selected = element.options?.filter((option) => option.selected).map((option) => option.label) ?? []
  if (selected.length > 0) return selected
  return element.value ? [element.value] : []
}

function judgeActivated(
  check: Extract<ChecklistCheck, { kind: 'activated' }>,
  fresh: TraceEntry[],
  chosenOn: Observation | undefined,
  ready: boolean,
): Judged | undefined {
  let tried: TraceEntry | undefined
  for (const entry of fresh) {
    if (entry.stale || !ACTIVATING.has(entry.operation) || entry.targetName === undefined) continue
    if (!activates(entry, check.control, chosenOn)) continue
    // Sending a form before filling it is not the step the checklist asked for.
    if (!ready) return { status: 'open', evidence: evidence(`${entry.operation} ${quote(entry.targetName)} came before the items above it were done`, entry.step) }
    if (entry.pageChanged) {
      return { status: 'done', evidence: evidence(`${entry.operation} ${quote(entry.targetName)} changed the page`, entry.step) }
    }
    tried = entry
  }
  // An action on the control that changed nothing is worth telling: the next try should differ.
  if (tried) return { status: 'open', evidence: evidence(`${tried.operation} ${quote(tried.targetName!)} did not change the page`, tried.step) }
  return undefined
}

/** Whether the entry's action is acting on the wanted control (see the header). */
function activates(entry: TraceEntry, wanted: string, chosenOn: Observation | undefined): boolean {
  const fit = nameFit(entry.targetName!, wanted)
  if (fit === 2) return true
  if (fit === 1 && !chosenOn?.elements.some((element) => nameFit(element.name, wanted) === 2)) return true
  // Enter in a field submits its form as SUBMIT does.
  const submits = entry.operation === 'SUBMIT' || (entry.operation === 'PRESS' && entry.key === 'Enter')
  return submits && submitsFormOf(entry, wanted, chosenOn)
}

/** A SUBMIT (or Enter) in a field whose form holds a button named `wanted`, in the observation it was chosen on. */
function submitsFormOf(entry: TraceEntry, wanted: string, chosenOn: Observation | undefined): boolean {
  const field = elementById(chosenOn, entry.target)
  const form = field?.form?.name
  if (!chosenOn || form === undefined) return false
  return chosenOn.elements.some(
    (element) => element !== field && element.role === 'button' && element.form?.name === form && nameFit(element.name, wanted) > 0,
  )
}

function named(element: ObservedElement): string {
  return element.name ? clip(element.name, EVIDENCE_PART) : `The unnamed ${element.role}`
}

function quote(text: string): string {
  return JSON.stringify(clip(text, EVIDENCE_PART))
}

function evidence(seen: string, step: number): string {
  return clip(`${seen} (step ${step})`, EVIDENCE_LIMIT)
}
