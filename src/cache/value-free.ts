import { scrubberOf } from '../secrets/scrub.ts'
import type { RecordedStep, RecordedTarget } from './goal-entry.ts'

// With `typedValues: false` an entry must not reveal what was typed. Values and the goal (which may
// carry one: a coupon code) are left out by the caller; what is left here is what the page showed:
// a fingerprint hashes the control's value and its form's values (a short code is found again from
// its hash by trying them all), and a page echoes a typed value in names, nearby text and titles.

/** What a typed value is replaced by in the page's strings. */
export const TYPED_MARK = '(typed value)'

/** `steps` without fingerprints, and with each of `typed` replaced by TYPED_MARK wherever the page showed it. */
export function withoutValues(steps: readonly RecordedStep[], typed: readonly string[]): RecordedStep[] {
  const scrub = scrubberOf(typed.filter((value) => value !== '').map((value) => ({ name: 'typed', value, placeholder: TYPED_MARK })))
  const target = (recorded: RecordedTarget): RecordedTarget => {
    const clean: RecordedTarget = { ...recorded, name: scrub(recorded.name) }
    delete clean.fingerprint
    if (recorded.nearby !== undefined) clean.nearby = scrub(recorded.nearby)
    if (recorded.form !== undefined) clean.form = scrub(recorded.form)
    return clean
  }
  return steps.map((step) => {
    const clean: RecordedStep = { ...step, page: { shape: step.page.shape, title: scrub(step.page.title) } }
    if (step.target) clean.target = target(step.target)
    if (step.to !== undefined && typeof step.to !== 'string') clean.to = target(step.to)
    if (step.option !== undefined) clean.option = scrub(step.option)
    if (step.scroll !== undefined) clean.scroll = scrub(step.scroll)
    return clean
  })
}
