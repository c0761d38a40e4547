// How the seller's state registration number is labelled (issue 47): an individual entrepreneur's
// is an ОГРНИП (15 digits), an organisation's an ОГРН (13). Both are checked on saving (the
// check digit, api/src/services/receipts/requisites.ts), so the length alone tells them apart;
// the storefront reads only the number (the contacts call carries no legal form).

/** True for an individual entrepreneur's number (ОГРНИП, 15 digits). */
export const isSoleTraderNumber = (ogrn: string): boolean => /^\d{15}$/.test(ogrn.trim())
