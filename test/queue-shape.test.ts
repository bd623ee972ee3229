// The queue's pure parts: what a job may say, how a retry decides whether to act, how a jobs file is
// read, and how the producer counts each job's end once.
import test from 'ava'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AttemptRecord } from '../types/queue.d.ts'
import { AttemptLog, earlierAttempts, planAttempt } from '../src/queue/attempt-log.ts'
import { JobShapeError, parseJob } from '../src/queue/job-shape.ts'
import { readJobsFile } from '../src/queue/jobs-file.ts'
import { ResultTracker } from '../src/queue/result-tracker.ts'

const RULES = { title: { selector: 'h1' } }
const URL_OK = 'https://shop.test/product/1'

test('a job is completed with its defaults, and the same job always gets the same id', (t) => {
  const job = parseJob({ url: URL_OK, goals: 'Sort by price', extract: { rules: RULES } })
  t.like(job, { url: URL_OK, goals: ['Sort by price'], extract: { rules: RULES }, options: {}, repeatable: false })
  t.regex(job.id, /^job-[0-9a-f]{32}$/)
  t.is(parseJob({ url: URL_OK, goals: ['Sort by price'], extract: { rules: RULES } }).id, job.id)
  t.not(parseJob({ url: URL_OK, goals: ['Sort by name'], extract: { rules: RULES } }).id, job.id)
  t.is(parseJob({ id: 'p-1', url: URL_OK, extract: { instruction: 'the title' } }).id, 'p-1')
})

test('a job of the wrong shape is refused with a JobShapeError naming the field and the value', (t) => {
  const refused = (input: unknown, message: RegExp) => t.throws(() => parseJob(input), { instanceOf: JobShapeError, message })
  refused('https://x.test', /^job must be an object, got "https:\/\/x.test"\.$/)
  refused({ url: URL_OK, extract: { rules: RULES }, script: 'x' }, /unknown field "script"/)
  refused({ url: 'file:///etc/passwd', extract: { rules: RULES } }, /url must be http or https, got "file:\/\/\/etc\/passwd"/)
  refused({ url: 'not a url', extract: { rules: RULES } }, /url is not a URL: "not a url"/)
  refused({ url: URL_OK }, /has nothing to do/)
  refused({ url: URL_OK, goals: ['ok', ''] }, /goals\[1\] must be a non-empty string/)
  refused({ url: URL_OK, goals: 42 }, /goals must be a string or a list/)
  refused({ url: URL_OK, extract: RULES }, /extract must be \{ rules \} or \{ instruction, rules\? \}/)
  refused({ url: URL_OK, extract: {} }, /extract needs rules, an instruction, or both/)
  refused({ url: URL_OK, extract: { rules: 'h1' } }, /extract.rules must be an object of field rules/)
  refused({ url: URL_OK, extract: { rules: { title: { selector: 'h1', when: new Date() } } } }, /extract.rules must be an object/)
  refused({ url: URL_OK, goals: 'x', options: { record: '/tmp' } }, /options.record cannot come from a job; it is set in the worker's --record/)
  refused({ url: URL_OK, goals: 'x', options: { secrets: { password: 'p' } } }, /options.secrets cannot come from a job/)
  refused({ url: URL_OK, goals: 'x', options: { maxStep: 3 } }, /unknown option "maxStep"/)
  refused({ url: URL_OK, goals: 'x', options: { decisions: { doDecide() {} } } }, /options.decisions must be a model id string, got an object/)
  refused({ url: URL_OK, goals: 'x', options: { timeout: 'soon' } }, /Invalid option "timeout" in job options/)
  refused({ url: URL_OK, goals: 'x', repeatable: 'yes' }, /repeatable must be true or false, got "yes"/)
  refused({ id: '12', url: URL_OK, goals: 'x' }, /id must be .* not all digits, got "12"/)
  refused({ id: 'a:b', url: URL_OK, goals: 'x' }, /id must be/)
})

test('plain options pass, as the agent would take them', (t) => {
  const options = { decisions: 'local', text: 'local', maxSteps: 5, checklist: false, consent: 'reject', vision: false } as const
  t.deepEqual(parseJob({ url: URL_OK, goals: 'x', options }).options, options)
})

const record = (attempt: number, stage: AttemptRecord['stage'], goals: AttemptRecord['goals'] = []): AttemptRecord => ({ attempt, worker: `w:${attempt}`, stage, goals })

test('a first attempt is no retry; a later one says how the one before ended and what the earlier ones reached', (t) => {
  t.deepEqual(planAttempt(1, [], 0, false), {})
  const opening = [record(1, 'opening')]
  t.deepEqual(planAttempt(2, opening, 1, false), { retried: { attempt: 2, after: 'stalled', earlierProgress: opening } })
  const failed = [record(1, 'failed')]
  t.deepEqual(planAttempt(2, failed, 0, false), { retried: { attempt: 2, after: 'error', earlierProgress: failed } })
  // The attempt just before left no record (it died before its first write): bullmq's count says how it ended.
  t.like(planAttempt(3, failed, 1, false), { retried: { after: 'stalled' } })
  t.like(planAttempt(3, failed, 0, false), { retried: { after: 'error' } })
})

test('after a goal had started, a retry does not act unless the job is repeatable', (t) => {
  const started = [record(1, 'goal', [{ index: 0, state: 'started' }])]
  const plan = planAttempt(2, started, 1, false)
  t.like(plan, { retried: { attempt: 2, after: 'stalled' } })
  t.regex(plan.interrupted!, /^Attempt 1 \(worker w:1\) had started goals\[0\] and then stopped answering; a goal may have acted/)
  t.deepEqual(planAttempt(2, started, 1, true), { retried: { attempt: 2, after: 'stalled', earlierProgress: started } })
  // A later attempt that did not act (it reported the interruption) does not wipe out the first one's goal.
  const twice = [...started, record(2, 'failed')]
  t.truthy(planAttempt(3, twice, 1, false).interrupted)
  t.regex(planAttempt(2, [record(1, 'failed', [{ index: 1, state: 'finished', status: 'error' }])], 0, false).interrupted!, /goals\[1\], which finished, and then failed/)
  // An extraction does not act: its retry starts over.
  t.is(planAttempt(2, [record(1, 'extract')], 1, false).interrupted, undefined)
})

test('the earlier attempts are read from the progress, leaving out what this module did not write', (t) => {
  const good = record(1, 'goal', [{ index: 0, state: 'started' }])
  t.deepEqual(earlierAttempts({ attempts: [good, { attempt: 'x' }, record(2, 'done')] }, 2), [good])
  t.deepEqual(earlierAttempts(42, 2), [])
  t.deepEqual(earlierAttempts(null, 2), [])
})

test('the attempt log writes every earlier record and its own, before each goal and after it', async (t) => {
  const writes: unknown[] = []
  const earlier = [record(1, 'failed')]
  const log = new AttemptLog(2, 'w:2', earlier, async (progress) => void writes.push(progress))
  await log.update()
  await log.goalStarted(0)
  await log.goalFinished(0, 'success')
  t.deepEqual(writes, [
    { attempts: [...earlier, { attempt: 2, worker: 'w:2', stage: 'opening', goals: [] }] },
    { attempts: [...earlier, { attempt: 2, worker: 'w:2', stage: 'goal', goals: [{ index: 0, state: 'started' }] }] },
    { attempts: [...earlier, { attempt: 2, worker: 'w:2', stage: 'goal', goals: [{ index: 0, state: 'finished', status: 'success' }] }] },
  ])
})

test('a jobs file is JSON lines or a JSON array; a bad job is named by its line', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'jobs-file-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = (name: string, text: string) => writeFile(join(dir, name), text).then(() => join(dir, name))
  const lines = await file('jobs.jsonl', `{"url":"${URL_OK}","extract":{"rules":{"t":{"selector":"h1"}}}}\n\n{"id":"b","url":"${URL_OK}","goals":"x"}\n`)
  t.deepEqual((await readJobsFile(lines)).map((job) => job.url), [URL_OK, URL_OK])
  const array = await file('jobs.json', JSON.stringify([{ id: 'a', url: URL_OK, goals: 'x' }]))
  t.like(await readJobsFile(array), [{ id: 'a' }])
  const bad = await file('bad.jsonl', `{"url":"${URL_OK}","goals":"x"}\n{"url":"${URL_OK}"\n`)
  await t.throwsAsync(readJobsFile(bad), { instanceOf: JobShapeError, message: /bad\.jsonl line 2 is not JSON/ })
  const wrong = await file('wrong.jsonl', `{"url":"${URL_OK}","goals":"x"}\n{"url":"ftp://x"}\n`)
  await t.throwsAsync(readJobsFile(wrong), { message: /wrong\.jsonl line 2: url must be http or https/ })
  await t.throwsAsync(readJobsFile(await file('empty.jsonl', '\n')), { message: /holds no jobs/ })
})

test('the producer counts each job once, whatever events arrive twice, and knows when all have ended', async (t) => {
  const seen: number[] = []
  const tracker = new ResultTracker(['a', 'b'], (progress) => seen.push(progress.completed + progress.failed))
  const result = { id: 'a' } as never
  tracker.active('a')
  t.like(tracker.progress, { active: 1 })
  tracker.completed('a', result)
  tracker.completed('a', result)
  tracker.failed('a', 'late', 1)
  tracker.completed('stranger', result)
  t.like(tracker.progress, { total: 2, completed: 1, failed: 0, active: 0 })
  t.false(await tracker.settledWithin(10))
  const settled = tracker.settledWithin(60_000)
  tracker.failed('b', 'boom', 3)
  t.true(await settled)
  t.deepEqual(tracker.results(), [
    { id: 'a', state: 'completed', result },
    { id: 'b', state: 'failed', error: 'boom', attempts: 3 },
  ])
  t.deepEqual(seen, [0, 1, 2])
})
