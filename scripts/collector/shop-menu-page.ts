// A shop category page built the way the saved real shop with 3,307 hidden filter checkboxes is: one
// form around a CSS-only category tree (a group opens when its checkbox is checked) whose every entry is
// a hidden checkbox (`display: none`, ids repeated across groups, a `label for` naming them) next to a
// link, and a long list of product cards below a banner, so that almost all of the page's 9,000
// controls and 20,000 texts are hidden or outside the viewport and a few dozen are offered.

/** Checkboxes per group of the tree; ids repeat from group to group, as on the real page. */
const PER_GROUP = 50

function tree(inputs: number): string {
  const groups = Math.ceil(inputs / PER_GROUP)
  return Array.from({ length: groups }, (_, g) => {
    const entries = Array.from({ length: Math.min(PER_GROUP, inputs - g * PER_GROUP) }, (_, i) => {
      const id = `sub-sub-group-${i % 7}`
      return `<input type="checkbox" style="display:none;" name="m_${g}_${i}" id="${id}" tag="3">
        <li><label for="${id}"><a href="/c/${g}/${i}">Category ${i} of group ${g}</a></label></li>`
    }).join('\n')
    return `<li class="has-children"><input type="checkbox" name="g_${g}" id="sub-group-${g}" tag="2">
      <label for="sub-group-${g}"><a href="/c/${g}">Group ${g}</a></label><ul>${entries}</ul></li>`
  }).join('\n')
}

function cards(count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `<div class="card" id="card-${i}"><a href="/p/${i}"><img alt="" width="120" height="90"></a>
      <a class="title" href="/p/${i}">Product ${i}: a jacket with a long name</a>
      <p><span class="price">${(19 + ((i * 37) % 400)).toFixed(2)} €</span> <span>In stock</span> <em>Free delivery</em></p>
      <button type="button">Add to cart</button></div>`,
  ).join('\n')
}

export function shopMenuPage(inputs: number, products = 1_000): string {
  return `<!doctype html><html><head><title>Shop: ${inputs} hidden filters</title><style>
body{font:13px Verdana,sans-serif;margin:0} header{padding:8px;border-bottom:1px solid #ccc}
.hero{height:380px;background:#dde} #left{float:left;width:220px} #left ul{list-style:none;padding-left:12px;margin:0}
.has-children > ul{display:none} .has-children > input:checked ~ ul{display:block}
#grid{margin-left:240px} .card{height:300px;margin:6px;border-bottom:1px solid #eee}
</style></head><body><form id="left_menu" method="get" action="/search">
<header><input name="q" placeholder="Search"> <button>Search</button> <a href="/cart">Cart (<span id="count">0</span>)</a></header>
<div class="hero"><h1>Winter sale</h1><p>Up to 50% off jackets and coats.</p></div>
<div id="left"><ul>${tree(inputs)}</ul></div>
<div id="grid">${cards(products)}</div><div style="clear:both"></div>
</form></body></html>`
}

/**
 * The change made before each observation of the "after a one-node change" column, run in the page: a
 * badge added to a control's card or list item on screen (the third card here, the first item of the
 * bench's list pages).
 */
export function changeOneNode(i: number): void {
  const badge = document.createElement('span')
  badge.className = 'badge'
  badge.textContent = `New ${i}`
  document.querySelector('#card-2, li.item')?.append(badge)
}
