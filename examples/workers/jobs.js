// The jobs of the workers example, for the generated shop of ../crawlee/site.js: on each category's
// first page the goal of sorting it by price (offline local models), then its cheapest price read;
// every product page extracted with complete rules (no model).
//
//   node examples/workers/jobs.js [origin] > jobs.jsonl      (origin: http://127.0.0.1:8377)
const { catalog } = require('../crawlee/site')

const LOCAL = { decisions: 'local', text: 'local', evaluator: 'local' }
const PRODUCT_RULES = {
  name: { selector: 'h1', attr: 'text', type: 'string' },
  price: { selector: '.price', attr: 'text', type: 'number' },
  stock: { selector: '.stock', attr: 'text', type: 'string' },
  sku: { selector: '.sku span', attr: 'text', type: 'string' },
}

/** One job per category and per product; ids from the shop's own, so enqueueing again adds nothing. */
function shopJobs(origin = 'http://127.0.0.1:8377') {
  const shop = catalog()
  return [
    ...shop.map((category) => ({
      id: `sort-${category.id}`,
      url: `${origin}${category.path}`,
      goals: ['Sort the products by lowest price first'],
      extract: { rules: { cheapest: { selector: '.products li .price', attr: 'text', type: 'number' } } },
      options: LOCAL,
      // Sorting sends nothing: a retry may sort again.
      repeatable: true,
    })),
    ...shop.flatMap((category) => category.products.map((product) => ({ id: `product-${product.id}`, url: `${origin}${product.path}`, extract: { rules: PRODUCT_RULES } }))),
  ]
}

module.exports = { shopJobs }

if (require.main === module) {
  for (const job of shopJobs(process.argv[2])) console.log(JSON.stringify(job))
}
