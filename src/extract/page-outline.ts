import type { Page } from 'puppeteer-core'
import { callInFrame } from '../browser/page-script.ts'
import type { OutlineLimits, PageOutline } from '../page/outline.ts'

export type { OutlineLimits, PageOutline } from '../page/outline.ts'

export const OUTLINE_LIMITS: OutlineLimits = { maxChars: 14_500, textChars: 80, similarShown: 3, maxWaitMs: 3_000, intervalMs: 250 }

/** Takes the outline of the page's main frame in one `evaluate`, in its isolated world. */
export function takeOutline(page: Page, limits: OutlineLimits = OUTLINE_LIMITS): Promise<PageOutline> {
  return callInFrame(page.mainFrame(), 'outline', limits)
}
