import type { TraceEntry } from '../../types/index.d.ts'
import type { SourcedDecision } from '../cache/replayed-decisions.ts'
import { elementById, optionById } from '../collector/find-target.ts'
import type { Observation } from '../collector/observation.ts'
import type { DecidedStep, FinishedStep } from '../record/run-listener.ts'
import { identify, type TargetIdentity } from './progress-guards.ts'
import { destinationName } from './tell-step.ts'
import { decisionEntry, describeDecision } from './trace-entry.ts'

/**
 * One decision and what the loop knows about it while carrying it out. Its target is looked up once,
 * here; the trace entry, the action `approve` is asked about and the history's action are built from it.
 */
export interface Step extends DecidedStep {
  entry: TraceEntry
  /** The decision as messages name it. */
  named: string
  identity: TargetIdentity | undefined
  /**
   * Set for a step replayed from the cache (matched exactly, or matched by score and then chosen by
   * the model): TYPE_TEXT's stored value, when values are kept.
   */
  replay?: { text: string | undefined }
  /** TYPE_TEXT's field was a password one when typed into, whatever the observation says: its value is never kept. */
  typedPassword?: true
  /** Its input went in: it counts as a step. */
  acted?: true
}

type Counts = { request: number; step: number; observeMs: number }

export function beginStep({ decision, cached, replayed }: SourcedDecision, observation: Observation, counts: Counts): Step {
  const element = elementById(observation, decision.target)
  const optionLabel = optionById(element, decision.option)?.label
  const told = { decision, observation, element, optionLabel }
  const step: Step = {
    ...told,
    entry: decisionEntry(told, counts),
    named: describeDecision(decision, element, optionLabel, destinationName(told)),
    identity: identify(decision.target, element),
  }
  if (cached) step.entry.cached = true
  if (replayed) {
    step.entry.match = replayed.match
    step.replay = { text: replayed.text }
  }
  return step
}

/** The step as the run's listeners are told it once it is over. */
export function finishedStep(step: Step): FinishedStep {
  const { decision, element, optionLabel, observation, entry, named } = step
  const finished: FinishedStep = { decision, element, optionLabel, observation, entry, named, acted: step.acted === true, replayed: step.replay !== undefined }
  if (step.typedPassword) finished.typedPassword = true
  return finished
}
