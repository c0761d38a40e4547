// The shapes this service answers with: a game and a product of the catalogue (wire schemas in api/src/routes/schemas/catalogue.ts). A route
// answering with them is type-checked against its schema, so the two cannot drift apart.

export type ProductOut =
  | {
      amount_uc: number
      id: number
      game: number
      title: string
      price: string
      picture: string
      min_quantity: number
      max_quantity: number
      is_active: boolean
      discount_price: string | null
      discount_percent: number
      resourcetype: 'PUBGProduct'
      in_stock?: boolean
      stock_left?: number
    }
  | {
      gold: number
      id: number
      game: number
      title: string
      price: string
      picture: string
      min_quantity: number
      max_quantity: number
      is_active: boolean
      discount_price: string | null
      discount_percent: number
      resourcetype: 'StandoffProduct'
    }
  | {
      id: number
      game: number
      title: string
      price: string
      picture: string
      min_quantity: number
      max_quantity: number
      is_active: boolean
      discount_price: string | null
      discount_percent: number
      resourcetype: 'SteamProduct'
    }
  | {
      id: number
      game: number
      title: string
      price: string
      picture: string
      min_quantity: number
      max_quantity: number
      is_active: boolean
      discount_price: string | null
      discount_percent: number
      resourcetype: 'SupplyProduct'
    }

export type GameOut =
  | {
      products: {
        amount_uc: number
        id: number
        game: number
        title: string
        price: string
        picture: string
        min_quantity: number
        max_quantity: number
        is_active: boolean
        discount_price: string | null
        discount_percent: number
        resourcetype: 'PUBGProduct'
        in_stock?: boolean
        stock_left?: number
      }[]
      id: number
      title: string
      detail_title: string
      detail_description: string
      logo: string
      created: string
      is_auth_required: boolean
      discount_percent: number
      is_active: boolean
      product_preview_name: string
      product_preview_icon: string
      tags: string[]
      resourcetype: 'PUBGGame'
      delivery_minutes?: number | null
    }
  | {
      products: {
        gold: number
        id: number
        game: number
        title: string
        price: string
        picture: string
        min_quantity: number
        max_quantity: number
        is_active: boolean
        discount_price: string | null
        discount_percent: number
        resourcetype: 'StandoffProduct'
      }[]
      player_check: boolean
      id: number
      title: string
      detail_title: string
      detail_description: string
      logo: string
      created: string
      is_auth_required: boolean
      discount_percent: number
      is_active: boolean
      product_preview_name: string
      product_preview_icon: string
      tags: string[]
      resourcetype: 'StandoffGame'
      delivery_minutes?: number | null
    }
  | {
      products: {
        id: number
        game: number
        title: string
        price: string
        picture: string
        min_quantity: number
        max_quantity: number
        is_active: boolean
        discount_price: string | null
        discount_percent: number
        resourcetype: 'SteamProduct'
      }[]
      player_check: boolean
      id: number
      title: string
      detail_title: string
      detail_description: string
      logo: string
      created: string
      is_auth_required: boolean
      discount_percent: number
      is_active: boolean
      product_preview_name: string
      product_preview_icon: string
      tags: string[]
      resourcetype: 'Steam'
      delivery_minutes?: number | null
    }
  | {
      products: {
        id: number
        game: number
        title: string
        price: string
        picture: string
        min_quantity: number
        max_quantity: number
        is_active: boolean
        discount_price: string | null
        discount_percent: number
        resourcetype: 'SupplyProduct'
      }[]
      servers: { id: number; name: string }[]
      is_server_needed: boolean
      is_server_enum: boolean
      player_check: boolean
      id: number
      title: string
      detail_title: string
      detail_description: string
      logo: string
      created: string
      is_auth_required: boolean
      discount_percent: number
      is_active: boolean
      product_preview_name: string
      product_preview_icon: string
      tags: string[]
      resourcetype: 'SupplyGame'
      delivery_minutes?: number | null
    }
