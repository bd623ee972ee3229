// The words shops write for stock and for buying, per availability, in the languages we extract from.
// Data only: src/page/availability.ts folds them (case, diacritics, hyphens) and compiles them once,
// so a phrase is written here the way a shop writes it. `#` stands for a number ("Only 3 left").

/** Phrases per schema.org availability. A phrase that contains another one wins over it ("not in stock"). */
export const STOCK_PHRASES = {
  InStock: [
    // Machine forms: schema.org names, WooCommerce and feed values ("in_stock" folds to "in stock").
    'instock', 'in stock', 'in stock now', 'available', 'available now', 'ready to ship', 'back in stock',
    'auf lager', 'am lager', 'an lager', 'sofort lieferbar', 'lieferbar', 'verfügbar', 'sofort verfügbar', 'vorrätig',
    'en stock', 'disponible', 'en existencia', 'hay existencias', 'hay stock',
    'em estoque', 'em stock', 'disponível', 'pronta entrega',
    'disponibile', 'in magazzino', 'disponibilità immediata', 'pronta consegna',
    'op voorraad', 'leverbaar', 'direct leverbaar', 'beschikbaar',
    'dostępny', 'dostępna', 'dostępne', 'w magazynie', 'na stanie',
    'skladem', 'na skladě', 'skladom', 'k dispozici', 'dostupné', 'dostupný',
    'i lager', 'finns i lager', 'på lager', 'varastossa', 'saatavilla',
    'в наличии', 'есть в наличии', 'на складе', 'в наявності', 'є в наявності', 'на складі',
    'stokta', 'stokta var', 'mevcut',
    'noliktavā', 'ir noliktavā', 'pieejams', 'sandėlyje', 'yra sandėlyje', 'laos', 'laos olemas',
    'raktáron', 'készleten', 'elérhető',
    'în stoc', 'disponibil',
    'na zalogi', 'dobavljivo', 'na voljo', 'na stanju', 'dostupno', 'raspoloživo', 'на стању', 'в наличност', 'наличен',
    'διαθέσιμο', 'άμεσα διαθέσιμο', 'σε απόθεμα',
    '在庫あり', '在庫有り', '在庫有', '即納',
    '有货', '有貨', '现货', '現貨', '有库存', '有庫存',
    '재고 있음', '재고있음', '구매 가능', '구매가능',
  ],
  OutOfStock: [
    'outofstock', 'out of stock', 'not in stock', 'no stock', 'not available', 'unavailable', 'currently unavailable',
    'temporarily unavailable', 'coming soon', 'available soon', 'notify me', 'email me when available', 'email me when in stock',
    'nicht verfügbar', 'nicht auf lager', 'nicht lieferbar', 'nicht vorrätig', 'nicht am lager', 'vergriffen',
    'benachrichtigen', 'demnächst verfügbar',
    'rupture de stock', 'en rupture', 'indisponible', 'pas en stock', 'plus en stock', 'hors stock',
    'bientôt disponible', "m'avertir", 'me prévenir',
    'sin stock', 'no disponible', 'sin existencias', 'fuera de stock', 'no hay stock', 'temporalmente agotado',
    'próximamente', 'avisarme',
    'indisponível', 'sem estoque', 'sem stock', 'fora de estoque', 'não disponível', 'avise me',
    'non disponibile', 'non in magazzino', 'temporaneamente esaurito', 'avvisami',
    'niet op voorraad', 'niet leverbaar', 'niet beschikbaar', 'tijdelijk uitverkocht', 'tijdelijk niet leverbaar',
    'niedostępny', 'niedostępna', 'niedostępne', 'brak w magazynie', 'brak towaru', 'brak na stanie', 'powiadom mnie',
    'není skladem', 'nedostupné', 'nedostupný', 'není k dispozici', 'nie je na sklade', 'hlídat dostupnost',
    'ej i lager', 'inte i lager', 'slut i lager', 'tillfälligt slut', 'ikke på lager', 'ikke tilgængelig',
    'ikke tilgjengelig', 'ei varastossa', 'ei saatavilla', 'tilapäisesti loppu', 'bevaka',
    'нет в наличии', 'не в наличии', 'нет на складе', 'отсутствует', 'закончился', 'сообщить о поступлении',
    'немає в наявності', 'немає на складі', 'закінчився', 'відсутній',
    'stokta yok', 'stokta kalmadı', 'mevcut değil', 'gelince haber ver',
    'nav noliktavā', 'nav pieejams', 'nėra sandėlyje', 'pole laos', 'otsas',
    'nincs raktáron', 'nincs készleten', 'nem elérhető',
    'stoc epuizat', 'indisponibil', 'nu este în stoc', 'lipsă stoc',
    'ni na zalogi', 'ni na voljo', 'ni dobavljivo', 'nedobavljivo', 'nedostupno', 'nije dostupno', 'nema na stanju', 'nije na stanju',
    'нема на стању', 'няма наличност', 'не е наличен', 'μη διαθέσιμο', 'εκτός αποθέματος',
    '在庫切れ', '在庫なし', '在庫無し', '品切れ', '入荷待ち', '入荷通知', '再入荷のお知らせ',
    '缺货', '缺貨', '无货', '無貨', '没货', '沒貨', '没有货', '沒有貨', '暂时缺货', '暫時缺貨', '无库存', '無庫存',
    '暂无库存', '暫無庫存', '没有库存', '沒有庫存', '库存不足', '庫存不足', '补货中', '補貨中', '到货通知', '到貨通知',
    '재고 없음', '재고없음', '일시 품절', '일시품절', '구매 불가', '구매불가', '재입고 알림',
  ],
  SoldOut: [
    'soldout', 'sold out',
    'ausverkauft', 'épuisé', 'agotado', 'esgotado', 'esaurito', 'uitverkocht', 'wyprzedany', 'wyprzedane',
    'vyprodáno', 'vypredané', 'slutsåld', 'udsolgt', 'utsolgt', 'loppuunmyyty', 'распродано', 'розпродано',
    'tükendi', 'izpārdots', 'išparduota', 'läbi müüdud', 'elfogyott', 'epuizat', 'razprodano', 'rasprodano',
    'распродато', 'изчерпан', 'изчерпано', 'εξαντλημένο',
    '売り切れ', '売切れ', '完売', '售完', '已售完', '售罄', '已售罄', '품절',
  ],
  PreOrder: [
    'preorder', 'pre order', 'presale', 'pre sale', 'available for pre order',
    'vorbestellen', 'vorbestellung', 'vorbestellbar', 'précommande', 'reserva', 'preventa', 'pré venda',
    'pré encomenda', 'preordine', 'prenotabile', 'voorbestellen', 'przedsprzedaż', 'předobjednávka',
    'förbeställ', 'forudbestil', 'forhåndsbestill', 'ennakkotilaus', 'предзаказ',
    'передзамовлення', 'ön sipariş', 'priekšpasūtījums', 'išankstinis užsakymas', 'eeltellimus', 'előrendelés',
    'precomandă', '予約', '预售', '預售', '预购', '預購', '예약 판매', '예약판매', '사전 예약', '사전예약',
  ],
  BackOrder: [
    'backorder', 'back order', 'backordered', 'on backorder', 'onbackorder', 'available on backorder',
    'nachbestellt', 'im zulauf', 'nicht sofort lieferbar', 'sur commande', 'bajo pedido', 'sob encomenda',
    'su ordinazione', 'in bestelling', 'na zamówienie', 'na objednávku', 'na objednanie', 'beställningsvara',
    'под заказ', 'під замовлення', 'お取り寄せ', '取り寄せ', '调货中', '調貨中',
  ],
  LimitedAvailability: [
    'limitedavailability', 'limited availability', 'limited stock', 'low stock', 'only # left', 'only # in stock',
    'only # available', 'few left', 'only a few left', 'almost gone', 'almost sold out',
    'nur noch # stück', 'nur noch # verfügbar', 'nur noch # auf lager', 'nur noch wenige', 'geringer bestand',
    'plus que # en stock', 'stock limité', 'dernières pièces', 'derniers articles',
    'últimas unidades', 'pocas unidades', 'solo quedan #', 'quedan #', 'stock limitado', 'restam #',
    'ultimi pezzi', 'ultime unità', 'disponibilità limitata', 'beperkte voorraad', 'laatste exemplaren',
    'ostatnie sztuki', 'ostatnia sztuka', 'poslední kusy', 'posledné kusy', 'осталось # шт', 'заканчивается',
    'залишилось # шт', 'son # ürün', 'tükenmek üzere', 'stoc limitat', 'ultimele bucăți',
    'nur noch # artikel', 'nur noch # vorrätig', 'últimas # unidades', 'restam apenas #', 'ultimi # pezzi',
    'nog # op voorraad', 'nog maar #', 'zostało # szt', 'zostały # szt', 'poslední # kusy', 'endast # kvar',
    'bara # kvar', 'kun # tilbage', 'kun # igjen', 'vain # jäljellä', 'már csak # db', 'utolsó # darab',
    'ultimele # bucăți', 'doar # bucăți',
    '残りわずか', '残り#点', '残り#個', '在庫僅少', '在庫わずか', '仅剩#件', '僅剩#件', '库存紧张', '庫存緊張',
    '即将售罄', '即將售罄', '품절 임박', '품절임박', '#개 남음',
  ],
  Discontinued: [
    'discontinued', 'no longer available', 'no longer sold', 'nicht mehr verfügbar', 'nicht mehr lieferbar',
    'plus disponible', "n'est plus disponible", 'descatalogado', 'ya no disponible', 'fora de linha', 'descontinuado',
    'fuori produzione', 'non più disponibile', 'niet meer leverbaar', 'niet meer verkrijgbaar', 'uit assortiment',
    'снят с производства', '販売終了', '生産終了', '停产', '停產', '已下架', '단종', '판매 종료', '판매종료',
  ],
  InStoreOnly: [
    'instoreonly', 'in store only', 'in stores only', 'only in store', 'nur im markt', 'nur in der filiale',
    'uniquement en magasin', 'solo en tienda', 'solo in negozio', '店頭のみ', '仅限门店',
  ],
  OnlineOnly: [
    'onlineonly', 'online only', 'only online', 'only available online', 'nur online', 'uniquement en ligne',
    'solo online', 'exclusivo online', 'ネット限定', '仅限网购',
  ],
}

/**
 * Words that turn the stock phrase right after them into its opposite ("nicht lieferbar", "nu este
 * disponibil"), so a pairing missing above still reads as out of stock. Prefix negations only.
 */
export const NEGATIONS = [
  'not', 'no', 'nicht', 'kein', 'pas', 'non', 'não', 'niet', 'nie', 'nie ma', 'není', 'nie je', 'ej', 'inte', 'ikke',
  'ei', 'нет', 'не', 'немає', 'nav', 'nėra', 'pole', 'nincs', 'nem', 'nu', 'nu este', 'nu e', 'nije', 'няма', 'μη',
]

/** What a buy button says when the product can be bought. */
export const BUY_PHRASES = [
  'add to cart', 'add to basket', 'add to bag', 'add to trolley', 'buy now', 'buy it now',
  'in den warenkorb', 'in den einkaufswagen', 'jetzt kaufen', 'ajouter au panier', 'acheter',
  'añadir al carrito', 'añadir a la cesta', 'agregar al carrito', 'comprar', 'adicionar ao carrinho',
  'aggiungi al carrello', 'in winkelwagen', 'in winkelmand', 'do koszyka', 'dodaj do koszyka', 'do košíku',
  'vložit do košíku', 'do košíka', 'lägg i varukorgen', 'köp', 'læg i kurv', 'legg i handlekurven',
  'lisää ostoskoriin', 'в корзину', 'купить', 'у кошик', 'купити', 'sepete ekle', 'satın al',
  'pievienot grozam', 'ielikt grozā', 'į krepšelį', 'lisa ostukorvi', 'kosárba', 'adaugă în coș', 'cumpără',
  'v košarico', 'dodaj v košarico', 'u košaricu', 'dodaj u košaricu', 'kupi', 'у корпу', 'купи', 'в количката',
  'добави в количката', 'προσθήκη στο καλάθι', 'αγορά',
  'カートに入れる', '今すぐ購入', '加入购物车', '加入購物車', '立即购买', '立即購買', '장바구니', '구매하기', '바로구매',
]
