import type { TraceEntry } from '../../types/index.d.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation } from '../collector/observation.ts'
import { specOf } from '../operations.ts'

// What the run brought about, as against what the page showed or did by itself: a page can fill in a
// field, tick a box, show "Thank you" or sit on `/confirmation` when the run starts, or get there later
// on a timer while the agent only waits. Evidence counts when it followed an input of the run: the
// state was not there on the observation the input was chosen on, or the control holding it arrived
// after an input, or the agent put input into the control itself.

/** An entry whose input reached the page: not stale, not refused, not declined, and an operation that is input (WAIT is not). */
export function landed(entry: TraceEntry): boolean {
  return !entry.stale && entry.refused === undefined && entry.approved !== false && specOf(entry.operation).input
}

export class RunEvidence {
  #start: Observation | undefined
  /** Per item: the controls (node IDs) that held the wanted state at the start and have not left it. */
  readonly #preset = new Map<number, Set<string>>()
  /** Controls the agent put input into (node IDs), with the text a TYPE_TEXT typed (placeholders kept). */
  readonly #touched = new Map<string, string | undefined>()
  /** Every control seen so far, and those first seen after an input of the run. */
  readonly #seen = new Set<string>()
  readonly #arrived = new Set<string>()
  /** Per state key (an item, or an item on one control): whether it held on the newest observation. */
  readonly #held = new Map<string, boolean>()
  /** Keys that did not hold on an observation an input was then chosen on. */
  readonly #armed = new Set<string>()
  /** Updates so far, and the one that read the newest landed input. */
  #updates = 0
  #lastInput = -1

  get started(): boolean {
    return this.#start !== undefined
  }

  get update(): number {
    return this.#updates
  }

  /** The update that read the newest landed input, or -1. */
  get lastInput(): number {
    return this.#lastInput
  }

  /**
   * Takes a new observation and the trace entries chosen on the one before it (`chosenOn`). Returns
   * whether one of them landed. The first observation is the start.
   */
  observe(observation: Observation, fresh: TraceEntry[], chosenOn: Observation | undefined): boolean {
    this.#updates += 1
    this.#start ??= observation
    let input = false
    for (const entry of fresh) {
      if (!landed(entry)) continue
      input = true
      const element = entry.target === undefined ? undefined : elementById(chosenOn, entry.target)
      if (element) this.#touched.set(element.nodeId, entry.operation === 'TYPE_TEXT' ? entry.text : this.#touched.get(element.nodeId))
    }
    if (input) {
      this.#lastInput = this.#updates
      for (const [key, held] of this.#held) if (!held) this.#armed.add(key)
    }
    for (const element of observation.elements) {
      if (this.#seen.has(element.nodeId)) continue
      this.#seen.add(element.nodeId)
      if (this.#lastInput > 0) this.#arrived.add(element.nodeId)
    }
    return input
  }

  /** Notes whether a key held on the newest observation, for the next input to arm it. */
  held(key: string, holds: boolean): void {
    this.#held.set(key, holds)
  }

  /** Whether a key held nothing on an observation an input was then chosen on. */
  followedInput(key: string): boolean {
    return this.#armed.has(key)
  }

  /**
   * Notes one control of a state item on the start observation or later: at the start, whether it
   * holds the wanted state; later, a control seen without it has left the start's state.
   */
  note(item: number, node: string, holding: boolean, atStart: boolean): void {
    let preset = this.#preset.get(item)
    if (!preset) this.#preset.set(item, (preset = new Set()))
    if (atStart && holding) preset.add(node)
    else if (!holding) preset.delete(node)
    this.held(`${item}:${node}`, holding)
  }

  /** Whether the control held the item's state at the start and has not left it. */
  preset(item: number, node: string): boolean {
    return this.#preset.get(item)?.has(node) === true
  }

  /** Whether a control holding an item's state got there through the run: put there by the agent, or after an input. */
  earned(item: number, node: string): boolean {
    if (this.#touched.has(node)) return true
    return !this.preset(item, node) && (this.#armed.has(`${item}:${node}`) || this.#arrived.has(node))
  }

  /** The agent put input into the control. */
  touched(node: string): boolean {
    return this.#touched.has(node)
  }

  /** What the agent's last TYPE_TEXT into the control typed (placeholders kept), if it typed. */
  typed(node: string): string | undefined {
    return this.#touched.get(node)
  }

  /** Whether the start observation showed `shows` true already. */
  showedAtStart(shows: (observation: Observation) => boolean): boolean {
    return this.#start !== undefined && shows(this.#start)
  }

  /** Whether the URL is the one the run started on. */
  sameUrl(url: string): boolean {
    return this.#start?.url === url
  }
}
