import type { BlockedReason, TraceEntry } from '../types/index.d.ts'

/** The agent stopped the run itself; `reason` says why. */
export class BlockedError extends Error {
  readonly code = 'BLOCKED' as const
  readonly reason: BlockedReason
  readonly trace: TraceEntry[]

  constructor(reason: BlockedReason, message: string, trace: TraceEntry[]) {
    super(message)
    this.name = 'BlockedError'
    this.reason = reason
    this.trace = trace
  }
}

/** The page closed or crashed, or the browser disconnected, while an agent call was using it. */
export class PageGoneError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'PageGoneError'
  }
}

/** Thrown synchronously (or as a rejection before anything runs) when the API is called wrong. */
export class UsageError extends TypeError {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** Keeps an Error as it is; wraps anything else thrown, with the original as `cause`. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown
  const text = typeof thrown === 'string' ? thrown : safeJson(thrown)
  return new Error(`Non-error thrown: ${text}`, { cause: thrown })
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
