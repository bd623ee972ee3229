import type { Page } from 'puppeteer-core'
import type { Ledger } from '../base/ledger.ts'
import { captureViewport, JPEG_QUALITY } from '../browser/viewport-screenshot.ts'
import { SOURCE_QUALITY } from '../vision/badged-screenshot.ts'
import type { RunListener } from './run-listener.ts'
import type { RunRecorder } from './run-recorder.ts'

// A goal's recording as a listener of its run, so the loop knows nothing of recordings: every observed
// page's screenshot, taken while the model is asked (at vision's quality, as vision sends the same
// one), awaited before input so it shows the page as the step found it; and each finished step's line.

export function recordGoal(recorder: RunRecorder, page: Page, ledger: Ledger, vision: boolean): RunListener {
  return {
    observed(observation) {
      const shot = captureViewport(page, vision ? SOURCE_QUALITY : JPEG_QUALITY)
      recorder.capture(observation, shot)
      return shot
    },
    beforeInput: () => recorder.beforeInput(),
    stepFinished: (step) => recorder.step(step, ledger.calls),
  }
}
