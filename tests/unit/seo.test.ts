import { describe, expect, it } from 'vitest'
import { absoluteUrl, pageMeta, seoMeta, shortDescription } from '#app/lib/seo'
import { jsonLdText, productJsonLd } from '#app/lib/structured-data'
import { robotsTxt } from '#app/routes/robots[.]txt'
import { STATIC_PATHS, sitemapXml } from '#app/routes/sitemap[.]xml'
import { productJsonLdProblems } from '#tests/helpers/schema-org'

const origin = 'https://shop.example'

describe('seoMeta', () => {
  const tags = seoMeta({
    title: 'PUBG Mobile — купить UC | ИгроМаркет',
    description: 'Пополнение UC с быстрой доставкой.',
    path: '/products/1',
    origin,
    image: '/images/games/pubg.svg',
    type: 'product',
  })
  const find = (key: string, value: string) =>
    tags.find((t) => (t as Record<string, string>)[key] === value) as Record<string, string> | undefined

  it('gives the title, description, canonical link and Open Graph tags', () => {
    expect(tags[0]).toEqual({ title: 'PUBG Mobile — купить UC | ИгроМаркет' })
    expect(find('name', 'description')?.content).toBe('Пополнение UC с быстрой доставкой.')
    expect(find('rel', 'canonical')).toEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://shop.example/products/1',
    })
    expect(find('property', 'og:title')?.content).toBe('PUBG Mobile — купить UC | ИгроМаркет')
    expect(find('property', 'og:url')?.content).toBe('https://shop.example/products/1')
    expect(find('property', 'og:image')?.content).toBe('https://shop.example/images/games/pubg.svg')
    expect(find('property', 'og:type')?.content).toBe('product')
    expect(find('property', 'og:locale')?.content).toBe('ru_RU')
    expect(find('name', 'robots')).toBeUndefined()
  })

  it('marks pages that must not be indexed', () => {
    const t = seoMeta({ title: 't', description: 'd', path: '/orders/x/pay', origin, noIndex: true })
    expect(t).toContainEqual({ name: 'robots', content: 'noindex, nofollow' })
  })

  it('pageMeta takes the path from the location and the origin from the root data', () => {
    const t = pageMeta(
      { location: { pathname: '/gifts/detalis/3' }, matches: [{ id: 'root', data: { origin } }] },
      { title: 'Подарок', description: 'Описание' },
    )
    expect(t).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://shop.example/gifts/detalis/3',
    })
  })

  it('pageMeta names the owner’s shop in og:site_name (issue 37), the built-in name until known', () => {
    const siteName = (data: unknown) =>
      pageMeta(
        { location: { pathname: '/' }, matches: [{ id: 'root', data }] },
        { title: 't', description: 'd' },
      ).find((t) => (t as Record<string, string>).property === 'og:site_name')
    expect(siteName({ origin, shop: { name: 'Лавка Пикселя' } })).toEqual({
      property: 'og:site_name',
      content: 'Лавка Пикселя',
    })
    expect(siteName({ origin })).toEqual({ property: 'og:site_name', content: 'ИгроМаркет' })
  })

  it('shortens long descriptions at a word and strips markup', () => {
    const long = `<p>${'Слово '.repeat(80)}</p>`
    const d = shortDescription(long)
    expect(d.length).toBeLessThanOrEqual(200)
    expect(d.endsWith('…')).toBe(true)
    expect(d).not.toMatch(/[<>]/)
  })
})

describe('absoluteUrl (issue 38, finding 4)', () => {
  it('never throws and never names another host for a path', () => {
    for (const path of [
      '//evil.example/..',
      '//evil.example/x',
      '/\\evil.example/x',
      '///a',
      '/javascript:x',
      '//',
    ])
      expect(new URL(absoluteUrl(origin, path)).origin).toBe(origin)
    expect(absoluteUrl(origin, '//evil.example/x')).toBe('https://shop.example/evil.example/x')
    expect(absoluteUrl(origin, '/games/1?x=1')).toBe('https://shop.example/games/1?x=1')
    expect(absoluteUrl(origin, 'https://cdn.example/a.png')).toBe('https://cdn.example/a.png')
  })
})

describe('productJsonLd', () => {
  it('a gift: one Offer with price, RUB and availability, valid for schema.org Product', () => {
    const ld = productJsonLd({
      name: 'Steam 1000 ₽',
      description: 'Код пополнения кошелька Steam',
      image: '/images/gifts/steam.svg',
      origin,
      path: '/gifts/detalis/7',
      sku: 7,
      offers: { price: '1000.00', inStock: true },
    })
    expect(productJsonLdProblems(ld)).toEqual([])
    expect(ld.offers).toEqual({
      '@type': 'Offer',
      price: '1000.00',
      priceCurrency: 'RUB',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/NewCondition',
      url: 'https://shop.example/gifts/detalis/7',
    })
    expect(ld.image).toBe('https://shop.example/images/gifts/steam.svg')
  })

  it('a game: several Offers, out of stock ones marked OutOfStock', () => {
    const ld = productJsonLd({
      name: 'PUBG Mobile',
      origin,
      path: '/products/1',
      offers: [
        { name: '60 UC', price: '89.00', inStock: true },
        { name: '325 UC', price: '449.50', inStock: false },
      ],
    })
    expect(productJsonLdProblems(ld)).toEqual([])
    expect(Array.isArray(ld.offers) && ld.offers[1]?.availability).toBe('https://schema.org/OutOfStock')
  })

  it('the validator catches what schema.org requires', () => {
    expect(productJsonLdProblems({ '@context': 'https://schema.org', '@type': 'Product', name: '' })).toEqual(
      ['name is required', 'offers is required'],
    )
    const bad = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'x',
      offers: { '@type': 'Offer', price: '1,5', priceCurrency: 'руб', availability: 'yes' },
    }
    expect(productJsonLdProblems(bad)).toHaveLength(3)
  })

  it('refuses a price that is not a decimal string (money is never a float here)', () => {
    expect(() =>
      productJsonLd({ name: 'x', origin, path: '/', offers: { price: '1e3', inStock: true } }),
    ).toThrow()
  })

  it('the inline JSON cannot close its script element', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script>' })
    expect(text).not.toContain('</script')
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' })
  })
})

describe('sitemap.xml and robots.txt', () => {
  it('lists absolute, escaped, unique URLs', () => {
    const xml = sitemapXml(origin, [
      ...STATIC_PATHS,
      '/products/1',
      '/products/1',
      "/gifts/detalis/2?a=1&b='",
    ])
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(xml.match(/<loc>https:\/\/shop\.example\/products\/1<\/loc>/g)).toHaveLength(1)
    expect(xml).toContain('<loc>https://shop.example/info/contacts</loc>')
    expect(xml).toContain('&#38;')
    expect(xml).not.toMatch(/&(?!#\d+;)/)
  })

  it('robots.txt allows the shop, keeps crawlers out of accounts and orders, and names the sitemap', () => {
    const txt = robotsTxt(origin)
    expect(txt).toContain('User-agent: *\nAllow: /\n')
    for (const p of ['/profile', '/orders/', '/auth/']) expect(txt).toContain(`Disallow: ${p}\n`)
    expect(txt).toContain('Sitemap: https://shop.example/sitemap.xml')
  })
})
