import type { TraceEntry } from '../../types/index.d.ts'
import { elementById } from '../collector/find-target.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import type { ModelCallRecord } from '../base/ledger.ts'
import { summarizeCost } from '../base/ledger.ts'
import type { HeadOption, StepLine } from './run-lines.ts'

// A step of a goal as run.jsonl records it, from what the loop knew of it and its trace entry.

/** Options of a head a line keeps: enough to see what the model weighed against its choice. */
const TOP_OPTIONS = 5
/** Dots of a masked value: its length shows up to here, so a long secret is not measured. */
const MASK_LIMIT = 12

/** What the recorder reads of a step: a FinishedStep (run-listener.ts) has all of it. */
export interface RecordedStepInput {
  entry: TraceEntry
  decision: Decision
  observation: Observation
  element: ObservedElement | undefined
  /** The field was a password one when typed into, though the observation may show it as text. */
  typedPassword?: true | undefined
}

export function stepLine(
  step: RecordedStepInput,
  extra: { calls: readonly ModelCallRecord[]; typedValues: boolean; screenshot?: string | undefined; viewport?: StepLine['viewport'] | undefined; recordMs: number },
): StepLine {
  const { entry, decision, observation, element } = step
  const line: StepLine = {
    kind: 'step',
    request: entry.request,
    step: entry.step,
    url: entry.url,
    title: observation.title,
    operation: entry.operation,
    heads: heads(decision, observation),
    pageChanged: entry.pageChanged,
    notes: notes(entry),
    timing: timing(entry, extra.recordMs),
    cost: pickCost(extra.calls),
  }
  if (entry.target !== undefined) {
    line.target = { id: entry.target }
    if (element) Object.assign(line.target, { name: element.name, role: element.role, box: { ...element.rect } })
    else if (entry.targetName !== undefined) line.target.name = entry.targetName
  }
  if (entry.option !== undefined) line.option = entry.option
  if (entry.key !== undefined) line.key = entry.key
  if (entry.to !== undefined) line.to = entry.to
  if (entry.text !== undefined) {
    const hide = !extra.typedValues || element?.type === 'password' || step.typedPassword === true
    line.text = hide ? mask(entry.text) : entry.text
    if (hide) line.masked = true
  }
  if (entry.cached) line.cached = true
  if (entry.match) line.match = entry.match
  if (entry.confidence !== undefined) line.confidence = entry.confidence
  if (entry.targetConfidence !== undefined) line.targetConfidence = entry.targetConfidence
  if (entry.risk !== undefined) line.risk = entry.risk
  if (entry.approved !== undefined) line.approved = entry.approved
  if (entry.stale) line.stale = entry.staleReason ?? 'stale'
  if (entry.dialogs) line.dialogs = entry.dialogs
  if (entry.popups) line.popups = entry.popups
  if (extra.screenshot !== undefined) line.screenshot = extra.screenshot
  if (extra.viewport) line.viewport = extra.viewport
  return line
}

/** A typed value as a recording shows it when values are not kept: its length, up to a point, and nothing else. */
export function mask(text: string): string {
  return '•'.repeat(Math.max(1, Math.min(text.length, MASK_LIMIT)))
}

function heads(decision: Decision, observation: Observation): StepLine['heads'] {
  const out: StepLine['heads'] = {}
  if (decision.probabilities) out.operation = top(decision.probabilities, () => undefined)
  if (decision.targetProbabilities) out.target = top(decision.targetProbabilities, (id) => targetLabel(observation, id))
  return out
}

function top(probabilities: Record<string, number>, label: (id: string) => string | undefined): HeadOption[] {
  return Object.entries(probabilities)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_OPTIONS)
    .map(([id, p]) => {
      const option: HeadOption = { id, p }
      const name = label(id)
      if (name !== undefined) option.label = name
      return option
    })
}

/** A target ID as a person reads it: the element's name, SELECT's `element: option`, or the scroll target. */
function targetLabel(observation: Observation, id: string): string | undefined {
  if (id === 'page') return 'page'
  const scroll = observation.scroll.find((candidate) => candidate.id === id)
  if (scroll) return scroll.name
  const [elementId, optionId] = id.split(':')
  const element = elementById(observation, elementId)
  if (!element) return undefined
  const option = optionId === undefined ? undefined : element.options?.find((candidate) => candidate.id === optionId)
  return option ? `${element.name}: ${option.label}` : element.name
}

function notes(entry: TraceEntry): string[] {
  const out: string[] = []
  if (entry.stale) out.push(`Discarded before any input: ${entry.staleReason ?? 'the target changed'}.`)
  if (entry.approved === false) out.push('approve() declined this action.')
  const acted = !entry.stale && entry.operation !== 'DONE' && entry.operation !== 'BLOCKED' && entry.approved !== false
  if (acted && !entry.pageChanged && entry.operation !== 'WAIT') out.push('The page did not change.')
  for (const dialog of entry.dialogs ?? []) out.push(`${dialog.type} "${dialog.message}" was ${dialog.accepted ? 'accepted' : 'dismissed'}.`)
  for (const url of entry.popups ?? []) out.push(`The page opened a new tab at ${url}; it is not followed.`)
  if (entry.openItems?.length) out.push(`DONE refused: the page does not show these checklist items done: ${entry.openItems.join('; ')}.`)
  if (entry.cached) out.push(`Replayed from the cache (${entry.match ?? 'no target'} match), no decision request.`)
  return out
}

function timing(entry: TraceEntry, recordMs: number): StepLine['timing'] {
  const out: StepLine['timing'] = { decisionMs: entry.decisionMs, recordMs: Math.round(recordMs) }
  if (entry.observeMs !== undefined) out.observeMs = entry.observeMs
  if (entry.textMs !== undefined) out.textMs = entry.textMs
  if (entry.actMs !== undefined) out.actMs = entry.actMs
  return out
}

function pickCost(calls: readonly ModelCallRecord[]): StepLine['cost'] {
  const { calls: count, inputTokens, outputTokens, usd } = summarizeCost(calls)
  const cost: StepLine['cost'] = { calls: count, inputTokens, outputTokens, usd }
  return cost
}
