import type { ChecklistCheck, ChecklistDispute, ChecklistItem, ChecklistItemResult, ChecklistStatus, ChecklistUnproven, TraceEntry } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import type { Observation } from '../collector/observation.ts'
import { DISPUTE_REASONS } from '../decision/checklist-questions.ts'
import { operationsWhere } from '../operations.ts'
import { PageChanges } from './caused-change.ts'
import { checkedControls, controlOf, fieldControls, named, offers, quote, selectedControls, type StateControls } from './item-controls.ts'
import { activates, sentForm } from './landed-actions.ts'
import { textShows, urlShows } from './match-names.ts'
import { landed, RunEvidence } from './run-evidence.ts'

// The status of each checklist item, from evidence only: what the newest observation shows and what the
// trace says the agent did. No model, no guess; a few milliseconds for a full observation.
//
// Evidence is what the run brought about (run-evidence.ts): what the start showed proves nothing (such
// an item is `met_at_start`), and neither does what the page did by itself with no input of the run
// before it (a confirmation on a timer, a box the page ticks, a URL it pushes while the agent waits:
// `unprompted`). Both are reported as judgments, which hold DONE back no more than one does.
//
// - State items (`field_value`, `checked`, `selected`) are judged on the newest observation when it
//   offers a control of that name: done when one of them holds the value, the checked state or the
//   selected option, and got there through the run; open when they hold something else, so a field the
//   page cleared is undone. When the observation offers no such control (the page moved on), the last
//   evidence stands. A done item is undone only by the control that proved it, and never once its form
//   was sent holding it (SUBMIT or Enter in the form, a click on a button of the form) or an `activated`
//   item below it came true: a form the application empties after sending is done. A form sent while
//   the item did not hold needs sending again: typing the value into the emptied form is not enough.
//   A masked field (a password) holds what the agent typed into it; values are compared with the
//   secrets' placeholders filled in, inside the process, and evidence never shows them.
// - `activated` is an event: an activating input (CLICK, SUBMIT, SELECT, Enter) that landed on the
//   control, chosen while every checkable item above it was done (a form sent before it was filled does
//   not count). Done when the page then changed in a way the input caused (caused-change.ts: not a
//   clock that ticked meanwhile); an input that landed and changed nothing lets the items below go on,
//   and is done once a later input of the run changes the page. The control being on the page never
//   counts (seed 004). A control whose name only contains the wanted one counts unless the observation
//   the action was chosen on offered one named exactly so. SUBMIT in a field of a form counts for that
//   form's button.
// - End-state items (`text_visible`, `url_matches`) are judged on the newest observation only: the
//   viewport's visible text, the URL without its query and fragment unless the item names them.
//   Leaving the page opens them again.
// - `judgment` items are never checked: status `judgment`, never done, never open; until the decision
//   model says an action serves one (`serve`): when that input lands and causes a change, as an
//   `activated` item needs, the item becomes `activated` on the action's target, done. Saying so alone
//   does nothing.
// - An item the decision model disputes (`dispute`) holds DONE back no more, and is `disputed` unless
//   the page proves it done after all: a dispute never makes an item done.
// - An item naming a control no observation ever offered is `unmatched` (a judgment). An open item whose
//   control the page took away after an input of the run is `gone` once the run ends on it (`concede`):
//   it can no longer come true, and is never done.

/** Characters of a URL in an evidence string: a URL says little before its path. */
const URL_PART = 100
/** Characters of an evidence string: one line for a reader or a decision request. */
const EVIDENCE_LIMIT = 120

/** The operations that activate a control; TYPE_TEXT only fills it. */
const ACTIVATING = operationsWhere((spec) => spec.activates)

/** Kinds whose item names a control the page must offer. */
const NAMES_CONTROL = new Set<ChecklistCheck['kind']>(['field_value', 'checked', 'selected', 'activated'])
const STATE_KINDS = new Set<ChecklistCheck['kind']>(['field_value', 'checked', 'selected'])


/** Fills the secrets' placeholders in a text, inside the process only. */
export type ResolveSecrets = (text: string) => string

interface Judged {
  /** `met_at_start` and `unprompted` are reported as judgments (see `unproven`). */
  status: ChecklistStatus | 'met_at_start' | 'unprompted'
  evidence?: string
  /** For a state item: the node ID of the control the evidence is about. */
  node?: string
}

/** What the tracker keeps of one item besides its last judgment. */
interface Standing {
  /** An observation offered its control (always true for items that name none). */
  matched: boolean
  /** The update that last offered its control. */
  seenAt: number
  /** A state item proven when its form was sent: never undone. */
  sealed?: true
  /** Its form was sent while it did not hold: it needs sending again. */
  unsent?: true
  /** An activating input landed on its control and changed nothing (yet). */
  landedAt?: TraceEntry
  /** Reported as a judgment for good: the run ended on it gone. */
  settled?: { unproven: 'gone'; evidence: string }
  /** For a judgment item: the latest action the model said serves it. */
  serving?: TraceEntry
  /** The decision model's dispute, as evidence says it. */
  disputed?: string
}

export class ChecklistTracker {
  readonly #items: ChecklistItem[]
  readonly #judged: Judged[]
  readonly #standing: Standing[]
  readonly #resolve: ResolveSecrets
  /** Trace entries already read. */
  #read = 0
  /** The observation of the previous update: the one the next trace entries were chosen on. */
  #previous: Observation | undefined
  #current: Observation | undefined
  /** Each item's judgment when the newest trace entries were chosen. */
  #chosenWith: Judged[] = []
  readonly #run = new RunEvidence()
  readonly #changes = new PageChanges()

  /** `resolve` fills the secrets' placeholders, to compare values a field holds with those an item names. */
  constructor(items: ChecklistItem[], resolve: ResolveSecrets = (text) => text) {
    // A served judgment item is replaced by the `activated` item it became: the caller's list stays as passed.
    this.#items = [...items]
    this.#resolve = resolve
    this.#judged = items.map((item) => (item.check.kind === 'judgment' ? { status: 'judgment' } : { status: 'open' }))
    this.#standing = items.map((item) => ({ matched: !NAMES_CONTROL.has(item.check.kind), seenAt: 0 }))
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
    const atStart = !this.#run.started
    const chosenOn = this.#previous
    const input = this.#run.observe(observation, fresh, chosenOn)
    if (chosenOn && !input) this.#changes.learn(chosenOn, observation)
    const acted = fresh.filter(landed).flatMap((entry) => (entry.target === undefined ? [] : [entry.target]))
    const caused = input && chosenOn !== undefined && this.#changes.caused(chosenOn, observation, acted)
    this.#current = observation
    if (chosenOn) this.#sendForms(fresh, chosenOn, step)
    // The statuses the new trace entries were chosen with, for the order rule of `activated`.
    const blocking = this.#items.map((_, index) => this.#blocks(index))
    this.#chosenWith = [...this.#judged]
    this.#items.forEach((item, index) => {
      const standing = this.#standing[index]!
      if (standing.settled) return
      const ready = !blocking.slice(0, index).includes(true)
      const next = this.#judge(index, item.check, observation, fresh, step, ready, atStart, caused)
      if (next) this.#judged[index] = next
      if (NAMES_CONTROL.has(item.check.kind) && offers(observation, item.check)) {
        standing.matched = true
        standing.seenAt = this.#run.update
      }
    })
    this.#previous = observation
  }

  /** Each item with its status and evidence, in the checklist's order. */
  results(): ChecklistItemResult[] {
    return this.#items.map((item, index) => {
      const { status, evidence } = this.#judged[index]!
      const standing = this.#standing[index]!
      const unproven = this.#unproven(index)
      const result: ChecklistItemResult = { description: item.description, check: item.check, status: unproven ? 'judgment' : (status as ChecklistStatus) }
      const shown =
        standing.settled?.evidence ??
        (unproven === 'disputed' ? standing.disputed : undefined) ??
        (unproven === 'unmatched' ? clip(`No observation offered a control named ${quote(controlOf(item.check))}`, EVIDENCE_LIMIT) : evidence)
      if (shown !== undefined) result.evidence = shown
      if (unproven) result.unproven = unproven
      return result
    })
  }

  #unproven(index: number): ChecklistUnproven | undefined {
    const standing = this.#standing[index]!
    if (standing.settled) return standing.settled.unproven
    const { status } = this.#judged[index]!
    if (status === 'met_at_start' || status === 'unprompted') return status
    if (status === 'open' && standing.disputed) return 'disputed'
    if (status === 'open' && !standing.matched) return 'unmatched'
    return undefined
  }

  /** Whether the item is open on the page: checkable, its control seen, not done, not disputed, and no input landed on it. */
  #blocks(index: number): boolean {
    const standing = this.#standing[index]!
    return this.#judged[index]!.status === 'open' && standing.matched && !standing.settled && !standing.disputed && standing.landedAt === undefined
  }

  /**
   * The model said the action of `entry` carries out judgment item `index`. True when the item can be
   * served: a judgment item, not yet bound to a control.
   */
  serve(index: number, entry: TraceEntry): boolean {
    if (this.#items[index]?.check.kind !== 'judgment') return false
    this.#standing[index]!.serving = entry
    return true
  }

  /** The model disputed item `index` at `step`. True when the item could be disputed: checkable, and open. */
  dispute(index: number, reason: ChecklistDispute, step: number): boolean {
    const item = this.#items[index]
    if (!item || item.check.kind === 'judgment' || this.#judged[index]!.status !== 'open') return false
    this.#standing[index]!.disputed = evidence(`Disputed by the decision model: ${DISPUTE_REASONS[reason]}`, step)
    return true
  }

  /** Checkable items not done, in order. */
  open(): ChecklistItemResult[] {
    return this.results().filter((item) => item.status === 'open')
  }

  /**
   * Whether an open item can no longer come true: it names a control, the newest observation offers
   * none of that name, and an input of the run came after the last observation that offered one.
   */
  gone(index: number): boolean {
    const standing = this.#standing[index]!
    const check = this.#items[index]!.check
    if (this.#unproven(index) !== undefined || this.#judged[index]!.status !== 'open' || !NAMES_CONTROL.has(check.kind)) return false
    if (this.#current && offers(this.#current, check)) return false
    return this.#run.lastInput > standing.seenAt
  }

  /** Reports every open item that is gone as such, for good: the run ends on them. */
  concede(): void {
    this.#items.forEach((item, index) => {
      if (!this.gone(index)) return
      const evidence = clip(`The page no longer offers ${quote(controlOf(item.check))} after the run's last input, so this cannot be checked`, EVIDENCE_LIMIT)
      this.#standing[index]!.settled = { unproven: 'gone', evidence }
    })
  }

  /** True when there is at least one checkable item and every one is done (judgment ones of any kind are not). */
  verified(): boolean {
    const results = this.results()
    const checkable = results.filter((result) => result.status !== 'judgment' || result.unproven !== undefined)
    return checkable.length > 0 && checkable.every((result) => result.status === 'done')
  }

  /** The item's new status, or undefined to keep the last one. */
  #judge(
    index: number,
    check: ChecklistCheck,
    observation: Observation,
    fresh: TraceEntry[],
    step: number,
    ready: boolean,
    atStart: boolean,
    caused: boolean,
  ): Judged | undefined {
    const last = this.#judged[index]!
    const standing = this.#standing[index]!
    const state = (controls: StateControls | undefined) => {
      if (standing.sealed) return undefined
      return keepProof(last, controls && this.#judgeState(index, controls, step, atStart), observation)
    }
    switch (check.kind) {
      case 'field_value':
        return state(fieldControls(check, observation.elements, this.#resolve, (node) => this.#run.typed(node)))
      case 'checked':
        return state(checkedControls(check, observation.elements))
      case 'selected':
        return state(selectedControls(check, observation.elements))
      case 'activated':
        return last.status === 'done' ? undefined : this.#judgeActivated(index, check, fresh, ready, caused)
      case 'text_visible': {
        const shown = `The page shows ${quote(check.text)}`
        return this.#endState(index, textShows(observation.text, check.text), shown, step, (start) => textShows(start.text, check.text))
      }
      case 'url_matches': {
        const url = `URL is ${clip(observation.url, URL_PART)}`
        return this.#endState(index, urlShows(observation.url, check.contains), url, step, (start) => start.url === observation.url, evidence(url, step))
      }
      case 'judgment':
        return this.#judgeServed(index, fresh, ready, caused)
    }
  }

  /** A judgment item whose serving action landed and caused a change becomes `activated` on its target, done. */
  #judgeServed(index: number, fresh: TraceEntry[], ready: boolean, caused: boolean): Judged | undefined {
    const entry = this.#standing[index]!.serving
    if (!entry || !fresh.includes(entry) || !ready) return undefined
    if (!landed(entry) || !ACTIVATING.has(entry.operation) || entry.targetName === undefined) return undefined
    if (!entry.pageChanged || !caused || entry !== fresh.findLast(landed)) return undefined
    this.#items[index] = { description: this.#items[index]!.description, check: { kind: 'activated', control: entry.targetName } }
    this.#sealAbove(index)
    return { status: 'done', evidence: evidence(`${entry.operation} ${quote(entry.targetName)}, which the model said serves this, changed the page`, entry.step) }
  }

  /** An end state: done when it shows and followed an input of the run; else what the page showed by itself. */
  #endState(index: number, shows: boolean, shown: string, step: number, atStart: (start: Observation) => boolean, openEvidence?: string): Judged {
    const key = `${index}`
    this.#run.held(key, shows)
    if (!shows) return openEvidence === undefined ? { status: 'open' } : { status: 'open', evidence: openEvidence }
    if (this.#run.followedInput(key)) return { status: 'done', evidence: evidence(shown, step) }
    if (this.#run.showedAtStart(atStart)) return { status: 'met_at_start', evidence: evidence(`Already so at the start: ${shown}`, step) }
    return { status: 'unprompted', evidence: evidence(`With no input of the run before it: ${shown}`, step) }
  }

  /** Done on a control that holds the state through the run; `met_at_start` or `unprompted` on one the page put there. */
  #judgeState(index: number, { controls, holds, describe }: StateControls, step: number, atStart: boolean): Judged {
    for (const control of controls) this.#run.note(index, control.nodeId, holds(control), atStart)
    const holding = controls.filter(holds)
    const proof = holding.find((control) => this.#run.earned(index, control.nodeId))
    const standing = this.#standing[index]!
    if (proof && standing.unsent) return { status: 'open', evidence: evidence(`${describe(proof)}, but its form was sent before it did`, step), node: proof.nodeId }
    if (proof) return { status: 'done', evidence: evidence(describe(proof), step), node: proof.nodeId }
    const shown = holding[0] ?? controls[0]!
    if (holding.length > 0) {
      const preset = this.#run.preset(index, shown.nodeId)
      return { status: preset ? 'met_at_start' : 'unprompted', evidence: evidence(`${preset ? 'Already so at the start' : 'With no input of the run before it'}: ${describe(shown)}`, step), node: shown.nodeId }
    }
    return { status: 'open', evidence: evidence(describe(shown), step), node: shown.nodeId }
  }


  #judgeActivated(index: number, check: Extract<ChecklistCheck, { kind: 'activated' }>, fresh: TraceEntry[], ready: boolean, caused: boolean): Judged | undefined {
    const standing = this.#standing[index]!
    let result: Judged | undefined
    for (const entry of fresh) {
      if (!landed(entry) || !ACTIVATING.has(entry.operation) || entry.targetName === undefined) continue
      if (!activates(entry, check.control, this.#previous)) continue
      // Sending a form before filling it is not the step the checklist asked for.
      if (!ready) {
        result = { status: 'open', evidence: evidence(`${entry.operation} ${quote(entry.targetName)} came before the items above it were done`, entry.step) }
        continue
      }
      if (entry.pageChanged && caused && entry === fresh.findLast(landed)) {
        this.#sealAbove(index)
        return { status: 'done', evidence: evidence(`${entry.operation} ${quote(entry.targetName)} changed the page`, entry.step) }
      }
      standing.landedAt = entry
      const why = entry.pageChanged ? 'the page changed only as it does by itself' : 'the page did not change'
      result = { status: 'open', evidence: evidence(`${entry.operation} ${quote(entry.targetName)} landed; ${why}`, entry.step) }
    }
    if (result) return result
    // An input that landed and changed nothing is done once a later input of the run changes the page.
    const earlier = standing.landedAt
    if (earlier && caused && fresh.some((entry) => landed(entry) && entry !== earlier)) {
      this.#sealAbove(index)
      return { status: 'done', evidence: evidence(`${earlier.operation} ${quote(earlier.targetName!)} landed; the page changed at a later input`, earlier.step) }
    }
    return undefined
  }

  /**
   * An activation came true: the state items above it were what it sent, and stay done, as they were
   * when it was chosen (a suggestion picked from a list may fill the field with more than was typed).
   */
  #sealAbove(index: number): void {
    for (let above = 0; above < index; above++) {
      if (!STATE_KINDS.has(this.#items[above]!.check.kind)) continue
      const chosen = this.#chosenWith[above]
      if (this.#judged[above]!.status !== 'done' && chosen?.status === 'done') this.#judged[above] = chosen
      if (this.#judged[above]!.status === 'done') this.#standing[above]!.sealed = true
    }
  }

  /**
   * A landed input that sends a form (SUBMIT or Enter in one of its fields, a click on one of its
   * buttons) seals the state items whose control is in that form and held their state, and marks
   * those that did not as sent without it.
   */
  #sendForms(fresh: TraceEntry[], chosenOn: Observation, step: number): void {
    for (const entry of fresh) {
      if (!landed(entry)) continue
      const form = sentForm(entry, chosenOn)
      if (form === undefined) continue
      this.#items.forEach((item, index) => {
        if (!STATE_KINDS.has(item.check.kind)) return
        const standing = this.#standing[index]!
        const judged = this.#judged[index]!
        const control = chosenOn.elements.find((element) => element.nodeId === judged.node)
        if (control?.form?.name !== form) return
        if (judged.status === 'done') {
          standing.sealed = true
          standing.unsent = undefined
          judged.evidence = evidence(`${judged.evidence?.replace(/ \(step \d+\)$/, '') ?? named(control)} when its form was sent`, step)
        } else if (!standing.sealed) {
          standing.unsent = true
        }
      })
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


function evidence(seen: string, step: number): string {
  return clip(`${seen} (step ${step})`, EVIDENCE_LIMIT)
}
