import type { Page } from 'puppeteer-core'
import { isDocumentReplaced } from '../base/gone.ts'
import { callInFrame } from '../browser/page-script.ts'
import type { Snapshot } from '../collector/observation.ts'

export type Observe = (page: Page, options: { previous?: Snapshot; popups?: string[] }) => Promise<Snapshot>

// A navigation that commits while the collector runs destroys the context it runs in.
/** Observations tried before a page that keeps navigating fails with the navigation's error. */
const ATTEMPTS = 3

/**
 * Observes the page; when a navigation replaced the document mid-observation, waits for the new
 * document to be parsed and observes again.
 */
export async function observeSettled(observe: Observe, page: Page, options: { previous?: Snapshot; popups?: string[] }): Promise<Snapshot> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await observe(page, options)
    } catch (error) {
      if (attempt >= ATTEMPTS || !isDocumentReplaced(error)) throw error
      await documentParsed(page)
    }
  }
}

async function documentParsed(page: Page): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    try {
      await callInFrame(page.mainFrame(), 'documentParsed')
      return
    } catch (error) {
      if (!isDocumentReplaced(error)) throw error
    }
  }
}
