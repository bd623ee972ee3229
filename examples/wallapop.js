// Search Wallapop for a BMW X3, sort by lowest price, and extract the products.
const agent = require('puppeteer-agent')
const { goal, succeeded } = require('./util')

module.exports = async ({ page, browserless }) => {
  agent(page)

  await browserless.goto(page, { url: 'https://wallapop.com' })
  await goal(page, 'search', 'busca "bmw x3"')
  await goal(page, 'sort', 'ordena los resultados de más barato a más caro')

  const { data } = succeeded(
    await page.extract('get the search results', {
      products: {
        attr: { name: { type: 'string' }, price: { type: 'number' }, url: { type: 'url' } },
      },
    }),
  )
  return data
}
