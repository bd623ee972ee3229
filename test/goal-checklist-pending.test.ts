import test from 'ava'
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { createLedger } from '../src/base/ledger.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { writeText } from '../src/decision/write-text.ts'
import { startChecklist } from '../src/goal/goal-checklist.ts'
import { runGoalLoop, type GoalParts } from '../src/goal/goal-loop.ts'
import { mergeSettings, parseOptions } from '../src/options.ts'
import type { ChecklistItem } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { askedForChecklist, scriptedModel, type ScriptStep } from './helpers/goal-scripted-model.ts'
import { textResult, tokenUsage } from './helpers/language-models.ts'

// The checklist is written beside the run: its request goes out with the first decision request, which
// does not wait for it; it joins the requests once it is back, a DONE waits for it, a run that stops at
// its first page never sends it, and one that ends while it is out cancels it.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const GOAL = 'Sign up as Ada, ada@example.com, on the Gold plan.'
const EMAIL: ChecklistItem = { description: 'Email holds ada@example.com', check: { kind: 'field_value', field: 'Email', value: 'ada@example.com' } }

/** One turn of the event loop: what the run does with an answer without I/O is done by then. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/**
 * A text model whose checklist answer waits for `answer()` (a slow provider, held by the test rather
 * than a timer), and which types `typed` at once. A cancelled checklist request rejects with its
 * signal's reason, as a provider's does.
 */
function slowWriter(items: ChecklistItem[], typed = 'ada@example.com') {
  const sent = deferred()
  const release = deferred()
  let signal: AbortSignal | undefined
  let answered = false
  const model = new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      if (!askedForChecklist(options)) return textResult(JSON.stringify({ text: typed }), { usage: tokenUsage(50, 5) })
      signal = options.abortSignal
      sent.resolve()
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) reject(signal.reason)
        signal?.addEventListener('abort', () => reject(signal!.reason), { once: true })
        void release.promise.then(resolve)
      })
      answered = true
      return textResult(JSON.stringify({ items }), { usage: tokenUsage(300, 60) })
    },
  })
  return { model, sent: sent.promise, answer: release.resolve, signal: () => signal, answered: () => answered }
}

/** The real parts, with each observation noted. */
function partsNoting(writer: ReturnType<typeof slowWriter>, events: string[]): GoalParts {
  let observations = 0
  void writer.sent.then(() => events.push('checklist sent'))
  return {
    observe: async (page, options) => {
      const snapshot = await observe(page, options)
      observations += 1
      events.push(`observed ${observations}`)
      return snapshot
    },
    checkFreshness,
    decideStep,
    writeText,
    startChecklist,
  }
}

async function goal(t: Parameters<typeof chrome.page>[0], path: string, writer: ReturnType<typeof slowWriter>, steps: ScriptStep[], events: string[]) {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  const scripted = scriptedModel(steps)
  const settings = mergeSettings(parseOptions({ decisions: scripted.model, text: writer.model, approve: () => true }))
  const ledger = createLedger()
  const outcome = await runGoalLoop(page, GOAL, settings, partsNoting(writer, events), ledger)
  return { scripted, outcome, ledger }
}

test('the first decision request goes out before a slow checklist answers, which was sent from the first observation', async (t) => {
  const writer = slowWriter([EMAIL])
  const events: string[] = []
  const steps: ScriptStep[] = [
    {
      operation: 'TYPE_TEXT',
      target: 'Email',
      before: () => {
        events.push(`decision 1 (checklist answered: ${writer.answered()})`)
        writer.answer()
      },
    },
    { operation: 'DONE' },
  ]
  const { scripted, outcome } = await goal(t, 'sites/signup/index.html', writer, steps, events)
  t.is(outcome.error, undefined)
  t.deepEqual(events.slice(0, 3), ['observed 1', 'checklist sent', 'decision 1 (checklist answered: false)'])
  t.is(scripted.seen[0]!.checklist, undefined, 'the first request goes without checklist lines')
  // Back before the second request: it carries the checklist, caught up with the step before it.
  t.deepEqual(scripted.seen[1]!.checklist, [{ id: 'c1', item: 'Email holds ada@example.com', status: 'done' }])
  // The tracker saw the first observation first: the run typed the email, so it is done, not met at the start.
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.like(outcome.checklist, { source: 'model', items: [{ description: 'Email holds ada@example.com', status: 'done' }] })
  t.is(outcome.checklist.items[0]!.unproven, undefined)
})

test('a DONE chosen while the checklist is still being written waits for it and is judged against it', async (t) => {
  const writer = slowWriter([EMAIL])
  const events: string[] = []
  const steps: ScriptStep[] = [
    {
      operation: 'DONE',
      // Answered once the DONE is in the loop's hands, waiting: two turns of the event loop after this request.
      before: () => void turn().then(turn).then(writer.answer),
    },
    { operation: 'TYPE_TEXT', target: 'Email' },
    { operation: 'DONE' },
  ]
  const { scripted, outcome } = await goal(t, 'sites/signup/index.html', writer, steps, events)
  t.is(scripted.seen[0]!.checklist, undefined, 'the DONE was chosen without the checklist')
  // Refused on the checklist that arrived after it, and the model told which item is open.
  t.deepEqual(outcome.trace[0]!.openItems, ['Email holds ada@example.com'])
  t.like(scripted.seen[1]!.recent.at(-1), { operation: 'DONE', outcome: 'not_verified' })
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
})

test('a page that stops the run at its first observation never sends the checklist request', async (t) => {
  const writer = slowWriter([EMAIL])
  const events: string[] = []
  const { outcome, ledger, scripted } = await goal(t, 'sites/secrets-login/index.html', writer, [{ operation: 'DONE' }], events)
  t.is(outcome.failure, 'login_wall')
  t.is(outcome.decisions, 0)
  t.is(scripted.seen.length, 0)
  t.false(events.includes('checklist sent'))
  t.deepEqual(outcome.checklist, { source: 'none', items: [] })
  t.deepEqual(ledger.calls, [])
})

test('a run that ends while the checklist is being written cancels its request, which fails nothing', async (t) => {
  const writer = slowWriter([EMAIL])
  const events: string[] = []
  const steps: ScriptStep[] = [{ operation: 'BLOCKED' }]
  const { outcome, ledger } = await goal(t, 'sites/signup/index.html', writer, steps, events)
  t.is(outcome.failure, 'model_blocked')
  t.true(events.includes('checklist sent'))
  t.true(writer.signal()?.aborted, 'the text model was told the request is cancelled')
  t.false(writer.answered())
  t.like(outcome.checklist, { source: 'none', items: [] })
  t.deepEqual(
    ledger.calls.filter((call) => call.purpose === 'checklist').map((call) => [call.inputTokens ?? 0, call.outputTokens ?? 0]),
    [[0, 0]],
  )
})
