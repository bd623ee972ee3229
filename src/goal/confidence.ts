import type { Decision } from '../decision/decision.ts'

/**
 * Why a decision is less probable than `minConfidence` allows (its operation, or its target), or
 * undefined when it is not, or no minimum is set. `named` is the decision as messages name it.
 */
export function confidenceShortfall(decision: Decision, min: number | undefined, named: string): string | undefined {
  if (min === undefined) return undefined
  if (decision.confidence !== undefined && decision.confidence < min) {
    return `The model chose ${decision.operation} with probability ${decision.confidence}, below minConfidence ${min}.`
  }
  if (decision.targetConfidence !== undefined && decision.targetConfidence < min) {
    return `The model chose the target of ${named} with probability ${decision.targetConfidence}, below minConfidence ${min}.`
  }
  return undefined
}
