// Telegram's login page returns with the signed payload in the URL fragment (#tgAuthResult=…),
// which never reaches the server. This moves it into the query and reloads the return route.
;(() => {
  const m = /tgAuthResult=([^&]+)/.exec(window.location.hash)
  const url = new URL(window.location.href)
  url.hash = ''
  if (m) url.searchParams.set('tgAuthResult', decodeURIComponent(m[1]))
  else url.searchParams.set('error', 'no_payload')
  window.location.replace(url.toString())
})()
