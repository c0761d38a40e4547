// Shared by the storefront, the API and the process layer (imports nothing, so any layer may use it).

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** This machine by name or loopback address: where plain http is allowed (dev, the demo, tests). */
export function isLocalHost(url: URL): boolean {
  return LOCAL_HOSTS.has(url.hostname)
}
