import test from 'ava'
import { generateText, Output, streamText } from 'ai'
import { z } from 'zod'
import { createLocalLanguageModel } from '../src/local/index.ts'
import { writeText } from '../src/decision/write-text.ts'
import { mergeSettings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

const model = createLocalLanguageModel()
const textValue = Output.object({ schema: z.object({ text: z.string() }) })

test('answers the TYPE_TEXT request with the text quoted in the goal of a JSON state', async (t) => {
  const state = { goal: 'busca "bmw x3" y ordena por precio', field: { name: 'Buscar', role: 'searchbox' } }
  const { output } = await generateText({
    model,
    instructions: 'Write the value to type. Reply with {"text": "..."}.',
    prompt: JSON.stringify(state),
    output: textValue,
  })
  t.deepEqual(output, { text: 'bmw x3' })
})

test('reads a "Goal:" line and curly quotes', async (t) => {
  const { output } = await generateText({ model, prompt: 'Goal: search for “trail shoes” and open a result\nField: Search', output: textValue })
  t.deepEqual(output, { text: 'trail shoes' })
})

test('fails with a clear error when the goal quotes nothing', async (t) => {
  const error = await t.throwsAsync(generateText({ model, maxRetries: 0, prompt: JSON.stringify({ goal: 'open the first story' }), output: textValue }))
  t.regex(error.message, /quotes nothing: "open the first story"/)
})

test('refuses to write extraction rules or decisions', async (t) => {
  const error = await t.throwsAsync(
    generateText({
      model,
      maxRetries: 0,
      prompt: JSON.stringify({ goal: 'find "x"' }),
      output: Output.object({ schema: z.object({ operation: z.string(), target: z.string() }) }),
    }),
  )
  t.regex(error.message, /only writes TYPE_TEXT values; it was asked for an object with operation, target/)
})

test('streams the same answer', async (t) => {
  const result = streamText({ model, prompt: JSON.stringify({ goal: 'type "hello world"' }) })
  t.is(await result.text, '{"text":"hello world"}')
})

test('answers the goal loop\'s own TYPE_TEXT request: writeText with text: \'local\'', async (t) => {
  const observation = pageObservation({ url: 'http://shop.test/', title: 'Shop', text: 'Shop', frames: [], signature: 's' })
  const target = observedElement('e2', { role: 'searchbox', name: 'Search products', tag: 'input', operations: ['type'] })
  const written = await writeText({
    goal: 'Search for "trail shoes" and open the first result',
    observation,
    target,
    recent: [],
    settings: mergeSettings({ text: 'local' }),
    ledger: createLedger(),
  })
  t.is(written.text, 'trail shoes')
})
