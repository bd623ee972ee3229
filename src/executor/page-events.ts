import type { CDPSession, Dialog, Page, Protocol, Target } from 'puppeteer-core'
import type { DialogRecord } from '../../types/index.d.ts'

/** Native dialogs and popup tabs of a page during a run, collected until they are taken for the trace. */
export interface PageEvents {
  /** Dialogs answered since the last call. */
  takeDialogs(): DialogRecord[]
  /** URLs of tabs the page opened since the last call. */
  takePopups(): string[]
  dispose(): Promise<void>
}

/**
 * Answers every native dialog so that none can hang the run: alert, confirm and beforeunload are
 * accepted (the action that raised them was chosen on purpose); prompt is dismissed, because no
 * value is ever made up. Popups are only noted: they are never followed or closed.
 */
export async function watchPageEvents(page: Page): Promise<PageEvents> {
  let dialogs: DialogRecord[] = []
  let popups: string[] = []
  // URLs announced by the page but whose tab has not been created yet, so that it is not reported twice.
  const announced = new Map<string, number>()
  const browser = page.browser()
  const self = page.target()

  const onDialog = (dialog: Dialog) => {
    const type = dialog.type() as DialogRecord['type']
    const accepted = type !== 'prompt'
    dialogs.push({ type, message: dialog.message(), accepted })
    const answer = accepted ? dialog.accept() : dialog.dismiss()
    // Another listener of the caller's may have answered it first.
    answer.catch(() => {})
  }
  // The page announces a new window while the click that opens it is still being handled, well
  // before the browser reports the tab; the tab itself still counts for windows opened by other means.
  const onWindowOpen = (event: Protocol.Page.WindowOpenEvent) => {
    popups.push(event.url)
    announced.set(event.url, (announced.get(event.url) ?? 0) + 1)
  }
  const onTarget = (target: Target) => {
    if (target.type() !== 'page' || target.opener() !== self) return
    const url = target.url()
    const pending = announced.get(url) ?? 0
    if (pending > 0) announced.set(url, pending - 1)
    else popups.push(url)
  }

  let session: CDPSession | undefined
  try {
    session = await page.createCDPSession()
    session.on('Page.windowOpen', onWindowOpen)
    await session.send('Page.enable')
  } catch {
    // A connection that refuses extra sessions still reports popups through the browser's targets.
    session = undefined
  }
  page.on('dialog', onDialog)
  browser.on('targetcreated', onTarget)
  return {
    takeDialogs() {
      const taken = dialogs
      dialogs = []
      return taken
    },
    takePopups() {
      const taken = popups
      popups = []
      return taken
    },
    async dispose() {
      page.off('dialog', onDialog)
      browser.off('targetcreated', onTarget)
      await session?.detach().catch(() => {})
    },
  }
}
