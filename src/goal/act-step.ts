import type { Snapshot } from '../collector/observation.ts'
import type { ActionOutcome, CheckFreshness } from '../executor/act.ts'
import { perform, type WhileSettling } from '../executor/perform.ts'
import type { RunSignal } from '../call/run-signal.ts'
import type { Settings } from '../options.ts'
import { fillPlaceholders, namesSecret } from '../secrets/placeholders.ts'
import type { Page } from 'puppeteer-core'
import type { RunListeners } from './run-listeners.ts'
import type { Step } from './step.ts'
import type { TextEdit } from '../../types/index.d.ts'

// A step handed to the executor, which guards, inputs and settles: the one place a secret's value
// replaces its placeholder, and the last moment a listener may hold the input back.

export interface ActContext {
  page: Page
  settings: Pick<Settings, 'secrets' | 'waitMs'>
  run: RunSignal
  checkFreshness: CheckFreshness
  listeners: RunListeners
  /** Told when the input has reached the page, while it settles (the loop observes it meanwhile). */
  whileSettling: WhileSettling
}

/** A step carried out: what the input did, and whether an observation made while settling stands. */
export interface Acted {
  outcome: ActionOutcome
  observationStands: boolean
}

/** An edit's quoted passage as the field holds it: a placeholder stands for the secret's value there too. */
function editFilled(edit: TextEdit | undefined, secrets: Settings['secrets']): TextEdit | undefined {
  return edit?.mode === 'append' || edit === undefined ? edit : { mode: edit.mode, quote: fillPlaceholders(edit.quote, secrets) }
}

/** Carries the step out; its trace entry keeps the time it took. Throws what the input threw. */
export async function actStep(step: Step, snapshot: Snapshot, text: string | undefined, context: ActContext): Promise<Acted> {
  const { run, settings } = context
  // Keys go to a page's own listener, which may show them as they come (a terminal echoes them): a
  // secret goes only into a field, which holds it as its value.
  if (text !== undefined && step.element?.operations.includes('keys') && namesSecret(text, settings.secrets)) {
    throw new Error(`TYPE_TEXT wrote a secret for ${step.named}, which reads keys and is no field: a secret is typed only into a field, and nothing was typed.`)
  }
  const input = {
    page: context.page,
    snapshot,
    decision: step.decision,
    element: step.element,
    // Everything else (trace, requests, recording, cache) keeps the placeholder.
    text: text === undefined ? undefined : fillPlaceholders(text, settings.secrets),
    edit: editFilled(step.entry.edit, settings.secrets),
    waitMs: settings.waitMs,
    signal: run.signal,
    checkFreshness: context.checkFreshness,
  }
  // A listener that shows the page before the input (a recording's screenshot) holds it until then.
  const held = context.listeners.beforeInput()
  if (held) await run.race(held)
  const performed = await perform(input, (promise) => run.race(promise), context.whileSettling)
  step.entry.actMs = performed.actMs
  if ('error' in performed) throw performed.error
  return { outcome: performed.outcome, observationStands: performed.observationStands }
}
