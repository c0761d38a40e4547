// The catalogue's edit forms (games, products, FAQ, gifts), shared by the create and edit screens.
import { AdminForm, Check, Field, Submit } from '#app/components/admin/admin-form'
import { useT } from '#app/i18n/i18n-context'
import { formSpec } from '#app/lib/admin/form-body'
import type { components } from '#openapi/schema'

type Game = components['schemas']['AdminGame']
type Product = components['schemas']['AdminProduct']
type Faq = components['schemas']['AdminFaq']
type Gift = components['schemas']['AdminGift']

/**
 * Who delivers: a person or MooGold; the sandbox only shows for a game that already says so (the
 * API refuses it where sandbox payments are off, decision 042).
 */
const supplierOptions = (current: string) =>
  current === 'sandbox' ? ['manual', 'moogold', 'sandbox'] : ['manual', 'moogold']

export function GameForm({ game }: { game: Game }) {
  const t = useT()
  return (
    <AdminForm formKey="game" intent="game" label={t('admin.games.edit', { title: game.title })}>
      <div className="admin-form--row">
        <Field name="title" label={t('admin.games.title_field')} defaultValue={game.title} />
        <Field name="detail_title" label={t('admin.games.detail_title')} defaultValue={game.detail_title} />
        <Field
          name="product_preview_name"
          label={t('admin.games.product_preview_name')}
          defaultValue={game.product_preview_name}
        />
        <Field
          name="discount_percent"
          type="number"
          label={t('admin.games.discount_percent')}
          defaultValue={game.discount_percent}
        />
        <Field
          name="sort_order"
          type="number"
          label={t('admin.games.sort_order')}
          defaultValue={game.sort_order}
        />
        <Field name="tags" label={t('admin.games.tags')} defaultValue={game.tags.join(', ')} />
        <Field
          name="supplier"
          type="select"
          label={t('admin.game_delivery.supplier')}
          hint={t('admin.game_delivery.supplier_hint')}
          defaultValue={game.supplier}
          options={supplierOptions(game.supplier).map((s) => ({
            value: s,
            label: t(`admin.game_delivery.suppliers.${s}`),
          }))}
        />
        <Field
          name="delivery_minutes"
          type="number"
          label={t('admin.game_delivery.minutes')}
          hint={t('admin.game_delivery.minutes_hint')}
          defaultValue={game.delivery_minutes}
        />
        <Field
          name="auto_refund_hours"
          type="number"
          label={t('admin.game_delivery.auto_refund')}
          hint={t('admin.game_delivery.auto_refund_hint')}
          defaultValue={game.auto_refund_hours ?? ''}
        />
        <div className="admin-form__wide">
          <Field
            name="logo"
            label={t('admin.games.logo')}
            hint={t('admin.games.logo_hint')}
            defaultValue={game.logo}
          />
        </div>
        <div className="admin-form__wide">
          <Field
            name="detail_description"
            type="textarea"
            rows={6}
            label={t('admin.games.detail_description')}
            defaultValue={game.detail_description}
          />
        </div>
        <Check name="is_active" label={t('admin.games.is_active')} defaultChecked={game.is_active} />
        <Check
          name="is_auth_required"
          label={t('admin.games.is_auth_required')}
          defaultChecked={game.is_auth_required}
        />
      </div>
      <Submit>{t('admin.common.save')}</Submit>
    </AdminForm>
  )
}

export const GAME_SPEC = formSpec('patch', '/api/admin/games/{id}/', {
  title: 'text',
  detail_title: 'text',
  detail_description: 'text',
  logo: 'text',
  is_active: 'bool',
  is_auth_required: 'bool',
  discount_percent: 'int',
  product_preview_name: 'text',
  tags: 'tags',
  sort_order: 'int',
  supplier: 'optText',
  delivery_minutes: 'int',
  auto_refund_hours: 'nullableInt',
})

export const PRODUCT_SPEC = formSpec('post', '/api/admin/games/{id}/products/', {
  title: 'text',
  price: 'money',
  discount_price: 'nullableMoney',
  min_quantity: 'int',
  max_quantity: 'int',
  is_active: 'bool',
  amount_uc: 'nullableInt',
  gold: 'nullableInt',
  sort_order: 'int',
})

/** A product's form; without `product` it adds one (`kind` decides the extra fields). */
export function ProductForm({
  product,
  kind,
  formKey,
}: {
  product?: Product
  kind: string
  formKey: string
}) {
  const t = useT()
  const p = product
  return (
    <AdminForm
      formKey={formKey}
      intent={p ? 'product' : 'product_create'}
      label={p ? `${t('admin.common.edit')}: ${p.title}` : t('admin.products.add')}
      hidden={p ? { id: p.id } : undefined}
      className="admin-form admin-form--row"
    >
      <Field name="title" label={t('admin.products.title_field')} defaultValue={p?.title} />
      <Field
        name="price"
        type="number"
        inputMode="decimal"
        label={t('admin.products.price')}
        defaultValue={p?.price}
      />
      <Field
        name="discount_price"
        type="number"
        inputMode="decimal"
        label={t('admin.products.discount_price')}
        hint={t('admin.products.discount_hint')}
        defaultValue={p?.discount_price}
      />
      <Field
        name="min_quantity"
        type="number"
        label={t('admin.products.min_quantity')}
        defaultValue={p?.min_quantity ?? 1}
      />
      <Field
        name="max_quantity"
        type="number"
        label={t('admin.products.max_quantity')}
        defaultValue={p?.max_quantity ?? 10}
      />
      <Field
        name="sort_order"
        type="number"
        label={t('admin.products.sort_order')}
        defaultValue={p?.sort_order ?? 0}
      />
      {kind === 'PUBGGame' ? (
        <Field
          name="amount_uc"
          type="number"
          label={t('admin.products.amount_uc')}
          defaultValue={p?.amount_uc}
        />
      ) : null}
      {kind === 'StandoffGame' ? (
        <Field name="gold" type="number" label={t('admin.products.gold')} defaultValue={p?.gold} />
      ) : null}
      <Check name="is_active" label={t('admin.products.is_active')} defaultChecked={p?.is_active ?? true} />
      <div className="admin-form__wide">
        <Submit>{p ? t('admin.common.save') : t('admin.common.add')}</Submit>
      </div>
    </AdminForm>
  )
}

export const FAQ_SPEC = formSpec('post', '/api/admin/games/{id}/faq/', {
  text: 'text',
  answer: 'text',
  order: 'int',
})

export function FaqForm({ item, formKey }: { item?: Faq; formKey: string }) {
  const t = useT()
  return (
    <AdminForm
      formKey={formKey}
      intent={item ? 'faq' : 'faq_create'}
      label={item ? `${t('admin.common.edit')}: ${item.text}` : t('admin.faq.add')}
      hidden={item ? { id: item.id } : undefined}
    >
      <Field name="text" label={t('admin.faq.question')} defaultValue={item?.text} />
      <Field
        name="answer"
        type="textarea"
        rows={3}
        label={t('admin.faq.answer')}
        defaultValue={item?.answer}
      />
      <Field name="order" type="number" label={t('admin.faq.order')} defaultValue={item?.order ?? 0} />
      <Submit>{item ? t('admin.common.save') : t('admin.common.add')}</Submit>
    </AdminForm>
  )
}

export const GIFT_SPEC = formSpec('post', '/api/admin/gifts/', {
  title: 'text',
  type: 'text',
  region: 'text',
  price: 'money',
  discount_price: 'nullableMoney',
  cashback: 'int',
  logo: 'text',
  description: 'text',
  tags: 'tags',
  is_main: 'bool',
  is_new: 'bool',
  is_active: 'bool',
})

export function GiftForm({ gift, formKey }: { gift?: Gift; formKey: string }) {
  const t = useT()
  const g = gift
  return (
    <AdminForm
      formKey={formKey}
      intent={g ? 'gift' : 'create'}
      label={g ? t('admin.gifts.edit', { title: g.title }) : t('admin.gifts.add')}
      className="admin-form admin-form--row"
    >
      <Field name="title" label={t('admin.gifts.title_field')} defaultValue={g?.title} />
      <Field name="type" label={t('admin.gifts.type')} defaultValue={g?.type} />
      <Field name="region" label={t('admin.gifts.region')} defaultValue={g?.region} />
      <Field
        name="price"
        type="number"
        inputMode="decimal"
        label={t('admin.gifts.price')}
        defaultValue={g?.price}
      />
      <Field
        name="discount_price"
        type="number"
        inputMode="decimal"
        label={t('admin.gifts.discount_price')}
        hint={t('admin.products.discount_hint')}
        defaultValue={g?.discount_price}
      />
      <Field
        name="cashback"
        type="number"
        label={t('admin.gifts.cashback')}
        defaultValue={g?.cashback ?? 0}
      />
      <Field name="tags" label={t('admin.gifts.tags')} defaultValue={g?.tags.join(', ')} />
      <div className="admin-form__wide">
        <Field
          name="logo"
          label={t('admin.gifts.logo')}
          hint={t('admin.games.logo_hint')}
          defaultValue={g?.logo}
        />
      </div>
      <div className="admin-form__wide">
        <Field
          name="description"
          type="textarea"
          rows={5}
          label={t('admin.gifts.description')}
          defaultValue={g?.description}
        />
      </div>
      <Check name="is_active" label={t('admin.gifts.is_active')} defaultChecked={g?.is_active ?? false} />
      <Check name="is_main" label={t('admin.gifts.is_main')} defaultChecked={g?.is_main ?? false} />
      <Check name="is_new" label={t('admin.gifts.is_new')} defaultChecked={g?.is_new ?? true} />
      <div className="admin-form__wide">
        <Submit>{g ? t('admin.common.save') : t('admin.common.add')}</Submit>
      </div>
    </AdminForm>
  )
}
