// Open the open issues of a GitHub repository and extract them.
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

module.exports = async ({ page, browserless, argv }) => {
  agent(page)

  const repository = argv.repo || 'puppeteer/puppeteer'
  await browserless.goto(page, { url: `https://github.com/${repository}` })
  await goal(page, 'issues', 'Open the list of open issues of this repository.')

  const { data } = succeeded(
    await page.extract('get the issues in the list', {
      issues: { attr: { title: { type: 'string' }, url: { type: 'url' }, author: { type: 'string' } } },
    }),
  )
  return data
}
