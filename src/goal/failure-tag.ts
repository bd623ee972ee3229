import type { FailureTag } from '../../types/index.d.ts'
import { BlockedError, PageGoneError } from '../errors.ts'

/** What the run was waiting on when it failed: a model, or the page. */
export type Phase = 'model' | 'page'

/**
 * One tag per failed run, so that runs can be counted by cause: the stop reason of a BlockedError; an
 * abort by the caller; the page or browser gone; otherwise whatever the run was waiting on failed.
 */
export function failureTag(error: Error, context: { phase: Phase; callerAborted: boolean }): FailureTag {
  if (error instanceof BlockedError) return error.reason
  if (context.callerAborted) return 'aborted'
  if (error instanceof PageGoneError) return 'page_gone'
  return context.phase === 'model' ? 'model_failed' : 'page_failed'
}
