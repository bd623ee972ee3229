import type { TraceEntry } from '../../types/index.d.ts'
import type { ObservedElement } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import type { DecidedStep } from '../record/run-listener.ts'
import { targetFields } from './tell-step.ts'

/** The trace entry of a decision as it was made; the loop adds what came of it. */
export function decisionEntry(step: DecidedStep, counts: { request: number; step: number; observeMs: number }): TraceEntry {
  const { decision } = step
  const entry: TraceEntry = {
    request: counts.request,
    step: counts.step,
    operation: decision.operation,
    stale: false,
    pageChanged: false,
    decisionMs: decision.decisionMs,
    observeMs: counts.observeMs,
    url: step.observation.url,
    ...targetFields(step),
  }
  if (decision.confidence !== undefined) entry.confidence = decision.confidence
  if (decision.probabilities) entry.probabilities = decision.probabilities
  if (decision.targetConfidence !== undefined) entry.targetConfidence = decision.targetConfidence
  if (decision.targetProbabilities) entry.targetProbabilities = decision.targetProbabilities
  if (decision.risk !== undefined) entry.risk = decision.risk
  if (decision.note) entry.note = decision.note
  if (decision.image) Object.assign(entry, { imageMs: decision.image.ms, imageBytes: decision.image.bytes })
  return entry
}

/** How a decision is named in messages: `CLICK e4 ("Sign in")`, `PRESS e2 ("Search") key Enter`, `DRAG e5 ("C") to "A"`. */
export function describeDecision(decision: Decision, element: ObservedElement | undefined, optionLabel?: string, destination?: string): string {
  const target = decision.target ? ` ${decision.target}` : ''
  const name = element?.name ? ` ("${element.name}")` : ''
  const option = optionLabel !== undefined ? ` option "${optionLabel}"` : ''
  const key = decision.key ? ` key ${decision.key}` : ''
  const to = destination !== undefined ? ` to "${destination}"` : ''
  return `${decision.operation}${target}${name}${option}${key}${to}`
}
