import test from 'ava'
import { experimental_decide, type Experimental_DecisionQuestion } from 'ai'
import { createLocalDecisionModel } from '../src/local/index.ts'
import { readState } from '../src/local/read-state.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { mergeSettings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

const model = createLocalDecisionModel()
const GOAL = 'Search for "trail shoes" and open the first result'

interface Element {
  id: string
  role: string
  name: string
  value?: string
  nearby?: string
}
interface Action {
  operation: string
  target?: string
  targetName?: string
  text?: string
  outcome: string
}

function state(page: { url: string; title: string; text: string }, elements: Element[], recent_actions: Action[] = [], goal = GOAL) {
  return { goal, page, elements, recent_actions } as unknown as Record<string, never>
}

function choice(ids: string[], instructions?: string): Experimental_DecisionQuestion {
  return { type: 'choice', ...(instructions && { instructions }), criteria: Object.fromEntries(ids.map((id) => [id, null])) }
}

const OPS = ['CLICK', 'TYPE_TEXT', 'SUBMIT', 'SCROLL_DOWN', 'WAIT', 'DONE', 'BLOCKED']

function questions(targets: { click?: string[]; type?: string[]; submit?: string[] }) {
  return {
    operation: choice(OPS, 'The next operation'),
    ...(targets.click && { click_target: choice(targets.click, 'Element to CLICK') }),
    ...(targets.type && { type_text_target: choice(targets.type, 'Element for TYPE_TEXT') }),
    ...(targets.submit && { submit_target: choice(targets.submit, 'Form to SUBMIT') }),
    risk: { type: 'boolean', instructions: 'Probability that the chosen action is risky: payment, purchase, deletion or sending.' },
  } satisfies Record<string, Experimental_DecisionQuestion>
}

/** The choice answer to a question; the questions here are built at run time, so TypeScript cannot narrow them. */
function choiceAnswer(answers: Record<string, unknown>, id: string): { choice: string; probabilities?: Record<string, number> } {
  const answer = answers[id] as { type?: string; choice?: string; probabilities?: Record<string, number> } | undefined
  if (answer?.type !== 'choice' || answer.choice === undefined) throw new Error(`Question "${id}" has no choice answer: ${JSON.stringify(answer)}`)
  return { choice: answer.choice, ...(answer.probabilities && { probabilities: answer.probabilities }) }
}

const HOME = { url: 'http://shop.test/', title: 'Trailhead Outfitters', text: 'Trailhead Outfitters. Featured: Alpine Jacket, a warm jacket.' }
const HOME_ELEMENTS: Element[] = [
  { id: 'e1', role: 'link', name: 'Home' },
  { id: 'e2', role: 'link', name: 'Shoes' },
  { id: 'e3', role: 'searchbox', name: 'Search products', value: '' },
  { id: 'e4', role: 'button', name: 'Search' },
  { id: 'e5', role: 'textbox', name: 'Newsletter email', value: '' },
]
const TYPED: Action = { operation: 'TYPE_TEXT', target: 'e3', targetName: 'Search products', text: 'trail shoes', outcome: 'page_changed' }
const SUBMITTED: Action = { operation: 'SUBMIT', target: 'e3', targetName: 'Search products', outcome: 'page_changed' }
const RESULTS = { url: 'http://shop.test/search?q=trail+shoes', title: 'Search: trail shoes', text: 'Results for trail shoes. Trail Runner Pro €89. Ridge Trail GTX €129.' }
const RESULT_ELEMENTS: Element[] = [
  { id: 'e1', role: 'link', name: 'Home' },
  { id: 'e2', role: 'link', name: 'Shoes' },
  { id: 'e3', role: 'link', name: 'Trail Runner Pro', nearby: 'Lightweight trail shoes €89' },
  { id: 'e4', role: 'link', name: 'Ridge Trail GTX', nearby: 'Waterproof trail shoes €129' },
]
const PRODUCT = { url: 'http://shop.test/product/trail-runner-pro', title: 'Trail Runner Pro', text: 'Trail Runner Pro €89. Lightweight trail shoes for rocky paths.' }
const OPENED: Action = { operation: 'CLICK', target: 'e3', targetName: 'Trail Runner Pro', outcome: 'page_changed' }

test('types the quoted text into the field that matches the goal first', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: state(HOME, HOME_ELEMENTS),
    questions: questions({ click: ['e1', 'e2', 'e4'], type: ['e3', 'e5'], submit: ['e3'] }),
  })
  t.is(choiceAnswer(answers, 'operation').choice, 'TYPE_TEXT')
  t.is(choiceAnswer(answers, 'type_text_target').choice, 'e3')
  t.true(choiceAnswer(answers, 'type_text_target').probabilities!.e3! > choiceAnswer(answers, 'type_text_target').probabilities!.e5!)
})

test('submits the field it typed into next', async (t) => {
  const elements = HOME_ELEMENTS.map((element) => (element.id === 'e3' ? { ...element, value: 'trail shoes' } : element))
  const { answers } = await experimental_decide({
    model,
    state: state(HOME, elements, [TYPED]),
    questions: questions({ click: ['e1', 'e2', 'e4'], type: ['e3', 'e5'], submit: ['e4', 'e3'] }),
  })
  t.is(choiceAnswer(answers, 'operation').choice, 'SUBMIT')
  t.is(choiceAnswer(answers, 'submit_target').choice, 'e3')
})

test('clicks the result whose label and nearby text share most words with the goal, not DONE before the wording is done', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: state(RESULTS, RESULT_ELEMENTS, [TYPED, SUBMITTED]),
    questions: questions({ click: ['e1', 'e2', 'e3', 'e4'] }),
  })
  t.is(choiceAnswer(answers, 'operation').choice, 'CLICK')
  // Both results match equally; the first one wins the tie, as "first result" asks.
  t.is(choiceAnswer(answers, 'click_target').choice, 'e3')
  t.true(choiceAnswer(answers, 'operation').probabilities!.DONE! < 0.2)
})

test('does not click a target it already clicked', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: state(RESULTS, RESULT_ELEMENTS, [TYPED, SUBMITTED, { ...OPENED, outcome: 'no_change' }]),
    questions: questions({ click: ['e1', 'e2', 'e3', 'e4'] }),
  })
  t.is(choiceAnswer(answers, 'click_target').choice, 'e4')
})

test('says DONE when the key words are visible and the last action changed the page', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: state(PRODUCT, [{ id: 'e1', role: 'link', name: 'Home' }], [TYPED, SUBMITTED, OPENED]),
    questions: questions({ click: ['e1'] }),
  })
  t.is(choiceAnswer(answers, 'operation').choice, 'DONE')
  t.true(choiceAnswer(answers, 'operation').probabilities!.DONE! > 0.6)
})

test('does not say DONE when the last action changed nothing', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: state(PRODUCT, [{ id: 'e1', role: 'link', name: 'Home' }], [TYPED, SUBMITTED, { ...OPENED, outcome: 'no_change' }]),
    questions: questions({ click: ['e1'] }),
  })
  t.not(choiceAnswer(answers, 'operation').choice, 'DONE')
})

test('does not say DONE when the key words are not on the page', async (t) => {
  const page = { url: 'http://shop.test/product/alpine-jacket', title: 'Alpine Jacket', text: 'Alpine Jacket €120. A warm jacket.' }
  const { answers } = await experimental_decide({
    model,
    state: state(page, [{ id: 'e1', role: 'link', name: 'Home' }], [TYPED, SUBMITTED, OPENED]),
    questions: questions({ click: ['e1'] }),
  })
  t.not(choiceAnswer(answers, 'operation').choice, 'DONE')
})

test('a weak match gets a flat distribution, a strong one a peaked distribution', async (t) => {
  const weak = await experimental_decide({
    model,
    state: state(RESULTS, [{ id: 'e1', role: 'link', name: 'About us' }, { id: 'e2', role: 'link', name: 'Contact' }], [TYPED, SUBMITTED]),
    questions: { click_target: choice(['e1', 'e2'], 'Element to CLICK') },
  })
  const strong = await experimental_decide({
    model,
    state: state(RESULTS, [{ id: 'e1', role: 'link', name: 'About us' }, RESULT_ELEMENTS[2]!], [TYPED, SUBMITTED]),
    questions: { click_target: choice(['e1', 'e3'], 'Element to CLICK') },
  })
  const weakTop = Math.max(...Object.values(choiceAnswer(weak.answers, 'click_target').probabilities!))
  const strongTop = Math.max(...Object.values(choiceAnswer(strong.answers, 'click_target').probabilities!))
  t.true(weakTop < 0.55)
  t.true(strongTop > 0.8)
})

test('rates clicking a purchase button as risky and a plain link as not', async (t) => {
  const page = { url: 'http://shop.test/cart', title: 'Cart', text: 'Your cart: Trail Runner Pro €89' }
  const risky = await experimental_decide({
    model,
    state: state(page, [{ id: 'e1', role: 'button', name: 'Place order and pay' }], [], 'Buy the "Trail Runner Pro" and place order'),
    questions: questions({ click: ['e1'] }),
  })
  t.is(choiceAnswer(risky.answers, 'operation').choice, 'CLICK')
  t.true(risky.answers.risk.probability > 0.5)
  const plain = await experimental_decide({
    model,
    state: state(RESULTS, RESULT_ELEMENTS, [TYPED, SUBMITTED]),
    questions: questions({ click: ['e3'] }),
  })
  t.true(plain.answers.risk.probability < 0.2)
})

test('rates sending an invitation, changing access and overwriting as risky, and saving a page as not', async (t) => {
  const page = { url: 'http://wiki.test/team', title: 'Team', text: 'Team space' }
  const rate = async (name: string) =>
    (await experimental_decide({ model, state: state(page, [{ id: 'e1', role: 'button', name }], [], `Press "${name}"`), questions: questions({ click: ['e1'] }) })).answers.risk
      .probability
  for (const name of ['Invite member', 'Share with everyone', 'Revoke access', 'Overwrite the file']) t.true((await rate(name)) > 0.5, name)
  t.true((await rate('Save page')) < 0.2)
})

test('answers the evaluator: met on the final page, not met on the home page', async (t) => {
  const evaluation = (page: typeof HOME, actions: Action[]) =>
    experimental_decide({
      model,
      state: { goal: GOAL, page, actions } as unknown as Record<string, never>,
      questions: {
        met: { type: 'boolean', instructions: 'Is the goal met on the final page?' },
        verdict: choice(['yes', 'no'], 'Was the goal achieved?'),
      },
    })
  const done = await evaluation(PRODUCT, [TYPED, SUBMITTED, OPENED])
  // The evaluator's own shape: `page_changed` flags instead of outcomes.
  const flagged = [TYPED, SUBMITTED, OPENED].map(({ outcome, ...action }) => ({ ...action, page_changed: outcome === 'page_changed' }))
  const doneFlagged = await evaluation(PRODUCT, flagged as unknown as Action[])
  t.true(doneFlagged.answers.met.probability > 0.9)
  t.true(done.answers.met.probability > 0.9)
  t.is(choiceAnswer(done.answers, 'verdict').choice, 'yes')
  const notDone = await evaluation(HOME, [])
  t.true(notDone.answers.met.probability < 0.5)
  t.is(choiceAnswer(notDone.answers, 'verdict').choice, 'no')
})

test('answers unknown questions with complete distributions the AI SDK accepts', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: 'Goal: find "trail shoes"\nA page of text with no JSON at all.',
    questions: {
      mood: { type: 'boolean', instructions: 'Is the sky blue?' },
      level: { type: 'score', instructions: 'How far along is the goal?', criteria: ['not started', 'halfway', 'complete'] },
      colour: { type: 'choice', instructions: 'Pick a colour', criteria: { red: 'warm', blue: 'cold', trail: 'a path' } },
    },
  })
  t.is(answers.mood.probability, 0.5)
  t.deepEqual(Object.keys(answers.level.probabilities!), ['0', '1', '2'])
  t.is(answers.colour.choice, 'trail')
  const total = Object.values(answers.colour.probabilities!).reduce((sum, p) => sum + p, 0)
  t.true(Math.abs(total - 1) < 1e-9)
})

test('reads elements given as a map keyed by ID, and option pairs for SELECT', async (t) => {
  const { answers } = await experimental_decide({
    model,
    state: {
      goal: 'Sort by "lowest price"',
      page: { url: 'http://shop.test/search', title: 'Results', text: 'Results' },
      elements: {
        e1: { role: 'combobox', name: 'Sort', options: [{ id: 'o1', label: 'Newest' }, { id: 'o2', label: 'Lowest price' }] },
      },
      recent_actions: [],
    },
    questions: {
      operation: choice(['SELECT', 'WAIT', 'DONE']),
      select_target: choice(['e1:o1', 'e1:o2'], 'Element and option to SELECT'),
    },
  })
  t.is(choiceAnswer(answers, 'operation').choice, 'SELECT')
  t.is(choiceAnswer(answers, 'select_target').choice, 'e1:o2')
})

test('a name by the control\'s place is not read as a label the page shows, and still names it for recent actions', (t) => {
  const elements = [
    { id: 'e1', role: 'textbox', name: 'text field 1', name_from: 'position', value: '' },
    { id: 'e2', role: 'textbox', name: 'Email', name_from: 'layout', value: '' },
  ]
  const read = readState([{ type: 'json', value: { goal: 'Type "x"', elements } }])
  t.like(read.elements.get('e1'), { name: 'text field 1', primary: '' })
  t.regex(read.elements.get('e1')!.secondary, /text field 1/)
  t.like(read.elements.get('e2'), { name: 'Email', primary: 'Email' })
})

test('stops at once when the request is aborted', async (t) => {
  await t.throwsAsync(
    model.doDecide({ state: [], questions: { operation: choice(['DONE']) } as never, abortSignal: AbortSignal.abort() }),
    { name: 'AbortError' },
  )
})

test('answers the goal loop\'s own request: decideStep with decisions: \'local\' passes the answer checks', async (t) => {
  const observation = pageObservation({
    url: 'http://shop.test/',
    title: 'Trailhead Outfitters',
    text: 'Trailhead Outfitters. Gear for the trail.',
    elements: [
      observedElement('e1', { role: 'link', name: 'Shoes', tag: 'a' }),
      observedElement('e2', { role: 'searchbox', name: 'Search products', tag: 'input', operations: ['click', 'type', 'submit'] }),
      observedElement('e3', { name: 'Search', operations: ['click', 'submit'] }),
    ],
    scroll: [{ id: 'page', name: 'page', up: false, down: true }],
    signature: 'home',
  })
  const ledger = createLedger()
  const decision = await decideStep({
    goal: GOAL,
    observation,
    recent: [],
    settings: mergeSettings({ decisions: 'local', text: 'local' }),
    ledger,
  })
  t.like(decision, { operation: 'TYPE_TEXT', target: 'e2' })
  t.true(decision.confidence! > 0.5 && decision.confidence! < 0.95)
  t.is(ledger.calls.length, 1)
})

// Pages where a goal without content words ("click go") finds nothing: the decider took no action, so
// it must not claim the goal. Each is what the collector reports for such a page in Chrome.
const NOTHING_TO_MATCH: { name: string; page: { url: string; title: string; text: string }; elements: Element[] }[] = [
  { name: 'about:blank', page: { url: 'about:blank', title: '', text: '' }, elements: [] },
  {
    name: 'an error page',
    page: { url: 'http://127.0.0.1:9/', title: '127.0.0.1', text: 'This site can’t be reached 127.0.0.1 refused to connect. ERR_CONNECTION_REFUSED' },
    elements: [{ id: 'e1', role: 'button', name: 'Reload' }, { id: 'e2', role: 'button', name: 'Details' }],
  },
  { name: 'a PDF', page: { url: 'http://shop.test/terms.pdf', title: 'terms.pdf', text: '' }, elements: [] },
  { name: 'an image', page: { url: 'http://shop.test/logo.png', title: 'logo.png (200×100)', text: '' }, elements: [] },
]

for (const { name, page, elements } of NOTHING_TO_MATCH) {
  test(`a goal without content words on ${name}, before any action: BLOCKED, not DONE`, async (t) => {
    const { answers } = await experimental_decide({
      model,
      state: state(page, elements, [], 'click go'),
      questions: {
        operation: choice(elements.length > 0 ? ['CLICK', 'WAIT', 'DONE', 'BLOCKED'] : ['WAIT', 'DONE', 'BLOCKED']),
        ...(elements.length > 0 && { click_target: choice(elements.map((element) => element.id)) }),
      },
    })
    t.is(choiceAnswer(answers, 'operation').choice, 'BLOCKED')
  })
}

test('with nothing that matches but a page that scrolls, it scrolls before it gives up, and never says DONE', async (t) => {
  const scrolled: Action = { operation: 'SCROLL_DOWN', target: 'page', outcome: 'page_changed' }
  const ask = (actions: Action[], operations: string[]) =>
    experimental_decide({ model, state: state(NOTHING_TO_MATCH[1]!.page, [], actions, 'click go'), questions: { operation: choice(operations) } })
  t.is(choiceAnswer((await ask([], ['SCROLL_DOWN', 'WAIT', 'DONE', 'BLOCKED'])).answers, 'operation').choice, 'SCROLL_DOWN')
  // At the bottom, scrolling has changed the page but done nothing for the goal.
  t.is(choiceAnswer((await ask([scrolled], ['SCROLL_UP', 'WAIT', 'DONE', 'BLOCKED'])).answers, 'operation').choice, 'BLOCKED')
})

test('the goal loop on about:blank with decisions: \'local\' and a goal without content words: BLOCKED', async (t) => {
  const decision = await decideStep({
    goal: 'click go',
    observation: pageObservation({ url: 'about:blank', scroll: [{ id: 'page', name: 'page', up: false, down: false }] }),
    recent: [],
    settings: mergeSettings({ decisions: 'local', text: 'local' }),
    ledger: createLedger(),
  })
  t.is(decision.operation, 'BLOCKED')
})
