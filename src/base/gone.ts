// The one reading of "what a failed call says went away", as Puppeteer keeps its errors in one
// module: a navigation replaced the document, a handle's node or frame left, the page closed, or the
// handle was released here. Each catch of a browser call asks these rather than a pattern of its own,
// so a message Chrome or Puppeteer rewords is learned in one place.

/**
 * A navigation committed while the call ran: its execution context went with the old document, or
 * the frame navigated away from under it. The page lives on and a new document follows.
 */
const DOCUMENT_REPLACED = /context was destroyed|Cannot find context|Execution context is not available|frame got detached|Frame was detached|Inspected target navigated/i

/** A handle's node or frame left its document, or its object is not in the world it was sent to. */
const NODE_GONE = /same JavaScript world|Could not find object|detached/i

/** The page's target or its CDP session closed under the call. */
const TARGET_CLOSED = /Target closed|Session closed/i

/** A handle this process already released (JSHandle is disposed!). */
const RELEASED = /disposed/i

/** Puppeteer's errors for a call whose page or connection went away before it answered. */
const PAGE_GONE_ERRORS = new Set(['TargetCloseError', 'ConnectionClosedError'])

function messageMatches(error: unknown, pattern: RegExp): boolean {
  return error instanceof Error && pattern.test(error.message)
}

/** Whether a navigation replaced the document the call ran in (the page is still there). */
export function isDocumentReplaced(error: unknown): boolean {
  return messageMatches(error, DOCUMENT_REPLACED)
}

/**
 * Whether a handle's document or frame is gone (a navigation, a replaced document, a detached frame
 * or node, a closed target): the handle's world went with it.
 */
export function isDocumentGone(error: unknown): boolean {
  return isDocumentReplaced(error) || messageMatches(error, NODE_GONE) || messageMatches(error, TARGET_CLOSED)
}

/** Whether Puppeteer failed the call because its page closed or its connection was lost. */
export function isPageGone(error: unknown): boolean {
  return error instanceof Error && PAGE_GONE_ERRORS.has(error.name)
}

/** Whether the call was given a handle this process had already released. */
export function isHandleReleased(error: unknown): boolean {
  return messageMatches(error, RELEASED)
}
