import type { Page } from 'puppeteer-core'
import { frameSession, isolatedWorld } from '../browser/isolated-world.ts'

// A click of the consent step can start a handler that never yields (a busy loop, an alert() loop). The
// step itself is abandoned at its bound; what follows needs a page that answers, so a page that does not
// has its running script stopped, as Chrome stops a script that hangs a page.

/** How long a page that is not busy takes to answer one evaluation, with room for a loaded machine. */
const ANSWER_MS = 150

function answers(page: Page, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), false)))
  // A rejection (the script was stopped just as it answered) is an answer too: the page is reachable.
  const answered = isolatedWorld(page.mainFrame()).evaluate(() => true).then(() => true, () => true)
  return Promise.race([answered, late]).finally(() => clearTimeout(timer))
}

/**
 * True when the page answers within `ms`, stopping its running script first if it does not answer at
 * once. `Runtime.terminateExecution` ends a busy loop at once; during an alert() loop Chrome delivers it
 * only seconds later, so such a page is reported as not answering.
 */
export async function regainPage(page: Page, ms: number): Promise<{ answering: boolean; stopped: boolean }> {
  const started = performance.now()
  if (await answers(page, Math.min(ANSWER_MS, ms))) return { answering: true, stopped: false }
  // Sent only to a page that is busy now: with nothing running it would stop the next script instead.
  // Not awaited: Chrome answers it only once delivered, seconds late in an alert() loop.
  frameSession(page.mainFrame()).send('Runtime.terminateExecution').catch(() => {})
  return { answering: await answers(page, ms - (performance.now() - started)), stopped: true }
}
