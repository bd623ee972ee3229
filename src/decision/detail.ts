import type { Operation } from '../../types/index.d.ts'
import { specOf, type PressKey } from '../operations.ts'
import type { Decision } from './decision.ts'

/** A detail answer as the decision's field: PRESS's `key` or DRAG's `to` (the request offered it). */
export function detailOf(operation: Operation, choice: string): Pick<Decision, 'key' | 'to'> {
  return specOf(operation).detail?.kind === 'key' ? { key: choice as PressKey } : { to: choice }
}
