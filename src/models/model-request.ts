import { setTimeout as delay } from 'node:timers/promises'
import { deadline, race } from '../base/deadline.ts'
import { recordCall, type Ledger, type ModelCallRecord } from '../base/ledger.ts'
import { reportFailure, type CallReport } from './call-report.ts'
import { backoffMs, isRetryable, requestedDelayMs } from './retry-policy.ts'

/** One attempt: gets the request's signal and a callback for what the provider reported. */
export type Attempt<T> = (signal: AbortSignal, report: (figures: CallReport) => void) => Promise<T>

/** The settings every model request reads (the caller's `Settings` holds them). */
export interface RequestSettings {
  timeout: number
  maxRetries: number
  maxRetryAfterMs: number
  signal: AbortSignal | undefined
}

export interface ModelRequest<T> {
  settings: RequestSettings
  ledger: Ledger
  purpose: ModelCallRecord['purpose']
  /** Names the model in errors, e.g. `decision model "typesafe-ai/jev"`. */
  description: string
  attempt: Attempt<T>
}

/**
 * Runs a model request under the agent's rules: one `timeout` for all attempts and pauses, combined
 * with the caller's `signal`; a reply after the deadline is discarded even when the model ignored the
 * abort; retries only what `isRetryable` allows, at most `maxRetries` times, honouring Retry-After up
 * to `maxRetryAfterMs`; and one ledger record per attempt, timed with the pause that follows it.
 * Throws the error as the provider raised it, or the signal's reason when it was aborted or timed out.
 */
export async function runModelRequest<T>(request: ModelRequest<T>): Promise<T> {
  const { settings, ledger, purpose, description } = request
  const bound = deadline(
    settings.timeout,
    () => new DOMException(`The ${description} did not answer within the timeout of ${settings.timeout} ms.`, 'TimeoutError'),
    settings.signal,
  )
  const signal = bound.signal
  try {
    for (let retry = 0; ; retry++) {
      signal.throwIfAborted()
      const started = performance.now()
      let figures: CallReport | undefined
      let recorded = false
      const record = (fallback: CallReport) => {
        if (recorded) return
        recorded = true
        recordCall(ledger, { purpose, ms: performance.now() - started, ...(figures ?? fallback) })
      }
      try {
        const result = await race(
          request.attempt(signal, (reported) => {
            // A reply that lands after its attempt was recorded (timeout, abort) is not counted twice.
            if (!recorded) figures = reported
          }),
          signal,
        )
        record({ generationIds: [] })
        return result
      } catch (error) {
        const failure = reportFailure(error)
        if (signal.aborted || retry >= settings.maxRetries || !isRetryable(error)) {
          record(failure)
          throw signal.aborted ? signal.reason : error
        }
        const requested = requestedDelayMs(error)
        if (requested !== undefined && requested > settings.maxRetryAfterMs) {
          record(failure)
          throw new Error(
            `The ${description} asked to retry after ${Math.round(requested)} ms, longer than maxRetryAfterMs (${settings.maxRetryAfterMs} ms).`,
            { cause: error },
          )
        }
        try {
          await pause(requested ?? Math.min(backoffMs(retry), settings.maxRetryAfterMs), signal)
        } finally {
          // The run waits on the model during the pause as much as during the attempt: recorded once
          // it ends, the attempt's time includes it, so it counts in modelMs rather than otherMs.
          record(failure)
        }
      }
    }
  } finally {
    bound.dispose()
  }
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch (error) {
    throw signal.aborted ? signal.reason : error
  }
}
