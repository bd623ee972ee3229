import { APICallError } from 'ai'

// When a failed model request is worth another attempt, and how long to wait before it.

/** First pause between attempts when the provider does not say how long to wait; doubles each time. */
export const BACKOFF_START_MS = 1_000

/**
 * Network errors, 408, 429 and 5xx are worth retrying. Everything else (auth, bad request, refusals,
 * invalid answers, aborts) would fail the same way again. Gateway errors carry the HTTP error as `cause`.
 */
export function isRetryable(error: unknown): boolean {
  for (const candidate of [error, causeOf(error)]) {
    const status = statusOf(candidate)
    if (status !== undefined) return status === 408 || status === 429 || status >= 500
    // A failed fetch has no status; the provider marks it retryable.
    if (APICallError.isInstance(candidate)) return candidate.isRetryable
  }
  return false
}

/** Milliseconds the provider asked us to wait (`retry-after-ms`, then `retry-after` in seconds or as a date). */
export function requestedDelayMs(error: unknown, now = Date.now()): number | undefined {
  const headers = headersOf(error) ?? headersOf(causeOf(error))
  if (!headers) return undefined
  const exact = headers['retry-after-ms']
  if (exact !== undefined && exact.trim() !== '') {
    const ms = Number(exact)
    if (Number.isFinite(ms) && ms >= 0) return ms
  }
  const after = headers['retry-after']
  if (after === undefined || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export function backoffMs(retry: number): number {
  return BACKOFF_START_MS * 2 ** retry
}

function causeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const status = (error as { statusCode?: unknown }).statusCode
  return typeof status === 'number' ? status : undefined
}

function headersOf(error: unknown): Record<string, string> | undefined {
  if (!APICallError.isInstance(error) || !error.responseHeaders) return undefined
  // Header names are case-insensitive; providers pass them through as received.
  return Object.fromEntries(Object.entries(error.responseHeaders).map(([name, value]) => [name.toLowerCase(), value]))
}
