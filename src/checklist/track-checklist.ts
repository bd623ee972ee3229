import type { ChecklistCheck, ChecklistItem, ChecklistItemResult, ChecklistStatus, TraceEntry } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { operationsWhere } from '../operations.ts'
import { bestMatches, nameFit, textShows, urlShows, valueMatches } from './match-names.ts'
import { StartEvidence } from './start-evidence.ts'

// The status of each checklist item, from evidence only: what the newest observation shows and what the
// trace says the agent did. No model, no guess; a few milliseconds for a full observation.
//
// Evidence is what the run brought about: the first observation is the start, and what it already
// shows (a field the page filled in, a "Thank you" in a testimonial, the URL the run began on) proves
// nothing; such an item is `met_at_start`, reported as a judgment: it holds DONE back no more than one does.
//
// - State items (`field_value`, `checked`, `selected`) are judged on the newest observation when it
//   offers a control of that name: done when one of them holds the value, the checked state or the
//   selected option, and got there after the start (it held something else since, or the agent put
//   input into it); open when they hold something else, so a field the page cleared is undone. When
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
//   viewport's visible text (text the start showed does not count), the URL without its query and
//   fragment unless the item names them (and not the URL the run started on). Leaving the page opens them again.
// - An item naming a control (state items, `activated`) whose control no observation ever offered is
//   `unmatched`: the page may leave it unnamed, so it proves nothing either way and is reported as a
//   judgment, which does not hold DONE back.
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

/** Kinds whose item names a control the page must offer. */
const NAMES_CONTROL = new Set<ChecklistCheck['kind']>(['field_value', 'checked', 'selected', 'activated'])

interface Judged {
  /** `met_at_start` is reported as a judgment (see `unproven`), and so is an open item whose control never appeared. */
  status: ChecklistStatus | 'met_at_start'
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
  readonly #start = new StartEvidence()
  /** Per item: an observation offered its control (always true for items that name none). */
  readonly #matched: boolean[]

  constructor(items: ChecklistItem[]) {
    this.#items = items
    this.#judged = items.map((item) => (item.check.kind === 'judgment' ? { status: 'judgment' } : { status: 'open' }))
    this.#matched = items.map((item) => !NAMES_CONTROL.has(item.check.kind))
  }

  /**
   * Re-evaluates every item against the newest observation and the trace so far; deterministic, a few ms
   * at most. Call it after every observation, with the run's trace (which only grows): the entries added
   * since the last call were chosen on the observation of that call. The first call's observation is
   * the start: what it shows is not the run's doing.
   */
  update(observation: Observation, trace: TraceEntry[]): void {
    const step = trace.at(-1)?.step ?? 0
    const fresh = trace.slice(this.#read)
    this.#read = trace.length
    const atStart = !this.#start.started
    this.#start.start(observation)
    this.#start.acted(fresh, this.#previous)
    // The statuses the new trace entries were chosen with, for the order rule of `activated`.
    const blocking = this.#items.map((_, index) => this.#blocks(index))
    this.#items.forEach((item, index) => {
      const judged = this.#judged[index]!
      const ready = !blocking.slice(0, index).includes(true)
      const next = this.#judge(index, item.check, judged, observation, fresh, step, ready, atStart)
      if (next) this.#judged[index] = next
      if (item.check.kind === 'activated' && !this.#matched[index]) {
        const wanted = item.check.control
        this.#matched[index] = observation.elements.some((element) => nameFit(element.name, wanted) > 0)
      }
    })
    this.#previous = observation
  }

  /** Each item with its status and evidence, in the checklist's order. */
  results(): ChecklistItemResult[] {
    return this.#items.map((item, index) => {
      const { status, evidence } = this.#judged[index]!
      const unproven = status === 'met_at_start' ? 'met_at_start' : status === 'open' && !this.#matched[index] ? 'unmatched' : undefined
      const result: ChecklistItemResult = { description: item.description, check: item.check, status: unproven ? 'judgment' : (status as ChecklistStatus) }
      const shown = unproven === 'unmatched' ? clip(`No observation offered a control named ${quote(controlOf(item.check))}`, EVIDENCE_LIMIT) : evidence
      if (shown !== undefined) result.evidence = shown
      if (unproven) result.unproven = unproven
      return result
    })
  }

  /** Whether the item is open on the page: checkable, its control seen, and not done. */
  #blocks(index: number): boolean {
    return this.#judged[index]!.status === 'open' && this.#matched[index]!
  }

  /** Checkable items not done, in order. */
  open(): ChecklistItemResult[] {
    return this.results().filter((item) => item.status === 'open')
  }

  /** True when there is at least one checkable item and every one is done (`met_at_start` and `unmatched` ones are not). */
  verified(): boolean {
    const checkable = this.#judged.filter((judged) => judged.status !== 'judgment')
    return checkable.length > 0 && checkable.every((judged) => judged.status === 'done')
  }

  /** The item's new status, or undefined to keep the last one. */
  #judge(
    index: number,
    check: ChecklistCheck,
    last: Judged,
    observation: Observation,
    fresh: TraceEntry[],
    step: number,
    ready: boolean,
    atStart: boolean,
  ): Judged | undefined {
    const state = (controls: StateControls | undefined) => keepProof(last, controls && this.#judgeState(index, controls, step, atStart), observation)
    switch (check.kind) {
      case 'field_value':
        return state(fieldControls(check, observation.elements))
      case 'checked':
        return state(checkedControls(check, observation.elements))
      case 'selected':
        return state(selectedControls(check, observation.elements))
      case 'activated':
        return last.status === 'done' ? undefined : judgeActivated(check, fresh, this.#previous, ready)
      case 'text_visible': {
        if (!textShows(observation.text, check.text)) return { status: 'open' }
        const shown = `The page shows ${quote(check.text)}`
        return this.#start.showedAtStart((start) => textShows(start.text, check.text))
          ? { status: 'met_at_start', evidence: evidence(`Already so at the start: ${shown}`, step) }
          : { status: 'done', evidence: evidence(shown, step) }
      }
      case 'url_matches': {
        const url = `URL is ${clip(observation.url, URL_PART)}`
        if (!urlShows(observation.url, check.contains)) return { status: 'open', evidence: evidence(url, step) }
        return this.#start.sameUrl(observation.url)
          ? { status: 'met_at_start', evidence: evidence(`Already so at the start: ${url}`, step) }
          : { status: 'done', evidence: evidence(url, step) }
      }
      case 'judgment':
        return undefined
    }
  }

  /** Done on a control that holds the state and got there in the run; `met_at_start` on one that held it all along. */
  #judgeState(index: number, { controls, holds, describe }: StateControls, step: number, atStart: boolean): Judged {
    for (const control of controls) this.#start.note(index, control.nodeId, holds(control), atStart)
    this.#matched[index] = true
    const holding = controls.filter(holds)
    const proof = holding.find((control) => this.#start.earned(index, control.nodeId))
    if (proof) return { status: 'done', evidence: evidence(describe(proof), step), node: proof.nodeId }
    const shown = holding[0] ?? controls[0]!
    if (holding.length > 0) return { status: 'met_at_start', evidence: evidence(`Already so at the start: ${describe(shown)}`, step), node: shown.nodeId }
    return { status: 'open', evidence: evidence(describe(shown), step), node: shown.nodeId }
  }
}

/** The controls a state item names on one observation, what holding its state means, and how to say what one shows. */
interface StateControls {
  controls: ObservedElement[]
  holds(control: ObservedElement): boolean
  describe(control: ObservedElement): string
}

/** The control an item names, for items that name one. */
function controlOf(check: ChecklistCheck): string {
  if (check.kind === 'field_value') return check.field
  return 'control' in check ? check.control : ''
}

/**
 * A state item proven on one control is undone only by that control: another control of the same name
 * (the search box of the results page, a new document's form) holding something else leaves the proof.
 */
function keepProof(last: Judged, next: Judged | undefined, observation: Observation): Judged | undefined {
  if (!next || next.status === 'done' || last.status !== 'done' || last.node === undefined) return next
  return observation.elements.some((element) => element.nodeId === last.node) ? next : undefined
}

function fieldControls(check: Extract<ChecklistCheck, { kind: 'field_value' }>, elements: ObservedElement[]): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => element.value !== undefined),
    (element) => element.name,
    check.field,
  )
  if (controls.length === 0) return undefined
  return {
    controls,
    holds: (element) => valueMatches(element.value, check.value, element.valueOmitted),
    describe: (element) => `${named(element)} holds ${quote(element.value ?? '')}`,
  }
}

function checkedControls(check: Extract<ChecklistCheck, { kind: 'checked' }>, elements: ObservedElement[]): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => CHECKABLE_ROLES.has(element.role) || element.state?.checked !== undefined),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  return {
    controls,
    // 'mixed' is neither checked nor unchecked, so it proves neither.
    holds: (element) => (element.state?.checked ?? false) === check.checked,
    describe: (element) => {
      const state = element.state?.checked === 'mixed' ? 'partly checked' : element.state?.checked ? 'checked' : 'not checked'
      return `${named(element)} is ${state}`
    },
  }
}

function selectedControls(check: Extract<ChecklistCheck, { kind: 'selected' }>, elements: ObservedElement[]): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => element.options !== undefined || CHOOSING_ROLES.has(element.role)),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  return {
    controls,
    holds: (element) => chosen(element).some((label) => valueMatches(label, check.option)),
    describe: (element) => `${named(element)} shows ${quote(chosen(element).join(', '))}`,
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
