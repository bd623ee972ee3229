// The offline demo (`npm start`): serves the bundled shop on 127.0.0.1, gives the page a goal,
// extracts the product it opened with rules, prints the data and one summary line.
// Without AI_GATEWAY_API_KEY it uses the local word-overlap models; with the key, the default models.
// The demo runs from this checkout, where the package is not installed: `..` is the package itself,
// on every Node the package supports. Your own scripts write require('puppeteer-agent').
const agent = require('..')
const { startSite } = require('./site/server')
const { goal, succeeded } = require('./util')

const GOAL = 'Search for "trail shoes" and open the first result'

const PRODUCT_RULES = {
  name: { selector: 'h1', attr: 'text' },
  price: { selector: '.price', attr: 'text', type: 'number' },
  description: { selector: '.description', attr: 'text' },
  url: { selector: 'link[rel="canonical"]', attr: 'href', type: 'url' },
  specs: {
    selectorAll: '.specs div',
    attr: { name: { selector: 'dt', attr: 'text' }, value: { selector: 'dd', attr: 'text' } },
  },
  reviews: {
    selectorAll: '.review',
    attr: {
      author: { selector: '.author', attr: 'text' },
      rating: { selector: '.rating', attr: 'data-rating', type: 'number' },
      text: { selector: 'p', attr: 'text' },
    },
  },
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

module.exports = async ({ page, browserless }) => {
  const local = !process.env.AI_GATEWAY_API_KEY
  if (local) {
    console.error('No AI_GATEWAY_API_KEY: using the offline local models (word overlap, a baseline for demos, not a real model).')
  }
  const site = await startSite()
  try {
    agent(page, local ? { decisions: 'local', text: 'local', evaluator: 'local' } : {})
    await browserless.goto(page, { url: site.url })

    const run = await goal(page, 'demo', GOAL)
    const extracted = succeeded(await page.extract(PRODUCT_RULES))

    const { accuracy, cost, timing } = run.profiled
    const path = run.trace
      .filter((entry) => !entry.stale)
      .map((entry) => [entry.operation, entry.targetName && `"${entry.targetName}"`].filter(Boolean).join(' '))
      .join(' > ')
    console.error(
      [
        `goal ${run.status} in ${run.steps} steps (${path})`,
        accuracy ? `judged ${accuracy.passed ? 'met' : 'not met'} (p=${accuracy.probability.toFixed(2)})` : 'not judged',
        `${cost.calls} model calls${cost.usd === undefined ? '' : `, $${cost.usd.toFixed(6)}`}`,
        `${seconds(timing.totalMs)}`,
        `extracted ${extracted.data.specs.length} specs and ${extracted.data.reviews.length} reviews`,
      ].join(' · '),
    )
    return extracted.data
  } finally {
    await site.close()
  }
}
