import type { ApiApp } from '../context'

export function registerSocial(_app: ApiApp) {}
