import type { TraceEntry } from '../../types/index.d.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'

/** The trace entry of a decision as it was made; the loop adds what came of it. */
export function decisionEntry(input: {
  decision: Decision
  request: number
  step: number
  observation: Observation
  element: ObservedElement | undefined
  optionLabel: string | undefined
  observeMs: number
}): TraceEntry {
  const { decision, element } = input
  const entry: TraceEntry = {
    request: input.request,
    step: input.step,
    operation: decision.operation,
    stale: false,
    pageChanged: false,
    decisionMs: decision.decisionMs,
    observeMs: input.observeMs,
    url: input.observation.url,
  }
  if (decision.target !== undefined) entry.target = decision.target
  if (input.optionLabel !== undefined) entry.option = input.optionLabel
  if (element) entry.targetName = element.name
  if (decision.confidence !== undefined) entry.confidence = decision.confidence
  if (decision.probabilities) entry.probabilities = decision.probabilities
  if (decision.targetConfidence !== undefined) entry.targetConfidence = decision.targetConfidence
  if (decision.targetProbabilities) entry.targetProbabilities = decision.targetProbabilities
  if (decision.risk !== undefined) entry.risk = decision.risk
  return entry
}

/** How a decision is named in messages: `CLICK e4 ("Sign in")`. */
export function describeDecision(decision: Decision, element: ObservedElement | undefined, optionLabel?: string): string {
  const target = decision.target ? ` ${decision.target}` : ''
  const name = element?.name ? ` ("${element.name}")` : ''
  const option = optionLabel !== undefined ? ` option "${optionLabel}"` : ''
  return `${decision.operation}${target}${name}${option}`
}
