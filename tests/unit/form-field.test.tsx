import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ErrorList, Field, fieldAria } from '#app/components/form/field'

describe('the form kit', () => {
  it('ties the hint and the error to the control, and flags it only with an error', () => {
    expect(fieldAria('f', undefined, undefined)).toEqual({
      id: 'f',
      'aria-invalid': undefined,
      'aria-describedby': undefined,
    })
    expect(fieldAria('f', 'hint', undefined)).toEqual({
      id: 'f',
      'aria-invalid': undefined,
      'aria-describedby': 'f-hint',
    })
    expect(fieldAria('f', 'hint', 'bad')).toEqual({
      id: 'f',
      'aria-invalid': true,
      'aria-describedby': 'f-hint f-error',
    })
  })

  it('renders a labelled input with its hint and error, and a custom control', () => {
    const html = renderToStaticMarkup(
      <Field
        id="pd-email"
        label="Почта"
        hint="Та, что в заказе"
        error="Неверный адрес"
        name="email"
        type="email"
      />,
    )
    expect(html).toContain('<label for="pd-email">Почта</label>')
    expect(html).toContain('name="email"')
    expect(html).toContain('aria-invalid="true"')
    expect(html).toContain('aria-describedby="pd-email-hint pd-email-error"')
    expect(html).toContain('<span class="field__error" id="pd-email-error">Неверный адрес</span>')
    const select = renderToStaticMarkup(
      <Field id="s" label="Статус" error="Нет" announce className="admin-filters__wide">
        {(control) => <select {...control} name="status" />}
      </Field>,
    )
    expect(select).toContain('<div class="field admin-filters__wide">')
    expect(select).toContain('<select id="s" aria-invalid="true" aria-describedby="s-error" name="status">')
    expect(select).toContain('<p class="field__error" id="s-error" role="alert">Нет</p>')
  })

  it('lists a form’s own errors, and nothing without one', () => {
    expect(renderToStaticMarkup(<ErrorList errors={undefined} />)).toBe('')
    expect(renderToStaticMarkup(<ErrorList errors={['', undefined]} />)).toBe('')
    expect(renderToStaticMarkup(<ErrorList errors="Ошибка" />)).toBe(
      '<p class="form-error" role="alert">Ошибка</p>',
    )
    expect(renderToStaticMarkup(<ErrorList errors={['Раз', 'Два']} />)).toBe(
      '<p class="form-error" role="alert">Раз<br/>Два</p>',
    )
  })
})
