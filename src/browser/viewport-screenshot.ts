import type { Page } from 'puppeteer-core'
import { frameSession } from './isolated-world.ts'
import { within } from '../base/deadline.ts'
import { log } from '../base/log.ts'

// The viewport as a JPEG, for a recording or a decision request's image (vision). Taken through the
// top frame's CDP session, so the page can neither see nor delay it with its own scripts; a page that
// holds the renderer (a dialog, a busy loop) only costs the bound below, and never fails a run.

/** JPEG quality of a recording: text stays readable at 1280×800 and a step's image is about 15–60 KB. */
export const JPEG_QUALITY = 60

/** A capture that takes longer than this is left out: the run does not wait on it. */
export const CAPTURE_TIMEOUT_MS = 3_000

export interface Shot {
  jpeg: Buffer
  /** The viewport in CSS pixels: the coordinates of the observation's boxes. */
  viewport: { width: number; height: number }
  /** The page's address and title as the browser has them. */
  url: string
  title: string
}

/** The viewport now, or undefined when it could not be taken in time (a debug line says why). */
export async function captureViewport(page: Page, quality = JPEG_QUALITY): Promise<Shot | undefined> {
  try {
    return await within(capture(page, quality), CAPTURE_TIMEOUT_MS, () => new Error(`the page did not answer within ${CAPTURE_TIMEOUT_MS} ms`))
  } catch (error) {
    log('screenshot: none taken: %s', error instanceof Error ? error.message : String(error))
    return undefined
  }
}

async function capture(page: Page, quality: number): Promise<Shot> {
  const session = frameSession(page.mainFrame())
  const [metrics, image, history] = await Promise.all([
    session.send('Page.getLayoutMetrics'),
    session.send('Page.captureScreenshot', { format: 'jpeg', quality, optimizeForSpeed: true }),
    session.send('Page.getNavigationHistory'),
  ])
  const { clientWidth, clientHeight } = metrics.cssLayoutViewport
  const entry = history.entries[history.currentIndex]
  return {
    jpeg: Buffer.from(image.data, 'base64'),
    viewport: { width: clientWidth, height: clientHeight },
    url: entry?.url ?? page.url(),
    title: entry?.title ?? '',
  }
}
