// openapi-fetch's body serializer for the contract's multipart uploads: the body is typed by the
// operation (a file part is a Blob, see scripts/openapi-files.ts) and sent as form parts.

/**
 * The typed body as multipart form data. An empty file (a form posted with none chosen) is left
 * out, as is an absent part, so the API answers for a missing file as it would to the browser.
 */
export function multipart(body: Record<string, string | Blob | undefined>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') form.set(name, value)
    else if (value && value.size > 0)
      form.set(name, value, value instanceof File && value.name ? value.name : name)
  }
  return form
}

/** A posted file part, or an empty Blob when none was chosen (`multipart` leaves it out). */
export function postedFile(form: FormData, name: string): Blob {
  const file = form.get(name)
  return file instanceof Blob ? file : new Blob([])
}
