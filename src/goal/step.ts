import type { TraceEntry } from '../../types/index.d.ts'
import { elementById, optionById } from '../collector/find-target.ts'
import type { Observation } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import { identify, type TargetIdentity } from './progress-guards.ts'
import { destinationName, type ToldStep } from './tell-step.ts'
import { decisionEntry, describeDecision } from './trace-entry.ts'

/**
 * One decision and what the loop knows about it while carrying it out. Its target is looked up once,
 * here; the trace entry, the action `approve` is asked about and the history's action are built from it.
 */
export interface Step extends ToldStep {
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
}

type Counts = { request: number; step: number; observeMs: number }

export function beginStep(decision: Decision, observation: Observation, counts: Counts): Step {
  const element = elementById(observation, decision.target)
  const optionLabel = optionById(element, decision.option)?.label
  const told = { decision, observation, element, optionLabel }
  return {
    ...told,
    entry: decisionEntry(told, counts),
    named: describeDecision(decision, element, optionLabel, destinationName(told)),
    identity: identify(decision.target, element),
  }
}

/** A step the replay cache planned: no request; `text` is TYPE_TEXT's stored value, when kept. */
export function beginReplayedStep(
  plan: { decision: Decision; match?: 'exact' | 'scored'; text?: string | undefined },
  observation: Observation,
  counts: Counts,
): Step {
  const step = beginStep(plan.decision, observation, counts)
  step.entry.cached = true
  if (plan.match) {
    step.entry.match = plan.match
    step.replay = { text: plan.text }
  }
  return step
}
