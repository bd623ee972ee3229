import type { TraceEntry } from '../../types/index.d.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation } from '../collector/observation.ts'

// What the page showed when the run started, so that the tracker counts only what the run brought
// about: a page can fill in a field, tick a box, show "Thank you" or sit on `/confirmation` by itself.

export class StartEvidence {
  #observation: Observation | undefined
  /** Per item: the controls (node IDs) that held the wanted state at the start and have not left it. */
  readonly #preset = new Map<number, Set<string>>()
  /** Controls the agent put input into (node IDs): what they hold is the run's doing. */
  readonly #touched = new Set<string>()

  /** Whether the start is known: the first observation the tracker was given. */
  get started(): boolean {
    return this.#observation !== undefined
  }

  /** Takes the first observation as the start; later calls do nothing. */
  start(observation: Observation): void {
    this.#observation ??= observation
  }

  /** Notes the controls the new trace entries put input into, read on the observation they were chosen on. */
  acted(fresh: TraceEntry[], chosenOn: Observation | undefined): void {
    for (const entry of fresh) {
      if (entry.stale || entry.target === undefined) continue
      const element = elementById(chosenOn, entry.target)
      if (element) this.#touched.add(element.nodeId)
    }
  }

  /**
   * Notes one control of a state item on one observation: at the start, whether it holds the wanted
   * state; later, a control seen without it has left the start's state, so holding it again is the run's doing.
   */
  note(item: number, node: string, holding: boolean, atStart: boolean): void {
    let preset = this.#preset.get(item)
    if (!preset) this.#preset.set(item, (preset = new Set()))
    if (atStart && holding) preset.add(node)
    else if (!holding) preset.delete(node)
  }

  /** Whether a control holding an item's state got there after the run started. */
  earned(item: number, node: string): boolean {
    return this.#touched.has(node) || !this.#preset.get(item)?.has(node)
  }

  /** Whether the start observation showed `shows` true already. */
  showedAtStart(shows: (observation: Observation) => boolean): boolean {
    return this.#observation !== undefined && shows(this.#observation)
  }

  /** Whether the URL is the one the run started on. */
  sameUrl(url: string): boolean {
    return this.#observation?.url === url
  }
}
