// Reject cookies if asked, find one-way flights from Zurich to London 30 days from today, and extract them.
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

function inDays(days) {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000)
  return date.toISOString().slice(0, 10)
}

module.exports = async ({ page, browserless }) => {
  agent(page)

  await browserless.goto(page, { url: 'https://www.google.com/travel/flights?hl=en' })
  await goal(page, 'consent', 'If a cookie consent page is shown, reject all cookies; otherwise the goal is already met.')
  await goal(page, 'search', `Search one-way flights from Zurich to London on ${inDays(30)} and show the results.`)

  const { data } = succeeded(
    await page.extract('get the listed flights', {
      flights: {
        attr: {
          airline: { type: 'string' },
          departure: { type: 'string' },
          arrival: { type: 'string' },
          duration: { type: 'string' },
          stops: { type: 'string' },
          price: { type: 'number' },
        },
      },
    }),
  )
  return data
}
