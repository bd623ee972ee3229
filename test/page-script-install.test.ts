import test from 'ava'
import type { Page } from 'puppeteer-core'
import { frameSession } from '../src/browser/isolated-world.ts'
import { callInFrame } from '../src/browser/page-script.ts'
import { useChrome } from './helpers/chrome.ts'

// How a page script reaches a document: a document this process has not installed it in gets the whole
// script at once (asking first would only be answered "missing"), one that holds it the short stub.

const chrome = useChrome(test)

/** The names of the functions Puppeteer sends the frame's renderer, in order, from now on. */
function sentFunctions(page: Page): string[] {
  const session = frameSession(page.mainFrame())
  const send = session.send.bind(session)
  const sent: string[] = []
  session.send = ((method: string, params?: { functionDeclaration?: string }) => {
    const name = /^(?:async\s+)?function\s+(\w+)/.exec(params?.functionDeclaration ?? '')?.[1]
    if (method === 'Runtime.callFunctionOn' && name) sent.push(name)
    return send(method as never, params as never)
  }) as typeof session.send
  return sent
}

test('a new document is sent the whole script at once, and the stub once it holds it', async (t) => {
  const page = await chrome.page(t)
  await page.setContent('<button>One</button>')
  const sent = sentFunctions(page)
  await callInFrame(page.mainFrame(), 'documentParsed')
  await callInFrame(page.mainFrame(), 'documentParsed')
  t.deepEqual(sent, ['installPageScript', 'callInstalled'])
  // A new document: the frame loaded another one.
  await page.goto('data:text/html,<button>Two</button>')
  await callInFrame(page.mainFrame(), 'documentParsed')
  t.deepEqual(sent.slice(2), ['installPageScript'])
})
