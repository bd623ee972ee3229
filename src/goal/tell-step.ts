import type { DialogRecord, PendingAction } from '../../types/index.d.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import type { Decision, RecentAction } from '../decision/decision.ts'

// What others are told about a step of the loop: the `approve` callback (the action awaiting it) and
// the next decision request (the action, what came of it, and a short detail).

/** A decision with what the loop knows of its target. */
export interface ToldStep {
  decision: Decision
  element: ObservedElement | undefined
  optionLabel: string | undefined
  observation: Observation
}

/** The action `approve` is asked about. */
export function pendingAction(step: ToldStep, text: string | undefined): PendingAction {
  const { decision, element, optionLabel, observation } = step
  const action: PendingAction = { operation: decision.operation, url: observation.url, risk: decision.risk! }
  if (decision.target) action.target = decision.target
  if (element) action.targetName = element.name
  if (optionLabel !== undefined) action.option = optionLabel
  if (text !== undefined) action.text = text
  return action
}

/** The action as the next request's history tells it. */
export function recentAction(step: ToldStep, outcome: RecentAction['outcome'], detail?: string, text?: string): RecentAction {
  const { decision, element, optionLabel } = step
  const action: RecentAction = { operation: decision.operation, outcome }
  if (decision.target) action.target = decision.target
  if (element) action.targetName = element.name
  if (optionLabel !== undefined) action.option = optionLabel
  if (text !== undefined) action.text = text
  if (detail) action.detail = detail
  return action
}

/** What the next request is told about an action besides its outcome. */
export function actionDetail(before: Observation, after: Observation, dialogs: DialogRecord[], popups: string[]): string | undefined {
  const details: string[] = []
  if (after.url !== before.url) details.push(`now at ${after.url}`)
  for (const dialog of dialogs) details.push(`${dialog.type} "${dialog.message}" was ${dialog.accepted ? 'accepted' : 'dismissed'}`)
  for (const url of popups) details.push(`a new tab opened at ${url}; it is not followed`)
  return details.length > 0 ? details.join('; ') : undefined
}
