// The shapes this service answers with: an order with its totals and an order-history item (wire schemas in api/src/routes/schemas/orders.ts). A route
// answering with them is type-checked against its schema, so the two cannot drift apart.

export type RecalculatedOrderOut = {
  id: string
  resourcetype: 'PUBGOrder' | 'StandoffOrder' | 'SteamOrder' | 'MooGoldOrder' | 'RokkyOrder'
  status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
  created: string
  email: string | null
  game: {
    id: number
    title: string
    logo: string
    resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
  } | null
  gift: { id: number; title: string; logo: string } | null
  products: {
    id: number
    product: number
    resourcetype: 'PUBGProduct' | 'StandoffProduct' | 'SteamProduct' | 'SupplyProduct'
    title: string
    picture: string
    quantity: number
    price: string
    total: string
    amount_uc: number | null
    gold: number | null
    codes: { code: string; amount_uc: number }[]
  }[]
  total: string
  total_without_promocode: string
  total_with_promocode: string
  promo_percent: number | null
  balance_used: string
  total_to_pay: string
  is_payment_active: boolean
  reject_reason: string | null
  game_avatar: string | null
  game_account_id: string | null
  surplus: string | null
  steam_account_id: string | null
  amount: string | null
  commission: string | null
  moogold_user_id: string | null
  moogold_server: number | null
  moogold_server_custom_id: string | null
  player_nickname: string | null
  code: string | null
  number?: number
  listing_price?: string | null
  skin_listed?: boolean
  refund?: {
    status: 'done' | 'pending' | 'manual'
    method: 'manual' | 'provider' | 'balance'
    amount: string
    to_balance: string
    reason: string
  } | null
  receipts?: {
    kind: 'sell' | 'sell_refund'
    status: 'failed' | 'pending' | 'registered'
    email: string
    total: string
    items: { name: string; quantity: number; price: string; sum: string }[]
    fiscal: {
      fn_number: string
      fiscal_document_number: string
      fiscal_document_attribute: string
      receipt_datetime: string
    } | null
    payment_method?: 'full_prepayment' | 'full_payment'
  }[]
  awaiting_delivery_minutes?: number | null
  on_review?: boolean
}

export type OrderHistoryOut =
  | {
      moogold_user_id: string | null
      moogold_server: number | null
      moogold_server_custom_id: string | null
      player_nickname: string | null
      order_products: {
        id: number
        product: number
        title: string
        picture: string
        quantity: number
        price: string
      }[]
      id: string
      status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
      created: string
      total: string
      total_to_pay: string
      reject_reason: string | null
      is_payment_active: boolean
      email: string | null
      game: {
        id: number
        title: string
        logo: string
        resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
      } | null
      resourcetype: 'MooGoldOrder'
      awaiting_delivery_minutes?: number | null
      number?: number
      receipts?: {
        kind: 'sell' | 'sell_refund'
        status: 'failed' | 'pending' | 'registered'
        email: string
        total: string
        items: { name: string; quantity: number; price: string; sum: string }[]
        fiscal: {
          fn_number: string
          fiscal_document_number: string
          fiscal_document_attribute: string
          receipt_datetime: string
        } | null
        payment_method?: 'full_prepayment' | 'full_payment'
      }[]
    }
  | {
      order_products: {
        id: number
        product: number
        title: string
        picture: string
        quantity: number
        price: string
        codes: { code: string; amount_uc: number }[]
      }[]
      id: string
      status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
      created: string
      total: string
      total_to_pay: string
      reject_reason: string | null
      is_payment_active: boolean
      email: string | null
      game: {
        id: number
        title: string
        logo: string
        resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
      } | null
      resourcetype: 'PUBGOrder'
      awaiting_delivery_minutes?: number | null
      number?: number
      receipts?: {
        kind: 'sell' | 'sell_refund'
        status: 'failed' | 'pending' | 'registered'
        email: string
        total: string
        items: { name: string; quantity: number; price: string; sum: string }[]
        fiscal: {
          fn_number: string
          fiscal_document_number: string
          fiscal_document_attribute: string
          receipt_datetime: string
        } | null
        payment_method?: 'full_prepayment' | 'full_payment'
      }[]
    }
  | {
      code: string | null
      gift: { id: number; title: string; logo: string } | null
      id: string
      status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
      created: string
      total: string
      total_to_pay: string
      reject_reason: string | null
      is_payment_active: boolean
      email: string | null
      game: {
        id: number
        title: string
        logo: string
        resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
      } | null
      resourcetype: 'RokkyOrder'
      awaiting_delivery_minutes?: number | null
      number?: number
      receipts?: {
        kind: 'sell' | 'sell_refund'
        status: 'failed' | 'pending' | 'registered'
        email: string
        total: string
        items: { name: string; quantity: number; price: string; sum: string }[]
        fiscal: {
          fn_number: string
          fiscal_document_number: string
          fiscal_document_attribute: string
          receipt_datetime: string
        } | null
        payment_method?: 'full_prepayment' | 'full_payment'
      }[]
    }
  | {
      game_account_id: string | null
      game_avatar: string | null
      surplus: string | null
      player_nickname: string | null
      order_products: {
        id: number
        product: number
        title: string
        picture: string
        quantity: number
        price: string
      }[]
      id: string
      status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
      created: string
      total: string
      total_to_pay: string
      reject_reason: string | null
      is_payment_active: boolean
      email: string | null
      game: {
        id: number
        title: string
        logo: string
        resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
      } | null
      resourcetype: 'StandoffOrder'
      listing_price?: string | null
      skin_listed?: boolean
      awaiting_delivery_minutes?: number | null
      number?: number
      receipts?: {
        kind: 'sell' | 'sell_refund'
        status: 'failed' | 'pending' | 'registered'
        email: string
        total: string
        items: { name: string; quantity: number; price: string; sum: string }[]
        fiscal: {
          fn_number: string
          fiscal_document_number: string
          fiscal_document_attribute: string
          receipt_datetime: string
        } | null
        payment_method?: 'full_prepayment' | 'full_payment'
      }[]
    }
  | {
      steam_account_id: string | null
      amount: string | null
      player_nickname: string | null
      id: string
      status: 'created' | 'waiting_for_payment' | 'paid' | 'sending' | 'sent' | 'done' | 'failed'
      created: string
      total: string
      total_to_pay: string
      reject_reason: string | null
      is_payment_active: boolean
      email: string | null
      game: {
        id: number
        title: string
        logo: string
        resourcetype: 'PUBGGame' | 'StandoffGame' | 'Steam' | 'SupplyGame'
      } | null
      resourcetype: 'SteamOrder'
      awaiting_delivery_minutes?: number | null
      number?: number
      receipts?: {
        kind: 'sell' | 'sell_refund'
        status: 'failed' | 'pending' | 'registered'
        email: string
        total: string
        items: { name: string; quantity: number; price: string; sum: string }[]
        fiscal: {
          fn_number: string
          fiscal_document_number: string
          fiscal_document_attribute: string
          receipt_datetime: string
        } | null
        payment_method?: 'full_prepayment' | 'full_payment'
      }[]
    }
