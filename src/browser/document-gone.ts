/**
 * Whether an error is what Chrome and Puppeteer say when a handle's document or frame is gone (a
 * navigation, a replaced document, a detached frame, a closed target): the handle's world went with it.
 */
export function isDocumentGone(error: unknown): boolean {
  return error instanceof Error && DOCUMENT_GONE.test(error.message)
}

const DOCUMENT_GONE =
  /context was destroyed|Cannot find context|Execution context is not available|same JavaScript world|Could not find object|Target closed|detached|Session closed/i
