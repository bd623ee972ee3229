import test, { type ExecutionContext } from 'ava'
import type { Experimental_DecisionModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { writeText } from '../src/decision/write-text.ts'
import { startChecklist } from '../src/goal/goal-checklist.ts'
import { runGoalLoop, type GoalParts } from '../src/goal/goal-loop.ts'
import agent, { BlockedError } from '../src/index.ts'
import { mergeSettings, parseOptions } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import type { GoalResult, PendingAction } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { captureLog } from './helpers/debug-log.ts'
import { FIXTURES, serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { askedForChecklist, evaluatorModel, scriptedModel, type ScriptStep } from './helpers/goal-scripted-model.ts'
import { textResult, tokenUsage } from './helpers/language-models.ts'

// A login with the caller's credentials on a page that echoes them everywhere it can (its own path,
// an alert, the URL of a GET form, the title, a greeting, a field, the page text, a new tab's URL):
// the real values are typed and the page signs in, while no byte sent to a model, written to disk,
// logged or returned holds them.

const chrome = useChrome(test)
let server: FixtureServer

const USERNAME = 'ada.lovelace@example.org'
const PASSWORD = 's3cr3t pa$$&word'
const SECRETS = { username: USERNAME, password: PASSWORD }
const GOAL = 'Sign in with the username %username% and the password %password%.'
/** The login page under a path that names the user, as a members' page may be: the start URL holds a secret too. */
const PAGE = `members/${USERNAME}/`

test.before(async () => {
  const login = await readFile(join(FIXTURES, 'sites/secrets-login/index.html'))
  server = await serveFixtures({
    routes: [
      (req, res) => {
        if (!req.url?.startsWith('/members/')) return false
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(login)
        return true
      },
    ],
  })
})
test.after.always(() => server?.close())

const STEPS: ScriptStep[] = [
  { operation: 'TYPE_TEXT', target: 'Username' },
  // Rated risky so that approve() is asked, and shows what it is told.
  { operation: 'TYPE_TEXT', target: 'Password', risk: 0.9 },
  { operation: 'CLICK', target: 'Sign in' },
  { operation: 'DONE' },
]

/** Every form a page or a file could hold a value in, lower-cased: as typed, percent- and form-encoded. */
const LEAKS = [USERNAME, PASSWORD].flatMap((value) => [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)].map((form) => form.toLowerCase()))

function leaksIn(text: string): string[] {
  const lower = text.toLowerCase()
  return LEAKS.filter((form) => lower.includes(form))
}

/** Everything the run's models received, serialized as a provider would send it. */
class Sent {
  readonly requests: string[] = []

  decisions(model: Experimental_DecisionModelV4): Experimental_DecisionModelV4 {
    return {
      ...model,
      doDecide: (options) => {
        this.requests.push(JSON.stringify({ state: options.state, questions: options.questions }))
        return model.doDecide(options)
      },
    }
  }

  /** A text model that writes the checklist, and for a field the placeholder its name asks for. */
  text(): MockLanguageModelV4 {
    return new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) => {
        this.requests.push(JSON.stringify(options.prompt))
        if (askedForChecklist(options)) {
          const items = [{ description: 'Signed in as the user', check: { kind: 'text_visible', text: 'Welcome, %username%' } }]
          return textResult(JSON.stringify({ items }), { usage: tokenUsage(300, 60) })
        }
        const { field } = JSON.parse(promptText(options)) as { field: { name: string } }
        const text = /user/i.test(field.name) ? '%username%' : /pass/i.test(field.name) ? '%password%' : '%nope%'
        return textResult(JSON.stringify({ text }), { usage: tokenUsage(50, 5) })
      },
    })
  }
}

function promptText(options: LanguageModelV4CallOptions): string {
  const user = options.prompt.find((message) => message.role === 'user')
  const part = user && Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
  if (!part || part.type !== 'text') throw new Error('text model: no prompt text')
  return part.text
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

/** The console and the debug log while `run` runs: every line the agent could have written. */
async function capturingOutput<T>(run: () => Promise<T>): Promise<{ value: T; output: string[] }> {
  const log = captureLog()
  const output: string[] = []
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const
  const originals = methods.map((method) => console[method])
  for (const method of methods) console[method] = (...args: unknown[]) => void output.push(args.map(String).join(' '))
  try {
    return { value: await run(), output }
  } finally {
    methods.forEach((method, index) => (console[method] = originals[index]!))
    log.restore()
    output.push(...log.lines)
  }
}

async function signIn(t: ExecutionContext, options: { record: string; cache?: string; goal?: string; hash?: string }, steps = STEPS) {
  const page = await chrome.open(t, server.url(`${PAGE}${options.hash ?? ''}`))
  const sent = new Sent()
  const approved: PendingAction[] = []
  const { value: result, output } = await capturingOutput(async () => {
    const result = await agent(page).goal(options.goal ?? GOAL, {
      decisions: sent.decisions(scriptedModel(steps).model),
      text: sent.text(),
      evaluator: sent.decisions(evaluatorModel(0.9)),
      secrets: SECRETS,
      approve: (action) => {
        approved.push(action)
        return true
      },
      record: { dir: options.record, typedValues: true },
      cache: options.cache ?? false,
    })
    await result.profiling()
    return result
  })
  return { page, result, sent, approved, output }
}

async function noLeaks(t: ExecutionContext, run: Awaited<ReturnType<typeof signIn>>, dirs: string[]): Promise<void> {
  t.true(run.sent.requests.length >= 4, `${run.sent.requests.length} model requests`)
  run.sent.requests.forEach((request, index) => t.deepEqual(leaksIn(request), [], `model request ${index + 1}`))
  t.deepEqual(leaksIn(JSON.stringify(run.result)), [], 'the result')
  t.deepEqual(leaksIn(JSON.stringify(run.approved)), [], 'what approve() was told')
  t.deepEqual(leaksIn(run.output.join('\n')), [], 'the console and the debug log')
  t.true(run.output.length > 0, 'the debug log was on')
  for (const dir of dirs) {
    const files = await filesUnder(dir)
    t.true(files.length > 0, `nothing was written to ${dir}`)
    for (const file of files) t.deepEqual(leaksIn((await readFile(file)).toString('latin1')), [], file)
  }
}

async function signedIn(t: ExecutionContext, run: Awaited<ReturnType<typeof signIn>>): Promise<void> {
  const { page } = run
  t.is(await page.$eval('#greeting', (element) => element.textContent), `Welcome, ${USERNAME}`)
  const query = new URL(page.url()).searchParams
  t.is(query.get('username'), USERNAME, 'the real username was typed')
  t.is(query.get('password'), PASSWORD, 'the real password was typed')
}

test.serial('with secrets the run signs in with the real values and no secret reaches a model, the disk, the log or the result', async (t) => {
  const record = await mkdtemp(join(tmpdir(), 'pa-secrets-record-'))
  const cache = await mkdtemp(join(tmpdir(), 'pa-secrets-cache-'))
  const run = await signIn(t, { record, cache })
  const { result } = run
  t.is(result.status, 'success', result.error?.message)
  t.true(result.verified, 'the checklist item "Welcome, %username%" is verified on the scrubbed page')
  await signedIn(t, run)

  t.deepEqual(result.trace.filter((entry) => entry.text !== undefined).map((entry) => entry.text), ['%username%', '%password%'])
  t.deepEqual(run.approved.map((action) => action.text), ['%password%'], 'approve() is asked about the placeholder')
  t.deepEqual(result.trace[2]!.dialogs?.map((dialog) => dialog.message), ['Signing in as %username%'], 'the alert the click raised')
  t.is(result.trace[0]!.url, server.url('members/%username%/'), 'the start page’s own path')
  const done = result.trace.at(-1)!
  t.is(new URL(done.url).searchParams.get('password'), '%password%', 'the URL the form put the password in')
  const last = run.sent.requests.filter((request) => request.includes('"questions"')).at(-2)!
  t.true(last.includes('Welcome, %username%'), 'the model reads the greeting with the placeholder')
  t.true(last.includes('You signed in with the password %password%.'))
  await noLeaks(t, run, [record, cache])
})

test.serial('a replay from the cache types the real values again and keeps them out of everything too', async (t) => {
  const record = await mkdtemp(join(tmpdir(), 'pa-secrets-record-'))
  const cache = await mkdtemp(join(tmpdir(), 'pa-secrets-cache-'))
  const first = await signIn(t, { record, cache })
  t.is(first.result.status, 'success', first.result.error?.message)
  const entry = JSON.parse(await readFile((await filesUnder(cache))[0]!, 'utf8')) as { steps: { text?: string }[] }
  t.is(entry.steps[0]!.text, '%username%', 'the entry keeps the placeholder')

  const replay = await signIn(t, { record, cache }, [{ operation: 'DONE' }])
  t.is(replay.result.status, 'success', replay.result.error?.message)
  t.true(replay.result.trace.slice(0, 3).every((step) => step.cached === true))
  await signedIn(t, replay)
  await noLeaks(t, replay, [record, cache])
})

test.serial('without secrets the same page is a login wall, as before', async (t) => {
  const page = await chrome.open(t, server.url(PAGE))
  const scripted = scriptedModel(STEPS)
  const result: GoalResult = await agent(page).goal('Sign in.', { decisions: scripted.model, text: new Sent().text(), checklist: false })
  t.is(result.status, 'error')
  t.true(result.error instanceof BlockedError)
  t.is((result.error as BlockedError).reason, 'login_wall')
  t.is(result.decisions, 0)
  t.is(scripted.seen.length, 0)
})

test.serial('a goal that spells out a secret is sent, recorded and named with its placeholder', async (t) => {
  const record = await mkdtemp(join(tmpdir(), 'pa-secrets-record-'))
  const run = await signIn(t, { record, goal: `Sign in as ${USERNAME} with the password %password%.` })
  t.is(run.result.status, 'success', run.result.error?.message)
  t.true(run.sent.requests[0]!.includes('Sign in as %username% with the password %password%.'))
  const [folder] = await readdir(record)
  t.regex(folder!, /-goal-sign-in-as-username-with-the-password-/)
  await noLeaks(t, run, [record])
})

test.serial('a new tab opened at a URL holding a secret is told with its placeholder', async (t) => {
  const record = await mkdtemp(join(tmpdir(), 'pa-secrets-record-'))
  const run = await signIn(t, { record, hash: '#popup' })
  const { result } = run
  t.is((result.error as BlockedError | undefined)?.reason, 'unsupported_surface', result.error?.message)
  const tab = server.url('/?tab=%username%')
  t.deepEqual(result.trace[2]!.popups, [tab])
  t.true(result.error!.message.includes(`The page opened a new tab (${tab})`), result.error!.message)
  await noLeaks(t, run, [record])
})

test.serial('a stale reason and an error that quote the page are told with placeholders', async (t) => {
  const page = await chrome.open(t, server.url(PAGE))
  const sent = new Sent()
  let staleOnce = true
  const parts: GoalParts = {
    // As a freshness check names what covers the target, and a failed observation names its frame's URL.
    checkFreshness: async (snapshot, id, options) => {
      if (!staleOnce) return checkFreshness(snapshot, id, options)
      staleOnce = false
      return { fresh: false, reason: `covered by <p> "Not ${USERNAME}?"` }
    },
    observe: async (observed, options) => {
      if (observed.url().includes('?username=')) throw new Error(`The collector script returned no report in frame ${observed.url()}`)
      return observe(observed, options)
    },
    decideStep,
    writeText,
    startChecklist,
  }
  const settings = mergeSettings(parseOptions({ decisions: sent.decisions(scriptedModel([STEPS[0]!, ...STEPS]).model), text: sent.text(), secrets: SECRETS, checklist: false, approve: () => true }))
  const outcome = await runGoalLoop(page, GOAL, settings, parts, createLedger())
  t.is(outcome.status, 'error')
  t.is(outcome.trace[0]!.staleReason, 'covered by <p> "Not %username%?"')
  t.regex(outcome.error!.message, /in frame http:\/\/127\.0\.0\.1:\d+\/members\/%username%\/\?username=%username%&password=%password%$/)
  t.deepEqual(leaksIn(`${outcome.error!.message}\n${outcome.error!.stack}`), [])
  t.deepEqual(leaksIn(JSON.stringify(outcome.trace)), [])
  t.true(sent.requests.some((request) => request.includes('Not %username%?')), 'the next request is told the reason')
  sent.requests.forEach((request, index) => t.deepEqual(leaksIn(request), [], `model request ${index + 1}`))
})
