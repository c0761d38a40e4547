import type { ApiApp } from '../context'

export function registerCatalogue(_app: ApiApp) {}
