import { describe, expect, it } from 'vitest'
import { tooltipSettings } from '#app/lib/tooltip'

const sanitizeTooltip = (input: string) => tooltipSettings(input, 'top', { html: true }).content

describe('tooltip settings (§9)', () => {
  it('uses the defaults: top, offset [0,10], maxWidth 350, zIndex 9999, mouseenter and focus, bd theme', () => {
    expect(tooltipSettings('Комиссия 5%')).toEqual({
      content: 'Комиссия 5%',
      allowHTML: false,
      placement: 'top',
      offset: [0, 10],
      maxWidth: 350,
      zIndex: 9999,
      trigger: 'mouseenter focus',
      theme: 'bd-tooltip-theme',
    })
  })

  it('takes the placement from the argument', () => {
    expect(tooltipSettings('x', 'bottom-start').placement).toBe('bottom-start')
  })

  it('treats content as text unless the html modifier is given, and then sanitizes it', () => {
    const content = '<b>Жирный</b><img src=x onerror=alert(1)>'
    const text = tooltipSettings(content)
    expect(text.allowHTML).toBe(false)
    expect(text.content).toBe(content) // tippy renders it as textContent
    const html = tooltipSettings(content, 'top', { html: true })
    expect(html.allowHTML).toBe(true)
    expect(html.content).toBe('<b>Жирный</b>')
  })
})

describe('HTML tooltips go through the shop’s one sanitizer (links open in a new tab)', () => {
  const cases: Array<[string, string]> = [
    ['<strong>5%</strong> комиссия', '<strong>5%</strong> комиссия'],
    ['<script>alert(1)</script>ok', 'ok'],
    ['<SCRIPT src=//evil></SCRIPT>ok', 'ok'],
    ['<style>*{}</style><p>t</p>', '<p>t</p>'],
    ['<img src=x onerror="alert(1)">', ''],
    ['<b onclick="alert(1)" style="x">b</b>', '<b>b</b>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#115;cript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JAVASCRIPT:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="//evil.example/">x</a>', '<a>x</a>'],
    [
      '<a href="https://shop.example/a?b=1">x</a>',
      '<a href="https://shop.example/a?b=1" rel="noopener noreferrer" target="_blank">x</a>',
    ],
    [
      '<a href="/info/contacts" onmouseover=alert(1)>x</a>',
      '<a href="/info/contacts" rel="noopener noreferrer" target="_blank">x</a>',
    ],
    ['1 < 2 && 3 > 2', '1 &lt; 2 &amp;&amp; 3 &gt; 2'],
    ['&amp; &#8381; &nbsp;', '&amp; &#8381; &nbsp;'],
    ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
    ['<!-- <img src=x onerror=alert(1)> -->text', 'text'],
    ['<svg><script>alert(1)</script></svg>x', 'x'],
    ['<iframe srcdoc="<script>alert(1)</script>"></iframe>x', 'x'],
    ['a<br>b<br/>c', 'a<br>b<br>c'],
    ['"quoted"', '"quoted"'],
    ['a <b', 'a '], // the input ends inside a tag: dropped, as the browser does
    ['<h2>Как оплатить</h2><code>ABC-123</code>', '<h2>Как оплатить</h2><code>ABC-123</code>'],
    [
      '<a href="tel:+78005553535">звонок</a>',
      '<a href="tel:+78005553535" rel="noopener noreferrer" target="_blank">звонок</a>',
    ],
  ]
  it.each(cases)('%s → %s', (input, expected) => {
    expect(sanitizeTooltip(input)).toBe(expected)
  })

  it('never lets a tag with an event handler or a script element through', () => {
    const nasty = [
      '<img/src=x/onerror=alert(1)>',
      '<div onpointerenter=alert(1)>x</div>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      '<a href=javascript:alert(1)>x</a>',
      '<<script>script>alert(1)<</script>/script>',
      '<p title="</p><script>alert(1)</script>">t</p>',
    ]
    for (const input of nasty) {
      const out = sanitizeTooltip(input)
      expect(out).not.toMatch(/<script|<img|<div|<math|\son\w+=|javascript:/i)
    }
  })
})
