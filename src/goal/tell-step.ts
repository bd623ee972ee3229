import type { DialogRecord, Operation, PendingAction, TraceEntry } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { REQUEST_LIMITS } from '../decision/request-bounds.ts'
import { specOf } from '../operations.ts'
import type { Observation } from '../collector/observation.ts'
import type { RecentAction } from '../decision/decision.ts'
import type { DecidedStep } from '../record/run-listener.ts'

// What others are told about a step of the loop: the `approve` callback (the action awaiting it) and
// the next decision request (the action, what came of it, and a short detail).

/**
 * What every shape of an action says of its target: its ID, its name then, SELECT's option label,
 * PRESS's key, and where DRAG took it (the destination's name then, or the move).
 */
export function targetFields(step: DecidedStep): Pick<RecentAction, 'target' | 'targetName' | 'option' | 'key' | 'to'> {
  const { decision, element, optionLabel } = step
  const fields: Pick<RecentAction, 'target' | 'targetName' | 'option' | 'key' | 'to'> = {}
  if (decision.target) fields.target = decision.target
  if (element) fields.targetName = element.name
  if (optionLabel !== undefined) fields.option = optionLabel
  if (decision.key) fields.key = decision.key
  if (decision.to) fields.to = destinationName(step)
  return fields
}

/** DRAG's destination as a reader knows it: the element's name then (its ID when it has none), or the move. */
export function destinationName(step: DecidedStep): string | undefined {
  const { to } = step.decision
  if (to === undefined) return undefined
  return step.observation.elements.find((candidate) => candidate.id === to)?.name || to
}

/** The action `approve` is asked about. */
export function pendingAction(step: DecidedStep, text: string | undefined): PendingAction {
  const { decision, observation } = step
  const action: PendingAction = { operation: decision.operation, url: observation.url, risk: decision.risk!, ...targetFields(step) }
  if (text !== undefined) action.text = text
  return action
}

/** The action as the next request's history tells it. */
export function recentAction(step: DecidedStep & { entry: Pick<TraceEntry, 'edit'> }, outcome: RecentAction['outcome'], detail?: string, text?: string): RecentAction {
  const action: RecentAction = { operation: step.decision.operation, outcome, ...targetFields(step) }
  if (text !== undefined) action.text = text
  if (step.entry.edit) action.edit = step.entry.edit
  if (detail) action.detail = detail
  if (step.decision.note) action.note = step.decision.note
  return action
}

/** Characters of each name a scroll's detail gives: the detail holds several within its own bound. */
const NAME_IN_DETAIL = 80

/** What the next request is told about an action besides its outcome. */
export function actionDetail(operation: Operation, before: Observation, after: Observation, dialogs: DialogRecord[], popups: string[]): string | undefined {
  const details: string[] = []
  if (after.url !== before.url) details.push(`now at ${after.url}`)
  // "SCROLL_DOWN" alone says nothing of what was passed: the first names that came into view do.
  if (specOf(operation).target.kind === 'scroll') {
    const shown = new Set(before.elements.map((element) => element.nodeId))
    const names = after.elements
      .filter((element) => !shown.has(element.nodeId) && element.name)
      .slice(0, REQUEST_LIMITS.scrolledNames)
      .map((element) => JSON.stringify(clip(element.name, NAME_IN_DETAIL)))
    if (names.length > 0) details.push(`came into view: ${names.join(', ')}`)
  }
  for (const dialog of dialogs) details.push(`${dialog.type} "${dialog.message}" was ${dialog.accepted ? 'accepted' : 'dismissed'}`)
  for (const url of popups) details.push(`a new tab opened at ${url}; it is not followed`)
  return details.length > 0 ? details.join('; ') : undefined
}
