import test from 'ava'
import { makeDom } from './helpers/jsdom.ts'
import { AVAILABILITIES, BUY_PHRASES, availabilityOfControl, availabilityOfText, isOutOfStock } from '../src/page/availability.ts'
import type { Availability } from '../src/page/availability.ts'
import { STOCK_PHRASES } from '../src/page/stock-words.ts'
import { currencyOf } from '../src/page/currency.ts'
import { codeAfter, codeOf } from '../src/page/codes.ts'

// The value readings of product pages (src/page/availability.ts, currency.ts, codes.ts): pure text
// rules tested in Node, and the buy button's state read from jsdom elements.

type Table<T> = [string, T | undefined][]

function readsAll<T>(name: string, read: (text: string) => T | undefined, table: Table<T>) {
  test(name, (t) => {
    for (const [text, expected] of table) t.is(read(text), expected, JSON.stringify(text))
  })
}

// Availability from text.

readsAll('availability: schema.org values in any spelling', availabilityOfText, [
  ['http://schema.org/InStock', 'InStock'], ['https://schema.org/OutOfStock', 'OutOfStock'], ['schema:PreOrder', 'PreOrder'],
  ['InStock', 'InStock'], ['instock', 'InStock'], ['in_stock', 'InStock'], ['in-stock', 'InStock'],
  ['out_of_stock', 'OutOfStock'], ['OUT_OF_STOCK', 'OutOfStock'], ['preorder', 'PreOrder'], ['backorder', 'BackOrder'],
  ['onbackorder', 'BackOrder'], ['sold_out', 'SoldOut'], ['https://schema.org/SoldOut', 'SoldOut'], ['discontinued', 'Discontinued'],
  ['http://schema.org/LimitedAvailability', 'LimitedAvailability'], ['limited', 'LimitedAvailability'],
  ['https://schema.org/InStoreOnly', 'InStoreOnly'], ['https://schema.org/OnlineOnly', 'OnlineOnly'],
])

readsAll('availability: in stock in many languages', availabilityOfText, [
  ['In stock', 'InStock'], ['Auf Lager', 'InStock'], ['Sofort lieferbar', 'InStock'], ['lieferbar', 'InStock'],
  ['En stock', 'InStock'], ['Disponible', 'InStock'], ['Disponível', 'InStock'], ['Disponibile', 'InStock'],
  ['Op voorraad', 'InStock'], ['Dostępny', 'InStock'], ['Skladem', 'InStock'], ['Na sklade', 'InStock'],
  ['I lager', 'InStock'], ['På lager', 'InStock'], ['Varastossa', 'InStock'], ['В наличии', 'InStock'],
  ['Є в наявності', 'InStock'], ['Stokta', 'InStock'], ['Ir noliktavā', 'InStock'], ['Yra sandėlyje', 'InStock'],
  ['Laos olemas', 'InStock'], ['Raktáron', 'InStock'], ['În stoc', 'InStock'], ['在庫あり', 'InStock'],
  ['有货', 'InStock'], ['有貨', 'InStock'], ['現貨', 'InStock'], ['재고 있음', 'InStock'],
])

readsAll('availability: out of stock and sold out in many languages', availabilityOfText, [
  ['Out of stock', 'OutOfStock'], ['Currently unavailable', 'OutOfStock'], ['Sold out', 'SoldOut'], ['Ausverkauft', 'SoldOut'],
  ['Nicht verfügbar', 'OutOfStock'], ['Rupture de stock', 'OutOfStock'], ['Épuisé', 'SoldOut'], ['Indisponible', 'OutOfStock'],
  ['Agotado', 'SoldOut'], ['Sin stock', 'OutOfStock'], ['Esgotado', 'SoldOut'], ['Indisponível', 'OutOfStock'],
  ['Esaurito', 'SoldOut'], ['Uitverkocht', 'SoldOut'], ['Niedostępny', 'OutOfStock'], ['Brak w magazynie', 'OutOfStock'],
  ['Vyprodáno', 'SoldOut'], ['Nedostupné', 'OutOfStock'], ['Slutsåld', 'SoldOut'], ['Ei varastossa', 'OutOfStock'],
  ['Немає в наявності', 'OutOfStock'], ['Tükendi', 'SoldOut'], ['Stokta yok', 'OutOfStock'], ['Nav noliktavā', 'OutOfStock'],
  ['Nincs raktáron', 'OutOfStock'], ['Stoc epuizat', 'OutOfStock'], ['在庫切れ', 'OutOfStock'], ['売り切れ', 'SoldOut'],
  ['缺货', 'OutOfStock'], ['缺貨', 'OutOfStock'], ['售完', 'SoldOut'], ['품절', 'SoldOut'],
])

readsAll('availability: Slovenian, Croatian, Serbian, Bulgarian and Greek stock lines', availabilityOfText, [
  ['Na zalogi', 'InStock'], ['Dobavljivo', 'InStock'], ['Ni na zalogi', 'OutOfStock'], ['Razprodano', 'SoldOut'],
  ['Na stanju', 'InStock'], ['Nedostupno', 'OutOfStock'], ['Nema na stanju', 'OutOfStock'], ['Nije dostupno', 'OutOfStock'], ['Rasprodano', 'SoldOut'],
  ['На стању', 'InStock'], ['Нема на стању', 'OutOfStock'], ['В наличност', 'InStock'], ['Няма наличност', 'OutOfStock'],
  ['Изчерпан', 'SoldOut'], ['Διαθέσιμο', 'InStock'], ['Μη διαθέσιμο', 'OutOfStock'], ['Εξαντλημένο', 'SoldOut'],
])

readsAll('availability: pre-order, back-order, limited stock, discontinued, store or online only', availabilityOfText, [
  ['Pre-order', 'PreOrder'], ['Vorbestellen', 'PreOrder'], ['Précommande', 'PreOrder'], ['Reserva', 'PreOrder'], ['予約受付中', 'PreOrder'],
  ['Backorder', 'BackOrder'], ['Nachbestellt', 'BackOrder'], ['On backorder', 'BackOrder'], ['お取り寄せ', 'BackOrder'],
  ['Only 2 left', 'LimitedAvailability'], ['Nur noch 3 Stück', 'LimitedAvailability'], ['Few left', 'LimitedAvailability'],
  ['Últimas unidades', 'LimitedAvailability'], ['残り2点', 'LimitedAvailability'], ['품절 임박', 'LimitedAvailability'],
  ['Discontinued', 'Discontinued'], ['No longer available', 'Discontinued'], ['Nicht mehr verfügbar', 'Discontinued'],
  ['Available in store only', 'InStoreOnly'], ['Online only', 'OnlineOnly'],
])

test('availability: a negation wins over the stock word it contains', (t) => {
  const cases: [string, string][] = [
    ['not in stock', 'in stock'], ['nicht auf Lager', 'auf Lager'], ['no disponible', 'disponible'],
    ['non disponibile', 'disponibile'], ['niet op voorraad', 'op voorraad'], ['není skladem', 'skladem'],
    ['нет в наличии', 'в наличии'], ['not available', 'available'], ['Немає в наявності', 'в наявності'],
    ['Stokta yok', 'Stokta'], ['Nincs raktáron', 'Raktáron'], ['没有货', '有货'],
  ]
  for (const [negated, positive] of cases) {
    t.is(availabilityOfText(positive), 'InStock', positive)
    t.is(availabilityOfText(negated), 'OutOfStock', negated)
  }
})

readsAll('availability: a negation word before any in-stock phrase reads as out of stock', availabilityOfText, [
  ['Pas disponible', 'OutOfStock'], ['No en stock', 'OutOfStock'], ['Nie dostępny', 'OutOfStock'], ['Nu e în stoc', 'OutOfStock'],
  ['Nu este disponibil', 'OutOfStock'], ['Ikke på lager', 'OutOfStock'], ['Not in stock online', 'OutOfStock'],
])

readsAll('availability: phrases match whole words in spaced scripts, anywhere in unspaced ones', availabilityOfText, [
  ['Pick up in Stockholm', undefined], ['Stocktaking', undefined], ['Disponibilità: vedi sotto', undefined],
  ['当店在庫切れ中', 'OutOfStock'], ['商品在庫あり。', 'InStock'], ['재고있음', 'InStock'],
])

readsAll('availability: case, width, diacritics and spacing are folded', availabilityOfText, [
  ['EPUISE', 'SoldOut'], ['nao disponivel', 'OutOfStock'], ['  AUF\n\tLAGER ', 'InStock'], ['ＩＮ ＳＴＯＣＫ', 'InStock'],
  ['TÜKENDİ', 'SoldOut'], ['Pre‑order now', 'PreOrder'],
])

readsAll('availability: in a short text out of stock beats in stock, and a qualified stock beats plain stock', availabilityOfText, [
  ['In stock. Usually dispatched within 24 hours', 'InStock'],
  ['Size M: out of stock', 'OutOfStock'],
  ['In stock in black; size M sold out', 'SoldOut'],
  ['Sold out. Pre-order the next batch', 'PreOrder'],
  ['Out of stock, available on backorder', 'BackOrder'],
  ['In stock: only 2 left', 'LimitedAvailability'],
  ['Only 3 left in stock', 'LimitedAvailability'],
  ['Notify me when available', 'OutOfStock'],
])

test('availability: in a longer text the first phrase decides; a page-sized text says nothing', (t) => {
  const filler = ' Free returns within 30 days and delivery to most countries in the world.'.repeat(3)
  const long = `In stock.${filler} Other colours: sold out.`
  t.true(long.length > 200 && long.length < 2000)
  t.is(availabilityOfText(long), 'InStock')
  t.is(availabilityOfText('In stock. Other colours: sold out.'), 'SoldOut')
  t.is(availabilityOfText(`In stock.${filler.repeat(10)}`), undefined)
})

readsAll('availability: text without a stock phrase, and words that only look like one', availabilityOfText, [
  ['', undefined], ['Limited edition', undefined], ['Free shipping over €50', undefined], ['Add to cart', undefined],
])

test('availability: every phrase names one availability and reads as it alone', (t) => {
  const owners = new Map<string, string>()
  for (const availability of AVAILABILITIES) {
    for (const phrase of (STOCK_PHRASES as Record<Availability, string[]>)[availability]) {
      const key = phrase.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[-_]/g, ' ')
      t.is(owners.get(key), undefined, `${phrase} is listed under ${owners.get(key)} and ${availability}`)
      owners.set(key, availability)
      t.is(availabilityOfText(phrase.replace('#', '3')), availability, phrase)
    }
  }
})

test('availability: out of stock means it cannot be bought now', (t) => {
  t.deepEqual(AVAILABILITIES.filter(isOutOfStock), ['OutOfStock', 'SoldOut', 'Discontinued'])
})

// Availability from a buy button.

function control(html: string): Element {
  const dom = makeDom(`<form>${html}</form>`)
  return dom.window.document.getElementById('it')!
}

const controlTable: [string, Availability | undefined][] = [
  ['<button id=it>Add to cart</button>', 'InStock'],
  ['<button id=it disabled>Add to cart</button>', 'OutOfStock'],
  ['<button id=it aria-disabled="true">In den Warenkorb</button>', 'OutOfStock'],
  ['<a id=it href="#" class="btn btn-disabled">Ajouter au panier</a>', 'OutOfStock'],
  ['<a id=it href="#" class="is-disabled">Añadir al carrito</a>', 'OutOfStock'],
  ['<div id=it role="button" class="disabled">カートに入れる</div>', 'OutOfStock'],
  ['<fieldset disabled><button id=it>Do koszyka</button></fieldset>', 'OutOfStock'],
  ['<fieldset disabled><legend><button id=it>Do koszyka</button></legend></fieldset>', 'InStock'],
  ['<input id=it type=submit value="Lägg i varukorgen">', 'InStock'],
  ['<input id=it type=image alt="Add to basket" src="cart.png">', 'InStock'],
  ['<button id=it aria-label="Add to bag"><svg></svg></button>', 'InStock'],
  ['<span id=it role="button" title="加入购物车">+</span>', 'InStock'],
  ['<button id=it>Buy it now</button>', 'InStock'],
  ['<button id=it>В корзину</button>', 'InStock'],
  ['<button id=it disabled>장바구니 담기</button>', 'OutOfStock'],
  ['<button id=it>Sold out</button>', 'SoldOut'],
  ['<button id=it>Notify me when available</button>', 'OutOfStock'],
  ['<button id=it>Benachrichtigen</button>', 'OutOfStock'],
  ['<button id=it disabled>Pre-order</button>', 'PreOrder'],
  ['<button id=it aria-label="Add to cart – out of stock">Add to cart</button>', 'OutOfStock'],
  ['<button id=it>Details</button>', undefined],
  ['<div id=it>Add to cart</div>', undefined],
  ['<input id=it type=text value="Add to cart">', undefined],
]

test('availability: a buy button says its stock, or is in stock when enabled and out of stock when disabled', (t) => {
  for (const [html, expected] of controlTable) t.is(availabilityOfControl(control(html)), expected, html)
})

test('availability: every buy phrase on an enabled button reads as in stock, on a disabled one as out of stock', (t) => {
  for (const phrase of BUY_PHRASES) {
    t.is(availabilityOfControl(control(`<button id=it>${phrase}</button>`)), 'InStock', phrase)
    t.is(availabilityOfControl(control(`<button id=it disabled>${phrase}</button>`)), 'OutOfStock', phrase)
  }
})

// Currency.

readsAll('currency: ISO codes as tokens, in any case unless the code is also a word', currencyOf, [
  ['EUR 10', 'EUR'], ['10 chf', 'CHF'], ['usd 5.00', 'USD'], ['Price: 12 GBP', 'GBP'], ['100EUR', 'EUR'],
  ['ABC 10', undefined], ['EURX 10', undefined], ['TRY 100', 'TRY'], ['try again', undefined], ['CAD 5', 'CAD'],
  ['cad 5', undefined], ['100 rub', undefined], ['AMD Ryzen 5', undefined],
])

readsAll('currency: signs that name one currency', currencyOf, [
  ['£10', 'GBP'], ['10 €', 'EUR'], ['₹1,299', 'INR'], ['1 990 ₽', 'RUB'], ['1 990 руб.', 'RUB'], ['1 990 рублей', 'RUB'],
  ['1 990 р.', 'RUB'], ['₴250', 'UAH'], ['250 грн', 'UAH'], ['5 000 тг', 'KZT'], ['5 000 ₸', 'KZT'], ['99,99 zł', 'PLN'],
  ['1 299 Kč', 'CZK'], ['12 990 Ft', 'HUF'], ['49,99 lei', 'RON'], ['₺120', 'TRY'], ['120 TL', 'TRY'], ['₩9,900', 'KRW'],
  ['9,900원', 'KRW'], ['1,980円', 'JPY'], ['1,980円税込', 'JPY'], ['R$ 99,90', 'BRL'], ['US$ 10', 'USD'], ['C$15', 'CAD'],
  ['CA$15', 'CAD'], ['A$20', 'AUD'], ['AU$20', 'AUD'], ['NZ$20', 'NZD'], ['HK$88', 'HKD'], ['S$12', 'SGD'], ['MX$250', 'MXN'],
  ['₪40', 'ILS'], ['250.000₫', 'VND'], ['250.000 VNĐ', 'VND'], ['฿390', 'THB'], ['₱499', 'PHP'], ['₦5,000', 'NGN'],
  ['NT$1,200', 'TWD'], ['1,200 NTD', 'TWD'], ['新台幣 1,200', 'TWD'], ['人民币 99', 'CNY'], ['RMB 99', 'CNY'], ['CN¥99', 'CNY'],
  ['99 美元', 'USD'], ['RM 49', 'MYR'], ['Rp 150.000', 'IDR'],
])

readsAll('currency: a sign shared by several currencies never decides alone', currencyOf, [
  ['$10', undefined], ['¥1,200', undefined], ['￥1,200', undefined], ['100元', undefined], ['Rs. 1,299', undefined],
  ['₨ 1,299', undefined], ['रु 500', undefined], ['1 299 kr', undefined], ['kr. 99,-', undefined], ['Br 25', undefined],
])

readsAll('currency: a shared sign agrees with the currency named beside it', currencyOf, [
  ['$10 USD', 'USD'], ['¥1,200 RMB', 'CNY'], ['￥1,200 人民币', 'CNY'], ['¥1,000円', 'JPY'], ['NT$100元', 'TWD'],
  ['1 299 kr SEK', 'SEK'], ['Rs. 500 (INR)', 'INR'], ['$10 EUR', undefined], ['¥100 USD', undefined], ['kr 99 EUR', undefined],
])

readsAll('currency: a text naming two currencies names none', currencyOf, [
  ['£10 / €12', undefined], ['EUR 10 or USD 11', undefined], ['€10 (CHF 9.50)', undefined], ['€10 EUR', 'EUR'], ['', undefined],
])

readsAll('currency: signs made of letters are words of their own', currencyOf, [
  ['10 ft', undefined], ['Leica M6', undefined], ['Europe', undefined], ['TLC', undefined], ['회원 가격', undefined],
  ['半円', undefined], ['Rsvp', undefined], ['krone', undefined],
])

// Product codes.

readsAll('code: the code after a label, in many languages', codeOf, [
  ['SKU: ABC-123', 'ABC-123'], ['Art.-Nr. 12345', '12345'], ['Artikelnummer 4711-0815', '4711-0815'], ['Réf. 12345', '12345'],
  ['Référence : AB-12', 'AB-12'], ['Código: 778899', '778899'], ['Cod. 12345', '12345'], ['Codice: IT-551', 'IT-551'],
  ['Kod produktu: 1234', '1234'], ['Kód: 5566', '5566'], ['Artikelnr: 99887', '99887'], ['Tuotenumero 123456', '123456'],
  ['Артикул: 40213', '40213'], ['Код товара: 998', '998'], ['品番：AB-1234', 'AB-1234'], ['商品番号: 1234567', '1234567'],
  ['〈商品編號：M67296549〉', 'M67296549'], ['货号：A12345', 'A12345'], ['型號: X-100', 'X-100'], ['상품번호 12345678', '12345678'],
  ['Item no. 5678', '5678'], ['Product code: PC-77', 'PC-77'], ['Ürün kodu: 12345', '12345'], ['商品編號M67296549', 'M67296549'],
])

readsAll('code: a label beats earlier numbers; a label followed by a word is no code', codeOf, [
  ['Size 42, SKU 12345', '12345'], ['Pack of 6 · Art.-Nr. 880123', '880123'], ['Item no longer available', undefined],
])

readsAll('code: after a colon or #, else the first token that looks like a code', codeOf, [
  ['post id: 7221815683', '7221815683'], ['#12345 Blue shirt', '12345'], ['№ 4455', '4455'], ['Blue shirt 78910', '78910'],
  ['New arrival ABCDEFG', 'ABCDEFG'], ['SKU: ABC-123.', 'ABC-123'], ['Ref. 12-34, blue', '12-34'], ['品番：ＡＢ－１２３', 'AB-123'],
])

readsAll('code: a URL or path gives the code in its last segment holding one', codeOf, [
  ['https://x.com/itm/293565036718', '293565036718'], ['/TalleR_TR_1047-1609583.html', '1609583'], ['/p/p4999298', 'p4999298'],
  ['https://shop.example/de/p/lack-table-white-00293772/', '00293772'], ['https://shop.example/p/12345/nice-running-shoe', '12345'],
  ['https://www.amazon.com/Some-Title/dp/B08B5WF51D/ref=sr_1_1', 'B08B5WF51D'], ['/shoes/nike-air-max-90-DH1234-100', 'DH1234'], ['/shoe-12345-V2X9.html', '12345'],
  ['/product?sku=1049084', '1049084'], ['/item.php?id=5531', '5531'], ['/p/12345?sku=999', '12345'], ['/p/12345#reviews', '12345'],
  ['/shoes/running#sku=12345', undefined], ['https://shop.example/shoes/running', undefined],
])

readsAll('code: a text that is one code is that code, unwrapped and trimmed', codeOf, [
  ['B08B5WF51D', 'B08B5WF51D'], ['002.937.72', '002.937.72'], ['PU_106160/01', 'PU_106160/01'], ['  ABC-123  ', 'ABC-123'],
  ['(12345)', '12345'], ['[AB-12]', 'AB-12'], ['«X123»', 'X123'], ['“B2C3”', 'B2C3'], ['〈M67296549〉', 'M67296549'],
  ['ABCDEF', 'ABCDEF'],
])

readsAll('code: no code-like token, no code', codeOf, [
  ['', undefined], ['Bluetooth', undefined], ['Abcdef', undefined], ['Free shipping', undefined], [`A${'1'.repeat(64)}`, undefined],
])

test('code after a label: case-blind, whitespace-collapsed, separators skipped, word boundaries kept', (t) => {
  t.is(codeAfter('Item #: 12-345 (new)', 'Item #'), '12-345')
  t.is(codeAfter('item   #:12-345', 'ITEM #'), '12-345')
  t.is(codeAfter('Mfr. Part № 8899-AB', 'Mfr. Part #'), '8899-AB')
  t.is(codeAfter('Model: Classic, Model: X-100', 'Model'), 'X-100')
  t.is(codeAfter('品番：ＡＢ－１２３', '品番'), 'AB-123')
  t.is(codeAfter('SKUs: 12345', 'SKU'), undefined)
  t.is(codeAfter('Color: Red', 'Color'), undefined)
  t.is(codeAfter('SKU: 12345', 'EAN'), undefined)
  t.is(codeAfter('SKU: 12345', ''), undefined)
})
