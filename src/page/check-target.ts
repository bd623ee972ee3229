import { focusedElement } from './capabilities.ts'
import { isConnectedNode } from './dom-safe.ts'
import { disabled, visibility } from './visibility.ts'
import { describe, fingerprintOf, PART_REASONS, subjectOf } from './describe-control.ts'
import { registry } from './node-ids.ts'
import type { CheckReport, CheckRequest } from './types.ts'

// The freshness check, just before input: the target is the same node of the same document, enabled,
// described the same way as when the model saw it, visible, and (for typing) focused.

/** `target` is the element the model chose; the first failed check is the reason. */
export function check(target: Element | null, request: CheckRequest): CheckReport {
  if (!target) return { reason: 'detached' }
  const found = registry(null)
  if (!found || found.doc !== request.nodeId.slice(0, request.nodeId.indexOf(':'))) return { reason: 'document changed' }
  if (!isConnectedNode(target)) return { reason: 'detached' }
  if (found.ids.get(target) !== request.nodeId) return { reason: 'node changed' }
  if (disabled(subjectOf(target))) return { reason: 'disabled' }
  const now = fingerprintOf(describe(target, request).parts).split('.')
  const then = request.fingerprint.split('.')
  for (let i = 0; i < PART_REASONS.length; i++) {
    if (now[i] !== then[i]) return { reason: PART_REASONS[i]! }
  }
  const seen = visibility(target)
  if ('reason' in seen) return { reason: seen.reason }
  if (request.focused) {
    if (focusedElement(document) !== subjectOf(target)) return { reason: 'not focused', at: seen.at }
  }
  return { reason: null, at: seen.at }
}
