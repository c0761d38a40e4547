// Checks a JSON-LD object against what schema.org's Product and Offer types (and the rich-result
// rules search engines apply to them) require. Returns the problems; an empty list means valid.

const AVAILABILITY = new Set(
  [
    'InStock',
    'OutOfStock',
    'PreOrder',
    'BackOrder',
    'Discontinued',
    'InStoreOnly',
    'LimitedAvailability',
    'OnlineOnly',
    'PreSale',
    'SoldOut',
  ].map((v) => `https://schema.org/${v}`),
)

function isAbsoluteUrl(v: unknown): boolean {
  return typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v)
}

function checkOffer(offer: unknown, where: string): string[] {
  const problems: string[] = []
  if (!offer || typeof offer !== 'object') return [`${where}: not an object`]
  const o = offer as Record<string, unknown>
  if (o['@type'] !== 'Offer') problems.push(`${where}.@type must be Offer`)
  const price = o.price
  if (!(typeof price === 'number' || (typeof price === 'string' && /^\d+(\.\d+)?$/.test(price))))
    problems.push(`${where}.price must be a number or a plain decimal string`)
  if (typeof o.priceCurrency !== 'string' || !/^[A-Z]{3}$/.test(o.priceCurrency))
    problems.push(`${where}.priceCurrency must be an ISO 4217 code`)
  if (typeof o.availability !== 'string' || !AVAILABILITY.has(o.availability))
    problems.push(`${where}.availability must be a schema.org ItemAvailability URL`)
  if (o.url !== undefined && !isAbsoluteUrl(o.url)) problems.push(`${where}.url must be absolute`)
  return problems
}

export function productJsonLdProblems(data: unknown): string[] {
  if (!data || typeof data !== 'object') return ['not an object']
  const p = data as Record<string, unknown>
  const problems: string[] = []
  if (p['@context'] !== 'https://schema.org' && p['@context'] !== 'http://schema.org')
    problems.push('@context must be schema.org')
  if (p['@type'] !== 'Product') problems.push('@type must be Product')
  if (typeof p.name !== 'string' || p.name.trim() === '') problems.push('name is required')
  if (p.image !== undefined && !isAbsoluteUrl(p.image)) problems.push('image must be an absolute URL')
  if (p.url !== undefined && !isAbsoluteUrl(p.url)) problems.push('url must be absolute')
  if (p.description !== undefined && typeof p.description !== 'string')
    problems.push('description must be text')
  const offers = p.offers
  if (offers === undefined) problems.push('offers is required')
  else if (Array.isArray(offers)) {
    if (offers.length === 0) problems.push('offers must not be empty')
    offers.forEach((o, i) => {
      problems.push(...checkOffer(o, `offers[${i}]`))
    })
  } else problems.push(...checkOffer(offers, 'offers'))
  return problems
}
