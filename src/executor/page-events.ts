import type { Dialog, Page } from 'puppeteer-core'
import type { DialogRecord } from '../../types/index.d.ts'

/** Native dialogs and popup tabs of a page during a run, collected until they are taken for the trace. */
export interface PageEvents {
  /** Dialogs answered since the last call. */
  takeDialogs(): DialogRecord[]
  /** URLs of tabs the page opened since the last call. */
  takePopups(): string[]
  dispose(): void
}

/**
 * Answers every native dialog so that none can hang the run: alert, confirm and beforeunload are
 * accepted (the action that raised them was chosen on purpose); prompt is dismissed, because no
 * value is ever made up. Popups are only noted: they are never followed or closed.
 */
export function watchPageEvents(page: Page): PageEvents {
  let dialogs: DialogRecord[] = []
  let popups: Page[] = []

  const onDialog = (dialog: Dialog) => {
    const type = dialog.type() as DialogRecord['type']
    const accepted = type !== 'prompt'
    dialogs.push({ type, message: dialog.message(), accepted })
    const answer = accepted ? dialog.accept() : dialog.dismiss()
    // Another listener of the caller's may have answered it first.
    answer.catch(() => {})
  }
  const onPopup = (popup: Page | null) => {
    if (popup) popups.push(popup)
  }

  page.on('dialog', onDialog)
  page.on('popup', onPopup)
  return {
    takeDialogs() {
      const taken = dialogs
      dialogs = []
      return taken
    },
    takePopups() {
      const taken = popups.map((popup) => popup.url())
      popups = []
      return taken
    },
    dispose() {
      page.off('dialog', onDialog)
      page.off('popup', onPopup)
    },
  }
}
