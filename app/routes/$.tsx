import type { LoaderFunctionArgs } from '@remix-run/node'
import { pageNotFound } from '#app/lib/http-errors.server'

export async function loader({ request }: LoaderFunctionArgs) {
  pageNotFound(request)
}

export async function action({ request }: LoaderFunctionArgs) {
  pageNotFound(request)
}

export default function NotFound() {
  return null
}
