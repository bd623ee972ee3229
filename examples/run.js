// Any page: puppeteer-agent exec examples/run.js --url=<url> --goal=<goal> [--goal=<next goal>] [--extract=<what to get>]
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

const list = (value) => (value === undefined ? [] : [].concat(value).map(String))

module.exports = async ({ page, browserless, argv }) => {
  const goals = list(argv.goal)
  if (typeof argv.url !== 'string' || goals.length === 0 || !['undefined', 'string'].includes(typeof argv.extract)) {
    throw new Error('run.js needs --url=<url> and --goal=<goal> (repeat --goal for goals that follow each other; --extract is optional).')
  }
  agent(page)

  await browserless.goto(page, { url: argv.url })
  const results = []
  for (const [index, text] of goals.entries()) {
    const { status, steps, decisions, profiled } = await goal(page, `goal ${index + 1}`, text)
    results.push({ goal: text, status, steps, decisions, accuracy: profiled.accuracy })
  }
  if (argv.extract === undefined) return { url: page.url(), goals: results }
  const { data } = succeeded(await page.extract(String(argv.extract)))
  return { url: page.url(), goals: results, data }
}
