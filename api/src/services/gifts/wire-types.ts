// The gift list's query as the route parsed it (wire schema: GiftListQuery in
// api/src/routes/schemas/gifts.ts; the route passes its parsed value, so the two cannot drift apart).

export type GiftListParams = {
  limit?: number
  offset?: number
  is_main?: boolean
  search?: string
  title__icontains?: string
}
