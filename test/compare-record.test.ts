import test from 'ava'
import { fileURLToPath } from 'node:url'
import type { TraceEntry } from '../types/index.d.ts'
import { actionsWithoutPageChange, countValues, dataHash, minConfidence, pathOf, staleDecisions } from '../scripts/compare/record.ts'
import { buildSetups, defaultEvaluator, setupOptions } from '../scripts/compare/setups.ts'
import { judge } from '../scripts/compare/verify.ts'
import { parseExtract } from '../scripts/compare/extract-flag.ts'
import { directoryFlag, FlagError, integerFlag, listFlag, parseFlags, repeatedFlag } from '../scripts/common/flags.ts'

function entry(fields: Partial<TraceEntry>): TraceEntry {
  return { request: 1, step: 1, operation: 'CLICK', stale: false, pageChanged: true, decisionMs: 5, url: 'http://127.0.0.1/', ...fields }
}

const traces: TraceEntry[][] = [
  [
    entry({ operation: 'CLICK', target: 'e17', confidence: 0.8, targetConfidence: 0.6 }),
    entry({ operation: 'CLICK', target: 'e3', stale: true, pageChanged: false, confidence: 0.4 }),
    entry({ operation: 'SCROLL_DOWN', pageChanged: false, confidence: 0.9 }),
    entry({ operation: 'DONE', pageChanged: false, confidence: 0.95 }),
  ],
  [entry({ operation: 'TYPE_TEXT', target: 'e2', text: 'hello', confidence: 0.7, targetConfidence: 0.9 }), entry({ operation: 'DONE', pageChanged: false })],
]

test('path lists the operations and targets that ran, goals separated by a bar', (t) => {
  t.is(pathOf(traces), 'CLICK e17 > SCROLL_DOWN > DONE | TYPE_TEXT e2 > DONE')
  t.is(pathOf([]), '')
})

test('stale decisions and actions without a page change are counted, DONE is not an action', (t) => {
  t.is(staleDecisions(traces), 1)
  t.is(actionsWithoutPageChange(traces), 1)
})

test('minConfidence is the lowest operation or target probability, absent for the text model', (t) => {
  t.is(minConfidence(traces), 0.4)
  t.is(minConfidence([[entry({ operation: 'DONE' })]]), undefined)
})

test('dataHash ignores key order, countValues counts the non-empty values', (t) => {
  t.is(dataHash({ a: 1, b: { c: [1, 2], d: 'x' } }), dataHash({ b: { d: 'x', c: [1, 2] }, a: 1 }))
  t.not(dataHash({ a: [1, 2] }), dataHash({ a: [2, 1] }))
  t.is(countValues({ title: 'A', points: 12, empty: '', none: null, list: ['x', ' ', 0], nested: { url: 'u' } }), 5)
  t.is(countValues({}), 0)
})

test('setups pair every decision model with every text model, once per reasoning level', (t) => {
  const setups = buildSetups(['local', 'none'], ['local', 'openai/x'], ['none', 'low'])
  t.is(setups.length, 8)
  t.deepEqual(setups[0], { decisions: 'local', text: 'local', reasoning: 'none' })
  t.deepEqual(setups[7], { decisions: 'none', text: 'openai/x', reasoning: 'low' })
  t.deepEqual(setupOptions({ decisions: 'none', text: 'local', reasoning: 'none' }, 'local'), {
    decisions: false,
    text: 'local',
    reasoning: 'none',
    evaluator: 'local',
  })
})

test('an unknown reasoning level is refused before any run', (t) => {
  const error = t.throws(() => buildSetups(['local'], ['local'], ['none', 'extreme']), { instanceOf: FlagError })
  t.regex(error.message, /"extreme"/)
})

test('the evaluator stays offline when every model is local', (t) => {
  t.is(defaultEvaluator(buildSetups(['local', 'none'], ['local'], ['none']), 'typesafe-ai/jev'), 'local')
  t.is(defaultEvaluator(buildSetups(['local'], ['openai/x'], ['none']), 'typesafe-ai/jev'), 'typesafe-ai/jev')
})

test('verification lists every check that did not hold on the final page', (t) => {
  const checks = { url: ['/thanks'], text: ['Order placed', 'Total'] }
  t.deepEqual(judge('http://127.0.0.1/thanks', 'Order placed. Total: 3', checks), { verified: true, failed: [] })
  t.deepEqual(judge('http://127.0.0.1/cart', 'Total: 3', checks), {
    verified: false,
    failed: ['url contains "/thanks"', 'text contains "Order placed"'],
  })
})

test('flags: repeated and comma-separated values, unknown flags and bad numbers are refused', (t) => {
  const flags = parseFlags(['--goal=a, b', '--goal', 'c', '--decisions=local,none', '--runs=3'], { strings: ['goal', 'decisions', 'runs'] })
  t.deepEqual(repeatedFlag(flags, 'goal'), ['a, b', 'c'])
  t.deepEqual(listFlag(flags, 'decisions'), ['local', 'none'])
  t.deepEqual(listFlag(flags, 'text', ['local']), ['local'])
  t.is(integerFlag(flags, 'runs', 5), 3)
  t.throws(() => parseFlags(['--rnus=3'], { strings: ['runs'] }), { instanceOf: FlagError, message: /Unknown flag --rnus/ })
  t.throws(() => parseFlags(['stray'], { strings: ['runs'] }), { instanceOf: FlagError, message: /"stray"/ })
  t.throws(() => integerFlag(parseFlags(['--runs=0'], { strings: ['runs'] }), 'runs', 5), { message: /--runs must be an integer of at least 1, got "0"/ })
})

test('a directory flag: absent, a directory to be made or that exists; blank, repeated or a file refused', (t) => {
  const flag = (...argv: string[]) => directoryFlag(parseFlags(argv, { strings: ['record'] }), 'record')
  const here = fileURLToPath(new URL('.', import.meta.url))
  t.is(flag(), undefined)
  t.is(flag('--record=recordings/new'), 'recordings/new')
  t.is(flag(`--record=${here}`), here)
  t.throws(() => flag('--record'), { instanceOf: FlagError, message: /--record needs a directory/ })
  t.throws(() => flag('--record= '), { instanceOf: FlagError, message: /--record needs a directory/ })
  t.throws(() => flag('--record=a', '--record=b'), { instanceOf: FlagError, message: /given 2 times/ })
  t.throws(() => flag(`--record=${fileURLToPath(import.meta.url)}`), { instanceOf: FlagError, message: /--record must name a directory/ })
})

test('--extract takes an instruction, or rules as a JSON object', (t) => {
  t.is(parseExtract(undefined), undefined)
  t.is(parseExtract('get the title'), 'get the title')
  t.deepEqual(parseExtract(' {"title":{"selector":"h1"}}'), { title: { selector: 'h1' } })
  t.throws(() => parseExtract('{title}'), { instanceOf: FlagError, message: /not valid JSON rules/ })
})
