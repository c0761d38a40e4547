// Demo countries, payment method groups and sandbox payment methods.
import type { Tx } from '../db/types'
import { countries, paymentMethodGroups, paymentMethods } from '../db/schema'

import type { ScenarioType } from '../providers/types'

export { SCENARIO_TYPES } from '../providers/types'

interface DemoMethod {
  name: string
  title: string
  scenario: ScenarioType
  icon: string
  fee?: number // basis points
  fixFee?: number // kopecks
  minAmount?: number // kopecks of the order total (roubles)
  isActive?: boolean
  isSecondary?: boolean
  requiredFields?: string[]
  canRetrievePaymentData?: boolean
}

interface DemoGroup {
  name: string
  shortName: string
  methods: DemoMethod[]
}

interface DemoCountry {
  name: string
  flag: string
  currency: string
  /** units of `currency` per rouble, times 1e6 */
  rateMicro: number
  isDefault?: boolean
  groups: DemoGroup[]
}

export const DEMO_COUNTRIES: DemoCountry[] = [
  {
    name: 'Россия',
    flag: '/images/flags/ru.svg',
    currency: 'RUB',
    rateMicro: 1_000_000,
    isDefault: true,
    groups: [
      {
        name: 'Банковские карты',
        shortName: 'Карты',
        methods: [
          {
            name: 'sandbox-card',
            title: 'Банковская карта',
            scenario: 'redirect',
            icon: '/images/payment/card.svg',
            fee: 300,
            minAmount: 1000,
          },
          {
            name: 'sandbox-card-form',
            title: 'Карта через форму банка',
            scenario: 'form',
            icon: '/images/payment/card-form.svg',
            fee: 350,
            minAmount: 5000,
            isSecondary: true,
          },
          {
            name: 'sandbox-p2p',
            title: 'Перевод с карты на карту',
            scenario: 'p2p',
            icon: '/images/payment/p2p.svg',
            fee: 0,
            fixFee: 3000,
            minAmount: 30000,
            canRetrievePaymentData: true,
          },
        ],
      },
      {
        name: 'Система быстрых платежей',
        shortName: 'СБП',
        methods: [
          {
            name: 'sandbox-sbp',
            title: 'СБП по QR-коду',
            scenario: 'qr',
            icon: '/images/payment/sbp.svg',
            fee: 150,
            minAmount: 1000,
            canRetrievePaymentData: true,
          },
          {
            name: 'sandbox-sbp-invoice',
            title: 'СБП — счёт в приложении банка',
            scenario: 'invoice_qr',
            icon: '/images/payment/qr.svg',
            fee: 150,
            minAmount: 1000,
            canRetrievePaymentData: true,
          },
        ],
      },
      {
        name: 'Электронные кошельки',
        shortName: 'Кошельки',
        methods: [
          {
            name: 'sandbox-wallet',
            title: 'Электронный кошелёк',
            scenario: 'p2p_redirect',
            icon: '/images/payment/wallet.svg',
            fee: 450,
            minAmount: 10000,
          },
          {
            name: 'sandbox-mobile',
            title: 'Баланс мобильного телефона',
            scenario: 'external',
            icon: '/images/payment/phone.svg',
            fee: 700,
            minAmount: 10000,
            requiredFields: ['phone'],
          },
        ],
      },
      {
        name: 'Криптовалюта',
        shortName: 'Крипто',
        methods: [
          {
            name: 'sandbox-crypto',
            title: 'USDT (TRC-20)',
            scenario: 'wait_order_state',
            icon: '/images/payment/crypto.svg',
            fee: 200,
            fixFee: 5000,
            minAmount: 50000,
            requiredFields: ['email'],
          },
          {
            name: 'sandbox-bitcoin',
            title: 'Bitcoin',
            scenario: 'redirect',
            icon: '/images/payment/bitcoin.svg',
            fee: 200,
            minAmount: 100000,
            isActive: false,
          },
        ],
      },
    ],
  },
  {
    name: 'Казахстан',
    flag: '/images/flags/kz.svg',
    currency: 'KZT',
    rateMicro: 5_600_000,
    groups: [
      {
        name: 'Банковские карты',
        shortName: 'Карты',
        methods: [
          {
            name: 'sandbox-card-kz',
            title: 'Карта банка Казахстана',
            scenario: 'redirect',
            icon: '/images/payment/card.svg',
            fee: 350,
            minAmount: 5000,
          },
        ],
      },
      {
        name: 'Оплата по QR',
        shortName: 'QR',
        methods: [
          {
            name: 'sandbox-qr-kz',
            title: 'QR-код мобильного банка',
            scenario: 'qr',
            icon: '/images/payment/qr.svg',
            fee: 250,
            minAmount: 5000,
            canRetrievePaymentData: true,
          },
        ],
      },
    ],
  },
  {
    name: 'Беларусь',
    flag: '/images/flags/by.svg',
    currency: 'BYN',
    rateMicro: 35_000,
    groups: [
      {
        name: 'Банковские карты',
        shortName: 'Карты',
        methods: [
          {
            name: 'sandbox-card-by',
            title: 'Карта белорусского банка',
            scenario: 'redirect',
            icon: '/images/payment/card.svg',
            fee: 400,
            minAmount: 10000,
          },
        ],
      },
      {
        name: 'Расчёт',
        shortName: 'Расчёт',
        methods: [
          {
            name: 'sandbox-erip',
            title: 'Система «Расчёт»',
            scenario: 'external',
            icon: '/images/payment/erip.svg',
            fee: 300,
            minAmount: 10000,
          },
        ],
      },
    ],
  },
]

export async function seedPayments(tx: Tx): Promise<void> {
  for (const [i, c] of DEMO_COUNTRIES.entries()) {
    const [country] = await tx
      .insert(countries)
      .values({
        name: c.name,
        flag: c.flag,
        currency: c.currency,
        rateMicro: c.rateMicro,
        isDefault: c.isDefault ?? false,
        sortOrder: (i + 1) * 10,
      })
      .returning({ id: countries.id })
    for (const [j, g] of c.groups.entries()) {
      const [group] = await tx
        .insert(paymentMethodGroups)
        .values({ countryId: country!.id, name: g.name, shortName: g.shortName, order: j + 1 })
        .returning({ id: paymentMethodGroups.id })
      await tx.insert(paymentMethods).values(
        g.methods.map((m) => ({
          groupId: group!.id,
          name: m.name,
          title: m.title,
          uri: `/api/payments/${m.name}/`,
          fee: m.fee ?? 0,
          fixFee: m.fixFee ?? 0,
          icon: m.icon,
          isActive: m.isActive ?? true,
          minAmount: m.minAmount ?? 0,
          isSecondary: m.isSecondary ?? false,
          currencies: [c.currency],
          requiredFields: m.requiredFields ?? [],
          canRetrievePaymentData: m.canRetrievePaymentData ?? false,
          provider: 'sandbox',
          scenario: m.scenario,
        })),
      )
    }
  }
}
