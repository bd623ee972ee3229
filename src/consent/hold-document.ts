import type { Page, Protocol } from 'puppeteer-core'
import { clip } from '../clip.ts'
import { LIMITS } from '../collector/limits.ts'
import { frameId } from '../browser/isolated-world.ts'

// The consent step answers a banner for the user; it must not take the page anywhere. A "reject" control
// can be a link to another origin or a button that posts a form (a purchase), and the step does not
// choose which control the library clicks, so while it runs every request for a new document of the main
// frame is stopped before it leaves the browser, and the page stays on the document the goal was given.

/** A navigation of the main frame while the document was held. */
export interface HeldNavigation {
  /** Where the page was being sent, clipped. */
  url: string
  /** True when the document changed anyway (one that needs no request, such as a page kept for Back). */
  left: boolean
}

export interface DocumentHold {
  /** Settles with the first navigation of the main frame; never rejects. */
  readonly navigated: Promise<HeldNavigation>
  /** The first navigation so far, read at once. */
  seen(): HeldNavigation | undefined
  /** Lets navigations through again. */
  release(): Promise<void>
}

/**
 * Stops every main-frame navigation of `page` until released. `Aborted` is the one failure that leaves
 * the current document in place (any other reason commits an error page).
 */
export async function holdDocument(page: Page): Promise<DocumentHold> {
  const main = frameId(page.mainFrame())
  const session = await page.createCDPSession()
  let first: HeldNavigation | undefined
  let resolve!: (navigation: HeldNavigation) => void
  const navigated = new Promise<HeldNavigation>((done) => (resolve = done))
  const settle = (navigation: HeldNavigation) => {
    first ??= navigation
    resolve(first)
  }
  session.on('Fetch.requestPaused', (event: Protocol.Fetch.RequestPausedEvent) => {
    const ours = event.frameId === main
    if (ours) settle({ url: clip(event.request.url, LIMITS.urlLimit), left: false })
    const answer = ours
      ? session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' })
      : session.send('Fetch.continueRequest', { requestId: event.requestId })
    // The session may be detached by then: the request then goes on or ends without us.
    answer.catch(() => {})
  })
  session.on('Page.frameNavigated', (event: Protocol.Page.FrameNavigatedEvent) => {
    if (event.frame.id === main) settle({ url: clip(event.frame.url, LIMITS.urlLimit), left: true })
  })
  try {
    await session.send('Page.enable')
    await session.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] })
  } catch (error) {
    await session.detach().catch(() => {})
    throw error
  }
  return {
    navigated,
    seen: () => first,
    // Fetch and the session live in the browser process, so this returns even while the page is busy.
    release: () => session.detach().catch(() => {}),
  }
}
