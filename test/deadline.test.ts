import test from 'ava'
import { abortedWithin, deadline, DeadlineArgumentError, finishedWithin, race, within } from '../src/base/deadline.ts'

// The one race of a promise against a signal or a deadline (src/base/deadline.ts): what it settles
// to, when, and what becomes of the promise it leaves behind.

const never = () => new Promise<never>(() => {})
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))
const rejectLater = (ms: number, error: Error) => new Promise<never>((_, reject) => setTimeout(() => reject(error), ms))

/** Rejections no handler took while `run` ran and a little after. */
async function unhandledDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => void unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  try {
    await run()
    await new Promise((resolve) => setTimeout(resolve, 60))
  } finally {
    process.off('unhandledRejection', onUnhandled)
  }
  return unhandled
}

test('race settles as the promise does while the signal has not aborted', async (t) => {
  const controller = new AbortController()
  t.is(await race(later(5, 'answer'), controller.signal), 'answer')
  const failure = new Error('the call failed')
  t.is(await t.throwsAsync(race(rejectLater(5, failure), controller.signal)), failure)
})

test('race rejects with the reason as soon as the signal aborts, and at once when it already has', async (t) => {
  const controller = new AbortController()
  const reason = new Error('the caller gave up')
  setTimeout(() => controller.abort(reason), 10)
  const started = Date.now()
  t.is(await t.throwsAsync(race(never(), controller.signal)), reason)
  t.true(Date.now() - started < 500)
  t.is(await t.throwsAsync(race(later(5, 'too late'), controller.signal)), reason)
})

test('race hands a value that arrives after the abort to discard, and never resolves with it', async (t) => {
  const controller = new AbortController()
  const discarded: string[] = []
  const raced = race(later(20, 'handle'), controller.signal, (late) => void discarded.push(late))
  controller.abort(new Error('stop'))
  await t.throwsAsync(raced, { message: 'stop' })
  await later(40, undefined)
  t.deepEqual(discarded, ['handle'])
})

test("the losing promise's later rejection is absorbed, not unhandled", async (t) => {
  const unhandled = await unhandledDuring(async () => {
    const controller = new AbortController()
    const raced = race(rejectLater(20, new Error('late failure')), controller.signal)
    controller.abort(new Error('stop'))
    await t.throwsAsync(raced, { message: 'stop' })
    await t.throwsAsync(within(rejectLater(20, new Error('late failure')), 5), { name: 'TimeoutError' })
    t.false(await finishedWithin(rejectLater(20, new Error('late failure')), 5))
  })
  t.deepEqual(unhandled, [])
})

test('within rejects with the reason it was given once the time is up, and not before', async (t) => {
  const started = Date.now()
  const error = await t.throwsAsync(within(never(), 30, () => new Error('the store did not answer within 30 ms')))
  t.is(error!.message, 'the store did not answer within 30 ms')
  t.true(Date.now() - started >= 25, 'not before the deadline')
  t.is(await within(later(5, 'in time'), 200), 'in time')
})

test('within rejects with a TimeoutError naming the bound when no reason is given', async (t) => {
  const error = await t.throwsAsync(within(never(), 10))
  t.is(error!.name, 'TimeoutError')
  t.regex(error!.message, /10 ms/)
})

// Serial, so it runs before the others: with nothing else pending, a timer that does not hold the
// process (AbortSignal.timeout's) would let it exit in the middle of the wait.
test.serial('a wait on a deadline keeps the process alive until it ends', async (t) => {
  t.false(await finishedWithin(never(), 30))
})

test('finishedWithin says whether the promise fulfilled in time, and passes its rejection on', async (t) => {
  t.true(await finishedWithin(later(5, 'done'), 200))
  t.false(await finishedWithin(later(200, 'done'), 10))
  await t.throwsAsync(finishedWithin(rejectLater(5, new Error('broken')), 200), { message: 'broken' })
})

test("a deadline aborts with its caller's signal first, and with its own reason when the time is up", async (t) => {
  const caller = new AbortController()
  const bound = deadline(1_000, () => new Error('late'), caller.signal)
  caller.abort(new Error('the caller gave up'))
  t.is((bound.signal.reason as Error).message, 'the caller gave up')
  bound.dispose()

  const timed = deadline(10, () => new DOMException('the model did not answer within 10 ms', 'TimeoutError'), new AbortController().signal)
  await t.throwsAsync(race(never(), timed.signal), { name: 'TimeoutError', message: 'the model did not answer within 10 ms' })
})

test('a disposed deadline does not abort', async (t) => {
  const bound = deadline(10, () => new Error('late'))
  bound.dispose()
  await later(30, undefined)
  t.false(bound.signal.aborted)
})

test('abortedWithin waits for the abort or the bound, whichever is first', async (t) => {
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 5)
  const started = Date.now()
  t.true(await abortedWithin(controller.signal, 1_000))
  t.true(Date.now() - started < 500)
  t.false(await abortedWithin(new AbortController().signal, 10))
})

test('a deadline refuses a bound that is not a number of milliseconds, saying which', (t) => {
  for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    const error = t.throws(() => deadline(ms), { instanceOf: DeadlineArgumentError })
    t.true(error!.message.includes(String(ms)), error!.message)
  }
  t.throws(() => deadline('100' as unknown as number), { message: /string "100"/ })
})
