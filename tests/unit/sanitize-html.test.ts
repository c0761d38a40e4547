import { describe, expect, it } from 'vitest'
import { DEMO_ARTICLES } from '#api/demo/articles'
import { htmlToText, safeHref, sanitizeHtml } from '#app/lib/sanitize-html'

describe('sanitizeHtml keeps the allowed markup', () => {
  it('passes the allowed tags through unchanged', () => {
    const html =
      '<h2>Заголовок</h2><p>Текст <strong>жирный</strong> и <em>курсив</em><br>строка</p>' +
      '<h3>Список</h3><ul><li>один</li></ul><ol><li>два</li></ol>'
    expect(sanitizeHtml(html)).toBe(html)
  })

  it('keeps http(s), mailto and relative links and adds rel="noopener"', () => {
    expect(sanitizeHtml('<a href="https://example.com/a?b=1&amp;c=2">x</a>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener">x</a>',
    )
    expect(sanitizeHtml('<a href="mailto:help@example.com">m</a>')).toBe(
      '<a href="mailto:help@example.com" rel="noopener">m</a>',
    )
    expect(sanitizeHtml("<a href='/info/contacts' target=_blank>c</a>")).toBe(
      '<a href="/info/contacts" rel="noopener">c</a>',
    )
    expect(sanitizeHtml('<A HREF="#top">t</A>')).toBe('<a href="#top" rel="noopener">t</a>')
  })

  it('keeps text and character references, escaping stray < > &', () => {
    expect(sanitizeHtml('<p>1 < 2 & 3 > 2 &laquo;ок&raquo; &lt;b&gt;</p>')).toBe(
      '<p>1 &lt; 2 &amp; 3 &gt; 2 &laquo;ок&raquo; &lt;b&gt;</p>',
    )
  })

  it('unwraps tags that are not allowed but keeps their text; allowed tags lose their attributes', () => {
    expect(
      sanitizeHtml('<div><span class="x">текст</span></div><table><tr><td>ячейка</td></tr></table>'),
    ).toBe('<span>текст</span>ячейка')
  })

  it('has one allow-list for articles and tooltips: inline formatting and code too', () => {
    const html = '<p><b>b</b> <i>i</i> <u>u</u> <s>s</s> <small>m</small> <code>ABC-123</code></p>'
    expect(sanitizeHtml(html)).toBe(html)
    expect(sanitizeHtml(html, { newTab: true })).toBe(html)
  })

  it('opens links in a new tab when asked (tooltips), with noreferrer', () => {
    expect(sanitizeHtml('<a href="/info/faq" target="_self">f</a>', { newTab: true })).toBe(
      '<a href="/info/faq" rel="noopener noreferrer" target="_blank">f</a>',
    )
    expect(sanitizeHtml('<a href="tel:+78005553535">t</a>')).toBe(
      '<a href="tel:+78005553535" rel="noopener">t</a>',
    )
  })

  it('balances tags: closes what is left open and ignores stray end tags', () => {
    expect(sanitizeHtml('<p><strong>жирный</p></em>конец')).toBe('<p><strong>жирный</strong></p>конец')
    expect(sanitizeHtml('<ul><li>a<li>b')).toBe('<ul><li>a<li>b</li></li></ul>')
  })

  it('leaves the seeded articles intact', () => {
    for (const a of DEMO_ARTICLES)
      expect(sanitizeHtml(a.text)).toBe(a.text.replace(/">/g, '" rel="noopener">'))
  })
})

describe('sanitizeHtml removes XSS payloads', () => {
  const payloads: Array<[string, string]> = [
    ['<script>alert(1)</script><p>ok</p>', '<p>ok</p>'],
    ['<SCRIPT SRC=//evil.example/x.js></SCRIPT>', ''],
    ['<img src=x onerror=alert(1)>', ''],
    ['<p onclick="alert(1)" style="color:red">x</p>', '<p>x</p>'],
    ['<svg onload=alert(1)><circle/></svg>', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<iframe src="javascript:alert(1)"></iframe>', ''],
    ['<style>p{background:url(javascript:alert(1))}</style>x', 'x'],
    ['<!--<script>alert(1)</script>-->x', 'x'],
    // the broken-up tag is left as harmless text
    ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
    ['<<script>alert(1)//<</script>', '&lt;'],
    ['<math><mi><mglyph><style><img src=x onerror=alert(1)>', ''],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', '"&gt;'],
    ['<a href="x" onmouseover="alert(1)">t</a>', '<a href="x" rel="noopener">t</a>'],
    ['<p title="a>b" onclick=alert(1)>t</p>', '<p>t</p>'],
    ['<form action="https://evil.example"><input name=a></form>', ''],
    ['<object data="x.swf"></object><embed src=x.swf>', ''],
    ['<base href="https://evil.example/">', ''],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['<a href="x', ''],
    ['<template><img src=x onerror=alert(1)></template>ok', 'ok'],
    ['<a href="//evil.example/">x</a>', '<a>x</a>'],
  ]
  it.each(payloads)('%s', (input, expected) => {
    const out = sanitizeHtml(input)
    expect(out).toBe(expected)
    expect(out).not.toMatch(/<(?!\/?(p|h2|h3|ul|ol|li|strong|em|b|i|u|s|small|span|code|a|br)[\s>])/i)
    expect(out).not.toMatch(/\son\w+=/i)
  })

  const badLinks = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java&#x09;script:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    '&#0000106avascript:alert(1)',
    'javascript&colon;alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    '//evil.example/x',
  ]
  it.each(badLinks)('drops the href %j', (href) => {
    const quoted = href.replace(/"/g, '&quot;')
    expect(sanitizeHtml(`<a href="${quoted}">x</a>`)).toBe('<a>x</a>')
    expect(safeHref(href)).toBeNull()
  })

  it('writes a link back so that the browser reads exactly the checked URL', () => {
    expect(sanitizeHtml('<a href="/a&quot;onclick=&quot;x">t</a>')).toBe(
      '<a href="/a&quot;onclick=&quot;x" rel="noopener">t</a>',
    )
    expect(safeHref('https://ex.example/?q=<b>')).toBe('https://ex.example/?q=<b>')
    expect(sanitizeHtml('<a href="https://ex.example/?q=<b>">t</a>')).toContain('?q=&lt;b&gt;"')
  })
})

describe('htmlToText: owner-written HTML where no markup may go (issue 37)', () => {
  it('reads the text a reader sees: tags become spaces, entities decoded, scripts dropped', () => {
    expect(
      htmlToText('<p>Коды приходят <strong>сразу</strong>&nbsp;после оплаты.</p><p>Второй&amp;абзац</p>'),
    ).toBe('Коды приходят сразу после оплаты. Второй&абзац')
    expect(htmlToText('<script>alert(1)</script>текст')).toBe('текст')
    expect(htmlToText('a &lt;b&gt; c')).toBe('a <b> c')
  })
})
