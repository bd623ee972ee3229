import type { ChecklistReport, TraceEntry } from '../../types/index.d.ts'
import type { Shot } from '../browser/viewport-screenshot.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'

// What a goal run tells those who follow it (its recording, the replay cache), as plain data, so the
// loop knows none of them. Here, below both, so they can take it without reaching up into the loop.

/** A decision with what the run knows of its target on the observation it was decided on. */
export interface DecidedStep {
  decision: Decision
  element: ObservedElement | undefined
  optionLabel: string | undefined
  observation: Observation
}

/** A step once it is over: told at the next decision, or when the run ends. */
export interface FinishedStep extends DecidedStep {
  /** Its trace entry, with what came of it. */
  entry: TraceEntry
  /** The decision as messages name it. */
  named: string
  /** Its input went in: it counts as a step. */
  acted: boolean
  /** Replayed from the cache: matched exactly, or matched by score and then chosen by the model. */
  replayed: boolean
  /** TYPE_TEXT's field was a password one when typed into, whatever the observation says. */
  typedPassword?: true
}

/** What the run ended as. */
export interface RunEnd {
  status: 'success' | 'error'
  verified: boolean
  checklist: ChecklistReport
}

export interface RunListener {
  /** The page was observed. A listener that takes its screenshot returns it: vision sends that one. */
  observed?(observation: Observation): Promise<Shot | undefined> | undefined
  /** A step's input is about to go in: what must show the page as it was before holds the input until done. */
  beforeInput?(): Promise<void>
  stepFinished?(step: FinishedStep): void
  runFinished?(run: RunEnd): Promise<void>
}
