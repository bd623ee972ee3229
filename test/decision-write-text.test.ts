import test from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { mergeSettings, type Settings } from '../src/options.ts'
import { createLedger } from '../src/profiling/ledger.ts'
import { writeText } from '../src/decision/write-text.ts'
import { textResult, tokenUsage } from './helpers/language-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

const field = observedElement('e2', {
  role: 'textbox',
  name: 'Search',
  tag: 'input',
  type: 'search',
  value: '',
  operations: ['type'],
  form: { name: 'search', fields: { category: 'cars' } },
  nearby: 'Find anything',
})

const observation = pageObservation({ url: 'https://shop.test/', title: 'Shop', text: 'Find anything', elements: [field], signature: 's' })

/** The model's reply: `text`, or no content at all for '', with 40 input and 8 output tokens. */
function result(text: string, finish: 'stop' | 'length' = 'stop'): LanguageModelV4GenerateResult {
  return textResult(text, {
    ...(text === '' && { content: [] }),
    finishReason: { unified: finish, raw: finish },
    usage: tokenUsage(40, 8),
  })
}

function write(reply: string | LanguageModelV4GenerateResult, settings: Partial<Settings> = {}) {
  const model = new MockLanguageModelV4({ doGenerate: typeof reply === 'string' ? result(reply) : reply })
  const ledger = createLedger()
  const run = writeText({
    goal: 'search for "bmw x3"',
    observation,
    target: field,
    recent: [{ operation: 'CLICK', targetName: 'Search', outcome: 'page_changed' }],
    settings: mergeSettings({ text: model, ...settings }),
    ledger,
  })
  return { model, ledger, run }
}

test('writes the value from exactly {"text": …} with a 1,024-token budget and reasoning off', async (t) => {
  const { model, ledger, run } = write('{"text":"bmw x3"}')
  const { text, textMs } = await run
  t.is(text, 'bmw x3')
  t.is(typeof textMs, 'number')
  const call = model.doGenerateCalls[0]!
  t.is(call.maxOutputTokens, 1024)
  t.is(call.reasoning, 'none')
  t.is(call.responseFormat?.type, 'json')
  const prompt = JSON.stringify(call.prompt)
  t.true(prompt.includes('bmw x3'), 'the goal is in the prompt')
  t.true(prompt.includes('Search'), 'the field is described')
  t.like(ledger.calls[0], { purpose: 'text', inputTokens: 40, outputTokens: 8 })
})

test('reasoning is used when the option sets it', async (t) => {
  const { model, run } = write('{"text":"a"}', { reasoning: 'low' })
  await run
  t.is(model.doGenerateCalls[0]!.reasoning, 'low')
})

test('a value of exactly 2,000 characters is accepted', async (t) => {
  const { run } = write(JSON.stringify({ text: 'x'.repeat(2000) }))
  t.is((await run).text.length, 2000)
})

const failClosed: [string, string | LanguageModelV4GenerateResult][] = [
  ['null text', '{"text":null}'],
  ['null', 'null'],
  ['extra key', '{"text":"a","note":"b"}'],
  ['array', '[{"text":"a"}]'],
  ['invalid JSON', '{"text":"a"'],
  ['plain text', 'bmw x3'],
  ['empty string', '{"text":""}'],
  ['whitespace only', '{"text":"   "}'],
  ['too long', JSON.stringify({ text: 'x'.repeat(2001) })],
  ['a number', '{"text":42}'],
  ['no output', result('', 'length')],
]

for (const [name, reply] of failClosed) {
  test(`fails closed on ${name}`, async (t) => {
    const { model, run } = write(reply)
    const error = await t.throwsAsync(run)
    t.regex(error!.name, /AI_NoObjectGeneratedError|AI_NoOutputGeneratedError/)
    t.is(model.doGenerateCalls.length, 1, 'never retried')
  })
}

test("text: 'local' types the text quoted in the goal", async (t) => {
  const { text } = await writeText({
    goal: 'search for "bmw x3"',
    observation,
    target: field,
    recent: [],
    settings: mergeSettings({ text: 'local' }),
    ledger: createLedger(),
  })
  t.is(text, 'bmw x3')
})
