import { log } from './log.ts'

// The one way the agent bounds a wait: a promise raced against a signal (the caller's, a run's) or a
// deadline, so that every bounded wait aborts, times out and leaves its loser behind the same way.
// Signals are combined with AbortSignal.any. The deadline's own timer is a plain setTimeout, not
// AbortSignal.timeout: Node unrefs that one's timer, so a process with nothing else to wait on would
// exit in the middle of a bounded wait (a store that never answers, test/cache-store.test.ts), and it
// cannot be cleared once the wait is over.

/** A signal that aborts at a deadline, or earlier with the signal it was combined with. */
export interface Deadline {
  readonly signal: AbortSignal
  /** Clears the timer; the signal then aborts only with the one it was combined with. */
  dispose(): void
}

/** A wait's bound was given as something other than a number of milliseconds the timer can keep. */
export class DeadlineArgumentError extends RangeError {
  constructor(ms: unknown) {
    const given = typeof ms === 'number' ? String(ms) : `${typeof ms} ${typeof ms === 'string' ? JSON.stringify(ms) : String(ms)}`
    super(`A deadline takes a finite number of milliseconds, 0 or more; it was given ${given}.`)
    this.name = 'DeadlineArgumentError'
  }
}

/** What a deadline aborts with when its caller names no reason of its own. */
function timeoutReason(ms: number): DOMException {
  return new DOMException(`The wait did not end within ${ms} ms.`, 'TimeoutError')
}

/**
 * A signal that aborts after `ms` with `reason()` (made when the time is up), or earlier with
 * `signal`'s own reason. Dispose it once the wait is over.
 */
export function deadline(ms: number, reason: () => unknown = () => timeoutReason(ms), signal?: AbortSignal): Deadline {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new DeadlineArgumentError(ms)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(reason()), ms)
  return {
    signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    dispose: () => clearTimeout(timer),
  }
}

/**
 * Settles as `promise` does, or rejects with `signal`'s reason as soon as it aborts (at once when it
 * already has). The promise left behind keeps running: its rejection is absorbed, never unhandled, and
 * a value it resolves to later goes to `discard` (a handle to release, say).
 */
export function race<T>(promise: Promise<T>, signal: AbortSignal, discard?: (late: T) => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let left = false
    const onAbort = () => {
      left = true
      reject(signal.reason)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        if (!left) resolve(value)
        else if (discard) void Promise.resolve().then(() => discard(value)).catch(logDiscardFailure)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        // Once the signal has aborted this settles nothing: the rejection is absorbed here.
        reject(error)
      },
    )
  })
}

function logDiscardFailure(error: unknown): void {
  log('deadline: discarding a late value failed: %s', error instanceof Error ? error.message : String(error))
}

/** Settles as `promise` does, or rejects with `reason()` once `ms` have passed. */
export async function within<T>(promise: Promise<T>, ms: number, reason?: () => unknown): Promise<T> {
  const bound = deadline(ms, reason)
  try {
    return await race(promise, bound.signal)
  } finally {
    bound.dispose()
  }
}

/**
 * Whether `promise` fulfilled within `ms`: false once they have passed, and its rejection when it
 * rejects first. What it settles to later is absorbed (or goes to `discard`).
 */
export async function finishedWithin<T>(promise: Promise<T>, ms: number, discard?: (late: T) => unknown): Promise<boolean> {
  const bound = deadline(ms)
  try {
    await race(promise, bound.signal, discard)
    return true
  } catch (error) {
    if (bound.signal.aborted && error === bound.signal.reason) return false
    throw error
  } finally {
    bound.dispose()
  }
}

/** Waits until `signal` aborts or `ms` have passed, whichever is first; true when it aborted. */
export async function abortedWithin(signal: AbortSignal, ms: number): Promise<boolean> {
  const bound = deadline(ms, undefined, signal)
  try {
    if (!bound.signal.aborted) await new Promise((resolve) => bound.signal.addEventListener('abort', resolve, { once: true }))
  } finally {
    bound.dispose()
  }
  return signal.aborted
}
