import type { CDPSession, Dialog, Page, Protocol, Target } from 'puppeteer-core'
import type { DialogRecord } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { LIMITS } from '../collector/limits.ts'

/** Native dialogs and popup tabs of a page during a run, collected until they are taken for the trace. */
export interface PageEvents {
  /** Dialogs answered since the last call: the first few, messages clipped. */
  takeDialogs(): DialogRecord[]
  /** URLs of tabs the page opened since the last call: the first few, clipped. */
  takePopups(): string[]
  /**
   * While on, every dialog is dismissed (a confirm answers "Cancel"): in the consent step no action of
   * the user's raised it, so nothing is confirmed for them.
   */
  dismissAll(on: boolean): void
  /**
   * Settles once popups announced by the page are reported too (a CDP session of its own is opened for
   * them); never rejects. Dialogs and created tabs are watched from the start.
   */
  readonly ready: Promise<void>
  dispose(): Promise<void>
}

/** A session of the page's own for `Page.windowOpen`; undefined where the connection refuses one. */
async function popupSession(page: Page, onWindowOpen: (event: Protocol.Page.WindowOpenEvent) => void): Promise<CDPSession | undefined> {
  let session: CDPSession | undefined
  try {
    session = await page.createCDPSession()
    session.on('Page.windowOpen', onWindowOpen)
    await session.send('Page.enable')
    return session
  } catch {
    // Popups are still reported through the browser's targets.
    await session?.detach().catch(() => {})
    return undefined
  }
}

/**
 * Answers every native dialog so that none can hang the run: alert, confirm and beforeunload are
 * accepted (the action that raised them was chosen on purpose); prompt is dismissed, because no
 * value is ever made up. Popups are only noted: they are never followed or closed. The page decides
 * how many and how long, so only the first few of each are kept per action, clipped.
 * The dialog listener is on before this returns: a dialog the page raises while it is first observed
 * would otherwise hold that observation until the run's end. Only the popup session is opened after.
 */
export function watchPageEvents(page: Page): PageEvents {
  let dialogs: DialogRecord[] = []
  let popups: string[] = []
  let dismissing = false
  // URLs announced by the page but whose tab has not been created yet, so that it is not reported twice.
  // Keyed by the clipped URL, so that the page cannot make the map hold megabytes either.
  const announced = new Map<string, number>()
  const browser = page.browser()
  const self = page.target()

  const notePopup = (clipped: string) => {
    if (popups.length < LIMITS.popupsPerStep) popups.push(clipped)
  }
  const onDialog = (dialog: Dialog) => {
    const type = dialog.type() as DialogRecord['type']
    const accepted = !dismissing && type !== 'prompt'
    if (dialogs.length < LIMITS.dialogsPerStep) dialogs.push({ type, message: clip(dialog.message(), LIMITS.dialogMessageLimit), accepted })
    const answer = accepted ? dialog.accept() : dialog.dismiss()
    // Another listener of the caller's may have answered it first.
    answer.catch(() => {})
  }
  // The page announces a new window while the click that opens it is still being handled, well
  // before the browser reports the tab; the tab itself still counts for windows opened by other means.
  const onWindowOpen = (event: Protocol.Page.WindowOpenEvent) => {
    const url = clip(event.url, LIMITS.urlLimit)
    notePopup(url)
    announced.set(url, (announced.get(url) ?? 0) + 1)
  }
  const onTarget = (target: Target) => {
    if (target.type() !== 'page' || target.opener() !== self) return
    const url = clip(target.url(), LIMITS.urlLimit)
    const pending = announced.get(url) ?? 0
    if (pending > 0) announced.set(url, pending - 1)
    else notePopup(url)
  }

  page.on('dialog', onDialog)
  browser.on('targetcreated', onTarget)
  const opening = popupSession(page, onWindowOpen)
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
    dismissAll(on) {
      dismissing = on
    },
    ready: opening.then(() => undefined),
    async dispose() {
      page.off('dialog', onDialog)
      browser.off('targetcreated', onTarget)
      await (await opening)?.detach().catch(() => {})
    },
  }
}
