import test from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { mergeSettings, parseOptions, type Settings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { REQUEST_LIMITS } from '../src/decision/request-bounds.ts'
import { textPrompt, writeText } from '../src/decision/write-text.ts'
import { describeElement } from '../src/collector/describe-element.ts'
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

test('writes the value from exactly {"text": …} with a 2,048-token budget and reasoning off', async (t) => {
  const { model, ledger, run } = write('{"text":"bmw x3"}')
  const { text, textMs } = await run
  t.is(text, 'bmw x3')
  t.is(typeof textMs, 'number')
  const call = model.doGenerateCalls[0]!
  t.is(call.maxOutputTokens, 2048)
  t.is(call.reasoning, 'none')
  t.is(call.responseFormat?.type, 'json')
  const prompt = JSON.stringify(call.prompt)
  t.true(prompt.includes('bmw x3'), 'the goal is in the prompt')
  t.true(prompt.includes('Search'), 'the field is described')
  t.like(ledger.calls[0], { purpose: 'text', inputTokens: 40, outputTokens: 8 })
})

test('the model is told that its text replaces the field\'s value and cannot be empty (an empty reply fails closed)', async (t) => {
  const { model, run } = write('{"text":"bmw x3"}')
  await run
  const system = model.doGenerateCalls[0]!.prompt.find((message) => message.role === 'system')
  t.regex(String(system?.content), /replaces what the field holds, and cannot be empty/)
})

test('reasoning is used when the option sets it', async (t) => {
  const { model, run } = write('{"text":"a"}', { reasoning: 'low' })
  await run
  t.is(model.doGenerateCalls[0]!.reasoning, 'low')
})

test('a value of exactly 5,000 characters is accepted', async (t) => {
  const { run } = write(JSON.stringify({ text: 'x'.repeat(5000) }))
  t.is((await run).text.length, 5000)
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
  ['too long', JSON.stringify({ text: 'x'.repeat(5001) })],
  ['a number', '{"text":42}'],
  ['no output', result('', 'length')],
]

for (const [name, reply] of failClosed) {
  test(`fails closed on ${name}`, async (t) => {
    const { model, run } = write(reply)
    const error = await t.throwsAsync(run)
    // Said with the field and what was wrong; the SDK's error stays the cause.
    t.regex(error!.message, /^The text model gave no usable value to type into "Search" \(.+\): nothing was typed\.$/)
    t.regex((error!.cause as Error).name, /AI_NoObjectGeneratedError|AI_NoOutputGeneratedError/)
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

/** The JSON the text model reads, and the instructions above it, from a call of the mock model. */
function sent(model: MockLanguageModelV4): { prompt: Record<string, unknown>; instructions: string } {
  const messages = model.doGenerateCalls[0]!.prompt
  const system = messages.find((message) => message.role === 'system')
  const user = messages.find((message) => message.role === 'user')
  const part = user && Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
  if (!system || typeof system.content !== 'string' || !part || part.type !== 'text') throw new Error('no instructions or prompt text')
  return { prompt: JSON.parse(part.text) as Record<string, unknown>, instructions: system.content }
}

const orderPage = pageObservation({
  url: 'https://shop.test/order',
  title: 'Order',
  text: 'Your order number is A-1042.',
  elements: [
    observedElement('e1', { role: 'textbox', name: 'Order number', tag: 'input', type: 'text', value: 'A-1042', operations: ['type'] }),
    observedElement('e2', { role: 'textbox', name: 'Empty', tag: 'input', type: 'text', value: '', operations: ['type'] }),
    observedElement('e3', { role: 'button', name: 'Send' }),
    observedElement('e4', { role: 'textbox', name: 'Reference', tag: 'input', type: 'text', value: '', operations: ['type'] }),
  ],
})

test('the request carries the page text and the other fields’ values, and says to copy from them when the goal asks', async (t) => {
  const model = new MockLanguageModelV4({ doGenerate: result('{"text":"A-1042"}') })
  await writeText({
    goal: 'Copy the order number shown on the page into the Reference box.',
    observation: orderPage,
    target: orderPage.elements[3]!,
    recent: [],
    settings: mergeSettings({ text: model }),
    ledger: createLedger(),
  })
  const { prompt, instructions } = sent(model)
  t.deepEqual(prompt.other_fields, [{ name: 'Order number', value: 'A-1042' }], 'fields with a value, the target and empty ones left out')
  t.like(prompt.page, { text: 'Your order number is A-1042.' })
  t.regex(instructions, /Take values from the goal\. When the goal says to copy or use something shown on the page, take it from the page text or from the other fields' values/)
  t.false('secrets' in prompt)
  t.notRegex(instructions, /placeholder/, 'no secrets, no word of them')
})

test('a date or time field carries the format its value is written in; a text field none', (t) => {
  const departure = observedElement('e1', { role: 'textbox', name: 'Depart', tag: 'input', type: 'date', value: '', operations: ['type'] })
  const at = observedElement('e2', { role: 'textbox', name: 'At', tag: 'input', type: 'time', value: '', operations: ['type'] })
  const observation = pageObservation({ url: 'https://air.test/', elements: [departure, at, field] })
  const format = (target: typeof field) => (textPrompt({ goal: 'Fly on 20 June at half past two.', observation, target, recent: [] }).field as { format?: string }).format
  t.is(format(departure), 'YYYY-MM-DD')
  t.is(format(at), 'hh:mm')
  t.is(format(field), undefined)
})

test('the field is described exactly as the decision request describes it, with its whole value', (t) => {
  // A textarea's multiline and a field's state were dropped: the model wrote one line into a paragraph field.
  const notes = observedElement('e3', {
    role: 'textbox',
    name: 'Notes',
    tag: 'textarea',
    multiline: true,
    value: 'a'.repeat(1_500),
    state: { expanded: false },
    operations: ['type'],
    form: { name: 'booking', fields: {} },
    nearby: 'Anything we should know',
  })
  const observation = pageObservation({ url: 'https://shop.test/', elements: [field, notes] })
  const described = textPrompt({ goal: 'Add a note.', observation, target: notes, recent: [] }).field
  // The decision request shows the first 1,000 characters; the text request the whole value, to rewrite it.
  const { value_omitted: shownInPart, ...decided } = describeElement(notes)
  t.truthy(shownInPart)
  t.deepEqual(described, { ...decided, value: notes.value })
  t.like(described, { id: 'e3', multiline: true, state: { expanded: false }, form: 'booking', nearby: 'Anything we should know' })
})

test('a field named by its place says so, as in the decision request', (t) => {
  const unnamed = observedElement('e1', { role: 'textbox', name: 'text field 1', nameFrom: 'position', tag: 'input', type: 'text', value: '', operations: ['type'] })
  const observation = pageObservation({ url: 'https://shop.test/', elements: [unnamed] })
  t.like(textPrompt({ goal: 'Type "x".', observation, target: unnamed, recent: [] }).field, { name: 'text field 1', name_from: 'position' })
})

test('at most 30 other fields are carried, each value cut to its start with the count of what was left out', (t) => {
  const elements = Array.from({ length: 40 }, (_, i) =>
    observedElement(`e${i + 1}`, { role: 'textbox', name: `Field ${i + 1}`, tag: 'input', type: 'text', value: `${i + 1}:${'v'.repeat(1_000)}`, operations: ['type'] }),
  )
  const observation = pageObservation({ url: 'https://shop.test/', elements })
  const prompt = textPrompt({ goal: 'Copy field 2 into field 1.', observation, target: elements[0]!, recent: [] })
  const fields = prompt.other_fields as { name: string; value: string; value_omitted: unknown }[]
  t.is(fields.length, 30)
  t.deepEqual(fields.map((field) => field.name), elements.slice(1, 31).map((element) => element.name))
  t.deepEqual(fields[0], { name: 'Field 2', value: `2:${'v'.repeat(298)}`, value_omitted: { before: 0, after: 702 } })
  t.true(fields.every((field, i) => field.value === elements[i + 1]!.value!.slice(0, 300)))
})

test('on a huge page the request keeps within the bound: text, then history, then the last other fields give way, never the goal', (t) => {
  const elements = Array.from({ length: 40 }, (_, i) =>
    observedElement(`e${i + 1}`, { role: 'textbox', name: 'n'.repeat(80), tag: 'input', type: 'text', value: 'v'.repeat(1_000), operations: ['type'] }),
  )
  // Control characters: six characters each in JSON, the costliest text a page can hold.
  const observation = pageObservation({ url: 'https://shop.test/', text: '\u0001'.repeat(6_000), elements })
  const recent = Array.from({ length: 12 }, () => ({ operation: 'TYPE_TEXT' as const, targetName: 'n', text: 't'.repeat(2_000), outcome: 'page_changed' as const, detail: 'd'.repeat(2_000) }))
  const goal = `Copy the first field. ${'g'.repeat(25_000)}`
  const prompt = textPrompt({ goal, observation, target: elements[0]!, recent })
  const size = JSON.stringify(prompt).length
  t.true(size <= REQUEST_LIMITS.maxChars, `the text prompt is ${size} characters`)
  t.is(prompt.goal, goal)
  t.is((prompt.page as { text: string }).text, '')
  t.deepEqual(prompt.recent_actions, [])
  const fields = prompt.other_fields as { name: string }[]
  t.true(fields.length > 0 && fields.length < 30, `${fields.length} other fields`)

  const roomy = textPrompt({ goal: 'Copy the first field.', observation, target: elements[0]!, recent })
  t.is((roomy.other_fields as unknown[]).length, 30, 'with a short goal every field fits once the text has given way')
  t.true((roomy.page as { text: string }).text.length < 6_000)
  t.true(JSON.stringify(roomy).length <= REQUEST_LIMITS.maxChars)
})

test('with secrets the request lists their placeholders, never their values, and says to write one where a secret is needed', async (t) => {
  const login = pageObservation({
    url: 'https://shop.test/login',
    elements: [observedElement('e1', { role: 'textbox', name: 'Password', tag: 'input', type: 'password', value: '', operations: ['type'] })],
  })
  const model = new MockLanguageModelV4({ doGenerate: result('{"text":"%password%"}') })
  const { text } = await writeText({
    goal: 'Sign in.',
    observation: login,
    target: login.elements[0]!,
    recent: [],
    settings: mergeSettings(parseOptions({ text: model, secrets: { username: 'ada', password: 'hunter2' } })),
    ledger: createLedger(),
  })
  t.is(text, '%password%', 'the placeholder comes back as written: the loop fills it when typing')
  const { prompt, instructions } = sent(model)
  t.deepEqual(prompt.secrets, ['%username%', '%password%'])
  t.regex(instructions, /write its placeholder from "secrets" exactly/)
  t.false(JSON.stringify(model.doGenerateCalls).includes('hunter2'))
})
