// The Standoff 2 listing price (decision 043): one rule for the order form's preview (app) and the
// price the server claims and stores on the order (api). Imports nothing, so any layer may use it.

/** The fee in basis points that a whole price is (100 %): the market keeps nothing past it. */
const WHOLE_BP = 10000

/**
 * The price (hundredths of a gold) the buyer lists the skin at on the in-game market so that, after
 * the market's fee (basis points), the shop's purchase brings exactly the gold ordered (rounded up
 * to the hundredth), plus the surplus that makes the listing recognisable. No gold is no listing
 * (0); a fee of 100 % or more is not covered (the gold itself, plus the surplus).
 */
export function standoffListingPrice(
  goldHundredths: number,
  marketFeeBp: number,
  surplusHundredths: number,
): number {
  if (goldHundredths <= 0) return 0
  const keep = WHOLE_BP - marketFeeBp
  if (keep <= 0) return goldHundredths + surplusHundredths
  return Math.ceil((goldHundredths * WHOLE_BP) / keep) + surplusHundredths
}
