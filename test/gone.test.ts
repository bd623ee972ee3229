import test from 'ava'
import { isDocumentGone, isDocumentReplaced, isHandleReleased, isPageGone } from '../src/base/gone.ts'

// The one reading of what a failed browser call says went away (src/base/gone.ts), on the messages
// Chrome and Puppeteer give: which count as a replaced document, a gone document, a closed page or a
// released handle, and which are failures of another kind.

const error = (message: string, name = 'Error') => Object.assign(new Error(message), { name })

const REPLACED = [
  'Execution context was destroyed, most likely because of a navigation.',
  'Protocol error (Runtime.callFunctionOn): Cannot find context with specified id',
  'Execution context is not available in detached frame "https://example.com/" (are you trying to evaluate?)',
  'waitForFunction failed: frame got detached.',
  'Navigating frame was detached',
  'Protocol error (DOM.describeNode): Inspected target navigated or closed',
]

const NODE_OR_TARGET_GONE = [
  'Protocol error (DOM.resolveNode): Could not find object with given id',
  'Protocol error (Runtime.callFunctionOn): Argument should belong to the same JavaScript world as target object',
  'Node is detached from document',
  "Attempted to use detached Frame 'F00D'.",
  'Protocol error (Runtime.callFunctionOn): Target closed',
  'Protocol error (Runtime.callFunctionOn): Session closed. Most likely the page has been closed.',
]

const OTHER = [
  'collector script failed',
  'Protocol error (DOM.getNodeForLocation): No node found at given location',
  'Evaluation failed: TypeError: Cannot read properties of null',
  'JSHandle is disposed!',
  'Waiting for selector `#go` failed',
]

test('a navigation that replaced the document is told apart from other failures', (t) => {
  for (const message of REPLACED) t.true(isDocumentReplaced(error(message)), message)
  for (const message of [...NODE_OR_TARGET_GONE, ...OTHER]) t.false(isDocumentReplaced(error(message)), message)
})

test("a handle's document, node, frame or target being gone counts as gone; other failures do not", (t) => {
  for (const message of [...REPLACED, ...NODE_OR_TARGET_GONE]) t.true(isDocumentGone(error(message)), message)
  for (const message of OTHER) t.false(isDocumentGone(error(message)), message)
})

test("a closed page or connection is read from Puppeteer's error class, not its message", (t) => {
  t.true(isPageGone(error('Protocol error (Runtime.evaluate): Target closed', 'TargetCloseError')))
  t.true(isPageGone(error('Connection closed.', 'ConnectionClosedError')))
  t.false(isPageGone(error('Protocol error (Runtime.evaluate): Target closed')))
  t.false(isPageGone(error('Execution context was destroyed', 'ProtocolError')))
})

test('a handle released here is its own case', (t) => {
  t.true(isHandleReleased(error('JSHandle is disposed!')))
  t.false(isHandleReleased(error('Execution context was destroyed')))
  t.false(isDocumentGone(error('JSHandle is disposed!')))
})

test('what is not an Error is never read as gone', (t) => {
  for (const thrown of ['Target closed', { message: 'Target closed' }, undefined, null]) {
    t.false(isDocumentGone(thrown))
    t.false(isDocumentReplaced(thrown))
    t.false(isPageGone(thrown))
    t.false(isHandleReleased(thrown))
  }
})
